//! The schedule view's exports (`session.schedule_*`): each decodes its
//! arguments, calls [`crate::schedules`] and encodes the result.

use schedlab_charts::ChartSpec;
use schedlab_engine::Time;
use schedlab_schedule::{
    Grid, JobDetails, Measure, ReplayState, Scatter, ScatterRect, Selection, SeriesData, WindowJobs,
};
use schedlab_wasm_macros::export;

use schedlab_workload::{short_number, Job};

use crate::schedules::{ScheduleInfo, Schedules};
use crate::session::Error;
use crate::{Js, Session, Thrown};
use schedlab_session::ErrorKind;

/// The largest whole number a JavaScript number holds exactly, 2^53.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// A time from JavaScript, in seconds: a whole number within ±2^53. The
/// message names the argument, echoes the value short (`1e300`, not 301
/// digits) and says which rule it breaks.
fn whole(x: f64, what: &str) -> Result<i64, Thrown> {
    Ok(time(x, what).map_err(|e| Error::new(ErrorKind::Option, e))?)
}

fn time(x: f64, what: &str) -> Result<i64, String> {
    if x.is_nan() {
        return Err(format!("{what} is not a number (NaN); it must be a whole number of seconds"));
    }
    if x.abs() > MAX_EXACT {
        let x = short_number(x);
        return Err(format!("{what} {x} s is beyond ±2^53 s (about 285 million years), the times a schedule spans"));
    }
    if x.fract() != 0.0 {
        return Err(format!("{what} must be a whole number of seconds, not {}", short_number(x)));
    }
    Ok(x as i64)
}

/// A job index or job number from JavaScript: a whole number from 0.
fn index(x: f64, what: &str) -> Result<u64, Thrown> {
    Ok(count(x, what).map_err(|e| Error::new(ErrorKind::Option, e))?)
}

fn count(x: f64, what: &str) -> Result<u64, String> {
    if x.is_nan() {
        return Err(format!("{what} is not a number (NaN); it must be a whole number from 0"));
    }
    if x.fract() != 0.0 || !(0.0..=MAX_EXACT).contains(&x) {
        return Err(format!("{what} must be a whole number from 0 to 2^53, not {}", short_number(x)));
    }
    Ok(x as u64)
}

#[export]
impl Session {
    /// Lays the last run out in schedule slot `slot` (0 or 1), replacing it.
    pub fn schedule_open(&mut self, slot: u32) -> Result<Js<ScheduleInfo>, Thrown> {
        Js::encode(&self.inner.schedule_open(slot)?)
    }

    /// Frees a slot.
    pub fn schedule_close(&mut self, slot: u32) -> Result<(), Thrown> {
        Ok(self.inner.schedule_close(slot)?)
    }

    /// The runs meeting `[from, to)` with their processor bands, at most
    /// `limit` (`complete` false when there were more: draw buckets).
    pub fn schedule_window(&self, slot: u32, from: f64, to: f64, limit: u32) -> Result<Js<WindowJobs>, Thrown> {
        let (schedules, jobs) = self.inner.schedules();
        let (from, to): (Time, Time) = (whole(from, "the window's start")?, whole(to, "the window's end")?);
        Js::encode(&schedules.window(jobs, slot, from, to, limit as usize)?)
    }

    /// Mean utilisation per bucket of `grid`: the zoomed-out view.
    pub fn schedule_buckets(&self, slot: u32, grid: Js<Grid>) -> Result<Vec<f64>, Thrown> {
        Ok(self.inner.schedules().0.buckets(slot, &grid.decode("grid")?)?)
    }

    /// Utilisation, queue length, queued work and the first job's wait per bucket.
    pub fn schedule_series(&self, slot: u32, grid: Js<Grid>) -> Result<Js<SeriesData>, Thrown> {
        self.on_grid(grid, |schedules, jobs, grid| schedules.series(jobs, slot, grid))
    }

    /// The inspector's view of job index `job`.
    pub fn schedule_job(&self, slot: u32, job: f64) -> Result<Js<JobDetails>, Thrown> {
        let (schedules, jobs) = self.inner.schedules();
        Js::encode(&schedules.job(jobs, slot, index(job, "the job index")?)?)
    }

    /// The index of the job numbered `id` in the trace, if there is one.
    pub fn schedule_find(&self, slot: u32, id: f64) -> Result<Option<u32>, Thrown> {
        let (schedules, jobs) = self.inner.schedules();
        Ok(schedules.find(jobs, slot, index(id, "the job number")?)?)
    }

    /// The machine and the first `queue_limit` waiting jobs at `t`.
    pub fn schedule_replay(&self, slot: u32, t: f64, queue_limit: u32) -> Result<Js<ReplayState>, Thrown> {
        let (schedules, jobs) = self.inner.schedules();
        Js::encode(&schedules.replay(jobs, slot, whole(t, "the replay time")?, queue_limit as usize)?)
    }

    /// Every job's wait or bounded slowdown under slot 0 (x) and slot 1 (y).
    pub fn schedule_scatter(&self, measure: Js<Measure>) -> Result<Js<Scatter>, Thrown> {
        let measure = measure.decode("measure")?;
        let (schedules, jobs) = self.inner.schedules();
        Js::encode(&schedules.scatter(jobs, measure)?)
    }

    /// The jobs inside a rectangle of the scatter.
    pub fn schedule_select(
        &self,
        measure: Js<Measure>,
        rect: Js<ScatterRect>,
        limit: u32,
    ) -> Result<Js<Selection>, Thrown> {
        let measure = measure.decode("measure")?;
        let rect = rect.decode("rect")?;
        let (schedules, jobs) = self.inner.schedules();
        Js::encode(&schedules.select(jobs, measure, &rect, limit as usize)?)
    }

    /// The schedule view of `grid`'s window as a chart (`chart_svg`, `draw_chart`).
    pub fn schedule_chart(&self, slot: u32, grid: Js<Grid>) -> Result<Js<ChartSpec>, Thrown> {
        self.on_grid(grid, |schedules, jobs, grid| schedules.chart(jobs, slot, grid))
    }
}

impl Session {
    /// Decodes a grid, asks `query` and encodes its answer.
    fn on_grid<T: serde::Serialize>(
        &self,
        grid: Js<Grid>,
        query: impl FnOnce(&Schedules, &[Job], &Grid) -> Result<T, crate::session::Error>,
    ) -> Result<Js<T>, Thrown> {
        let grid = grid.decode("grid")?;
        let (schedules, jobs) = self.inner.schedules();
        Js::encode(&query(schedules, jobs, &grid)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_echoed_short_in_the_users_terms() {
        assert_eq!(
            time(1e300, "the replay time").unwrap_err(),
            "the replay time 1e300 s is beyond ±2^53 s (about 285 million years), the times a schedule spans"
        );
        assert!(time(f64::INFINITY, "t").unwrap_err().contains("t inf s is beyond ±2^53 s"));
        assert_eq!(
            count(f64::NAN, "the job index").unwrap_err(),
            "the job index is not a number (NaN); it must be a whole number from 0"
        );
        assert_eq!(
            count(-1.0, "the job index").unwrap_err(),
            "the job index must be a whole number from 0 to 2^53, not -1"
        );
        assert_eq!(time(0.5, "x").unwrap_err(), "x must be a whole number of seconds, not 0.5");
        assert_eq!((time(-MAX_EXACT, "x"), count(MAX_EXACT, "x")), (Ok(-(1 << 53)), Ok(1 << 53)));
    }
}
