//! Two runs of the same trace, per job: a measure under run A against the
//! same measure under run B (the scatter that shows who pays for a
//! policy's gains), and the jobs inside a rectangle of that plane.
//!
//! The plane is drawn log-log, so a value below 1 (a wait of 0 s) is
//! placed at 1: [`Scatter`] holds the values as placed, and a selection
//! compares those. Every job of the trace is a point, in priority order.

use schedlab_engine::JobIdx;
use schedlab_workload::Job;
use serde::{Deserialize, Serialize};

use crate::{JobRef, ScheduleError, ScheduleView};

/// Size classes of the scatter's colours: `(smallest, largest, label)`,
/// powers of eight from a serial job up.
pub const SIZE_CLASSES: [(u32, u32, &str); 5] =
    [(1, 1, "1"), (2, 8, "2–8"), (9, 64, "9–64"), (65, 512, "65–512"), (513, u32::MAX, "> 512")];

/// What the scatter compares.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Wait, seconds.
    Wait,
    /// Bounded slowdown, each run with its own threshold.
    Bsd,
}

/// One point per job: `x[j]` under run A, `y[j]` under run B, both at
/// least 1, and `size_class[j]` an index into `classes`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scatter {
    pub measure: Measure,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub size_class: Vec<u8>,
    pub classes: Vec<String>,
}

/// A rectangle of the plane, bounds included, in the placed values.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterRect {
    pub x_min: f64,
    pub x_max: f64,
    pub y_min: f64,
    pub y_max: f64,
}

/// The jobs inside a rectangle, in priority order.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Selection {
    /// The first jobs inside (at most the limit asked for).
    pub jobs: Vec<JobRef>,
    /// How many jobs are inside in all.
    pub total: usize,
}

pub fn size_class(size: u32) -> u8 {
    SIZE_CLASSES.iter().position(|c| size <= c.1).unwrap_or(SIZE_CLASSES.len() - 1) as u8
}

impl ScheduleView {
    /// Job `j`'s measure, placed on a log axis (at least 1).
    fn measure(&self, jobs: &[Job], j: usize, measure: Measure) -> f64 {
        let job = &jobs[j];
        let wait = (self.record.jobs[j].end - job.submit - job.runtime) as f64;
        let value = match measure {
            Measure::Wait => wait,
            Measure::Bsd => {
                let bound = job.runtime.max(self.tau).max(1) as f64;
                (wait + bound) / bound
            }
        };
        value.max(1.0)
    }
}

fn same_trace(jobs: &[Job], a: &ScheduleView, b: &ScheduleView) -> Result<(), ScheduleError> {
    for view in [a, b] {
        if view.record.jobs.len() != jobs.len() {
            return Err(ScheduleError::DifferentTraces { a: jobs.len(), b: view.record.jobs.len() });
        }
    }
    Ok(())
}

/// Every job's measure under `a` (x) and `b` (y).
pub fn scatter(jobs: &[Job], a: &ScheduleView, b: &ScheduleView, measure: Measure) -> Result<Scatter, ScheduleError> {
    same_trace(jobs, a, b)?;
    Ok(Scatter {
        measure,
        x: (0..jobs.len()).map(|j| a.measure(jobs, j, measure)).collect(),
        y: (0..jobs.len()).map(|j| b.measure(jobs, j, measure)).collect(),
        size_class: jobs.iter().map(|j| size_class(j.size)).collect(),
        classes: SIZE_CLASSES.iter().map(|c| c.2.to_owned()).collect(),
    })
}

/// The jobs whose point lies in `rect`. A selection is one gesture, not a
/// frame: it looks at every job once (O(n)) rather than keep a
/// two-dimensional index per pair of runs.
pub fn select(
    jobs: &[Job],
    a: &ScheduleView,
    b: &ScheduleView,
    measure: Measure,
    rect: &ScatterRect,
    limit: usize,
) -> Result<Selection, ScheduleError> {
    same_trace(jobs, a, b)?;
    let inside = |j: usize| {
        let (x, y) = (a.measure(jobs, j, measure), b.measure(jobs, j, measure));
        (rect.x_min..=rect.x_max).contains(&x) && (rect.y_min..=rect.y_max).contains(&y)
    };
    let mut selection = Selection { jobs: Vec::new(), total: 0 };
    for j in (0..jobs.len()).filter(|&j| inside(j)) {
        if selection.jobs.len() < limit {
            selection.jobs.push(JobRef::new(jobs, j as JobIdx));
        }
        selection.total += 1;
    }
    Ok(selection)
}
