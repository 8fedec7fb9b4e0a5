//! What a drawing of one time window needs, computed from the run record
//! without the whole run's view: the runs meeting the window with their
//! processor bands, the utilisation and the series per bucket, and the
//! first waiting job's reservation at one instant.
//!
//! [`ScheduleView`](crate::ScheduleView) lays out and indexes the whole run
//! so that every later query is cheap; a command that draws one window (the
//! command line's `--gantt`) asks once, and on a run of millions of jobs
//! those indexes cost far more than the window. Here each figure comes from
//! passes over the run in time order that keep only what is in force at
//! the moment (the runs holding processors, the waiting jobs) and what the
//! window shows, plus two orders of the runs (8 bytes a run). The figures
//! are the view's own, bit for bit: the same layout replay, the same
//! running integrals with the same operations in the same order, evaluated
//! at the same bucket edges (a test compares the two on random runs).

use std::collections::BTreeMap;

use schedlab_engine::{JobIdx, LogPosition, RunRecord, Time};
use schedlab_workload::{Cluster, Job};

use crate::inspect::lost_work;
use crate::layout::{replay, ReplayOrder};
use crate::runs::{run_of, RunId};
use crate::series::{Grid, Point, SeriesData};
use crate::{class_of, Band, HeadReservation, JobRect, ScheduleError, WindowJobs};

/// One window of a run, as [`WindowSchedule::new`] computes it.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowSchedule {
    /// The runs meeting the window in start order, when at most the limit
    /// asked for do; otherwise no runs and `complete` false (the window is
    /// then drawn from `utilisation`).
    pub window: WindowJobs,
    /// Mean fraction of the machine busy per bucket, as
    /// [`ScheduleView::utilisation`](crate::ScheduleView::utilisation) gives it.
    pub utilisation: Vec<f64>,
    pub series: SeriesData,
    /// The first waiting job's reservation in force at the instant asked for.
    pub head_reservation: Option<HeadReservation>,
    /// The most runs whose processor bands were held at once while laying
    /// the run out: those holding processors, the window's and the
    /// reservation's. It is what the layout's memory grows with.
    pub bands_held: usize,
}

impl WindowSchedule {
    /// The runs of `record` meeting `[grid.from, grid.to)` (at most
    /// `limit`), laid out by node on `cluster` for a run on nodes, its
    /// series on `grid`, and the reservation in force at `at`.
    pub fn new(
        jobs: &[Job],
        cluster: Option<&Cluster>,
        record: &RunRecord,
        grid: &Grid,
        limit: usize,
        at: Time,
    ) -> Result<WindowSchedule, ScheduleError> {
        grid.check()?;
        let segments = Segments::new(record);
        let order = ReplayOrder::new(record);
        let sweep = Sweep::run(jobs, record, &segments, &order, grid, at);
        let held = sweep.head_at.and_then(|h| in_force(record, &segments, h, at).map(|r| (h, r)));
        let keep = held.map(|(_, r)| r.next_run);
        let mut laid = LaidOut::new((grid.from, grid.to), limit, keep);
        let holding = replay(jobs, cluster, record, &order, |r, bands| laid.place(record, r, bands))?;
        let procs = f64::from(record.procs.max(1));
        let head_reservation = held.map(|(h, r)| HeadReservation {
            job: h,
            id: jobs[h as usize].id,
            made: r.made,
            start: r.start,
            length: record.jobs[h as usize].prediction,
            bands: laid.kept_bands.clone(),
        });
        let window = laid.window(jobs, record, &segments);
        Ok(WindowSchedule {
            bands_held: holding + laid.most_kept,
            window,
            utilisation: sweep.mean_used.iter().map(|u| u / procs).collect(),
            series: sweep.series,
            head_reservation,
        })
    }
}

/// The first and last instant anything happens in the run (a job is
/// submitted and waits, starts or ends), as
/// [`ScheduleView::span`](crate::ScheduleView::span) gives it.
pub fn run_span(jobs: &[Job], record: &RunRecord) -> Option<(Time, Time)> {
    let segments = Segments::new(record);
    let runs = (record.jobs.len() + record.segments.len()) as RunId;
    (0..runs).fold(None, |span, r| {
        let run = run_of(record, r);
        let (from, to) = segments.wait_before(jobs, record, r);
        let first = if to > from { from.min(run.start) } else { run.start };
        Some(span.map_or((first, run.end), |(a, b): (Time, Time)| (a.min(first), b.max(run.end))))
    })
}

/// The preempted segments by job, then start: the waits around them.
struct Segments {
    by_job: Vec<u32>,
}

impl Segments {
    fn new(record: &RunRecord) -> Segments {
        let mut by_job: Vec<u32> = (0..record.segments.len() as u32).collect();
        by_job.sort_by_key(|&s| (record.segments[s as usize].job, record.segments[s as usize].start));
        Segments { by_job }
    }

    /// Job `j`'s preempted segments in time order.
    fn of(&self, record: &RunRecord, j: JobIdx) -> &[u32] {
        let job = |s: &u32| record.segments[*s as usize].job;
        &self.by_job[self.by_job.partition_point(|s| job(s) < j)..self.by_job.partition_point(|s| job(s) <= j)]
    }

    /// The wait that ended when run `r` started: from the job's submission
    /// (its first run) or from the end of its previous run, a preempted one.
    fn wait_before(&self, jobs: &[Job], record: &RunRecord, r: RunId) -> (Time, Time) {
        let run = run_of(record, r);
        let mine = self.of(record, run.job);
        let previous = match run.segment {
            Some(s) => mine.iter().position(|&x| x == s).and_then(|k| k.checked_sub(1)).map(|k| mine[k]),
            None => mine.last().copied(),
        };
        let from = previous.map_or(jobs[run.job as usize].submit, |p| record.segments[p as usize].end);
        (from, run.start)
    }
}

/// A job's requested work, size × estimate, as the queued-work series counts it.
fn work(job: &Job) -> i128 {
    i128::from(job.size) * i128::from(job.estimate)
}

/// What happens at an instant of the run.
#[derive(Clone, Copy)]
enum Event {
    /// A job starts waiting.
    Waits(JobIdx),
    Starts(RunId),
    Ends(RunId),
}

/// The integrals of busy processors, waiting jobs and waiting work up to an instant.
type Areas = (f64, f64, f64);

/// No job waits.
const NO_HEAD: JobIdx = JobIdx::MAX;

/// One pass over the run's instants in time order: the series on the grid,
/// the zoomed-out utilisation and the first waiting job at `at`.
struct Sweep {
    series: SeriesData,
    mean_used: Vec<f64>,
    head_at: Option<JobIdx>,
}

/// The running state of a [`Sweep`].
struct SweepState<'a> {
    jobs: &'a [Job],
    grid: Grid,
    at: Time,
    /// Net changes of the instant being gathered.
    used: i64,
    queued: i64,
    work: i128,
    last: Option<Point>,
    /// The integrals at the bucket edges reached so far.
    edges: Vec<Areas>,
    /// Waiting jobs, each with its count of open waits (settled per instant).
    queue: BTreeMap<JobIdx, i32>,
    /// The first waiting job since `head.0`.
    head: Option<(Time, JobIdx)>,
    head_at: Option<JobIdx>,
    head_wait: Vec<f64>,
}

impl Sweep {
    fn run(jobs: &[Job], record: &RunRecord, segments: &Segments, order: &ReplayOrder, grid: &Grid, at: Time) -> Sweep {
        let mut state = SweepState::new(jobs, *grid, at);
        let mut events = EventStreams::new(jobs, record, segments, order);
        while let Some(t) = events.next_time() {
            let mut waits_changed = false;
            while let Some(event) = events.take_at(t) {
                waits_changed |= state.apply(record, segments, event);
            }
            state.settle(t, waits_changed);
        }
        state.finish(record.procs)
    }
}

impl<'a> SweepState<'a> {
    fn new(jobs: &'a [Job], grid: Grid, at: Time) -> Self {
        SweepState {
            jobs,
            grid,
            at,
            used: 0,
            queued: 0,
            work: 0,
            last: None,
            edges: Vec::with_capacity(grid.buckets as usize + 1),
            queue: BTreeMap::new(),
            head: None,
            head_at: None,
            head_wait: vec![0.0; grid.buckets as usize],
        }
    }

    /// Applies one event; true if a wait began or ended.
    fn apply(&mut self, record: &RunRecord, segments: &Segments, event: Event) -> bool {
        match event {
            Event::Waits(j) => {
                self.join(j, 1);
                true
            }
            Event::Starts(r) => {
                let run = run_of(record, r);
                // A run of no length takes and gives back its processors in the same instant.
                if run.end > run.start {
                    self.used += i64::from(self.jobs[run.job as usize].size);
                }
                let (from, to) = segments.wait_before(self.jobs, record, r);
                if to > from {
                    self.join(run.job, -1);
                }
                to > from
            }
            Event::Ends(r) => {
                self.used -= i64::from(self.jobs[run_of(record, r).job as usize].size);
                false
            }
        }
    }

    /// Job `j` starts (+1) or stops (−1) waiting.
    fn join(&mut self, j: JobIdx, delta: i32) {
        self.queued += i64::from(delta);
        self.work += i128::from(delta) * work(&self.jobs[j as usize]);
        let count = self.queue.entry(j).or_insert(0);
        *count += delta;
        if *count == 0 {
            self.queue.remove(&j);
        }
    }

    /// Closes instant `t`: the bucket edges before it read the levels
    /// before it, then its levels and, if the waits changed, its first
    /// waiting job take effect.
    fn settle(&mut self, t: Time, waits_changed: bool) {
        self.reach_edges(Some(t));
        self.last = Some(Point::after(self.last.as_ref(), t, self.used as u32, self.queued as u32, self.work as f64));
        if waits_changed {
            let head = self.queue.first_key_value().map_or(NO_HEAD, |(&j, _)| j);
            if self.head.map(|h| h.1) != Some(head) {
                self.close_head(Some(t));
                self.head = Some((t, head));
                if t <= self.at {
                    self.head_at = Some(head).filter(|&h| h != NO_HEAD);
                }
            }
        }
    }

    /// Records the integrals at every bucket edge before `until` (all that
    /// are left if `None`).
    fn reach_edges(&mut self, until: Option<Time>) {
        while self.edges.len() <= self.grid.buckets as usize {
            let e = self.grid.edge(self.edges.len() as u32);
            if until.is_some_and(|t| e >= t as f64) {
                break;
            }
            self.edges.push(self.last.map_or((0.0, 0.0, 0.0), |p| p.areas_to(e)));
        }
    }

    /// The first waiting job of `[self.head.0, next)` counts in every bucket
    /// it meets with its longest wait there, as the view's
    /// `longest_head_wait` reads its list of changes.
    fn close_head(&mut self, next: Option<Time>) {
        let Some((since, head)) = self.head.filter(|h| h.1 != NO_HEAD) else { return };
        let grid = self.grid;
        let (since, submit) = (since as f64, self.jobs[head as usize].submit as f64);
        let (mut lo, mut hi) = (0u32, grid.buckets);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if grid.edge(mid + 1) <= since {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for k in lo..grid.buckets {
            let (a, b) = (grid.edge(k), grid.edge(k + 1));
            if next.is_some_and(|n| n as f64 <= a) {
                break;
            }
            let until = next.map_or(b, |n| (n as f64).min(b));
            if until > a && until > since {
                self.head_wait[k as usize] = self.head_wait[k as usize].max(until - submit);
            }
        }
    }

    /// The means per bucket, as the view's `Series::data` and `mean_used`
    /// compute them from the integrals at the edges, on `procs` processors.
    fn finish(mut self, procs: u32) -> Sweep {
        let procs = f64::from(procs.max(1));
        self.reach_edges(None);
        self.close_head(None);
        let grid = self.grid;
        let per_bucket = |area: &dyn Fn(Areas, Areas) -> f64| -> Vec<f64> {
            (1..=grid.buckets as usize)
                .map(|k| {
                    let width = grid.edge(k as u32) - grid.edge(k as u32 - 1);
                    area(self.edges[k - 1], self.edges[k]) / width
                })
                .collect()
        };
        let mean_used = per_bucket(&|a, b| b.0 - a.0);
        let series = SeriesData {
            grid,
            utilisation: per_bucket(&|a, b| (b.0 - a.0) / procs),
            queue_jobs: per_bucket(&|a, b| b.1 - a.1),
            queue_work: per_bucket(&|a, b| b.2 - a.2),
            head_wait: self.head_wait,
        };
        Sweep { series, mean_used, head_at: self.head_at }
    }
}

/// The run's events in time order, from four sorted streams: first waits
/// (by submission), waits after a preemption, run starts and run ends.
struct EventStreams<'a> {
    first_waits: Stream<'a>,
    later_waits: std::iter::Peekable<std::vec::IntoIter<(Time, JobIdx)>>,
    starts: Stream<'a>,
    ends: Stream<'a>,
}

/// Instants with a job or a run, in time order.
type Stream<'a> = std::iter::Peekable<Box<dyn Iterator<Item = (Time, u32)> + 'a>>;

impl<'a> EventStreams<'a> {
    fn new(jobs: &'a [Job], record: &'a RunRecord, segments: &'a Segments, order: &'a ReplayOrder) -> Self {
        let first_run = move |j: JobIdx| segments.of(record, j).first().map_or(j, |&s| record.jobs.len() as RunId + s);
        let by_submit: Box<dyn Iterator<Item = JobIdx> + 'a> = if jobs.is_sorted_by_key(|j| j.submit) {
            Box::new(0..jobs.len() as JobIdx)
        } else {
            let mut sorted: Vec<JobIdx> = (0..jobs.len() as JobIdx).collect();
            sorted.sort_by_key(|&j| jobs[j as usize].submit);
            Box::new(sorted.into_iter())
        };
        let first_waits: Box<dyn Iterator<Item = (Time, JobIdx)> + 'a> = Box::new(by_submit.filter_map(move |j| {
            let (from, to) = segments.wait_before(jobs, record, first_run(j));
            (to > from).then_some((from, j))
        }));
        // A wait after a preemption begins where the preempted run ended:
        // it is the wait before every run of a job but its first.
        let n = record.jobs.len() as RunId;
        let mut later: Vec<(Time, JobIdx)> = Vec::new();
        for group in
            segments.by_job.chunk_by(|&a, &b| record.segments[a as usize].job == record.segments[b as usize].job)
        {
            let j = record.segments[group[0] as usize].job;
            for r in group[1..].iter().map(|&s| n + s).chain([j]) {
                let (from, to) = segments.wait_before(jobs, record, r);
                if to > from {
                    later.push((from, j));
                }
            }
        }
        later.sort_unstable();
        let starts: Box<dyn Iterator<Item = (Time, RunId)> + 'a> =
            Box::new(order.by_start.iter().map(move |&r| (run_of(record, r).start, r)));
        let ends: Box<dyn Iterator<Item = (Time, RunId)> + 'a> =
            Box::new(order.by_end.iter().map(move |&r| (run_of(record, r).end, r)));
        EventStreams {
            first_waits: first_waits.peekable(),
            later_waits: later.into_iter().peekable(),
            starts: starts.peekable(),
            ends: ends.peekable(),
        }
    }

    /// The earliest instant with an event left.
    fn next_time(&mut self) -> Option<Time> {
        [
            self.first_waits.peek().map(|e| e.0),
            self.later_waits.peek().map(|e| e.0),
            self.starts.peek().map(|e| e.0),
            self.ends.peek().map(|e| e.0),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// One event at `t`, if any is left.
    fn take_at(&mut self, t: Time) -> Option<Event> {
        if let Some((_, j)) = self.first_waits.next_if(|e| e.0 == t) {
            return Some(Event::Waits(j));
        }
        if let Some((_, j)) = self.later_waits.next_if(|e| e.0 == t) {
            return Some(Event::Waits(j));
        }
        if let Some((_, r)) = self.starts.next_if(|e| e.0 == t) {
            return Some(Event::Starts(r));
        }
        self.ends.next_if(|e| e.0 == t).map(|(_, r)| Event::Ends(r))
    }
}

/// The reservation job `h` held at `t` in the wait it was in (the view's
/// `reservation_in_force`), and the run it was drawn on: its first
/// preempted run starting after `t`, else its last run.
#[derive(Clone, Copy)]
struct InForce {
    made: Time,
    start: Time,
    next_run: RunId,
}

fn in_force(record: &RunRecord, segments: &Segments, h: JobIdx, t: Time) -> Option<InForce> {
    let mine = segments.of(record, h);
    let waits_before = mine.iter().filter(|&&s| record.segments[s as usize].end <= t).count() as u32;
    let held = record
        .reservations
        .iter_from(LogPosition::default())
        .map(|(_, c)| c)
        .filter(|c| c.job == h)
        .take_while(|c| c.time <= t)
        .last()
        .filter(|c| c.wait == waits_before)
        // PV-EASY records "no start in sight" as the end of time: no outline.
        .filter(|c| c.start < Time::MAX)?;
    let n = record.jobs.len() as RunId;
    let next_run = mine.iter().find(|&&s| record.segments[s as usize].start > t).map_or(h, |&s| n + s);
    Some(InForce { made: held.time, start: held.start, next_run })
}

/// The runs kept while laying out: those meeting the window (until more
/// than the limit do) and the one the reservation is drawn on.
struct LaidOut {
    window: (Time, Time),
    limit: usize,
    /// How many runs met the window so far; their bands are kept while
    /// at most `limit` do.
    meeting: usize,
    kept: Vec<(RunId, Vec<Band>)>,
    keep: Option<RunId>,
    kept_bands: Vec<Band>,
    most_kept: usize,
}

impl LaidOut {
    fn new(window: (Time, Time), limit: usize, keep: Option<RunId>) -> Self {
        LaidOut { window, limit, meeting: 0, kept: Vec::new(), keep, kept_bands: Vec::new(), most_kept: 0 }
    }

    /// Run `r` was laid out on `bands`.
    fn place(&mut self, record: &RunRecord, r: RunId, bands: &[Band]) {
        if self.keep == Some(r) {
            self.kept_bands = bands.to_vec();
        }
        let run = run_of(record, r);
        if run.start < self.window.1 && run.end > self.window.0 {
            self.meeting += 1;
            if self.meeting <= self.limit {
                self.kept.push((r, bands.to_vec()));
            } else {
                self.kept = Vec::new();
            }
        }
        self.most_kept = self.most_kept.max(self.kept.len() + usize::from(self.keep.is_some()));
    }

    /// The window's runs in start order (the view's order: start, job, run).
    fn window(&mut self, jobs: &[Job], record: &RunRecord, segments: &Segments) -> WindowJobs {
        let complete = self.meeting <= self.limit;
        let lost = if self.kept.is_empty() { Vec::new() } else { lost_work(jobs, record, &segments.by_job) };
        let mut kept = std::mem::take(&mut self.kept);
        kept.sort_unstable_by_key(|&(r, _)| {
            let run = run_of(record, r);
            (run.start, run.job, r)
        });
        let rects = kept.into_iter().map(|(r, bands)| rect(jobs, record, r, &lost, bands)).collect();
        WindowJobs { rects, complete }
    }
}

/// Run `r` as drawn, as [`ScheduleView::rect`](crate::ScheduleView::rect) gives it.
fn rect(jobs: &[Job], record: &RunRecord, r: RunId, lost: &[Time], bands: Vec<Band>) -> JobRect {
    let run = run_of(record, r);
    JobRect {
        job: run.job,
        id: jobs[run.job as usize].id,
        start: run.start,
        end: run.end,
        class: class_of(&record.jobs[run.job as usize]),
        preempted: run.segment.is_some(),
        lost: run.segment.map_or(0, |s| lost[s as usize]),
        bands,
    }
}
