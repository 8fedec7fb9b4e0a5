//! `schedlab sweep`: a parameter grid, locally parallel, shardable. The
//! grid is the core's `Plan`, which counts its points and makes only the
//! shard's own.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use schedlab_experiment::{summary_table, CellStyle, ExperimentResult, Shard, Sweep};

use crate::args::SweepArgs;
use crate::output::Table;
use crate::outputs::{self, Output, Outputs};

pub fn main(args: &SweepArgs) -> Result<ExitCode> {
    let runs = super::experiment::runs(&args.policy, args.predictor.as_deref())?;
    let mut e = super::experiment::experiment(runs, &args.params, &args.metrics, &args.workload)?;
    e.repeat = args.repeat;
    e.seed = args.seed;
    e.sweep = args.sweep.as_deref().map(Sweep::parse).transpose()?;
    e.wait_ecdf = args.wait_ecdf;
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let plan = schedlab_session::plan(e)?;
    let (outputs, report) = outputs::for_report([args.trace.as_path()], &args.output)?;
    let session = super::experiment::session(&args.trace, plan.experiment(), &args.workload)?;
    let result = super::experiment::run_plan(&session, &plan, shard, args.metrics.quiet)?;
    print(&result, args.json, &outputs, report)
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

/// One row per (run, value): the catalogue's default columns, each a mean
/// with its 95 % interval when the runs were repeated.
pub(super) fn write_table(out: &mut dyn Write, r: &ExperimentResult) -> std::io::Result<()> {
    if let Some(s) = r.shard {
        writeln!(
            out,
            "shard {}/{}: {} points (merge the shards for complete summaries)",
            s.index,
            s.count,
            r.points.len()
        )?;
    }
    let keys: Vec<String> =
        schedlab_metrics::columns().into_iter().filter(|c| c.shown).take(4).map(|c| c.key).collect();
    let t = summary_table(r, Some(&keys), CellStyle::Seconds);
    let mut headers = vec!["policy".to_owned(), t.sweep.clone().unwrap_or_else(|| "value".into())];
    headers.extend(t.headers.iter().cloned());
    let mut table = Table::new(&headers);
    for row in t.rows {
        let mut cells = vec![row.label, row.value.unwrap_or_else(|| "-".into())];
        cells.extend(row.cells.into_iter().map(|c| c.text));
        table.row(cells);
    }
    table.write(out)?;
    // Rows without an interval would otherwise look like lost repetitions.
    if let Some(note) = &r.note {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
