//! What `compare`, `run --repeat`, `sweep` and `reproduce` share: the
//! flags turned into the core's `Experiment`, and its points run on a pool
//! of threads as wide as the machine (the trace shared read-only, each run
//! building its own policy), one progress bar per run.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::Result;
use indicatif::{MultiProgress, ProgressBar};
use schedlab_engine::{Control, Progress};
use schedlab_experiment::{
    Experiment, ExperimentResult, MetricSettings, ParamList, Phase, Plan, Point, PointResult, RunSpec, Shard,
    WorkloadOptions,
};
use schedlab_session::Session;

use crate::args::{params_with_slurm_conf, MetricArgs, WorkloadArgs, SLURM_POLICY};
use crate::fail::{panic_text, run_failure};
use crate::output;
use crate::trace_input;

/// The runs of `--policy` specs, with a command-wide `--predictor` given
/// to those that name none and read runtimes.
pub(super) fn runs(specs: &[String], predictor: Option<&str>) -> Result<Vec<RunSpec>> {
    specs
        .iter()
        .map(|s| RunSpec::parse(s).map(|r| r.with_default_predictor(predictor)).map_err(anyhow::Error::from))
        .collect()
}

/// An experiment of `runs` with the command's shared flags.
pub(super) fn experiment(
    runs: Vec<RunSpec>,
    params: &[String],
    metrics: &MetricArgs,
    workload: &WorkloadArgs,
) -> Result<Experiment> {
    let workload = workload.for_policies(runs.iter().map(|r| r.policy.as_str()));
    let runs_slurm = runs.iter().any(|r| r.policy == SLURM_POLICY);
    Ok(Experiment {
        params: ParamList(params_with_slurm_conf(params, &workload, runs_slurm)?),
        metrics: metric_settings(metrics),
        workload: workload_options(&workload)?,
        runs,
        ..Experiment::default()
    })
}

pub(super) fn metric_settings(m: &MetricArgs) -> MetricSettings {
    MetricSettings {
        bsd_threshold: m.bsd_threshold,
        skip_percent: m.skip_percent,
        short_runtime: m.short_runtime,
        narrow_size: m.narrow_size,
        check: !m.no_check,
    }
}

/// The workload flags as the experiment records them: only what was given.
pub(super) fn workload_options(w: &WorkloadArgs) -> Result<WorkloadOptions> {
    Ok(WorkloadOptions::given(&trace_input::read_options(w)?))
}

/// The session over the trace, read with the experiment's workload options
/// and the flags' job limit (a host limit, no part of the experiment: it
/// never changes a result), telling its warnings on stderr.
pub(super) fn session(path: &std::path::Path, e: &Experiment, w: &WorkloadArgs) -> Result<Session> {
    let workload = WorkloadOptions { max_jobs: w.max_jobs.or(e.workload.max_jobs), ..e.workload.clone() };
    trace_input::session(path, workload)
}

/// Runs `jobs` jobs on a pool of threads; `work(i, bar)` does job `i`
/// with its progress bar. Results come back in job order; a panic in a job
/// becomes that job's error.
pub(super) fn parallel<T: Send>(
    labels: &[String],
    total_jobs: u64,
    multi: &MultiProgress,
    work: &(dyn Fn(usize, &ProgressBar) -> Result<T, String> + Sync),
) -> Vec<Result<T, String>> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(labels.len()).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<T, String>>>> = Mutex::new((0..labels.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(label) = labels.get(i) else { break };
                let bar = output::multi_job_bar(multi, total_jobs, label);
                let result = catch_unwind(AssertUnwindSafe(|| work(i, &bar)))
                    .unwrap_or_else(|p| Err(format!("internal error (please report): {}", panic_text(p.as_ref()))));
                bar.finish_and_clear();
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(result);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().map(|r| r.unwrap_or_else(|| Err("the run did not finish".into()))).collect()
}

/// An observer that moves `bar` and names the phase when there are two.
pub(super) fn bar_observer(bar: &ProgressBar) -> impl FnMut(Phase, Progress) -> Control + '_ {
    let mut last_step = 0;
    move |phase, p| {
        if phase.steps > 1 && phase.step != last_step {
            last_step = phase.step;
            bar.set_message(format!("step {} of {}: {}", phase.step, phase.steps, phase.label));
        }
        bar.set_position(p.completed);
        Control::Continue
    }
}

/// Runs the points of `plan` in `shard` (all without one) and makes the
/// result; the first failed point fails the whole.
pub(super) fn run_plan(session: &Session, plan: &Plan, shard: Option<Shard>, quiet: bool) -> Result<ExperimentResult> {
    let points: Vec<Point> = plan.points(shard).collect();
    let labels: Vec<String> = points.iter().map(|p| plan.point_label(p)).collect();
    let multi = output::multi(quiet);
    let done = parallel(&labels, session.trace().jobs.len() as u64, &multi, &|i, bar| {
        let start = Instant::now();
        let run = session.run_point(plan, &points[i], &mut bar_observer(bar)).map_err(|e| e.to_string())?;
        let mut r = session.point_result(plan, &points[i], &run).map_err(|e| e.to_string())?;
        r.elapsed_ms = Some(start.elapsed().as_secs_f64() * 1000.0);
        Ok(r)
    });
    multi.clear().ok();
    let mut results: Vec<PointResult> = Vec::with_capacity(done.len());
    for (label, r) in labels.iter().zip(done) {
        results.push(r.map_err(|e| run_failure(format!("{label}: {}", crate::fail::flatten(&e))))?);
    }
    Ok(session.experiment_result(plan, shard, results)?)
}
