//! `schedlab reproduce PRESET TRACE`: one of the source papers' experiments.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use schedlab_experiment::{preset, summary_table, CellStyle, ExperimentResult, Reproduction, Section, PRESETS};

use crate::args::ReproduceArgs;
use crate::output::Table;
use crate::outputs;

pub fn main(args: &ReproduceArgs) -> Result<ExitCode> {
    let preset = preset(&args.preset).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        anyhow!("unknown preset `{}` (known: {})", crate::fail::short_text(&args.preset), known.join(", "))
    })?;
    let (outputs, report) = outputs::for_report([args.trace.as_path()], &args.output)?;
    let name = crate::trace_input::trace_name(&args.trace);
    let (base, note) = preset.workload_for(&name, &super::experiment::workload_options(&args.workload)?);
    if let Some(note) = note {
        eprintln!("schedlab: note: {name}: {note}");
    }
    let metrics = super::experiment::metric_settings(&args.metrics);
    let mut results = Vec::new();
    for s in preset.sections {
        let mut e = s.experiment(&base);
        e.metrics = metrics.clone();
        let plan = schedlab_session::plan(e)?;
        let session = super::experiment::session(&args.trace, plan.experiment(), &args.workload)?;
        let result = super::experiment::run_plan(&session, &plan, None, args.metrics.quiet)?;
        results.push(result);
    }
    let doc = Reproduction::new(preset, results)
        .ok_or_else(|| anyhow!("preset `{}`: a section gave no result", preset.id))?;
    if args.json {
        outputs::emit(&outputs, report, outputs::json(&doc))?;
    } else {
        outputs::emit(&outputs, report, |out| write_text(out, &doc))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_text(out: &mut dyn Write, doc: &Reproduction<'_>) -> std::io::Result<()> {
    writeln!(out, "{} — reproduces {}", doc.preset.title, doc.preset.reproduces)?;
    for (section, s) in doc.preset.sections.iter().zip(&doc.sections) {
        let size = s.result.trace.context_fields().map(|(_, jobs, procs, _)| (jobs.to_string(), procs.to_string()));
        let (jobs, procs) = size.unwrap_or_else(|| ("?".into(), "?".into()));
        writeln!(out)?;
        writeln!(
            out,
            "{} ({} jobs, {} processors, load factor {})",
            section.title,
            jobs,
            procs,
            s.result.experiment.workload.load()
        )?;
        section_table(section, &s.result).write(out)?;
    }
    Ok(())
}

/// One row per (run, sweep value); a cell is the mean, with its 95 %
/// interval when the runs were repeated. Column labels from the catalogue.
fn section_table(section: &Section, r: &ExperimentResult) -> Table {
    let t = summary_table(r, Some(section.columns), CellStyle::Seconds);
    let mut headers = vec!["run".to_owned()];
    headers.extend(t.sweep.clone());
    headers.extend(t.headers.iter().cloned());
    let mut table = Table::new(&headers);
    for row in t.rows {
        let mut cells = vec![row.label];
        if t.sweep.is_some() {
            cells.push(row.value.unwrap_or_default());
        }
        cells.extend(row.cells.into_iter().map(|c| c.text));
        table.row(cells);
    }
    table
}
