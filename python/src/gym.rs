//! The engine behind `schedlab.gym.SchedulingEnv`. An episode runs the
//! core's `directed` policy on its own thread; the policy's `Chooser` hands
//! each decision to Python over a channel and waits for the answer, so the
//! engine runs unchanged and knows no agent. The GIL is released while
//! Python waits for the engine.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use schedlab::engine::{self, Control, JobIdx, Overrun, RunConfig, RuntimeSource, Sim};
use schedlab::experiment::write_jobs_csv;
use schedlab::metrics::MetricsOptions;
use schedlab::policies::directed::{directed, Backfill, Chooser, Decision};
use schedlab::workload::Trace as Jobs;

use crate::core_error;
use crate::trace::Trace;

/// Features of an offered job, in order: wait (s), requested time (s),
/// processors, user, free processors of the machine.
pub const FEATURES: usize = 5;

/// What the engine's thread tells Python.
enum Message {
    /// A decision: the features of the offered jobs (window × FEATURES,
    /// zeros past the offered ones), how many are offered, whether a job runs.
    Decide { features: Vec<f32>, offered: usize, running: bool },
    /// The episode ended: its metrics (JSON) and per-job table (CSV), or
    /// why the run failed.
    Done(Result<(String, String), String>),
}

/// The chooser that asks Python.
struct Handoff {
    window: usize,
    to_agent: SyncSender<Message>,
    from_agent: Receiver<Decision>,
}

impl Chooser for Handoff {
    fn choose(&mut self, sim: &Sim<'_>, offered: &[JobIdx]) -> Decision {
        let mut features = vec![0.0f32; self.window * FEATURES];
        for (slot, &j) in offered.iter().enumerate() {
            let job = sim.job(j);
            let f = &mut features[slot * FEATURES..(slot + 1) * FEATURES];
            f[0] = (sim.now() - job.submit) as f32;
            f[1] = job.estimate as f32;
            f[2] = job.size as f32;
            f[3] = job.user as f32;
            f[4] = sim.free() as f32;
        }
        let message = Message::Decide { features, offered: offered.len(), running: sim.running_count() > 0 };
        // A closed channel means the environment was dropped mid-episode:
        // the run stops.
        if self.to_agent.send(message).is_err() {
            return Decision::Stop;
        }
        self.from_agent.recv().unwrap_or(Decision::Stop)
    }
}

/// Runs the episode's jobs and reports how it ended.
fn play(jobs: Jobs, chooser: Handoff, backfill: Backfill) -> Result<(String, String), String> {
    let window = chooser.window;
    let config = RunConfig {
        procs: jobs.procs,
        source: RuntimeSource::Estimate,
        overrun: Overrun::default(),
        seed: 0,
        progress_every: 0,
    };
    let mut policy = directed(Box::new(chooser), window, backfill, RuntimeSource::Estimate);
    let record =
        engine::run(&jobs.jobs, &config, policy.as_mut(), &mut |_| Control::Continue).map_err(|e| e.to_string())?;
    engine::check(&jobs.jobs, &record, &policy.guarantees()).map_err(|e| e.to_string())?;
    let options = MetricsOptions::default();
    let metrics = schedlab::metrics::compute(&jobs.jobs, &record, &options);
    let mut csv = Vec::new();
    write_jobs_csv(&mut csv, &jobs, &record, options.bsd_threshold).map_err(|e| e.to_string())?;
    let metrics = serde_json::to_string(&metrics).map_err(|e| e.to_string())?;
    Ok((metrics, String::from_utf8(csv).map_err(|e| e.to_string())?))
}

struct Channels {
    to_engine: SyncSender<Decision>,
    from_engine: Receiver<Message>,
}

/// One episode: `count` jobs of the trace from job `start` (in priority
/// order), the first `window` waiting jobs offered at each decision.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Episode {
    channels: Mutex<Channels>,
}

#[pymethods]
impl Episode {
    #[new]
    fn new(trace: &Bound<'_, Trace>, start: usize, count: usize, window: usize, backfill: &str) -> PyResult<Self> {
        let t = &trace.get().loaded.trace;
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
        let jobs = Jobs { procs: t.procs, jobs: t.jobs[start..end].to_vec(), extras: t.extras[start..end].to_vec() };
        let (to_agent, from_engine) = sync_channel(1);
        let (to_engine, from_agent) = sync_channel(1);
        let chooser = Handoff { window, to_agent: to_agent.clone(), from_agent };
        std::thread::Builder::new()
            .name("schedlab-episode".into())
            .spawn(move || {
                let outcome = play(jobs, chooser, backfill);
                // Nobody listens any more if the environment was dropped.
                let _ = to_agent.send(Message::Done(outcome));
            })
            .map_err(core_error)?;
        Ok(Episode { channels: Mutex::new(Channels { to_engine, from_engine }) })
    }

    /// The next decision, `(features, offered, running)`, or the end of the
    /// episode, `(metrics_json, jobs_csv)`.
    fn next<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut channels = self.channels.lock().map_err(|_| core_error("the episode's state is poisoned"))?;
        // Borrowed mutably, the receiver may cross into the GIL-free closure.
        let from_engine = &mut channels.from_engine;
        let message = py.detach(move || from_engine.recv()).map_err(|_| core_error("the episode has already ended"))?;
        match message {
            Message::Decide { features, offered, running } => {
                let bytes: Vec<u8> = features.iter().flat_map(|f| f.to_le_bytes()).collect();
                Ok((PyBytes::new(py, &bytes), offered, running).into_pyobject(py)?.into_any())
            }
            Message::Done(Ok((metrics, csv))) => Ok((metrics, csv).into_pyobject(py)?.into_any()),
            Message::Done(Err(e)) => Err(core_error(e)),
        }
    }

    /// Answers the decision: start the offered job at `index`, or (None)
    /// start nothing more until the next event.
    #[pyo3(signature = (index))]
    fn act(&self, index: Option<usize>) -> PyResult<()> {
        let channels = self.channels.lock().map_err(|_| core_error("the episode's state is poisoned"))?;
        let decision = index.map_or(Decision::Wait, Decision::Start);
        channels.to_engine.send(decision).map_err(|_| core_error("the episode has already ended"))
    }
}
