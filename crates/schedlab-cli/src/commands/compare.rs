//! `schedlab compare`: several policies on one trace, run in parallel, one
//! table row each in the order given. The runs form an experiment of the
//! core (checked and expanded by its `Plan`); each row is a full run
//! document.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use schedlab_experiment::{Plan, RunDocument, TraceIdentity};
use serde::Serialize;

use super::experiment::{bar_observer, parallel};
use crate::args::CompareArgs;
use crate::output::{self, grouped, Table};
use crate::outputs::{self, Outputs};
use crate::trace_input;

/// One row: the label and the run's document, or why it failed.
pub(super) struct Row {
    pub(super) label: String,
    pub(super) result: Result<RunDocument, String>,
}

pub fn main(args: &CompareArgs) -> Result<ExitCode> {
    let (outputs, report) = Outputs::for_report([args.trace.as_path()], &args.output)?;
    let runs = super::experiment::runs(&args.policy, args.predictor.as_deref())?;
    let mut e = super::experiment::experiment(runs, &args.params, &args.metrics, &args.workload)?;
    e.seed = args.seed;
    let plan = Plan::new(e)?;
    let (loaded, options) = super::experiment::load_trace(&args.trace, plan.experiment(), &args.workload)?;
    let identity = TraceIdentity::new(trace_input::trace_name(&args.trace), &loaded, &options);
    let rows = run_documents(&loaded.trace, &identity, &plan, args.metrics.quiet);
    if args.json {
        outputs::emit(&outputs, report, outputs::json(&Runs { runs: rows.iter().map(RunJson::new).collect() }))?;
    } else {
        outputs::emit(&outputs, report, |out| write_table(out, &identity, &rows))?;
    }
    let failed = rows.iter().any(|r| r.result.is_err());
    Ok(if failed { ExitCode::from(crate::fail::FAILED) } else { ExitCode::SUCCESS })
}

/// Every point of the plan as a run document, in point order, labelled by
/// its run.
pub(super) fn run_documents(
    trace: &schedlab_workload::Trace,
    identity: &TraceIdentity,
    plan: &Plan,
    quiet: bool,
) -> Vec<Row> {
    let points: Vec<_> = plan.points(None).collect();
    let labels: Vec<String> = points.iter().map(|p| plan.label(p.run)).collect();
    let multi = output::multi(quiet);
    let docs = parallel(&labels, trace.jobs.len() as u64, &multi, &|i, bar| {
        let settings = plan.settings(&points[i]).map_err(|e| e.to_string())?;
        let start = Instant::now();
        let outcome = schedlab_experiment::run_phased(trace, &settings, &mut bar_observer(bar))
            .map_err(|e| crate::fail::flatten(&e.to_string()))?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        Ok(RunDocument::new(&settings, identity.clone(), &outcome, Some(ms)))
    });
    multi.clear().ok();
    labels.into_iter().zip(docs).map(|(label, result)| Row { label, result }).collect()
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

/// The catalogue's default columns, then the run's time and check.
fn write_table(out: &mut dyn Write, id: &TraceIdentity, rows: &[Row]) -> std::io::Result<()> {
    writeln!(out, "trace {}  {} jobs  {} procs", id.name, grouped(id.jobs as u64), id.procs)?;
    let columns: Vec<schedlab_metrics::Column> = schedlab_metrics::columns().into_iter().filter(|c| c.shown).collect();
    let mut headers: Vec<String> = vec!["policy".into()];
    headers.extend(columns.iter().map(output::header));
    headers.extend(["seconds".into(), "check".into()]);
    let mut table = Table::new(&headers);
    for row in rows {
        match &row.result {
            Ok(doc) => {
                let metrics = serde_json::to_value(&doc.metrics).unwrap_or_default();
                let mut cells = vec![row.label.clone()];
                cells.extend(columns.iter().map(|c| output::metric_cell(&metrics, c)));
                cells.push(output::fixed(doc.elapsed_ms.unwrap_or(0.0) / 1000.0, 3));
                cells.push(doc.check.to_owned());
                table.row(cells);
            }
            Err(e) => table.message_row(row.label.clone(), format!("error: {e}")),
        }
    }
    table.write(out)
}
