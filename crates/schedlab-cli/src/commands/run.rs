//! `schedlab run`: one trace under one policy.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use indicatif::ProgressBar;
use schedlab_engine::{Control, Progress};
use schedlab_experiment::{resolve, RepeatSummary, RunDocument, RunRequest, RunSettings, TraceIdentity};
use schedlab_metrics::{format_mean, CategoryLimits, MetricsOptions, PredictionMetrics};
use schedlab_schedule::parse_window;
use schedlab_session::{Export, Run, Session};
use schedlab_workload::Loaded;

use crate::args::{params_with_slurm_conf, split_params, MetricArgs, RunArgs, SLURM_POLICY};
use crate::fail::run_failure;
use crate::output::{self, duration, fixed, grouped};
use crate::outputs::{self, Outputs};
use crate::trace_input;

pub fn main(args: &RunArgs) -> Result<ExitCode> {
    let id = policy_id(&args.policy);
    let request = RunRequest {
        policy: args.policy.clone(),
        params: schedlab_experiment::given_texts(params_with_slurm_conf(
            &args.params,
            &args.workload,
            id == SLURM_POLICY,
        )?),
        predictor: args.predictor.clone(),
        seed: args.seed,
        metrics: metrics_options(&args.metrics),
        skip_check: args.metrics.no_check,
    };
    let settings = resolve(&request)?;
    if args.repeat > 1 {
        return repeated(args);
    }
    let mut outputs = Outputs::for_paths([args.trace.as_path()]);
    let csv = outputs.declare_optional("--jobs-csv", args.jobs_csv.as_deref())?;
    let swf = outputs.declare_optional("--swf-out", args.swf_out.as_deref())?;
    let batsim = outputs.declare_optional("--batsim-jobs", args.batsim_jobs.as_deref())?;
    let report = outputs.declare_optional("--output", args.output.output.as_deref())?;
    let gantt = outputs.declare_optional("--gantt", args.gantt.as_deref())?;
    if args.window.is_some() && gantt.is_none() {
        anyhow::bail!("--window is the time window of --gantt, which is not given");
    }
    let window = args.window.as_deref().map(parse_window).transpose()?;
    let workload = Session::workload_of(&trace_input::read_options(&args.workload.for_policies([id].into_iter()))?);
    let session = trace_input::session(&args.trace, workload)?;
    let bar = output::job_bar(session.identity().jobs as u64, settings.policy.id, args.metrics.quiet);
    let (run, elapsed_ms) = timed_run(&session, settings, &bar).map_err(|e| run_failure(e.to_string()))?;
    bar.finish_and_clear();
    let mut staged = Vec::new();
    for (output, export) in [(csv, Export::JobsCsv), (swf, Export::ScheduleSwf), (batsim, Export::BatsimJobs)] {
        if let Some(output) = output {
            let write = |out: &mut dyn Write| session.export(&run, export, out).map_err(std::io::Error::other);
            staged.push(outputs.stage(output, write)?);
        }
    }
    let doc = session.document(&run, Some(elapsed_ms));
    if let Some(gantt) = gantt {
        let svg = session.schedule_svg(&run, window)?;
        staged.push(outputs.stage(gantt, |out| out.write_all(svg.as_bytes()))?);
    }
    // The files and a report to a file in one commit; a report on stdout
    // is printed once every file it speaks of is in place.
    if args.json {
        outputs::emit_with(&outputs, staged, report, outputs::json(&doc))?;
    } else {
        outputs::emit_with(&outputs, staged, report, |out| write_text(out, &doc, run.settings(), session.loaded()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The metric options of the flags (checked by `resolve`).
pub(super) fn metrics_options(m: &MetricArgs) -> MetricsOptions {
    MetricsOptions {
        bsd_threshold: m.bsd_threshold,
        skip_percent: m.skip_percent,
        categories: CategoryLimits { runtime: m.short_runtime, size: m.narrow_size },
    }
}

/// Runs with progress on `bar`; the time is the run's alone (engine,
/// checker, metrics), in milliseconds.
fn timed_run(
    session: &Session,
    settings: RunSettings,
    bar: &ProgressBar,
) -> Result<(Run, f64), schedlab_session::SessionError> {
    let mut observer = |_, p: Progress| {
        bar.set_position(p.completed);
        Control::Continue
    };
    let start = Instant::now();
    let run = session.run_resolved(settings, &mut observer)?;
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    Ok((run, elapsed_ms))
}

/// `KEY=VALUE` pairs of a result document, for text output.
pub(super) fn params_text(doc: &RunDocument) -> String {
    let parts: Vec<String> = doc.params.iter().map(|(k, v)| format!("{k}={}", param_value(v))).collect();
    if parts.is_empty() {
        "-".to_owned()
    } else {
        parts.join(" ")
    }
}

fn param_value(v: &schedlab_engine::params::ParamValue) -> String {
    use schedlab_engine::params::ParamValue;
    match v {
        ParamValue::Choice(s) | ParamValue::Text(s) => s.clone(),
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Float(x) => schedlab_workload::short_number(*x),
    }
}

fn write_text(out: &mut dyn Write, doc: &RunDocument, settings: &RunSettings, loaded: &Loaded) -> std::io::Result<()> {
    let m = &doc.metrics;
    let t = &doc.trace;
    writeln!(out, "policy          {} ({})  {}", doc.policy, settings.policy.name, params_text(doc))?;
    writeln!(out, "predictor       {}", doc.predictor)?;
    writeln!(out, "seed            {}", doc.seed)?;
    writeln!(out, "trace           {}  {} jobs  {} procs", t.name, grouped(t.jobs as u64), t.procs)?;
    writeln!(out, "cleaning        {}", loaded.report.summary())?;
    let ms = doc.elapsed_ms.unwrap_or(0.0);
    writeln!(out, "events          {}  ({} passes, {} ms)", grouped(doc.events), grouped(doc.passes), fixed(ms, 1))?;
    writeln!(out)?;
    writeln!(out, "jobs            {}", grouped(m.jobs as u64))?;
    writeln!(out, "MBS             {}", fixed(m.mbs, 3))?;
    writeln!(out, "MWBS            {}", fixed(m.mwbs, 3))?;
    writeln!(out, "mean wait       {} s", fixed(m.mean_wait, 1))?;
    writeln!(out, "median wait     {}", duration(m.median_wait))?;
    writeln!(out, "p95 wait        {}", duration(m.p95_wait))?;
    writeln!(out, "max wait        {}", duration(m.max_wait))?;
    writeln!(out, "utilization     {} ({:.1} %)", fixed(m.utilization, 4), m.utilization * 100.0)?;
    writeln!(out, "makespan        {}", duration(m.makespan))?;
    writeln!(out, "backfilled      {}", grouped(m.backfilled as u64))?;
    writeln!(out, "blocked         {}", grouped(m.blocked as u64))?;
    let f = &m.fairness;
    writeln!(
        out,
        "fairness        {} delayed of {} blocked, mean delay {} s, max delay {}",
        f.delayed,
        f.blocked,
        fixed(f.mean_delay, 1),
        duration(f.max_delay)
    )?;
    let a = &m.fairness_all;
    writeln!(
        out,
        "fairness (all)  {} delayed of {} that waited, mean delay {} s, max delay {}, {} lower-priority culprits",
        a.delayed,
        a.blocked,
        fixed(a.mean_delay, 1),
        duration(a.max_delay),
        a.culprits
    )?;
    write_extras(out, doc)?;
    writeln!(out, "check           {}", doc.check)
}

/// Lines shown only when they say something: preemption and waste,
/// reservation violations, deadlines and the calibration run.
fn write_extras(out: &mut dyn Write, doc: &RunDocument) -> std::io::Result<()> {
    let m = &doc.metrics;
    let p = &m.preemption;
    if p.preempted > 0 || p.wasted_load > 0.0 {
        writeln!(
            out,
            "preemption      {} jobs ({:.2} %), MKT {}, mean RTW {:.1} %, total load {:.2} %, wasted {:.2} %",
            p.preempted,
            100.0 * p.preemption_rate,
            fixed(p.mkt, 2),
            100.0 * p.mean_rtw,
            100.0 * p.total_load,
            100.0 * p.wasted_load
        )?;
    }
    let v = &m.reservation_violations;
    if v.count > 0 {
        writeln!(
            out,
            "violations      {} reservations, victims {} procs, DTR mean {} s max {}, SI mean {} max {}",
            v.count,
            fixed(v.mean_victim_size, 1),
            fixed(v.mean_dtr, 1),
            duration(v.max_dtr),
            fixed(v.mean_si, 2),
            fixed(v.max_si, 2)
        )?;
    }
    if let Some(d) = &m.deadline {
        writeln!(
            out,
            "deadlines       {} deadline-driven jobs, {} violations, mean usage {}; regular jobs: mean wait {}, mean stretch {}",
            d.jobs,
            d.violations,
            mean_with_unit(d.mean_usage.map(|u| 100.0 * u), 1, "%"),
            mean_with_unit(d.regular_mean_wait, 1, "s"),
            format_mean(d.regular_mean_stretch, 3)
        )?;
    }
    if let Some(p) = &m.predictions {
        writeln!(out, "predictions     {}", predictions_text(p))?;
    }
    if let Some(machine) = &m.machine {
        let uses: Vec<String> =
            machine.resources.iter().map(|r| format!("{} {:.1} %", r.resource, 100.0 * r.utilization)).collect();
        writeln!(out, "resources       utilization {}", uses.join(", "))?;
        for p in &machine.partitions {
            writeln!(
                out,
                "partition       {}: {} jobs, mean wait {} s, MBS {}, cores {:.1} %",
                p.partition,
                grouped(p.jobs as u64),
                fixed(p.mean_wait, 1),
                fixed(p.mbs, 3),
                100.0 * p.utilization
            )?;
        }
    }
    if let Some(c) = &doc.calibration {
        writeln!(
            out,
            "calibration     {}: mean wait {} s, well-estimated MBS {}",
            c.reference,
            fixed(c.mean_wait, 1),
            fixed(c.well_estimated_bsd, 3)
        )?;
    }
    Ok(())
}

/// The realised error (beside the virtual predictor's x) and what
/// predictions fell short or were clamped.
fn predictions_text(p: &PredictionMetrics) -> String {
    let nominal = p.error_pct.map_or_else(String::new, |x| format!(" x = {x} %,"));
    let mut text = format!(
        "{}{nominal} realised mean absolute error {} % ({} s), {} jobs underpredicted",
        p.source,
        fixed(p.mean_abs_error_pct, 2),
        fixed(p.mean_abs_error_s, 1),
        grouped(p.underpredicted as u64)
    );
    if let (Some(clamped), Some(raised)) = (p.clamped_to_estimate, p.raised_to_one) {
        text.push_str(&format!(", {} clamped to the estimate, {} raised to 1 s", grouped(clamped), grouped(raised)));
    }
    text
}

/// A mean and its unit, or "undefined (no jobs)" alone for a mean over no
/// jobs.
fn mean_with_unit(value: Option<f64>, digits: u8, unit: &str) -> String {
    value.map_or_else(|| format_mean(None, digits), |v| format!("{} {unit}", format_mean(Some(v), digits)))
}

/// `--repeat N`: the same run with seeds SEED … SEED+N−1, in parallel, and
/// the mean and 95 % interval of every metric: an experiment of one run,
/// summarised by the core.
fn repeated(args: &RunArgs) -> Result<ExitCode> {
    if args.jobs_csv.is_some() || args.swf_out.is_some() || args.gantt.is_some() || args.batsim_jobs.is_some() {
        anyhow::bail!(
            "--jobs-csv, --swf-out, --batsim-jobs and --gantt describe one run; they cannot be combined with --repeat"
        );
    }
    let (outputs, report) = outputs::for_report([args.trace.as_path()], &args.output)?;
    let spec = schedlab_experiment::RunSpec {
        policy: args.policy.clone(),
        params: schedlab_experiment::ParamList(split_params(&args.params)?),
        predictor: args.predictor.clone(),
    };
    // The experiment adds --slurm-conf's parameters to the run's own.
    let mut e = super::experiment::experiment(vec![spec], &[], &args.metrics, &args.workload)?;
    e.repeat = args.repeat;
    e.seed = args.seed;
    let plan = schedlab_session::plan(e)?;
    let session = super::experiment::session(&args.trace, plan.experiment(), &args.workload)?;
    let rows = super::compare::run_documents(&session, &plan, args.metrics.quiet, super::compare::Waits::Drop);
    let mut docs = Vec::with_capacity(rows.len());
    let mut points = Vec::with_capacity(rows.len());
    for (point, row) in plan.points(None).zip(rows) {
        let doc = row.result.map_err(|e| run_failure(format!("{} seed {}: {e}", row.label, point.seed)))?;
        points.push(schedlab_experiment::PointResult::of_document(point, &doc)?);
        docs.push(doc);
    }
    let result = session.experiment_result(&plan, None, points)?;
    let row = result.summary.first().ok_or_else(|| anyhow::anyhow!("no summary"))?;
    let note = result.note.as_deref();
    let summary = RepeatSummary {
        repeat: row.seeds.len(),
        seeds: row.seeds.clone(),
        mean: row.mean.clone(),
        ci95: row.ci95.clone(),
    };
    if args.json {
        let first = &docs[0];
        let doc = Repeated {
            policy: first.policy,
            params: &first.params,
            predictor: first.predictor,
            trace: &first.trace,
            summary: &summary,
            note,
            runs: &docs,
        };
        outputs::emit(&outputs, report, outputs::json(&doc))?;
    } else {
        outputs::emit(&outputs, report, |out| write_repeated(out, &docs[0], &summary, note))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON of a repeated run: the first run's identity fields, the summary
/// and every run.
#[derive(serde::Serialize)]
struct Repeated<'a> {
    policy: &'a str,
    params: &'a std::collections::BTreeMap<String, schedlab_engine::params::ParamValue>,
    predictor: &'a str,
    trace: &'a TraceIdentity,
    #[serde(flatten)]
    summary: &'a RepeatSummary,
    /// Why the run ran once although repetitions were asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    runs: &'a [RunDocument],
}

fn write_repeated(
    out: &mut dyn Write,
    first: &RunDocument,
    s: &RepeatSummary,
    note: Option<&str>,
) -> std::io::Result<()> {
    writeln!(out, "policy          {}  {}", first.policy, params_text(first))?;
    writeln!(out, "predictor       {}", first.predictor)?;
    writeln!(
        out,
        "trace           {}  {} jobs  {} procs",
        first.trace.name,
        grouped(first.trace.jobs as u64),
        first.trace.procs
    )?;
    if s.repeat == 1 {
        writeln!(out, "repeat          1 run, seed {}", s.seeds[0])?;
    } else {
        writeln!(out, "repeat          {} runs, seeds {}–{}", s.repeat, s.seeds[0], s.seeds[s.seeds.len() - 1])?;
    }
    if let Some(note) = note {
        writeln!(out, "                {note}")?;
    }
    writeln!(out)?;
    use schedlab_metrics::Metric::*;
    let keys = [Mbs, Mwbs, MeanWait, MaxWait, Utilization, Backfilled, Blocked, Preempted, Mkt, MeanRtw, WastedLoad];
    for c in keys.map(|m| schedlab_metrics::MetricKey::Fixed(m).column()) {
        writeln!(out, "{:<15} {}", c.key, output::summary_cell(&s.mean, &s.ci95, &c))?;
    }
    Ok(())
}

/// The policy id of a `--policy` value (`ID[@PREDICTOR]`); a value that is
/// not one is refused later, when the run is resolved.
fn policy_id(spec: &str) -> &str {
    spec.split(['@', ':']).next().unwrap_or(spec).trim()
}
