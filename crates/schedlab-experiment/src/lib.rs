//! Runs, as the command line and the web page ask for them.
//!
//! A [`RunRequest`] holds what a user typed (all strings, all optional but
//! the policy); [`resolve`] turns it into checked [`RunSettings`] or a typed
//! error naming the bad key; [`run`] replays a trace under those settings,
//! checks the run and computes its metrics; [`RunDocument`] is the
//! versioned result document both front ends print. One code path serves
//! both front ends.

mod calibration;
mod document;
mod grid;
mod output;
mod presets;
mod repeat;
mod settings;
mod spec;

pub use calibration::{calibrate, reference_run, Reference};
pub use document::{RunDocument, TraceIdentity, SCHEMA};
pub use grid::{
    merge, run_point, Experiment, ExperimentResult, GridError, MergeError, Plan, Point, PointResult, Shard, SummaryRow,
    Sweep, EXPERIMENT_SCHEMA,
};
pub use output::{schedule_comments, write_jobs_csv, write_schedule_swf};
pub use presets::{metric_at, preset, Column, Figure, Preset, Section, PRESETS};
pub use repeat::{summarise, t975, RepeatSummary};
pub use settings::{resolve, ConfigError, RunRequest, RunSettings};
pub use spec::{split_param, PolicySpec, SpecError};

use schedlab_engine::{check, CheckError, Control, EngineError, Progress, RunConfig, RunRecord};
use schedlab_metrics::{deadline_metrics, fair_slowdown_table, prediction_metrics, Metrics};
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
    /// The calibration figures the policy was built with, if it asked.
    pub calibration: Option<schedlab_policies::Calibration>,
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
    let reference = if settings.needs_reference() { Some(reference_run(trace, settings, observer)?) } else { None };
    let calibration = reference
        .as_ref()
        .filter(|_| settings.needs_calibration())
        .map(|r| calibrate(&trace.jobs, r, settings.categories(), settings.metrics.bsd_threshold));
    // Keep the reference run through the main run only if the fairness
    // table needs it; memory per job stays that of one run otherwise.
    let reference = reference.filter(|_| settings.fair_slowdown);
    let mut policy = settings.build_policy_with(calibration.clone());
    let config = RunConfig {
        procs: trace.procs,
        source: settings.source,
        overrun: settings.overrun,
        seed: settings.seed,
        progress_every: PROGRESS_EVERY,
    };
    let record = schedlab_engine::run(&trace.jobs, &config, policy.as_mut(), observer)?;
    if settings.check {
        check(&trace.jobs, &record, &policy.guarantees())?;
    }
    let mut metrics = schedlab_metrics::compute(&trace.jobs, &record, &settings.metrics);
    let skip = settings.metrics.skip_percent;
    metrics.deadline = policy.deadlines().map(|d| deadline_metrics(&trace.jobs, &record, &d, skip));
    if settings.policy.uses_runtime_source {
        metrics.predictions = Some(prediction_metrics(&trace.jobs, &record, settings.seed, skip));
    }
    if settings.fair_slowdown {
        if let Some(r) = &reference {
            metrics.fair_slowdown = Some(fair_slowdown_table(&trace.jobs, &record, &r.record, &r.name, skip));
        }
    }
    Ok(RunOutcome { record, metrics, checked: settings.check, calibration })
}
