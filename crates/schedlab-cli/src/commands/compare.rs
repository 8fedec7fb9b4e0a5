//! `schedlab compare`: several policies on one trace, run in parallel, one
//! table row each in the order given.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use indicatif::MultiProgress;
use schedlab_engine::SOURCES;
use schedlab_experiment::{resolve, RunDocument, RunRequest, RunSettings, TraceIdentity};
use schedlab_policies::find;
use schedlab_workload::Trace;
use serde::Serialize;

use crate::args::{split_params, CompareArgs, PolicySpec};
use crate::fail::panic_text;
use crate::output::{self, fixed, grouped, Table};
use crate::outputs::{self, Outputs};
use crate::trace_input;

/// One row: the label and the run's document, or why it failed.
pub(super) struct Row {
    pub(super) label: String,
    pub(super) result: Result<RunDocument, String>,
}

pub fn main(args: &CompareArgs) -> Result<ExitCode> {
    let specs = args.policy.iter().map(|p| PolicySpec::parse(p)).collect::<Result<Vec<_>, _>>()?;
    let global = split_params(&args.params)?;
    let settings = specs.iter().map(|s| settings_for(s, &specs, &global, args)).collect::<Result<Vec<_>>>()?;
    let (outputs, report) = Outputs::for_report([args.trace.as_path()], &args.output)?;
    let loaded = trace_input::load_with(&args.trace, &args.workload)?;
    let identity = super::run::identity(&args.trace, &loaded, &args.workload)?;
    let multi = output::multi(args.metrics.quiet);
    let labels: Vec<String> = specs.iter().map(|s| s.label.clone()).collect();
    let rows = run_all(&loaded.trace, &identity, &labels, &settings, &multi);
    multi.clear().ok();
    if args.json {
        outputs::emit(&outputs, report, outputs::json(&Runs { runs: rows.iter().map(RunJson::new).collect() }))?;
    } else {
        outputs::emit(&outputs, report, |out| write_table(out, &identity, &rows))?;
    }
    let failed = rows.iter().any(|r| r.result.is_err());
    Ok(if failed { ExitCode::from(crate::fail::FAILED) } else { ExitCode::SUCCESS })
}

/// Checked settings of one spec: its own parameters, the global ones its
/// policy or predictor knows, and its predictor or the global one.
fn settings_for(
    spec: &PolicySpec,
    all: &[PolicySpec],
    global: &[(String, String)],
    args: &CompareArgs,
) -> Result<RunSettings> {
    let predictor = spec.predictor.clone().or_else(|| global_predictor(spec, args));
    let mut params = spec.params.clone();
    for (key, value) in global {
        if !all.iter().any(|s| knows(s, key, args)) {
            bail!("--param {key}={value}: no policy of the comparison has a parameter `{key}`");
        }
        if knows(spec, key, args) && !params.iter().any(|(k, _)| k == key) {
            params.push((key.clone(), value.clone()));
        }
    }
    let request = RunRequest {
        policy: spec.id.clone(),
        params,
        predictor,
        seed: args.seed,
        metrics: super::run::metrics_options(&args.metrics),
        skip_check: args.metrics.no_check,
    };
    resolve(&request).with_context(|| format!("policy `{}`", spec.label))
}

/// The global `--predictor`, for policies that use runtime predictions.
fn global_predictor(spec: &PolicySpec, args: &CompareArgs) -> Option<String> {
    let uses = find(&spec.id).is_some_and(|p| p.uses_runtime_source);
    args.predictor.clone().filter(|_| uses)
}

/// Whether the spec's policy or its predictor has a parameter `key`.
fn knows(spec: &PolicySpec, key: &str, args: &CompareArgs) -> bool {
    let Some(policy) = find(&spec.id) else { return false };
    let source = spec.predictor.clone().or_else(|| global_predictor(spec, args));
    let source = source.as_deref().unwrap_or(policy.default_source);
    let source_knows = SOURCES.iter().any(|s| s.id == source && s.params.iter().any(|p| p.key == key));
    policy.params.iter().any(|p| p.key == key) || source_knows
}

/// Runs every setting on a pool of threads as wide as the machine; the
/// trace is shared read-only, each run builds its own policy.
pub(super) fn run_all(
    trace: &Trace,
    id: &TraceIdentity,
    labels: &[String],
    settings: &[RunSettings],
    multi: &MultiProgress,
) -> Vec<Row> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(settings.len()).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<RunDocument, String>>>> = Mutex::new(vec![None; settings.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(s) = settings.get(i) else { break };
                let result = one_run(trace, id, &labels[i], s, multi);
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(result);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    labels
        .iter()
        .zip(results)
        .map(|(label, r)| Row {
            label: label.clone(),
            result: r.unwrap_or_else(|| Err("the run did not finish".into())),
        })
        .collect()
}

fn one_run(
    trace: &Trace,
    id: &TraceIdentity,
    label: &str,
    s: &RunSettings,
    multi: &MultiProgress,
) -> Result<RunDocument, String> {
    let bar = output::multi_job_bar(multi, id.jobs as u64, label);
    let result = catch_unwind(AssertUnwindSafe(|| super::run::timed_run(trace, s, &bar)));
    bar.finish_and_clear();
    match result {
        Ok(Ok((outcome, ms))) => Ok(RunDocument::new(s, id.clone(), &outcome, Some(ms))),
        Ok(Err(e)) => Err(crate::fail::flatten(&e.to_string())),
        Err(payload) => Err(format!("internal error (please report): {}", panic_text(payload.as_ref()))),
    }
}

#[derive(Serialize)]
struct Runs<'a> {
    runs: Vec<RunJson<'a>>,
}

/// A result document with the row's label, or the label and the error.
#[derive(Serialize)]
#[serde(untagged)]
enum RunJson<'a> {
    Done {
        label: &'a str,
        #[serde(flatten)]
        doc: &'a RunDocument,
    },
    Failed {
        label: &'a str,
        error: &'a str,
    },
}

impl<'a> RunJson<'a> {
    fn new(row: &'a Row) -> Self {
        match &row.result {
            Ok(doc) => RunJson::Done { label: &row.label, doc },
            Err(error) => RunJson::Failed { label: &row.label, error },
        }
    }
}

const COLUMNS: [&str; 11] =
    ["policy", "MBS", "MWBS", "mean wait", "max wait", "util", "backfilled", "blocked", "delayed", "seconds", "check"];

fn write_table(out: &mut dyn Write, id: &TraceIdentity, rows: &[Row]) -> std::io::Result<()> {
    writeln!(out, "trace {}  {} jobs  {} procs", id.name, grouped(id.jobs as u64), id.procs)?;
    let mut table = Table::new(&COLUMNS);
    for row in rows {
        match &row.result {
            Ok(doc) => table.row(cells(&row.label, doc)),
            Err(e) => table.message_row(row.label.clone(), format!("error: {e}")),
        }
    }
    table.write(out)
}

fn cells(label: &str, doc: &RunDocument) -> Vec<String> {
    let m = &doc.metrics;
    vec![
        label.to_owned(),
        fixed(m.mbs, 2),
        fixed(m.mwbs, 2),
        fixed(m.mean_wait, 0),
        m.max_wait.to_string(),
        fixed(m.utilization, 3),
        m.backfilled.to_string(),
        m.blocked.to_string(),
        m.fairness.delayed.to_string(),
        fixed(doc.elapsed_ms.unwrap_or(0.0) / 1000.0, 3),
        doc.check.to_owned(),
    ]
}
