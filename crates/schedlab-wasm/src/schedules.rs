//! The schedule views a session keeps: the last runs laid out
//! (`schedlab-schedule`), in a few numbered slots so that two runs can be
//! compared, and the view queries the page makes while it pans, zooms,
//! inspects and replays. Plain Rust, tested natively; `lib.rs` only
//! converts to and from JavaScript.

use schedlab_charts::{schedule_chart, ChartSpec, ScheduleChartOptions, MAX_CHART_BOXES};
use schedlab_engine::{JobIdx, Time};
use schedlab_schedule::{
    scatter, select, Grid, JobDetails, Measure, ReplayState, Scatter, ScatterRect, ScheduleView, Selection, SeriesData,
    WindowJobs,
};
use schedlab_workload::Job;
use serde::Serialize;

use schedlab_session::ErrorKind;

use crate::session::Error;

/// Slots for laid-out runs: two, the pair a comparison needs. A view of a
/// 250,000-job run takes about 60 MB besides its record, so more would
/// strain the tab's memory budget for little use.
pub const SCHEDULE_SLOTS: usize = 2;

/// Most runs one window query returns; a window holding more should be
/// drawn from buckets (`WindowJobs::complete` is false).
pub const MAX_WINDOW_JOBS: usize = 100_000;

/// What `schedule_open` reports about a laid-out run.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScheduleInfo {
    pub slot: u32,
    /// The run's title for people (`run_title`: the policy and every
    /// setting off its default).
    pub label: String,
    pub procs: u32,
    pub jobs: usize,
    /// Runs of jobs (a preempted job has several).
    pub runs: usize,
    /// Runs drawn on more than one band of processors (a fragmented machine).
    pub split_runs: usize,
    /// The first and last instant of the run, seconds; null for an empty trace.
    pub span: Option<(Time, Time)>,
    /// Bytes the view's indexes hold, and the run record's.
    pub view_bytes: usize,
    pub record_bytes: usize,
}

#[derive(Default)]
pub struct Schedules {
    slots: [Option<(String, ScheduleView)>; SCHEDULE_SLOTS],
    /// The trace and its options (`trace_context`), every chart's subtitle.
    context: String,
}

impl Schedules {
    /// No run laid out yet; `context` is the subtitle of every chart.
    pub fn new(context: String) -> Self {
        Schedules { slots: Default::default(), context }
    }

    /// Lays `view` out in `slot`, replacing what was there.
    pub fn put(&mut self, slot: u32, label: String, view: ScheduleView) -> Result<ScheduleInfo, Error> {
        let cell = self.slot_mut(slot)?;
        let (view_bytes, record_bytes) = view.heap_bytes();
        let record = view.record();
        let info = ScheduleInfo {
            slot,
            label: label.clone(),
            procs: record.procs,
            jobs: record.jobs.len(),
            runs: record.jobs.len() + record.segments.len(),
            split_runs: view.layout().split_runs(),
            span: view.span(),
            view_bytes,
            record_bytes,
        };
        *cell = Some((label, view));
        Ok(info)
    }

    pub fn close(&mut self, slot: u32) -> Result<(), Error> {
        *self.slot_mut(slot)? = None;
        Ok(())
    }

    fn slot_mut(&mut self, slot: u32) -> Result<&mut Option<(String, ScheduleView)>, Error> {
        self.slots.get_mut(slot as usize).ok_or_else(|| bad_slot(slot))
    }

    pub fn view(&self, slot: u32) -> Result<&ScheduleView, Error> {
        match self.slots.get(slot as usize) {
            Some(Some((_, view))) => Ok(view),
            Some(None) => Err(Error::new(
                ErrorKind::State,
                format!("schedule slot {slot} is empty: open a run's schedule in it first"),
            )),
            None => Err(bad_slot(slot)),
        }
    }

    fn label(&self, slot: u32) -> Result<&str, Error> {
        self.view(slot)?;
        Ok(self.slots[slot as usize].as_ref().map_or("", |(label, _)| label.as_str()))
    }

    pub fn window(&self, jobs: &[Job], slot: u32, from: Time, to: Time, limit: usize) -> Result<WindowJobs, Error> {
        Ok(self.view(slot)?.window(jobs, from, to, limit.min(MAX_WINDOW_JOBS))?)
    }

    pub fn buckets(&self, slot: u32, grid: &Grid) -> Result<Vec<f64>, Error> {
        Ok(self.view(slot)?.utilisation(grid)?)
    }

    pub fn series(&self, jobs: &[Job], slot: u32, grid: &Grid) -> Result<SeriesData, Error> {
        Ok(self.view(slot)?.series(jobs, grid)?)
    }

    pub fn job(&self, jobs: &[Job], slot: u32, job: u64) -> Result<JobDetails, Error> {
        Ok(self.view(slot)?.inspect(jobs, job)?)
    }

    pub fn find(&self, jobs: &[Job], slot: u32, id: u64) -> Result<Option<JobIdx>, Error> {
        Ok(self.view(slot)?.find(jobs, id))
    }

    pub fn replay(&self, jobs: &[Job], slot: u32, t: Time, queue_limit: usize) -> Result<ReplayState, Error> {
        Ok(self.view(slot)?.replay(jobs, t, queue_limit.min(MAX_WINDOW_JOBS)))
    }

    /// Slot 0 against slot 1.
    pub fn scatter(&self, jobs: &[Job], measure: Measure) -> Result<Scatter, Error> {
        Ok(scatter(jobs, self.view(0)?, self.view(1)?, measure)?)
    }

    pub fn select(&self, jobs: &[Job], measure: Measure, rect: &ScatterRect, limit: usize) -> Result<Selection, Error> {
        Ok(select(jobs, self.view(0)?, self.view(1)?, measure, rect, limit.min(MAX_WINDOW_JOBS))?)
    }

    /// The schedule view of a window as a chart, for `chart_svg` and `draw_chart`.
    pub fn chart(&self, jobs: &[Job], slot: u32, grid: &Grid) -> Result<ChartSpec, Error> {
        grid.check()?;
        let options = ScheduleChartOptions {
            title: self.label(slot)?.to_owned(),
            from: grid.from,
            to: grid.to,
            columns: grid.buckets,
            max_boxes: MAX_CHART_BOXES,
        };
        let mut chart = ChartSpec::Schedule(schedule_chart(self.view(slot)?, jobs, &options)?);
        chart.set_subtitle(&self.context);
        Ok(chart)
    }
}

fn bad_slot(slot: u32) -> Error {
    Error::new(
        ErrorKind::State,
        format!("schedule slot {slot}: there are {SCHEDULE_SLOTS} slots, 0 to {}", SCHEDULE_SLOTS - 1),
    )
}
