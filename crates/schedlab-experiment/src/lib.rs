//! Runs, as the command line and the web page ask for them.
//!
//! A [`RunRequest`] holds what a user typed (all strings, all optional but
//! the policy); [`resolve`] turns it into checked [`RunSettings`] or a typed
//! error naming the bad key; [`run`] replays a trace under those settings,
//! checks the run and computes its metrics; [`RunDocument`] is the
//! versioned result document both front ends print. One code path serves
//! both front ends.

mod document;
mod output;
mod settings;
mod spec;

pub use document::{RunDocument, TraceIdentity, SCHEMA};
pub use output::{write_jobs_csv, write_schedule_swf};
pub use settings::{resolve, ConfigError, RunRequest, RunSettings};
pub use spec::{split_param, PolicySpec, SpecError};

use schedlab_engine::{check, CheckError, Control, EngineError, Progress, RunConfig, RunRecord};
use schedlab_metrics::Metrics;
use schedlab_workload::Trace;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Check(#[from] CheckError),
}

/// A finished, checked run.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub record: RunRecord,
    pub metrics: Metrics,
    /// Whether the run checker ran (and so passed).
    pub checked: bool,
}

/// How often the engine reports progress, in events.
pub const PROGRESS_EVERY: u64 = 1 << 14;

/// Replays `trace` under `settings`, checks the run unless told not to, and
/// computes its metrics. `observer` sees progress and may cancel.
pub fn run(
    trace: &Trace,
    settings: &RunSettings,
    observer: &mut dyn FnMut(Progress) -> Control,
) -> Result<RunOutcome, RunError> {
    let mut policy = settings.build_policy();
    let config =
        RunConfig { procs: trace.procs, source: settings.source, seed: settings.seed, progress_every: PROGRESS_EVERY };
    let record = schedlab_engine::run(&trace.jobs, &config, policy.as_mut(), observer)?;
    if settings.check {
        check(&trace.jobs, &record, &policy.guarantees())?;
    }
    let metrics = schedlab_metrics::compute(&trace.jobs, &record, &settings.metrics);
    Ok(RunOutcome { record, metrics, checked: settings.check })
}
