//! `schedlab sweep`: a parameter grid, locally parallel, shardable.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use schedlab_experiment::{
    Experiment, ExperimentResult, Plan, PointResult, PolicySpec, RunDocument, RunSettings, Shard, Sweep,
};

use crate::args::{split_params, SweepArgs};
use crate::fail::run_failure;
use crate::output::{self, fixed};
use crate::outputs::{self, Output, Outputs};
use crate::trace_input;

pub fn main(args: &SweepArgs) -> Result<ExitCode> {
    let experiment = Experiment {
        runs: args.policy.iter().map(|p| with_predictor(p, args.predictor.as_deref())).collect::<Result<_>>()?,
        params: split_params(&args.params)?,
        repeat: args.repeat,
        seed: args.seed,
        sweep: Some(Sweep::parse(&args.sweep)?),
    };
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let plan = Plan::new(experiment)?;
    let (outputs, report) = Outputs::for_report([args.trace.as_path()], &args.output)?;
    let loaded = trace_input::load_with(&args.trace, &args.workload)?;
    let identity = super::run::identity(&args.trace, &loaded, &args.workload)?;
    let chosen: Vec<&(schedlab_experiment::Point, RunSettings)> = plan.shard(shard).collect();
    let labels: Vec<String> = chosen.iter().map(|(p, _)| point_label(&plan, p)).collect();
    let settings: Vec<RunSettings> = chosen.iter().map(|(_, s)| s.clone()).collect();
    let multi = output::multi(args.quiet);
    let rows = super::compare::run_all(&loaded.trace, &identity, &labels, &settings, &multi);
    let mut points = Vec::with_capacity(rows.len());
    for ((point, _), row) in chosen.iter().zip(rows) {
        let doc = row.result.map_err(|e| run_failure(format!("{}: {e}", row.label)))?;
        points.push(point_result(point, &doc)?);
    }
    let result = ExperimentResult::new(&plan, serde_json::to_value(&identity)?, shard, points);
    print(&result, args.json, &outputs, report)
}

/// Adds a command-wide `--predictor` to specs that name none.
fn with_predictor(spec: &str, predictor: Option<&str>) -> Result<String> {
    let parsed = PolicySpec::parse(spec)?;
    let uses = schedlab_policies::find(&parsed.id).is_some_and(|p| p.uses_runtime_source);
    Ok(match predictor {
        Some(p) if parsed.predictor.is_none() && uses => format!("{spec}@{p}"),
        _ => spec.to_string(),
    })
}

fn point_label(plan: &Plan, p: &schedlab_experiment::Point) -> String {
    let value = match (&plan.experiment.sweep, p.value) {
        (Some(s), Some(v)) => format!(" {}={}", s.param, s.values[v]),
        _ => String::new(),
    };
    format!("{}{value} seed {}", plan.label(p.run), p.seed)
}

pub(super) fn point_result(point: &schedlab_experiment::Point, doc: &RunDocument) -> Result<PointResult> {
    Ok(PointResult {
        point: point.clone(),
        events: doc.events,
        elapsed_ms: doc.elapsed_ms,
        metrics: serde_json::to_value(&doc.metrics)?,
    })
}

/// The result as JSON or as a table, to the declared `--output` or stdout.
pub(super) fn print(
    result: &ExperimentResult,
    json: bool,
    outputs: &Outputs,
    report: Option<Output>,
) -> Result<ExitCode> {
    if json {
        outputs::emit(outputs, report, outputs::json(result))?;
    } else {
        outputs::emit(outputs, report, |out| write_table(out, result))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One row per (run, value): MBS and MWBS with their 95 % intervals.
pub(super) fn write_table(out: &mut dyn Write, r: &ExperimentResult) -> std::io::Result<()> {
    let param = r.experiment.sweep.as_ref().map_or("", |s| s.param.as_str());
    if let Some(s) = r.shard {
        writeln!(
            out,
            "shard {}/{}: {} points (merge the shards for complete summaries)",
            s.index,
            s.count,
            r.points.len()
        )?;
    }
    writeln!(
        out,
        "{:<32} {:>10} {:>20} {:>20} {:>12} {:>8}",
        "policy", param, "MBS (± 95 %)", "MWBS (± 95 %)", "mean wait", "util"
    )?;
    for row in &r.summary {
        let cell = |key: &str, d: usize| {
            let (m, h) = (row.mean[key].as_f64().unwrap_or(0.0), row.ci95[key].as_f64().unwrap_or(0.0));
            format!("{} ± {}", fixed(m, d), fixed(h, d))
        };
        writeln!(
            out,
            "{:<32} {:>10} {:>20} {:>20} {:>12} {:>8}",
            row.label,
            row.value.as_deref().unwrap_or("-"),
            cell("mbs", 3),
            cell("mwbs", 3),
            fixed(row.mean["mean_wait"].as_f64().unwrap_or(0.0), 1),
            fixed(row.mean["utilization"].as_f64().unwrap_or(0.0), 4)
        )?;
    }
    Ok(())
}
