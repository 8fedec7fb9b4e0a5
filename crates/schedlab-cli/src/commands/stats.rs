//! `schedlab stats`: trace statistics and the cleaning report.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use schedlab_workload::{BadLine, CleaningReport, Figures, Header, SlurmReport, Summary, TraceFormat, TraceStats};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::args::StatsArgs;
use crate::output::{duration, fixed, grouped};
use crate::outputs;
use crate::trace_input;

pub fn main(args: &StatsArgs) -> Result<ExitCode> {
    let (outputs, report) = outputs::for_report([args.trace.as_path()], &args.output)?;
    // Not `load_with`: the report lists the warnings itself.
    let loaded = trace_input::load_summary(&args.trace, &trace_input::read_options(&args.workload)?)?;
    let name = trace_input::trace_name(&args.trace);
    let s = &loaded.stats;
    if args.json {
        outputs::emit(&outputs, report, outputs::json(&StatsJson::new(&name, &loaded, s)))?;
    } else {
        outputs::emit(&outputs, report, |out| write_text(out, &name, &loaded, s))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON document of `stats --json`.
#[derive(Serialize)]
struct StatsJson<'a> {
    name: &'a str,
    sha256: &'a str,
    bytes: u64,
    lines: u64,
    /// The input's format, when it is not SWF.
    #[serde(skip_serializing_if = "is_swf")]
    format: TraceFormat,
    header: &'a Header,
    #[serde(flatten)]
    stats: &'a TraceStats,
    job_lines: u64,
    comment_lines: u64,
    jobs_kept: u64,
    /// Counts by reason, every reason, in the order the rules apply.
    cleaning: Counts,
    /// A Slurm dump's own counts and the numbers its names became.
    #[serde(skip_serializing_if = "Option::is_none")]
    slurm: Option<&'a SlurmReport>,
    bad_lines: Vec<BadLineJson<'a>>,
    warnings: &'a [String],
}

fn is_swf(format: &TraceFormat) -> bool {
    *format == TraceFormat::Swf
}

impl<'a> StatsJson<'a> {
    fn new(name: &'a str, l: &'a Summary, stats: &'a TraceStats) -> Self {
        let r = &l.report;
        StatsJson {
            name,
            sha256: &l.sha256,
            bytes: l.bytes,
            lines: l.lines,
            format: l.format,
            header: &l.header,
            stats,
            job_lines: r.job_lines,
            comment_lines: r.comment_lines,
            jobs_kept: r.jobs_kept,
            cleaning: Counts(r.counts()),
            slurm: r.slurm.as_ref(),
            bad_lines: r.bad_lines.iter().map(BadLineJson::new).collect(),
            warnings: &r.warnings,
        }
    }
}

/// Reason → count, as a JSON object in the given order.
struct Counts(Vec<(&'static str, u64)>);

impl Serialize for Counts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct BadLineJson<'a> {
    #[serde(flatten)]
    line: &'a BadLine,
    /// The full message, as the text output shows it.
    text: String,
}

impl<'a> BadLineJson<'a> {
    fn new(line: &'a BadLine) -> Self {
        BadLineJson { line, text: line.to_string() }
    }
}

fn write_text(out: &mut dyn Write, name: &str, l: &Summary, s: &TraceStats) -> std::io::Result<()> {
    write_identity(out, name, l)?;
    writeln!(out)?;
    write_stats(out, s)?;
    writeln!(out)?;
    write_cleaning(out, &l.report)
}

fn write_identity(out: &mut dyn Write, name: &str, l: &Summary) -> std::io::Result<()> {
    writeln!(out, "trace                   {name}")?;
    writeln!(out, "sha256                  {}", l.sha256)?;
    writeln!(out, "size                    {} bytes, {} lines", grouped(l.bytes), grouped(l.lines))?;
    if l.format != TraceFormat::Swf {
        writeln!(out, "format                  {}", l.format.name())?;
    }
    let h = &l.header;
    for (label, value) in [("computer", &h.computer), ("installation", &h.installation), ("version", &h.version)] {
        if let Some(v) = value {
            writeln!(out, "{label:<24}{}", crate::fail::flatten(v))?;
        }
    }
    Ok(())
}

fn write_stats(out: &mut dyn Write, s: &TraceStats) -> std::io::Result<()> {
    writeln!(out, "jobs                    {}", grouped(s.jobs))?;
    writeln!(out, "procs                   {}", s.procs)?;
    writeln!(out, "users                   {}", s.users)?;
    writeln!(out, "queues                  {}", s.queues)?;
    writeln!(out, "as recorded:")?;
    write_figures(out, &s.recorded)?;
    let m = &s.simulated;
    if m.figures == s.recorded {
        return writeln!(out, "as simulated: the same (cleaning changed no job)");
    }
    writeln!(out, "as simulated:")?;
    write_figures(out, &m.figures)?;
    if m.runtime_capped > 0 {
        let (jobs, cut) = (grouped(m.runtime_capped), grouped(m.runtime_cut as u64));
        writeln!(out, "  runtimes cut           {jobs} jobs, {cut} s in all")?;
    }
    if m.no_estimate > 0 {
        writeln!(out, "  estimates filled in    {} jobs", grouped(m.no_estimate))?;
    }
    if m.oversized_clamped > 0 {
        writeln!(out, "  sizes clamped          {} jobs", grouped(m.oversized_clamped))?;
    }
    if m.load_factor != 1.0 {
        writeln!(out, "  load factor            {}", m.load_factor)?;
    }
    Ok(())
}

fn write_figures(out: &mut dyn Write, f: &Figures) -> std::io::Result<()> {
    writeln!(out, "  first submit           {} s", f.first_submit)?;
    writeln!(out, "  last submit            {} s", f.last_submit)?;
    writeln!(out, "  duration               {}", duration(f.duration))?;
    match f.offered_load {
        Some(load) => writeln!(out, "  offered load           {} ({:.2} %)", fixed(load, 4), load * 100.0)?,
        None => writeln!(out, "  offered load           undefined (every job is submitted in the same second)")?,
    }
    writeln!(out, "  mean parallelism       {} procs", fixed(f.mean_parallelism, 4))?;
    writeln!(out, "  mean runtime           {} s", fixed(f.mean_runtime, 1))?;
    writeln!(out, "  mean estimate accuracy {}", fixed(f.mean_estimate_accuracy, 4))?;
    writeln!(out, "  total work             {} processor-seconds", f.total_work)
}

fn write_cleaning(out: &mut dyn Write, r: &CleaningReport) -> std::io::Result<()> {
    writeln!(out, "cleaning: {} job lines read, {} jobs kept", grouped(r.job_lines), grouped(r.jobs_kept))?;
    let counts: Vec<_> = r.counts().into_iter().filter(|&(_, n)| n > 0).collect();
    if counts.is_empty() {
        writeln!(out, "  nothing to clean")?;
    }
    for (reason, n) in counts {
        writeln!(out, "  {reason:<21} {n}")?;
    }
    if let Some(slurm) = &r.slurm {
        write_numbering(out, slurm)?;
    }
    if r.bad_lines_total > 0 {
        writeln!(out, "bad lines ({} in all, first {} shown):", r.bad_lines_total, r.bad_lines.len())?;
        for b in &r.bad_lines {
            writeln!(out, "  {b}")?;
        }
    }
    if !r.warnings.is_empty() {
        writeln!(out, "warnings:")?;
        for w in &r.warnings {
            writeln!(out, "  {w}")?;
        }
    }
    Ok(())
}

/// The numbers a Slurm dump's names became, one line per kind of name.
fn write_numbering(out: &mut dyn Write, s: &SlurmReport) -> std::io::Result<()> {
    writeln!(out, "numbers given to names (in order of first appearance):")?;
    for (kind, names) in [("users", &s.users), ("groups", &s.groups), ("partitions", &s.partitions), ("qos", &s.qos)] {
        let listed: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("{} {n}", i + 1)).collect();
        writeln!(out, "  {kind:<22}{}", if listed.is_empty() { "none".to_owned() } else { listed.join(", ") })?;
    }
    Ok(())
}
