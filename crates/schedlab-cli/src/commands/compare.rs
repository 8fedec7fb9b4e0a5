//! `schedlab compare`: several policies on one trace, run in parallel, one
//! table row each in the order given. The runs form an experiment of the
//! core (checked and expanded by its `Plan`); each row is a full run
//! document.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use schedlab_experiment::{regular_comparison, Plan, RegularComparison, RunDocument, RunWaits, TraceIdentity};
use schedlab_metrics::format_mean;
use schedlab_session::{ErrorKind, Session};
use serde::Serialize;

use super::experiment::{bar_observer, parallel};
use crate::args::CompareArgs;
use crate::output::{self, grouped, Table};
use crate::outputs;

/// One row: the label and the run's document, or why it failed.
pub(super) struct Row {
    pub(super) label: String,
    pub(super) result: Result<RunDocument, String>,
    /// The run's waits, when a comparison across runs needs them.
    waits: Option<RunWaits>,
}

/// Whether the rows keep each run's waits for a comparison across runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Waits {
    Drop,
    Keep,
}

pub fn main(args: &CompareArgs) -> Result<ExitCode> {
    let (outputs, report) = outputs::for_report([args.trace.as_path()], &args.output)?;
    let runs = super::experiment::runs(&args.policy, args.predictor.as_deref())?;
    let mut e = super::experiment::experiment(runs, &args.params, &args.metrics, &args.workload)?;
    e.seed = args.seed;
    let plan = schedlab_session::plan(e)?;
    let session = super::experiment::session(&args.trace, plan.experiment(), &args.workload)?;
    let keep = if args.regular_comparison { Waits::Keep } else { Waits::Drop };
    let mut rows = run_documents(&session, &plan, args.metrics.quiet, keep);
    let regular = regular_jobs(session.trace(), &mut rows, plan.experiment().metrics.skip_percent, keep);
    if args.json {
        let runs = Runs { runs: rows.iter().map(RunJson::new).collect(), regular_comparison: regular };
        outputs::emit(&outputs, report, outputs::json(&runs))?;
    } else {
        outputs::emit(&outputs, report, |out| {
            write_table(out, session.identity(), &rows)?;
            regular.as_deref().map_or(Ok(()), |r| write_regular(out, &rows, r))
        })?;
    }
    let failed = rows.iter().any(|r| r.result.is_err());
    Ok(if failed { ExitCode::from(crate::fail::FAILED) } else { ExitCode::SUCCESS })
}

/// Every point of the plan as a run document, in point order, labelled by
/// its run.
pub(super) fn run_documents(session: &Session, plan: &Plan, quiet: bool, keep: Waits) -> Vec<Row> {
    let points: Vec<_> = plan.points(None).collect();
    let labels: Vec<String> = points.iter().map(|p| plan.label(p.run)).collect();
    let multi = output::multi(quiet);
    let jobs = &session.trace().jobs;
    let docs = parallel(&labels, jobs.len() as u64, &multi, &|i, bar| {
        let start = Instant::now();
        let run = session.run_point(plan, &points[i], &mut bar_observer(bar)).map_err(|e| match e.kind() {
            ErrorKind::Option | ErrorKind::Policy | ErrorKind::Experiment => e.to_string(),
            _ => crate::fail::flatten(&e.to_string()),
        })?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let waits = (keep == Waits::Keep).then(|| RunWaits::new(jobs, run.outcome()));
        Ok((session.document(&run, Some(ms)), waits))
    });
    multi.clear().ok();
    labels
        .into_iter()
        .zip(docs)
        .map(|(label, result)| match result {
            Ok((doc, waits)) => Row { label, result: Ok(doc), waits },
            Err(e) => Row { label, result: Err(e), waits: None },
        })
        .collect()
}

/// The comparison on the jobs regular under each run with deadlines, when
/// asked for (the rows' waits are dropped once it is made). It needs every
/// run and a run with deadlines; without them it is left out with a
/// warning, and the runs' results are printed all the same.
fn regular_jobs(
    trace: &schedlab_workload::Trace,
    rows: &mut [Row],
    skip_percent: f64,
    keep: Waits,
) -> Option<Vec<RegularComparison>> {
    if keep == Waits::Drop {
        return None;
    }
    let Some(waits) = rows.iter_mut().map(|r| r.waits.take()).collect::<Option<Vec<RunWaits>>>() else {
        eprintln!("schedlab: warning: --regular-comparison needs every run, and a run failed: no comparison");
        return None;
    };
    if waits.iter().all(|w| w.regular.is_none()) {
        eprintln!(
            "schedlab: warning: --regular-comparison compares runs on the jobs regular under a run with deadlines (dbf), \
             and no run has deadlines: no comparison"
        );
        return None;
    }
    Some(regular_comparison(&trace.jobs, &waits, skip_percent))
}

#[derive(Serialize)]
struct Runs<'a> {
    runs: Vec<RunJson<'a>>,
    /// Present with --regular-comparison.
    #[serde(skip_serializing_if = "Option::is_none")]
    regular_comparison: Option<Vec<RegularComparison>>,
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
                let metrics = schedlab_experiment::MetricsDocument::of(&doc.metrics)
                    .map_err(|e| std::io::Error::other(e.to_string()))?;
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

/// One table per run with deadlines: the runs compared on its regular jobs
/// that waited in at least one of them.
fn write_regular(out: &mut dyn Write, rows: &[Row], comparisons: &[RegularComparison]) -> std::io::Result<()> {
    for c in comparisons {
        writeln!(out)?;
        writeln!(
            out,
            "jobs regular under {} that waited in a compared run: {}",
            rows[c.under].label,
            grouped(c.jobs as u64)
        )?;
        let mut table = Table::new(&["policy", "mean wait (s)", "mean stretch"]);
        for m in &c.runs {
            let (wait, stretch) = (format_mean(m.mean_wait, 1), format_mean(m.mean_stretch, 3));
            table.row(vec![rows[m.run].label.clone(), wait, stretch]);
        }
        table.write(out)?;
    }
    Ok(())
}
