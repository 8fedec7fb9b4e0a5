//! The schedule of a finished run as data, for the schedule view (Gantt),
//! its time series, the job inspector, the per-job comparison of two runs
//! and the replay: everything the page draws is computed here, once, from
//! the trace and the run record alone (no I/O, no clock).
//!
//! [`ScheduleView::new`] lays the run out and builds its indexes; every
//! query then costs what it returns, not what the run holds:
//!
//! - [`ScheduleView::window`]: the runs meeting a time window, with their
//!   processor bands and class (an interval index, [`index`]);
//! - [`ScheduleView::utilisation`], [`ScheduleView::series`]: per time
//!   bucket (a pixel column), from running integrals ([`series`]);
//! - [`ScheduleView::inspect`]: one job's story, its reservations (an index
//!   into the run record's reservation log), preemptions and culprits;
//! - [`ScheduleView::replay`]: the machine and the queue at an instant;
//! - [`compare::scatter`], [`compare::select`]: per-job measures of two
//!   runs of the same trace, and the jobs inside a rectangle of that plane.
//!
//! [`WindowSchedule`] computes what a drawing of one window needs without
//! the view, keeping only that window's runs: the command line's `--gantt`.
//!
//! [`write_batsim_jobs`] writes a run as Batsim's `jobs.csv`, its
//! `allocated_resources` from the same processor layout.
//!
//! The processor layout is a presentation choice ([`layout`]): processors
//! are interchangeable in the model.

mod batsim;
pub mod compare;
pub mod index;
mod inspect;
pub mod layout;
mod node_rows;
mod replay;
mod runs;
pub mod series;
mod window;
mod window_schedule;

use schedlab_engine::{JobIdx, RunRecord, Time};
use schedlab_metrics::{fairness_audit, DelayedJob};
use schedlab_workload::{Cluster, Job};
use serde::Serialize;
use thiserror::Error;

pub use batsim::{write_batsim_jobs, BATSIM_JOBS_COLUMNS};
pub use compare::{scatter, select, Measure, Scatter, ScatterRect, Selection, SIZE_CLASSES};
pub use index::IntervalIndex;
pub use inspect::{Culprits, JobDetails, Preempted, ReservationHeld};
pub use layout::{Band, Layout};
pub use node_rows::NodeRows;
pub use replay::{HeadReservation, QueuedJob, ReplayState};
pub use runs::{run_of, Run, RunId};
pub use series::{Grid, SeriesData, MAX_BUCKETS};
pub use window::{parse_window, WindowError};
pub use window_schedule::{run_span, WindowSchedule};

use inspect::ReservationIndex;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ScheduleError {
    #[error(
        "the run holds more processors than the machine has when job {job} starts at t={time}: it was not checked"
    )]
    Overcommitted { time: Time, job: u64 },
    #[error("the time window {from}..{to} is empty: its end must come after its start")]
    EmptyWindow { from: Time, to: Time },
    #[error("{buckets} time buckets: ask for 1 to {MAX_BUCKETS}")]
    Buckets { buckets: u32 },
    #[error("job index {job}: the trace has {jobs} jobs")]
    NoSuchJob { job: u64, jobs: usize },
    #[error("the two runs are not of the same trace ({a} and {b} jobs)")]
    DifferentTraces { a: usize, b: usize },
    #[error("the run was on a machine of nodes: its schedule needs that machine")]
    MachineMissing,
    #[error("the run has no placements on the machine of nodes it is drawn on: it ran on processors")]
    PlacementsMissing,
}

/// How a job started, for its colour.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobClass {
    /// Started as the first waiting job (or with nobody of higher priority waiting).
    InOrder,
    /// Started while a job of higher priority waited.
    Backfilled,
    /// Backfilled and predicted to end after the reservation of the first
    /// waiting job (`JobRecord::ventured`).
    Ventured,
}

/// How the job of `rec` started.
fn class_of(rec: &schedlab_engine::JobRecord) -> JobClass {
    match (rec.backfilled, rec.ventured) {
        (true, true) => JobClass::Ventured,
        (true, false) => JobClass::Backfilled,
        _ => JobClass::InOrder,
    }
}

/// One run of a job as the schedule view draws it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobRect {
    /// The job's index (priority order), what every query takes.
    pub job: JobIdx,
    /// The job's number in the trace.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: u64,
    pub start: Time,
    pub end: Time,
    pub class: JobClass,
    /// This run ended in a preemption (the job ran again later).
    pub preempted: bool,
    /// Wall seconds of this run whose work did not survive the preemption
    /// (the whole run when a killed job restarts from scratch; 0 for a run
    /// that completed).
    pub lost: Time,
    /// The processors it is drawn on.
    pub bands: Vec<Band>,
}

/// The runs meeting a window, in start order.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WindowJobs {
    pub rects: Vec<JobRect>,
    /// False when more runs met the window than the limit asked for: the
    /// page should draw the window from buckets instead.
    pub complete: bool,
}

/// A job as a link: its index and its number in the trace.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JobRef {
    pub job: JobIdx,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: u64,
}

impl JobRef {
    pub fn new(jobs: &[Job], job: JobIdx) -> JobRef {
        JobRef { job, id: jobs[job as usize].id }
    }
}

/// A laid-out, indexed run. Every query takes the trace the run was made
/// from (the caller keeps it; the view keeps only the record and indexes).
#[derive(Clone, Debug)]
pub struct ScheduleView {
    record: RunRecord,
    /// The bounded-slowdown threshold of the inspector's figures.
    tau: Time,
    layout: Layout,
    /// On a machine of nodes, which rows each node owns.
    node_rows: Option<NodeRows>,
    /// Runs in start order.
    runs: IntervalIndex,
    /// Waits in priority order.
    waits: IntervalIndex,
    series: series::Series,
    /// Job indices sorted by job number, for a search by number.
    by_id: Vec<JobIdx>,
    /// Preempted segments sorted by job, then start.
    segments_by_job: Vec<u32>,
    /// Per preempted segment, the wall seconds whose work was lost.
    lost: Vec<Time>,
    delayed: Vec<DelayedJob>,
    /// `(culprit, delayed job)` sorted: whom each job delayed.
    delayed_by: Vec<(JobIdx, JobIdx)>,
    reservations: ReservationIndex,
}

impl ScheduleView {
    /// Lays out and indexes a run of `jobs`, by node on `cluster` when it
    /// ran on a machine of nodes; `tau` is the bounded-slowdown threshold
    /// of the run's metrics.
    pub fn new(
        jobs: &[Job],
        cluster: Option<&Cluster>,
        record: RunRecord,
        tau: Time,
    ) -> Result<ScheduleView, ScheduleError> {
        let layout = Layout::new(jobs, cluster, &record)?;
        let mut by_start: Vec<(Time, Time, u32)> = (0..runs::run_count(&record) as RunId)
            .map(|r| {
                let run = run_of(&record, r);
                (run.start, run.end, r)
            })
            .collect();
        by_start.sort_unstable_by_key(|&(start, _, r)| (start, run_of(&record, r).job, r));
        let mut by_id: Vec<JobIdx> = (0..jobs.len() as JobIdx).collect();
        by_id.sort_unstable_by_key(|&j| (jobs[j as usize].id, j));
        let mut segments_by_job: Vec<u32> = (0..record.segments.len() as u32).collect();
        segments_by_job.sort_unstable_by_key(|&s| (record.segments[s as usize].job, record.segments[s as usize].start));
        let lost = inspect::lost_work(jobs, &record, &segments_by_job);
        let audit = fairness_audit(jobs, &record);
        let mut delayed_by: Vec<(JobIdx, JobIdx)> =
            audit.delayed.iter().flat_map(|d| d.culprits.iter().map(move |&c| (c, d.job))).collect();
        delayed_by.sort_unstable();
        Ok(ScheduleView {
            runs: IntervalIndex::new(&by_start),
            waits: IntervalIndex::new(&series::waits(jobs, &record)),
            series: series::Series::new(jobs, &record),
            reservations: ReservationIndex::new(&record),
            layout,
            node_rows: cluster.map(|c| NodeRows::new(&c.machine)),
            tau,
            by_id,
            segments_by_job,
            lost,
            delayed: audit.delayed,
            delayed_by,
            record,
        })
    }

    pub fn record(&self) -> &RunRecord {
        &self.record
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// On a machine of nodes, the rows each node owns (the Gantt by node);
    /// `None` on processors.
    pub fn node_rows(&self) -> Option<&NodeRows> {
        self.node_rows.as_ref()
    }

    /// The first and last instant anything happens in the run.
    pub fn span(&self) -> Option<(Time, Time)> {
        self.series.span()
    }

    /// The runs meeting `[from, to)` in start order, at most `limit` of them.
    pub fn window(&self, jobs: &[Job], from: Time, to: Time, limit: usize) -> Result<WindowJobs, ScheduleError> {
        if to <= from {
            return Err(ScheduleError::EmptyWindow { from, to });
        }
        let mut rects = Vec::new();
        let mut complete = true;
        self.runs.visit(from, to, |r| {
            if rects.len() == limit {
                complete = false;
                return false;
            }
            rects.push(self.rect(jobs, r));
            true
        });
        Ok(WindowJobs { rects, complete })
    }

    /// Run `r` as drawn.
    pub fn rect(&self, jobs: &[Job], r: RunId) -> JobRect {
        let run = run_of(&self.record, r);
        JobRect {
            job: run.job,
            id: jobs[run.job as usize].id,
            start: run.start,
            end: run.end,
            class: self.class(run.job),
            preempted: run.segment.is_some(),
            lost: run.segment.map_or(0, |s| self.lost[s as usize]),
            bands: self.layout.bands(r).to_vec(),
        }
    }

    pub fn class(&self, j: JobIdx) -> JobClass {
        class_of(&self.record.jobs[j as usize])
    }

    /// Mean fraction of the machine busy per bucket: the zoomed-out view.
    pub fn utilisation(&self, grid: &Grid) -> Result<Vec<f64>, ScheduleError> {
        grid.check()?;
        let procs = f64::from(self.record.procs.max(1));
        Ok(self.series.mean_used(grid).into_iter().map(|u| u / procs).collect())
    }

    /// Every series per bucket.
    pub fn series(&self, jobs: &[Job], grid: &Grid) -> Result<SeriesData, ScheduleError> {
        grid.check()?;
        Ok(self.series.data(jobs, self.record.procs, grid))
    }

    /// The index of the job numbered `id` (the first, if numbers repeat).
    pub fn find(&self, jobs: &[Job], id: u64) -> Option<JobIdx> {
        let k = self.by_id.partition_point(|&j| jobs[j as usize].id < id);
        self.by_id.get(k).copied().filter(|&j| jobs[j as usize].id == id)
    }

    fn check_job(&self, job: u64) -> Result<JobIdx, ScheduleError> {
        let jobs = self.record.jobs.len();
        if job >= jobs as u64 {
            return Err(ScheduleError::NoSuchJob { job, jobs });
        }
        Ok(job as JobIdx)
    }

    /// Bytes this view holds besides the run record, and the record's own.
    pub fn heap_bytes(&self) -> (usize, usize) {
        let delayed: usize = self.delayed.iter().map(|d| 48 + d.culprits.capacity() * 4).sum();
        let view = self.layout.heap_bytes()
            + self.node_rows.as_ref().map_or(0, |n| n.first.capacity() * 4)
            + self.runs.heap_bytes()
            + self.waits.heap_bytes()
            + self.series.heap_bytes()
            + self.by_id.capacity() * 4
            + self.segments_by_job.capacity() * 4
            + self.lost.capacity() * 8
            + delayed
            + self.delayed_by.capacity() * 8
            + self.reservations.heap_bytes();
        let record = self.record.jobs.capacity() * std::mem::size_of::<schedlab_engine::JobRecord>()
            + self.record.segments.capacity() * std::mem::size_of::<schedlab_engine::Segment>()
            + self.record.reservations.allocated_bytes();
        (view, record)
    }
}
