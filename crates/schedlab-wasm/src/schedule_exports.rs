//! The schedule view's exports (`session.schedule_*`): each decodes its
//! arguments, calls [`crate::schedules`] and encodes the result.

use schedlab_engine::Time;
use schedlab_schedule::{Grid, Measure, ScatterRect};
use wasm_bindgen::prelude::*;

use schedlab_workload::Job;

use crate::schedules::Schedules;
use crate::{decode, encode, Session};

/// A time or count from JavaScript: a whole number within ±2^53.
fn whole(x: f64, what: &str) -> Result<i64, JsError> {
    if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0 {
        Ok(x as i64)
    } else {
        Err(JsError::new(&format!("{what} must be a whole number of seconds, not {x}")))
    }
}

fn index(x: f64, what: &str) -> Result<u64, JsError> {
    u64::try_from(whole(x, what)?).map_err(|_| JsError::new(&format!("{what} must be at least 0, not {x}")))
}

#[wasm_bindgen]
impl Session {
    /// Lays the last run out in schedule slot `slot` (0 or 1), replacing it.
    #[wasm_bindgen(unchecked_return_type = "ScheduleInfo")]
    pub fn schedule_open(&mut self, slot: u32) -> Result<JsValue, JsError> {
        encode(&self.inner.schedule_open(slot)?)
    }

    /// Frees a slot.
    pub fn schedule_close(&mut self, slot: u32) -> Result<(), JsError> {
        Ok(self.inner.schedule_close(slot)?)
    }

    /// The runs meeting `[from, to)` with their processor bands, at most
    /// `limit` (`complete` false when there were more: draw buckets).
    #[wasm_bindgen(unchecked_return_type = "WindowJobs")]
    pub fn schedule_window(&self, slot: u32, from: f64, to: f64, limit: u32) -> Result<JsValue, JsError> {
        let (schedules, jobs) = self.inner.schedules();
        let (from, to): (Time, Time) = (whole(from, "from")?, whole(to, "to")?);
        encode(&schedules.window(jobs, slot, from, to, limit as usize)?)
    }

    /// Mean utilisation per bucket of `grid`: the zoomed-out view.
    pub fn schedule_buckets(
        &self,
        slot: u32,
        #[wasm_bindgen(unchecked_param_type = "Grid")] grid: JsValue,
    ) -> Result<Vec<f64>, JsError> {
        let grid: Grid = decode(grid, "grid")?;
        Ok(self.inner.schedules().0.buckets(slot, &grid)?)
    }

    /// Utilisation, queue length, queued work and the first job's wait per bucket.
    #[wasm_bindgen(unchecked_return_type = "SeriesData")]
    pub fn schedule_series(
        &self,
        slot: u32,
        #[wasm_bindgen(unchecked_param_type = "Grid")] grid: JsValue,
    ) -> Result<JsValue, JsError> {
        self.on_grid(grid, |schedules, jobs, grid| schedules.series(jobs, slot, grid))
    }

    /// The inspector's view of job index `job`.
    #[wasm_bindgen(unchecked_return_type = "JobDetails")]
    pub fn schedule_job(&self, slot: u32, job: f64) -> Result<JsValue, JsError> {
        let (schedules, jobs) = self.inner.schedules();
        encode(&schedules.job(jobs, slot, index(job, "job")?)?)
    }

    /// The index of the job numbered `id` in the trace, if there is one.
    pub fn schedule_find(&self, slot: u32, id: f64) -> Result<Option<u32>, JsError> {
        let (schedules, jobs) = self.inner.schedules();
        Ok(schedules.find(jobs, slot, index(id, "job number")?)?)
    }

    /// The machine and the first `queue_limit` waiting jobs at `t`.
    #[wasm_bindgen(unchecked_return_type = "ReplayState")]
    pub fn schedule_replay(&self, slot: u32, t: f64, queue_limit: u32) -> Result<JsValue, JsError> {
        let (schedules, jobs) = self.inner.schedules();
        encode(&schedules.replay(jobs, slot, whole(t, "t")?, queue_limit as usize)?)
    }

    /// Every job's wait or bounded slowdown under slot 0 (x) and slot 1 (y).
    #[wasm_bindgen(unchecked_return_type = "Scatter")]
    pub fn schedule_scatter(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Measure")] measure: JsValue,
    ) -> Result<JsValue, JsError> {
        let measure: Measure = decode(measure, "measure")?;
        let (schedules, jobs) = self.inner.schedules();
        encode(&schedules.scatter(jobs, measure)?)
    }

    /// The jobs inside a rectangle of the scatter.
    #[wasm_bindgen(unchecked_return_type = "Selection")]
    pub fn schedule_select(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Measure")] measure: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ScatterRect")] rect: JsValue,
        limit: u32,
    ) -> Result<JsValue, JsError> {
        let measure: Measure = decode(measure, "measure")?;
        let rect: ScatterRect = decode(rect, "rect")?;
        let (schedules, jobs) = self.inner.schedules();
        encode(&schedules.select(jobs, measure, &rect, limit as usize)?)
    }

    /// The schedule view of `grid`'s window as a chart (`chart_svg`, `draw_chart`).
    #[wasm_bindgen(unchecked_return_type = "ChartSpec")]
    pub fn schedule_chart(
        &self,
        slot: u32,
        #[wasm_bindgen(unchecked_param_type = "Grid")] grid: JsValue,
    ) -> Result<JsValue, JsError> {
        self.on_grid(grid, |schedules, jobs, grid| schedules.chart(jobs, slot, grid))
    }
}

impl Session {
    /// Decodes a grid, asks `query` and encodes its answer.
    fn on_grid<T: serde::Serialize>(
        &self,
        grid: JsValue,
        query: impl FnOnce(&Schedules, &[Job], &Grid) -> Result<T, crate::session::Error>,
    ) -> Result<JsValue, JsError> {
        let grid: Grid = decode(grid, "grid")?;
        let (schedules, jobs) = self.inner.schedules();
        encode(&query(schedules, jobs, &grid)?)
    }
}
