//! The engine behind `schedlab.gym`: `Episode`, the one episode of a
//! `SchedulingEnv`, and `Episodes`, the N episodes of a
//! `VectorSchedulingEnv` stepped in one call. An episode is the core's
//! directed run driven from outside (`policies::directed::Steps`): each
//! action answers one decision and runs the engine, on the caller's thread,
//! to the next one, whose observation it writes into the environment's
//! buffer. No thread waits for another, and the engine knows no agent.
//!
//! Every episode keeps the answers it was given, so that a copy (Python's
//! `copy.deepcopy`, or pickling) replays them from its first job and is
//! then the same episode, independent of the original.
//!
//! Locks: each object's state sits behind a mutex that is only ever tried,
//! never waited for, and never held while the GIL is released; a second
//! thread using the same object at the same moment gets an error instead
//! of a deadlock.

use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use schedlab::engine::{self, Overrun, Preemption, Replay, RunConfig, RuntimeSource};
use schedlab::experiment::write_jobs_csv;
use schedlab::metrics::{Headline, Metrics, MetricsOptions};
use schedlab::policies::directed::{Backfill, Decision, Steps};
use schedlab::workload::{Job, Trace as Jobs};

use crate::trace::Trace;
use crate::{core_error, error, session_error, ErrorKind, SessionError};

/// Features of an offered job, in order: wait (s), requested time (s),
/// processors, user, free processors of the machine.
pub const FEATURES: usize = 5;

/// The largest window: an observation of 65,536 rows is 1.25 MiB, and no
/// agent looks at more waiting jobs than that (RLScheduler's is 128).
/// Checked before any buffer is made, so that a window of 10^8 is refused
/// at once instead of taking gigabytes.
pub const MAX_WINDOW: usize = 1 << 16;

/// Bytes of one row of the observation (little-endian `f32`s).
const ROW: usize = FEATURES * 4;

/// What an action means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The row of the offered job to run.
    Pick,
    /// 0 accepts the base policy's pick (row 0), 1 rejects it.
    Inspect,
}

/// The metric the last step of an episode is rewarded with, signed so that
/// more is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reward {
    Mbs,
    Mwbs,
    MeanWait,
    Utilization,
}

impl Reward {
    fn parse(text: &str) -> PyResult<Self> {
        match text {
            "mbs" => Ok(Reward::Mbs),
            "mwbs" => Ok(Reward::Mwbs),
            "mean_wait" => Ok(Reward::MeanWait),
            "utilization" => Ok(Reward::Utilization),
            other => Err(error(
                ErrorKind::Option,
                format!("reward must be \"mbs\", \"mwbs\", \"mean_wait\" or \"utilization\", not {other:?}"),
            )),
        }
    }

    fn of(self, m: &Headline) -> f64 {
        match self {
            Reward::Mbs => -m.mbs,
            Reward::Mwbs => -m.mwbs,
            Reward::MeanWait => -m.mean_wait,
            Reward::Utilization => m.utilization,
        }
    }
}

/// The environment's choices as the caller names them.
struct Names<'a> {
    backfill: &'a str,
    mode: &'a str,
    reward: &'a str,
}

/// How every episode of an environment is made and answered.
#[derive(Clone, Copy, Debug)]
struct Setup {
    count: usize,
    window: usize,
    backfill: Backfill,
    mode: Mode,
    reward: Reward,
}

impl Setup {
    fn new(jobs: usize, count: usize, window: usize, names: Names<'_>) -> PyResult<Self> {
        let Names { backfill, mode, reward } = names;
        let backfill = match backfill {
            "easy" => Backfill::Easy,
            "none" => Backfill::None,
            other => {
                return Err(error(ErrorKind::Option, format!("backfill must be \"easy\" or \"none\", not {other:?}")))
            }
        };
        let mode = match mode {
            "pick" => Mode::Pick,
            "inspect" => Mode::Inspect,
            other => {
                return Err(error(ErrorKind::Option, format!("mode must be \"pick\" or \"inspect\", not {other:?}")))
            }
        };
        if !(1..=MAX_WINDOW).contains(&window) {
            return Err(error(ErrorKind::Option, format!("the window must hold 1 to {MAX_WINDOW} jobs, not {window}")));
        }
        if count == 0 || count > jobs {
            return Err(error(
                ErrorKind::Option,
                format!("an episode must hold 1 to {jobs} jobs (the trace's), not {count}"),
            ));
        }
        Ok(Setup { count, window, backfill, mode, reward: Reward::parse(reward)? })
    }

    /// How many actions there are: the window's rows, or accept and reject.
    fn actions(&self) -> usize {
        match self.mode {
            Mode::Pick => self.window,
            Mode::Inspect => 2,
        }
    }
}

/// One episode's run.
struct Slot {
    /// The run; `None` once finished. Declared before `jobs`, so that it is
    /// dropped first: it borrows the jobs that `jobs` owns.
    steps: Option<Steps<'static>>,
    /// The episode's jobs, shared and never changed while `steps` lives;
    /// an `Arc` keeps them at one heap address whatever moves the slot.
    jobs: Arc<Jobs>,
    start: usize,
    /// The decisions taken so far: the offered row started, or -1 for
    /// "nothing more until the next event".
    answers: Vec<i64>,
    /// The waiting decision: how many jobs are offered, whether one runs.
    offered: usize,
    running: bool,
    /// Whether the run is over (then [`Slot::finish`]).
    ended: bool,
}

impl Slot {
    /// The episode of `setup.count` jobs of `trace` from job `start` (in
    /// priority order), run to its first decision.
    fn new(trace: &Jobs, start: usize, setup: &Setup) -> Result<Slot, SessionError> {
        let end = start.checked_add(setup.count).filter(|&e| e <= trace.jobs.len()).ok_or_else(|| {
            let message = format!(
                "an episode of {} jobs from job {start} does not fit in {} jobs",
                setup.count,
                trace.jobs.len()
            );
            SessionError::new(ErrorKind::Option, message)
        })?;
        let jobs = Arc::new(Jobs {
            procs: trace.procs,
            jobs: trace.jobs[start..end].to_vec(),
            extras: trace.extras[start..end].to_vec(),
        });
        let config = RunConfig {
            procs: jobs.procs,
            source: RuntimeSource::Estimate,
            overrun: Overrun::default(),
            seed: 0,
            progress_every: 0,
        };
        // SAFETY: the slice lives in the `Arc`'s allocation, which the slot
        // holds and never mutates for as long as `steps` (declared before
        // it, so dropped first) can reach it; moving the slot moves only
        // the `Arc`'s pointer.
        let slice: &'static [Job] = unsafe { &*(jobs.jobs.as_slice() as *const [Job]) };
        let replay = Replay::new(slice, &config, Preemption::Kill).map_err(failed)?;
        let steps = Steps::new(replay, setup.window, setup.backfill, config.source);
        let mut slot =
            Slot { steps: Some(steps), jobs, start, answers: Vec::new(), offered: 0, running: false, ended: false };
        if !slot.advance(None)? {
            return Err(SessionError::new(ErrorKind::Run, "the episode ended before its first decision"));
        }
        Ok(slot)
    }

    /// The episode from job `start` after `answers` (a copy's decisions,
    /// from [`Slot::answers`]), run to the decision that follows them.
    fn replayed(trace: &Jobs, start: usize, setup: &Setup, answers: &[i64]) -> Result<Slot, SessionError> {
        let mut slot = Slot::new(trace, start, setup)?;
        for &a in answers {
            if !slot.advance(Some(a))? {
                return Err(SessionError::new(ErrorKind::State, "the answers go past the end of the episode"));
            }
        }
        Ok(slot)
    }

    fn steps(&mut self) -> Result<&mut Steps<'static>, SessionError> {
        match &mut self.steps {
            Some(steps) if !self.ended => Ok(steps),
            _ => Err(SessionError::new(ErrorKind::State, "the episode has already ended")),
        }
    }

    /// Answers the waiting decision (`None`: runs to the first one); `false`
    /// once the episode has ended (then [`Slot::finish`]).
    fn advance(&mut self, answer: Option<i64>) -> Result<bool, SessionError> {
        let steps = self.steps()?;
        let waiting = match answer {
            None => steps.advance(),
            Some(a) => steps.decide(usize::try_from(a).map_or(Decision::Wait, Decision::Start)),
        }
        .map_err(failed)?;
        let decision = if waiting { (steps.offered().len(), steps.sim().running_count() > 0) } else { (0, false) };
        (self.offered, self.running) = decision;
        self.answers.extend(answer);
        self.ended = !waiting;
        Ok(waiting)
    }

    /// Takes `action` in `mode`: an invalid one is taken as action 0.
    /// Returns whether the episode goes on and whether the action was invalid.
    fn act(&mut self, mode: Mode, action: i64) -> Result<(bool, bool), SessionError> {
        let (offered, running) = (self.offered as i64, self.running);
        let (answer, invalid) = match mode {
            Mode::Pick => {
                let invalid = !(0..offered).contains(&action);
                (if invalid { 0 } else { action }, invalid)
            }
            Mode::Inspect => {
                let invalid = !(offered > 0 && (action == 0 || (action == 1 && running)));
                (if action == 1 && !invalid { -1 } else { 0 }, invalid)
            }
        };
        Ok((self.advance(Some(answer))?, invalid))
    }

    /// Writes the waiting decision's observation into `rows` (zeros once
    /// the episode has ended); `written` is how many rows held a job at the
    /// previous decision, the only ones that can be dirty.
    fn observe(&self, rows: &mut [u8], written: &mut usize) {
        let mut count = 0;
        if let Some(steps) = self.steps.as_ref().filter(|_| self.offered > 0) {
            let sim = steps.sim();
            let free = sim.free() as f32;
            for (row, &j) in rows.chunks_exact_mut(ROW).zip(steps.offered()) {
                let job = sim.job(j);
                // SWF user numbers below -1 are malformed; like -1 they say
                // nothing of who submitted, and the space declares -1 the least.
                let user = job.user.max(-1) as f32;
                let features: [f32; FEATURES] =
                    [(sim.now() - job.submit) as f32, job.estimate as f32, job.size as f32, user, free];
                for (slot, value) in row.chunks_exact_mut(4).zip(features) {
                    slot.copy_from_slice(&value.to_le_bytes());
                }
                count += 1;
            }
        }
        if *written > count {
            rows[count * ROW..*written * ROW].fill(0);
        }
        *written = count;
    }

    /// Writes the valid actions of the waiting decision into `row` (a byte
    /// per action); `masked` is how many "pick" actions the previous
    /// decision allowed, so that only the bytes between the two change.
    fn mask(&self, mode: Mode, row: &mut [u8], masked: &mut usize) {
        match mode {
            Mode::Pick => {
                let now = self.offered;
                if now > *masked {
                    row[*masked..now].fill(1);
                } else {
                    row[now..*masked].fill(0);
                }
                *masked = now;
            }
            Mode::Inspect => {
                row[0] = u8::from(self.offered > 0);
                row[1] = u8::from(self.offered > 0 && self.running);
            }
        }
    }

    /// The reward metrics of the ended run alone, unchecked: what an
    /// environment asked for no episode metrics needs (see
    /// `VectorSchedulingEnv`'s `episode_metrics`).
    fn headline(steps: Steps<'static>, jobs: &Jobs) -> Headline {
        schedlab::metrics::headline(&jobs.jobs, &steps.finish(), &MetricsOptions::default())
    }

    /// Checks the ended run and computes its metrics, and its per-job table
    /// (`run --jobs-csv`'s) if asked.
    fn finish(steps: Steps<'static>, jobs: &Jobs, csv: bool) -> Result<(Metrics, Option<String>), SessionError> {
        let record = steps.finish();
        // No guarantee, as the directed policy declares: an agent may pass
        // over a job it reserved for.
        engine::check(&jobs.jobs, &record, &[]).map_err(failed)?;
        let options = MetricsOptions::default();
        let metrics = schedlab::metrics::compute(&jobs.jobs, &record, &options);
        let table = if csv {
            let mut out = Vec::new();
            write_jobs_csv(&mut out, jobs, &record, options.bsd_threshold).map_err(SessionError::from)?;
            Some(String::from_utf8_lossy(&out).into_owned())
        } else {
            None
        };
        Ok((metrics, table))
    }
}

/// Takes the state without waiting: with the GIL held and never released
/// while the lock is, the lock can only be held by a thread that has
/// released the GIL elsewhere, so waiting could deadlock.
fn try_state<T>(state: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    state.try_lock().map_err(|e| match e {
        std::sync::TryLockError::Poisoned(_) => core_error("the episode's state is poisoned"),
        std::sync::TryLockError::WouldBlock => pyo3::exceptions::PyRuntimeError::new_err(
            "the environment is being used by another thread; step one environment from one thread at a time",
        ),
    })
}

/// An episode's run that failed: the engine or the run checker refused it.
fn failed(e: impl std::fmt::Display) -> SessionError {
    SessionError::new(ErrorKind::Run, e.to_string())
}

fn metrics_json(metrics: &Metrics) -> PyResult<String> {
    serde_json::to_string(metrics).map_err(core_error)
}

/// One episode and the environment's observation buffer.
struct Live {
    slot: Option<Slot>,
    observation: Py<PyByteArray>,
    written: usize,
}

/// One episode: `count` jobs of the trace from job `start` (in priority
/// order), the first `window` waiting jobs offered at each decision.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Episode {
    setup: Setup,
    live: Mutex<Live>,
}

#[pymethods]
impl Episode {
    /// Runs to the first decision and writes each decision's observation
    /// into `observation`, a bytearray of `window × FEATURES` little-endian
    /// `f32`s that the caller reads as its numpy array. `answers` (from
    /// `answers()`) replays a copied episode's decisions.
    #[new]
    #[pyo3(signature = (trace, start, count, window, backfill, mode, reward, observation, answers=Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        trace: &Bound<'_, Trace>,
        start: usize,
        count: usize,
        window: usize,
        backfill: &str,
        mode: &str,
        reward: &str,
        observation: Bound<'_, PyByteArray>,
        answers: Vec<i64>,
    ) -> PyResult<Self> {
        let t = trace.get().session.trace();
        let setup = Setup::new(t.jobs.len(), count, window, Names { backfill, mode, reward })?;
        if Some(observation.len()) != window.checked_mul(ROW) {
            return Err(core_error(format!(
                "the observation buffer holds {} bytes, not the {window} × {ROW} of the window",
                observation.len()
            )));
        }
        let slot = Slot::replayed(t, start, &setup, &answers).map_err(session_error)?;
        let mut live = Live { slot: Some(slot), observation: observation.unbind(), written: window };
        live.observe(py);
        Ok(Episode { setup, live: Mutex::new(live) })
    }

    /// The waiting decision: `(offered, running)`, how many jobs are offered
    /// and whether any job runs; None once the episode has ended.
    fn decision(&self) -> PyResult<Option<(usize, bool)>> {
        let live = try_state(&self.live)?;
        Ok(live.slot.as_ref().filter(|s| !s.ended).map(|s| (s.offered, s.running)))
    }

    /// Takes `action` (see `schedlab.gym`; an invalid one is taken as 0) and
    /// runs to the next decision. Returns `(decision, invalid)`, the
    /// decision as `decision()` gives it.
    fn step(&self, py: Python<'_>, action: i64) -> PyResult<(Option<(usize, bool)>, bool)> {
        let mut live = try_state(&self.live)?;
        let slot =
            live.slot.as_mut().ok_or_else(|| error(ErrorKind::State, "the episode's result was already taken"))?;
        let (goes_on, invalid) = slot.act(self.setup.mode, action).map_err(session_error)?;
        let decision = goes_on.then_some((slot.offered, slot.running));
        live.observe(py);
        Ok((decision, invalid))
    }

    /// The first job and the decisions taken so far, from which a copy
    /// replays the episode.
    fn answers(&self) -> PyResult<(usize, Vec<i64>)> {
        let live = try_state(&self.live)?;
        let slot =
            live.slot.as_ref().ok_or_else(|| error(ErrorKind::State, "the episode's result was already taken"))?;
        Ok((slot.start, slot.answers.clone()))
    }

    /// The ended episode's reward, metrics (JSON) and per-job table (CSV),
    /// after the run checker has verified its schedule; once only. The lock is let go
    /// before the GIL is, so another thread's `step()` meanwhile gets an
    /// error rather than a deadlock.
    fn result(&self, py: Python<'_>) -> PyResult<(f64, String, String)> {
        let mut slot = {
            let mut live = try_state(&self.live)?;
            match live.slot.take() {
                Some(slot) if slot.ended => slot,
                Some(slot) => {
                    live.slot = Some(slot);
                    return Err(error(ErrorKind::State, "the episode has not ended"));
                }
                None => return Err(error(ErrorKind::State, "the episode's result was already taken")),
            }
        };
        let steps =
            slot.steps.take().ok_or_else(|| error(ErrorKind::State, "the episode's result was already taken"))?;
        let jobs = Arc::clone(&slot.jobs);
        let (metrics, csv) = py.detach(move || Slot::finish(steps, &jobs, true)).map_err(session_error)?;
        Ok((self.setup.reward.of(&Headline::from(&metrics)), metrics_json(&metrics)?, csv.unwrap_or_default()))
    }
}

impl Live {
    fn observe(&mut self, py: Python<'_>) {
        let buffer = self.observation.bind(py);
        // SAFETY: the GIL is held and nothing here runs Python code, so no
        // one else reads or resizes the bytearray while it is written.
        let bytes = unsafe { buffer.as_bytes_mut() };
        if let Some(slot) = &self.slot {
            slot.observe(bytes, &mut self.written);
        }
    }
}

mod vector;
pub use vector::Episodes;
