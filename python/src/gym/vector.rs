//! `Episodes`: the N episodes of a `VectorSchedulingEnv`, stepped in one
//! call with one action each, writing every observation, reward and flag
//! into buffers the Python side reads as numpy arrays. No process or
//! thread per episode: the cost of a step is the engine's, not Python's.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use super::{metrics_json, session_error, try_state, Names, Setup, Slot, ROW};
use crate::core_error;
use crate::trace::Trace;
use crate::{error, ErrorKind};

/// The buffers the Python side reads: per episode, its observation rows,
/// reward (`f64`), whether it terminated, its action mask (a byte per
/// action) and whether its action was invalid (bytes 0/1).
struct Buffers {
    observation: Py<PyByteArray>,
    reward: Py<PyByteArray>,
    terminated: Py<PyByteArray>,
    mask: Py<PyByteArray>,
    invalid: Py<PyByteArray>,
}

/// The episodes, how many rows of each one's observation hold a job, and
/// how many jobs each one's mask allows (the only parts that can change).
struct Batch {
    slots: Vec<Option<Slot>>,
    written: Vec<usize>,
    masked: Vec<usize>,
    buffers: Buffers,
}

/// N episodes of one trace, all made and answered alike.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Episodes {
    trace: Py<Trace>,
    setup: Setup,
    batch: Mutex<Batch>,
}

/// Checks that each buffer is as long as it must be.
fn check_lengths(buffers: [(&Bound<'_, PyByteArray>, usize); 5]) -> PyResult<()> {
    for (buffer, len) in buffers {
        if buffer.len() != len {
            return Err(core_error(format!("a buffer holds {} bytes, not {len}", buffer.len())));
        }
    }
    Ok(())
}

/// The little-endian `i64`s of `raw`, `n` of them.
fn integers(raw: &[u8], n: usize, what: &str) -> PyResult<Vec<i64>> {
    if raw.len() != n * 8 {
        return Err(core_error(format!("{what}: {} bytes, not the {n} × 8 of the environments", raw.len())));
    }
    Ok(raw.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("chunks of 8"))).collect())
}

#[pymethods]
impl Episodes {
    /// `n` episodes of `count` jobs of `trace`, each offering its first
    /// `window` waiting jobs; none is running until `reset`.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        trace: Py<Trace>,
        n: usize,
        count: usize,
        window: usize,
        backfill: &str,
        mode: &str,
        reward: &str,
        buffers: [Bound<'_, PyByteArray>; 5],
    ) -> PyResult<Self> {
        let jobs = trace.get().loaded.trace.jobs.len();
        let setup = Setup::new(jobs, count, window, Names { backfill, mode, reward })?;
        let [observation, rewards, terminated, mask, invalid] = buffers;
        let actions = setup.actions();
        check_lengths([
            (&observation, n * window * ROW),
            (&rewards, n * 8),
            (&terminated, n),
            (&mask, n * actions),
            (&invalid, n),
        ])?;
        let buffers = Buffers {
            observation: observation.unbind(),
            reward: rewards.unbind(),
            terminated: terminated.unbind(),
            mask: mask.unbind(),
            invalid: invalid.unbind(),
        };
        // The mask buffer starts all zeros: no action allowed.
        let (written, masked) = (vec![window; n], vec![0; n]);
        let batch = Batch { slots: (0..n).map(|_| None).collect(), written, masked, buffers };
        Ok(Episodes { trace, setup, batch: Mutex::new(batch) })
    }

    /// Starts every episode anew, episode `i` from job `starts[i]`
    /// (`i64`s), and writes the first decisions.
    fn reset(&self, py: Python<'_>, starts: &[u8]) -> PyResult<()> {
        let mut batch = try_state(&self.batch)?;
        let n = batch.slots.len();
        self.step_all(py, &mut batch, &vec![0; n], &integers(starts, n, "starts")?).map(drop)
    }

    /// Takes one action per episode (`i64`s; see `schedlab.gym`), except
    /// that an episode with a start in `starts` (`i64`s, -1 for none; or
    /// empty: none) starts anew from that job instead, as Gymnasium's
    /// next-step autoreset does. Returns `(i, metrics JSON)` for every
    /// episode that ended.
    fn step(&self, py: Python<'_>, actions: &[u8], starts: &[u8]) -> PyResult<Vec<(usize, String)>> {
        let mut batch = try_state(&self.batch)?;
        let n = batch.slots.len();
        let actions = integers(actions, n, "actions")?;
        let starts = if starts.is_empty() { vec![-1; n] } else { integers(starts, n, "starts")? };
        self.step_all(py, &mut batch, &actions, &starts)
    }
}

impl Episodes {
    fn step_all(
        &self,
        py: Python<'_>,
        batch: &mut Batch,
        actions: &[i64],
        starts: &[i64],
    ) -> PyResult<Vec<(usize, String)>> {
        let trace = &self.trace.get().loaded.trace;
        let n = batch.slots.len();
        let (rows, actions_of) = (self.setup.window * ROW, self.setup.actions());
        let b = &batch.buffers;
        let (observation, reward, terminated, mask, invalid) =
            (b.observation.bind(py), b.reward.bind(py), b.terminated.bind(py), b.mask.bind(py), b.invalid.bind(py));
        check_lengths([
            (observation, n * rows),
            (reward, n * 8),
            (terminated, n),
            (mask, n * actions_of),
            (invalid, n),
        ])?;
        // SAFETY: the GIL is held for as long as these slices live and
        // nothing below runs Python code, so no one else reads or resizes
        // the bytearrays meanwhile; the five are distinct objects.
        let (observation, reward, terminated, mask, invalid) = unsafe {
            (
                observation.as_bytes_mut(),
                reward.as_bytes_mut(),
                terminated.as_bytes_mut(),
                mask.as_bytes_mut(),
                invalid.as_bytes_mut(),
            )
        };
        let mut ended = Vec::new();
        for i in 0..n {
            let (mut r, mut done, mut bad) = (0.0, false, false);
            if let Ok(start) = usize::try_from(starts[i]) {
                batch.slots[i] = Some(Slot::new(trace, start, &self.setup).map_err(session_error)?);
            } else {
                let slot = batch.slots[i]
                    .as_mut()
                    .filter(|s| !s.ended)
                    .ok_or_else(|| error(ErrorKind::State, format!("episode {i} has ended or not begun: reset it")))?;
                let (goes_on, was_invalid) = slot.act(self.setup.mode, actions[i]).map_err(session_error)?;
                bad = was_invalid;
                if !goes_on {
                    let steps = slot.steps.take().ok_or_else(|| core_error("the episode was already finished"))?;
                    let (metrics, _) = Slot::finish(steps, &slot.jobs, false).map_err(session_error)?;
                    r = self.setup.reward.of(&metrics);
                    done = true;
                    ended.push((i, metrics_json(&metrics)?));
                }
            }
            let slot = batch.slots[i].as_ref().ok_or_else(|| core_error(format!("episode {i} was not made")))?;
            slot.observe(&mut observation[i * rows..(i + 1) * rows], &mut batch.written[i]);
            slot.mask(self.setup.mode, &mut mask[i * actions_of..(i + 1) * actions_of], &mut batch.masked[i]);
            reward[i * 8..i * 8 + 8].copy_from_slice(&r.to_le_bytes());
            terminated[i] = u8::from(done);
            invalid[i] = u8::from(bad);
        }
        Ok(ended)
    }
}
