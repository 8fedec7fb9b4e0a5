//! The engine behind `schedlab.gym.SchedulingEnv`. An episode is the core's
//! directed run driven from outside (`policies::directed::Steps`): each call
//! answers one decision and runs the engine, on the caller's thread, to the
//! next one, whose observation it writes into the environment's buffer. No
//! thread waits for another, and the engine knows no agent.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use schedlab::engine::{self, Overrun, Preemption, Replay, RunConfig, RuntimeSource};
use schedlab::experiment::write_jobs_csv;
use schedlab::metrics::MetricsOptions;
use schedlab::policies::directed::{Backfill, Decision, Steps};
use schedlab::workload::{Job, Trace as Jobs};

use crate::core_error;
use crate::trace::Trace;

/// Features of an offered job, in order: wait (s), requested time (s),
/// processors, user, free processors of the machine.
pub const FEATURES: usize = 5;

/// Bytes of one row of the observation (little-endian `f32`s).
const ROW: usize = FEATURES * 4;

/// One episode's run and what it writes to.
struct Live {
    /// The run; `None` once finished. Declared before `jobs`, so that it is
    /// dropped first: it borrows the jobs that `jobs` owns.
    steps: Option<Steps<'static>>,
    /// The episode's jobs, shared and never changed while `steps` lives;
    /// an `Arc` keeps them at one heap address whatever moves the episode.
    jobs: Arc<Jobs>,
    /// The environment's observation buffer, `window` rows.
    observation: Py<PyByteArray>,
    /// Rows the previous decision wrote; the rows past them are zeros.
    written: usize,
}

/// One episode: `count` jobs of the trace from job `start` (in priority
/// order), the first `window` waiting jobs offered at each decision.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Episode {
    live: Mutex<Live>,
}

#[pymethods]
impl Episode {
    /// Writes each decision's observation into `observation`, a bytearray of
    /// `window × FEATURES` little-endian `f32`s that the caller reads as
    /// its numpy array.
    #[new]
    fn new(
        trace: &Bound<'_, Trace>,
        start: usize,
        count: usize,
        window: usize,
        backfill: &str,
        observation: Bound<'_, PyByteArray>,
    ) -> PyResult<Self> {
        let t = trace.get().session.trace();
        let backfill = match backfill {
            "easy" => Backfill::Easy,
            "none" => Backfill::None,
            other => return Err(core_error(format!("backfill must be \"easy\" or \"none\", not {other:?}"))),
        };
        let end = start.checked_add(count).filter(|&e| e <= t.jobs.len() && count > 0).ok_or_else(|| {
            core_error(format!("an episode of {count} jobs from job {start} does not fit in {} jobs", t.jobs.len()))
        })?;
        if window == 0 {
            return Err(core_error("the window must hold at least 1 job"));
        }
        if Some(observation.len()) != window.checked_mul(ROW) {
            return Err(core_error(format!(
                "the observation buffer holds {} bytes, not the {window} × {ROW} of the window",
                observation.len()
            )));
        }
        let jobs =
            Arc::new(Jobs { procs: t.procs, jobs: t.jobs[start..end].to_vec(), extras: t.extras[start..end].to_vec() });
        let config = RunConfig {
            procs: jobs.procs,
            source: RuntimeSource::Estimate,
            overrun: Overrun::default(),
            seed: 0,
            progress_every: 0,
        };
        // SAFETY: the slice lives in the `Arc`'s allocation, which `Live`
        // holds and never mutates for as long as `steps` (declared before
        // it, so dropped first) can reach it; moving `Live` moves only the
        // `Arc`'s pointer.
        let slice: &'static [Job] = unsafe { &*(jobs.jobs.as_slice() as *const [Job]) };
        let replay = Replay::new(slice, &config, Preemption::Kill).map_err(core_error)?;
        let steps = Steps::new(replay, window, backfill, config.source);
        let live = Live { steps: Some(steps), jobs, observation: observation.unbind(), written: window };
        Ok(Episode { live: Mutex::new(live) })
    }

    /// Runs to the first decision. Returns `(offered, running)`: how many
    /// jobs are offered and whether any job runs; or None if the episode
    /// has ended (then `result()`).
    fn begin(&self, py: Python<'_>) -> PyResult<Option<(usize, bool)>> {
        let mut live = self.live.lock().map_err(|_| core_error("the episode's state is poisoned"))?;
        let waiting = live.steps_mut()?.advance().map_err(core_error)?;
        live.observe(py, waiting)
    }

    /// Answers the waiting decision, start the offered job at `index` or
    /// (None) nothing more until the next event, and runs to the next
    /// decision; returns as `begin()`.
    #[pyo3(signature = (index))]
    fn step(&self, py: Python<'_>, index: Option<usize>) -> PyResult<Option<(usize, bool)>> {
        let mut live = self.live.lock().map_err(|_| core_error("the episode's state is poisoned"))?;
        let decision = index.map_or(Decision::Wait, Decision::Start);
        let waiting = live.steps_mut()?.decide(decision).map_err(core_error)?;
        live.observe(py, waiting)
    }

    /// The ended episode's metrics (JSON) and per-job table (CSV), after the
    /// run checker has verified its schedule; once only.
    fn result(&self, py: Python<'_>) -> PyResult<(String, String)> {
        let mut live = self.live.lock().map_err(|_| core_error("the episode's state is poisoned"))?;
        let steps = live.steps.take().ok_or_else(|| core_error("the episode's result was already taken"))?;
        let jobs = Arc::clone(&live.jobs);
        py.detach(move || finish(steps, &jobs)).map_err(core_error)
    }
}

impl Live {
    fn steps_mut(&mut self) -> PyResult<&mut Steps<'static>> {
        self.steps.as_mut().ok_or_else(|| core_error("the episode has already ended"))
    }

    /// Writes the waiting decision's observation (zeros once the episode has
    /// ended) and says what it offers.
    fn observe(&mut self, py: Python<'_>, waiting: bool) -> PyResult<Option<(usize, bool)>> {
        let steps = self.steps.as_ref().ok_or_else(|| core_error("the episode has already ended"))?;
        let offered = if waiting { steps.offered() } else { &[] };
        let buffer = self.observation.bind(py);
        // SAFETY: the GIL is held and nothing here runs Python code, so no
        // one else reads or resizes the bytearray while it is written.
        let bytes = unsafe { buffer.as_bytes_mut() };
        let sim = steps.sim();
        let free = sim.free() as f32;
        for (row, &j) in bytes.chunks_exact_mut(ROW).zip(offered) {
            let job = sim.job(j);
            let features: [f32; FEATURES] =
                [(sim.now() - job.submit) as f32, job.estimate as f32, job.size as f32, job.user as f32, free];
            for (slot, value) in row.chunks_exact_mut(4).zip(features) {
                slot.copy_from_slice(&value.to_le_bytes());
            }
        }
        // Only rows that held a job at the previous decision can be dirty.
        if self.written > offered.len() {
            bytes[offered.len() * ROW..self.written * ROW].fill(0);
        }
        self.written = offered.len();
        Ok(waiting.then(|| (offered.len(), sim.running_count() > 0)))
    }
}

/// Checks the ended run and reports its metrics and per-job table.
fn finish(steps: Steps<'static>, jobs: &Jobs) -> Result<(String, String), String> {
    let record = steps.finish();
    // No guarantee, as the directed policy declares: an agent may pass over
    // a job it reserved for.
    engine::check(&jobs.jobs, &record, &[]).map_err(|e| e.to_string())?;
    let options = MetricsOptions::default();
    let metrics = schedlab::metrics::compute(&jobs.jobs, &record, &options);
    let mut csv = Vec::new();
    write_jobs_csv(&mut csv, jobs, &record, options.bsd_threshold).map_err(|e| e.to_string())?;
    let metrics = serde_json::to_string(&metrics).map_err(|e| e.to_string())?;
    Ok((metrics, String::from_utf8(csv).map_err(|e| e.to_string())?))
}
