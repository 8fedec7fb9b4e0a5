//! `Episodes`: the N episodes of a `VectorSchedulingEnv`, stepped in one
//! call with one action each, writing every observation, reward and flag
//! into buffers the Python side reads as numpy arrays. No process or
//! thread per episode: the cost of a step is the engine's, not Python's.
//! With `threads` > 1 the episodes are split into that many groups, each
//! stepped on a thread of its own while the calling thread keeps the GIL
//! (the other threads touch no Python object, only their part of the
//! buffers), so the N episodes use several cores.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use super::{session_error, try_state, Names, Setup, Slot, ROW};
use crate::core_error;
use crate::trace::Trace;
use crate::SessionError;
use crate::{error, ErrorKind};
use schedlab::metrics::Headline;
use schedlab::workload::Trace as Jobs;

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

/// One episode, how many rows of its observation hold a job, and how many
/// jobs its mask allows (the only parts of them that can change).
struct Lane {
    slot: Option<Slot>,
    written: usize,
    masked: usize,
}

/// The episodes and the buffers they write to.
struct Batch {
    lanes: Vec<Lane>,
    buffers: Buffers,
}

/// One episode's part of the buffers.
struct Out<'a> {
    observation: &'a mut [u8],
    reward: &'a mut [u8],
    terminated: &'a mut u8,
    mask: &'a mut [u8],
    invalid: &'a mut u8,
}

/// What one episode is told to do: `start` anew from that job, or take `action`.
#[derive(Clone, Copy)]
struct Order {
    action: i64,
    start: Option<usize>,
}

/// N episodes of one trace, all made and answered alike.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Episodes {
    trace: Py<Trace>,
    setup: Setup,
    threads: usize,
    /// Whether an episode's end is checked and measured in full (its
    /// metrics returned as JSON), or only its reward computed.
    all_metrics: bool,
    batch: Mutex<Batch>,
}

/// The episodes that ended at a step: `(i, metrics JSON)`, the JSON `None`
/// when the environment does not measure episodes in full.
type Ended = Vec<(usize, Option<String>)>;

/// Checks that each buffer is as long as it must be.
fn check_lengths<const N: usize>(buffers: [(&Bound<'_, PyByteArray>, usize); N]) -> PyResult<()> {
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
    /// `window` waiting jobs, stepped on `threads` threads; none is running
    /// until `reset`.
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
        threads: usize,
        all_metrics: bool,
    ) -> PyResult<Self> {
        if !(1..=n.max(1)).contains(&threads) {
            return Err(error(ErrorKind::Option, format!("threads must be from 1 to the {n} episodes, not {threads}")));
        }
        let jobs = trace.get().session.trace().jobs.len();
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
        let lanes = (0..n).map(|_| Lane { slot: None, written: window, masked: 0 }).collect();
        let batch = Batch { lanes, buffers };
        Ok(Episodes { trace, setup, threads, all_metrics, batch: Mutex::new(batch) })
    }

    /// Starts every episode anew, episode `i` from job `starts[i]`
    /// (`i64`s), and writes the first decisions.
    fn reset(&self, py: Python<'_>, starts: &[u8]) -> PyResult<()> {
        let mut batch = try_state(&self.batch)?;
        let n = batch.lanes.len();
        let starts = integers(starts, n, "starts")?;
        let orders = starts.iter().map(|&s| Order { action: 0, start: usize::try_from(s).ok() }).collect();
        self.step_all(py, &mut batch, orders).map(drop)
    }

    /// Each episode's first job and decisions so far (`None` for one that
    /// has ended or not begun), from which [`Episodes::restore`] makes a
    /// copy.
    fn answers(&self) -> PyResult<Vec<Option<(usize, Vec<i64>)>>> {
        let batch = try_state(&self.batch)?;
        let live = |lane: &Lane| lane.slot.as_ref().filter(|s| !s.ended).map(|s| (s.start, s.answers.clone()));
        Ok(batch.lanes.iter().map(live).collect())
    }

    /// Makes every episode the one `answers()` described (replaying its
    /// decisions) and writes its observation and mask; an episode given
    /// as `None` is left ended, its rows and mask zeros.
    fn restore(&self, py: Python<'_>, episodes: Vec<Option<(usize, Vec<i64>)>>) -> PyResult<()> {
        let mut guard = try_state(&self.batch)?;
        let batch = &mut *guard;
        if episodes.len() != batch.lanes.len() {
            let message = format!("{} episodes to restore for {} environments", episodes.len(), batch.lanes.len());
            return Err(core_error(message));
        }
        let trace = self.trace.get().session.trace();
        let mut slots = Vec::with_capacity(episodes.len());
        for episode in episodes {
            let made = episode.map(|(start, answers)| Slot::replayed(trace, start, &self.setup, &answers));
            slots.push(made.transpose().map_err(session_error)?);
        }
        let (rows, actions) = (self.setup.window * ROW, self.setup.actions());
        let b = &batch.buffers;
        let (observation, mask) = (b.observation.bind(py), b.mask.bind(py));
        check_lengths([(observation, slots.len() * rows), (mask, slots.len() * actions)])?;
        // SAFETY: as in `step_all`: the GIL is held, no Python code runs
        // while the slices live, and the two bytearrays are distinct.
        let (observation, mask) = unsafe { (observation.as_bytes_mut(), mask.as_bytes_mut()) };
        let parts = observation.chunks_exact_mut(rows).zip(mask.chunks_exact_mut(actions));
        for ((lane, slot), (rows, mask)) in batch.lanes.iter_mut().zip(slots).zip(parts) {
            // Every row and mask byte may hold the previous episode's.
            (lane.slot, lane.written, lane.masked) = (slot, self.setup.window, 0);
            mask.fill(0);
            write_decision(lane, &self.setup, rows, mask);
        }
        Ok(())
    }

    /// Takes one action per episode (`i64`s; see `schedlab.gym`), except
    /// that an episode with a start in `starts` (`i64`s, -1 for none; or
    /// empty: none) starts anew from that job instead, as Gymnasium's
    /// next-step autoreset does. Returns `(i, metrics JSON or None)` for
    /// every episode that ended.
    fn step(&self, py: Python<'_>, actions: &[u8], starts: &[u8]) -> PyResult<Ended> {
        let mut batch = try_state(&self.batch)?;
        let n = batch.lanes.len();
        let actions = integers(actions, n, "actions")?;
        let starts = if starts.is_empty() { vec![-1; n] } else { integers(starts, n, "starts")? };
        let orders =
            actions.iter().zip(&starts).map(|(&action, &s)| Order { action, start: usize::try_from(s).ok() }).collect();
        self.step_all(py, &mut batch, orders)
    }
}

impl Episodes {
    fn step_all(&self, py: Python<'_>, batch: &mut Batch, orders: Vec<Order>) -> PyResult<Ended> {
        let trace = self.trace.get().session.trace();
        let n = batch.lanes.len();
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
        // SAFETY: the GIL is held by this thread for as long as these
        // slices live and no Python code runs meanwhile, so no one else
        // reads or resizes the bytearrays; the five are distinct objects.
        let (observation, reward, terminated, mask, invalid) = unsafe {
            (
                observation.as_bytes_mut(),
                reward.as_bytes_mut(),
                terminated.as_bytes_mut(),
                mask.as_bytes_mut(),
                invalid.as_bytes_mut(),
            )
        };
        let mut work: Vec<(usize, &mut Lane, Order, Out<'_>)> = batch
            .lanes
            .iter_mut()
            .zip(orders)
            .zip(observation.chunks_exact_mut(rows))
            .zip(reward.chunks_exact_mut(8))
            .zip(terminated.iter_mut().zip(mask.chunks_exact_mut(actions_of)).zip(invalid.iter_mut()))
            .enumerate()
            .map(|(i, ((((lane, order), observation), reward), ((terminated, mask), invalid)))| {
                (i, lane, order, Out { observation, reward, terminated, mask, invalid })
            })
            .collect();
        let group = n.div_ceil(self.threads);
        let results: Vec<Result<Ended, SessionError>> = std::thread::scope(|scope| {
            let mut groups = work.chunks_mut(group.max(1));
            let first = groups.next();
            let others: Vec<_> = groups.map(|g| scope.spawn(|| self.step_group(trace, g))).collect();
            let mut results = vec![first.map_or(Ok(Vec::new()), |g| self.step_group(trace, g))];
            results.extend(others.into_iter().map(|h| {
                h.join().unwrap_or_else(|_| Err(SessionError::new(ErrorKind::Run, "an episode's thread panicked")))
            }));
            results
        });
        let mut ended = Vec::new();
        for r in results {
            ended.extend(r.map_err(session_error)?);
        }
        Ok(ended)
    }

    /// Steps one group of episodes; returns `(i, metrics JSON or None)`
    /// for each that ended.
    fn step_group(
        &self,
        trace: &Jobs,
        group: &mut [(usize, &mut Lane, Order, Out<'_>)],
    ) -> Result<Ended, SessionError> {
        let mut ended = Vec::new();
        for (i, lane, order, out) in group.iter_mut() {
            if let Some(metrics) = self.step_lane(trace, *i, lane, *order, out)? {
                ended.push((*i, metrics));
            }
        }
        Ok(ended)
    }

    /// Starts episode `i` anew or takes its action, and writes what it
    /// gives; returns whether it ended, with its metrics (JSON) if they are
    /// measured in full.
    fn step_lane(
        &self,
        trace: &Jobs,
        i: usize,
        lane: &mut Lane,
        order: Order,
        out: &mut Out<'_>,
    ) -> Result<Option<Option<String>>, SessionError> {
        let (mut reward, mut ended, mut invalid) = (0.0, None, false);
        if let Some(start) = order.start {
            lane.slot = Some(Slot::new(trace, start, &self.setup)?);
        } else {
            let slot = lane.slot.as_mut().filter(|s| !s.ended).ok_or_else(|| {
                SessionError::new(ErrorKind::State, format!("episode {i} has ended or not begun: reset it"))
            })?;
            let (goes_on, was_invalid) = slot.act(self.setup.mode, order.action)?;
            invalid = was_invalid;
            if !goes_on {
                let steps = slot
                    .steps
                    .take()
                    .ok_or_else(|| SessionError::new(ErrorKind::State, "the episode was already finished"))?;
                let (headline, metrics) = if self.all_metrics {
                    let (metrics, _) = Slot::finish(steps, &slot.jobs, false)?;
                    let json = serde_json::to_string(&metrics)
                        .map_err(|e| SessionError::new(ErrorKind::Export, e.to_string()))?;
                    (Headline::from(&metrics), Some(json))
                } else {
                    (Slot::headline(steps, &slot.jobs), None)
                };
                reward = self.setup.reward.of(&headline);
                ended = Some(metrics);
            }
        }
        write_decision(lane, &self.setup, out.observation, out.mask);
        out.reward.copy_from_slice(&reward.to_le_bytes());
        *out.terminated = u8::from(ended.is_some());
        *out.invalid = u8::from(invalid);
        Ok(ended)
    }
}

/// Writes the lane's waiting decision (zeros if it has none) into its
/// observation rows and mask.
fn write_decision(lane: &mut Lane, setup: &Setup, rows: &mut [u8], mask: &mut [u8]) {
    match &lane.slot {
        Some(slot) => {
            slot.observe(rows, &mut lane.written);
            slot.mask(setup.mode, mask, &mut lane.masked);
        }
        None => {
            rows[..lane.written * ROW].fill(0);
            mask.fill(0);
            (lane.written, lane.masked) = (0, 0);
        }
    }
}
