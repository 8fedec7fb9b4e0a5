//! `schedlab reproduce PRESET TRACE`: one of the seeds' experiments.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Context, Result};
use schedlab_experiment::{metric_at, preset, ExperimentResult, Plan, Preset, RunSettings, Section, PRESETS};
use serde::Serialize;

use crate::args::{ReproduceArgs, WorkloadArgs};
use crate::fail::run_failure;
use crate::output::{self, fixed, Table};
use crate::outputs::{self, Outputs};
use crate::trace_input;

#[derive(Serialize)]
struct SectionResult<'a> {
    title: &'a str,
    load_factor: f64,
    result: ExperimentResult,
}

#[derive(Serialize)]
struct Reproduction<'a> {
    preset: &'a Preset,
    sections: Vec<SectionResult<'a>>,
}

pub fn main(args: &ReproduceArgs) -> Result<ExitCode> {
    let preset = preset(&args.preset).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        anyhow!("unknown preset `{}` (known: {})", args.preset, known.join(", "))
    })?;
    let (outputs, report) = Outputs::for_report([args.trace.as_path()], &args.output)?;
    let sections = preset.sections.iter().map(|s| run_section(args, s)).collect::<Result<Vec<_>>>()?;
    let doc = Reproduction { preset, sections };
    if args.json {
        outputs::emit(&outputs, report, outputs::json(&doc))?;
    } else {
        outputs::emit(&outputs, report, |out| write_text(out, &doc))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_section<'a>(args: &ReproduceArgs, section: &'a Section) -> Result<SectionResult<'a>> {
    let workload = with_load_factor(&args.workload, section.load_factor)?;
    let loaded = trace_input::load_with(&args.trace, &workload)?;
    let identity = super::run::identity(&args.trace, &loaded, &workload)?;
    let plan = Plan::new(section.experiment())?;
    let labels: Vec<String> = plan.points.iter().map(|(p, _)| format!("{} #{}", plan.label(p.run), p.index)).collect();
    let settings: Vec<RunSettings> = plan.points.iter().map(|(_, s)| s.clone()).collect();
    let rows = super::compare::run_all(&loaded.trace, &identity, &labels, &settings, &output::multi(args.quiet));
    let mut points = Vec::with_capacity(rows.len());
    for ((point, _), row) in plan.points.iter().zip(rows) {
        let doc = row.result.map_err(|e| run_failure(format!("{}: {e}", row.label)))?;
        points.push(super::sweep::point_result(point, &doc)?);
    }
    let result = ExperimentResult::new(&plan, serde_json::to_value(&identity)?, None, points);
    Ok(SectionResult { title: section.title, load_factor: section.load_factor, result })
}

/// The section's load factor on top of the user's `--load-factor`.
fn with_load_factor(w: &WorkloadArgs, factor: f64) -> Result<WorkloadArgs> {
    let mut w = w.clone();
    if factor != 1.0 {
        let base = match &w.load_factor {
            Some(text) => {
                text.trim().parse::<f64>().with_context(|| format!("--load-factor `{text}` is not a number"))?
            }
            None => 1.0,
        };
        w.load_factor = Some((base * factor).to_string());
    }
    Ok(w)
}

fn write_text(out: &mut dyn Write, doc: &Reproduction<'_>) -> std::io::Result<()> {
    writeln!(out, "{} — reproduces {}", doc.preset.title, doc.preset.reproduces)?;
    for (section, s) in doc.preset.sections.iter().zip(&doc.sections) {
        let trace = &s.result.trace;
        writeln!(out)?;
        writeln!(
            out,
            "{} ({} jobs, {} processors, load factor {})",
            section.title, trace["jobs"], trace["procs"], s.load_factor
        )?;
        section_table(section, &s.result).write(out)?;
    }
    Ok(())
}

/// One row per (run, sweep value); a cell is the mean, with its 95 %
/// interval when the runs were repeated.
fn section_table(section: &Section, r: &ExperimentResult) -> Table {
    let mut headers: Vec<&'static str> = vec!["run"];
    if let Some((param, _)) = section.sweep {
        headers.push(param);
    }
    headers.extend(section.columns.iter().map(|c| c.label));
    let mut table = Table::new(&headers);
    for row in &r.summary {
        let mut cells = vec![row.label.clone()];
        if section.sweep.is_some() {
            cells.push(row.value.clone().unwrap_or_default());
        }
        for c in section.columns {
            let mean = metric_at(&row.mean, c.path).and_then(|v| v.as_f64());
            let half = metric_at(&row.ci95, c.path).and_then(|v| v.as_f64()).unwrap_or(0.0);
            cells.push(match mean {
                Some(m) if section.repeat > 1 => format!("{} ± {}", fixed(m, 3), fixed(half, 3)),
                Some(m) if m.fract() == 0.0 => format!("{m:.0}"),
                Some(m) => fixed(m, 3),
                None => "-".to_string(),
            });
        }
        table.row(cells);
    }
    table
}
