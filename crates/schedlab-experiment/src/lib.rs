//! Runs and experiments, as the command line and the web page ask for them.
//!
//! A [`RunRequest`] holds what a user typed (all strings, all optional but
//! the policy); [`resolve`] turns it into checked [`RunSettings`] or a typed
//! error naming the bad key; [`run`] replays a trace under those settings,
//! checks the run and computes its metrics; [`RunDocument`] is the
//! versioned result document both front ends print.
//!
//! An [`Experiment`] is several runs, repetitions and a sweep as structured
//! data; [`Plan`] checks it and numbers its points without listing them;
//! [`run_point`] runs one; [`ExperimentResult`] summarises the points (mean,
//! 95 % interval); [`merge`] joins shards after checking every point;
//! [`link`] is the share link, a versioned serialisation of an experiment.
//! One code path serves both front ends: the command line's `compare`,
//! `run --repeat`, `sweep`, `merge` and `reproduce` and the page's presets
//! go through it, and the binding offers it whole to the page's form.

mod calibration;
mod document;
mod experiment;
mod facts;
pub mod json;
pub mod link;
mod merge;
mod output;
mod plan;
mod plan_growth;
mod presets;
mod regular;
mod repeat;
mod result;
mod scope;
mod settings;
mod spec;
mod sweep_values;
mod table;
mod title;

pub use calibration::{calibrate, reference_run, Reference};
pub use document::{RunDocument, TraceIdentity, SCHEMA};
pub use experiment::{
    format_value, Experiment, MetricSettings, ParamList, RunSpec, Sweep, SweepError, SweepValues, WorkloadOptions,
    MAX_REPEAT, MAX_RUNS, MAX_SWEEP_VALUES,
};
pub use facts::{cleaning_lines, count_text, counted, trace_facts, CleaningLine, Fact};
pub use json::{document_text, write_document, DocumentError, MetricValue, MetricsDocument, TraceDocument};
pub use merge::{merge, MergeError, Merged, Merger, MAX_MERGE_MEMORY};
pub use output::{
    job_holdings, job_rows, schedule_comments, write_jobs_csv, write_schedule_swf, JobHoldings, JobRow, JOB_COLUMNS,
};
pub use plan::{GridError, Plan, Point, Shard, MAX_SIMULATIONS};
pub use plan_growth::{
    plan_growth, short_count, PlanGrowth, PLAN_GROWTH_WHY, PLAN_NOTE_CHANGES_PER_JOB, PLAN_NOTE_MIN_CHANGES,
};
pub use presets::{preset, Preset, PresetFigure, Reproduction, Section, SectionResult, PRESETS};
pub use regular::{regular_comparison, RegularComparison, RunWaits, SubsetMeans};
pub use repeat::{overflowing_metric, summarise, t975, RepeatSummary};
pub use result::{
    point_result, run_point, ExperimentResult, PointError, PointResult, SummaryRow, ECDF_PIXELS, EXPERIMENT_SCHEMA,
};
pub use scope::{scope, Ignored, ParamState, RunScope, Scope, SharedScope, Sweepable, ValueFrom, KNOBS};
pub use settings::{given_texts, resolve, ConfigError, Given, RunRequest, RunSettings, RUN_PARAMS};
pub use spec::{split_param, PolicySpec, SpecError};
pub use table::{column_header, summary_cell, summary_table, CellStyle, SummaryTable, TableCell, TableRow};
pub use title::{distinguishing, download_name, identity_context, run_title, trace_context};

use schedlab_engine::{CheckError, Control, EngineError, Progress, RunConfig, RunRecord};
use schedlab_metrics::{deadline_metrics, fair_slowdown_table, prediction_metrics, priority_metrics, Metrics};
use schedlab_workload::Trace;
use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Check(#[from] CheckError),
    #[error("policy `{policy}` refuses a machine of nodes: {why}; run it on processors (without --nodes or --slurm-conf) or choose fcfs, easy, cbf or backfill")]
    NotOnNodes { policy: &'static str, why: &'static str },
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
    /// Per job, whether it was regular (had no deadline), for policies that
    /// give deadlines: the job subset [`regular_comparison`] compares runs on.
    pub regular: Option<Vec<bool>>,
}

/// How often the engine reports progress, in events.
pub const PROGRESS_EVERY: u64 = 1 << 14;

/// What a run is doing, for progress reports: some policies need a CBF
/// reference run of the same trace first, so a progress bar restarts once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Phase {
    /// 1-based.
    pub step: u32,
    pub steps: u32,
    /// "calibration (CBF reference run)", "fair-slowdown reference (CBF run)" or "run".
    pub label: &'static str,
}

/// Replays `trace` under `settings`, checks the run unless told not to, and
/// computes its metrics. `observer` sees progress and may cancel.
pub fn run(
    trace: &Trace,
    settings: &RunSettings,
    observer: &mut dyn FnMut(Progress) -> Control,
) -> Result<RunOutcome, RunError> {
    run_phased(trace, settings, &mut |_, p| observer(p))
}

/// [`run`], with the phase of each progress report.
pub fn run_phased(
    trace: &Trace,
    settings: &RunSettings,
    observer: &mut dyn FnMut(Phase, Progress) -> Control,
) -> Result<RunOutcome, RunError> {
    if let (Some(_), schedlab_policies::OnNodes::Refuses(why)) = (&trace.cluster, settings.policy.on_nodes) {
        return Err(RunError::NotOnNodes { policy: settings.policy.id, why });
    }
    let steps = if settings.needs_reference() { 2 } else { 1 };
    let reference_label = if settings.needs_calibration() {
        "calibration (CBF reference run)"
    } else {
        "fair-slowdown reference (CBF run)"
    };
    let reference = if settings.needs_reference() {
        let phase = Phase { step: 1, steps, label: reference_label };
        Some(reference_run(trace, settings, &mut |p| observer(phase, p))?)
    } else {
        None
    };
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
    let phase = Phase { step: steps, steps, label: "run" };
    let cluster = trace.cluster.as_deref();
    let record = schedlab_engine::run_on(&trace.jobs, cluster, &config, policy.as_mut(), &mut |p| observer(phase, p))?;
    if settings.check {
        schedlab_engine::check_on(&trace.jobs, cluster, &record, &policy.guarantees())?;
    }
    let mut metrics = schedlab_metrics::compute(&trace.jobs, &record, &settings.metrics);
    let skip = settings.metrics.skip_percent;
    let deadlines = policy.deadlines();
    metrics.deadline = deadlines.as_ref().map(|d| deadline_metrics(&trace.jobs, &record, d, skip));
    metrics.priority = policy.high_priority_jobs().map(|h| priority_metrics(&trace.jobs, &record, &h, skip));
    metrics.machine = cluster.map(|c| schedlab_metrics::machine_metrics(&trace.jobs, c, &record, &settings.metrics));
    if settings.policy.uses_runtime_source {
        metrics.predictions = Some(prediction_metrics(&trace.jobs, &record, settings.seed, skip));
    }
    if settings.fair_slowdown {
        if let Some(r) = &reference {
            metrics.fair_slowdown = Some(fair_slowdown_table(&trace.jobs, &record, &r.record, &r.name, skip));
        }
    }
    let regular = deadlines.map(|d| d.iter().map(Option::is_none).collect());
    Ok(RunOutcome { record, metrics, checked: settings.check, calibration, regular })
}

/// A number in short form for messages: whole numbers below 10^15 as
/// digits, others with four significant digits (`1e300` → `1.000e300`).
pub fn short(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else if x.abs() >= 1e-3 && x.abs() < 1e15 {
        let s = format!("{x:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        format!("{x:.3e}")
    }
}
