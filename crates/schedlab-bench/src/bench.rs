//! `schedlab-bench`: parsing speed and every policy's speed and memory on
//! every trace of a directory, optionally against AccaSim (the speed and memory targets in BENCHMARKS.md).
//!
//! Each (trace, policy) measurement runs in a child process
//! (`schedlab-bench one`) so that its peak RSS is its own; a parse-only
//! child gives the baseline peak of the loaded trace. Parsing is also timed
//! in this process from the decompressed text in memory, which is the
//! parser's speed without gzip's.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use schedlab_experiment::{resolve, RunRequest};
use schedlab_workload::{read_swf, ReadOptions};
use serde::Serialize;

use crate::accasim::{self, AccasimResult};
use crate::args::{split_param, BenchArgs, PolicySpec};
use crate::bench_one::Measurement;
use crate::output::{self, fixed, grouped, Table};

/// The policies benchmarked when none is given: every policy of the
/// registry, and the variants the seeds compare.
const DEFAULT_POLICIES: [&str; 14] = [
    "fcfs",
    "easy",
    "easy:order=shortest",
    "easy@last",
    "easy:order=shortest@tsafrir",
    "cbf",
    "cbf@last",
    "pv-easy",
    "pv-easy:mode=checkpoint",
    "pv-easy:mode=suspend",
    "slack",
    "selective",
    "selective:variant=sel-d",
    "dbf",
];

/// One output row; `--json` prints the list of them.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Row {
    Parse(ParseRow),
    Run(RunRow),
    Accasim(AccasimRow),
}

#[derive(Debug, Serialize)]
struct ParseRow {
    trace: String,
    jobs: u64,
    procs: u32,
    /// Uncompressed bytes.
    bytes: u64,
    /// Reading the file (gzip included), best of --repeat.
    file_seconds: f64,
    file_mb_per_s: f64,
    /// Reading the decompressed text from memory: the parser alone.
    memory_seconds: f64,
    memory_mb_per_s: f64,
    /// Peak RSS of a process that only loads the trace.
    peak_rss: Option<u64>,
    error: Option<String>,
}

#[derive(Debug, Serialize)]
struct RunRow {
    trace: String,
    policy: String,
    procs: u32,
    jobs: u64,
    events: u64,
    seconds: f64,
    jobs_per_s: f64,
    /// Peak RSS of the run's process, bytes.
    peak_rss: Option<u64>,
    /// (peak RSS − peak RSS of a parse-only process) / jobs.
    sim_rss_bytes_per_job: Option<f64>,
    /// peak RSS / jobs.
    total_rss_bytes_per_job: Option<f64>,
    /// (peak live heap during the run − live heap with the trace loaded) / jobs.
    sim_heap_bytes_per_job: f64,
    mean_wait: f64,
    mbs: f64,
    check: String,
    error: Option<String>,
}

#[derive(Debug, Serialize)]
struct AccasimRow {
    trace: String,
    procs: u32,
    version: Option<String>,
    jobs: u64,
    seconds: f64,
    peak_rss_mb: f64,
    mean_wait: f64,
    schedlab_easy_seconds: Option<f64>,
    schedlab_mean_wait: Option<f64>,
    /// AccaSim seconds / Schedlab EASY run seconds.
    ratio: Option<f64>,
    /// AccaSim seconds / (Schedlab parse from file + EASY run) seconds.
    ratio_with_parse: Option<f64>,
    error: Option<String>,
}

/// What the whole bench needs, resolved from the flags.
struct Plan {
    traces: Vec<PathBuf>,
    policies: Vec<String>,
    procs_map: Vec<(String, u32)>,
    accasim: Option<PathBuf>,
    repeat: u32,
    no_check: bool,
}

pub fn main(args: &BenchArgs) -> Result<ExitCode> {
    if args.queue_stress {
        return crate::queue_stress::main(args);
    }
    let plan = plan(args)?;
    let exe = std::env::current_exe()
        .context("cannot find the schedlab-bench executable for the benchmark's child processes")?;
    let steps = plan.traces.len() * (1 + plan.policies.len() + usize::from(plan.accasim.is_some()));
    let progress = BenchProgress::new(steps as u64, args.quiet);
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for trace in &plan.traces {
        bench_trace(&exe, trace, &plan, &progress, &mut rows, &mut notes)?;
    }
    progress.finish();
    if args.json {
        output::print_json(&rows)?;
    } else {
        let mut out = output::stdout();
        write_text(&mut out, &rows, &notes, &plan)?;
        out.flush()?;
    }
    let failed = rows.iter().any(|r| match r {
        Row::Parse(p) => p.error.is_some(),
        Row::Run(r) => r.error.is_some(),
        Row::Accasim(_) => false,
    });
    Ok(if failed { ExitCode::from(crate::fail::FAILED) } else { ExitCode::SUCCESS })
}

fn plan(args: &BenchArgs) -> Result<Plan> {
    let dir = match (&args.traces, std::env::var_os("SCHEDLAB_TRACES")) {
        (Some(d), _) => d.clone(),
        (None, Some(d)) if !d.is_empty() => PathBuf::from(d),
        _ => bail!("no trace directory: give --traces DIR or set SCHEDLAB_TRACES"),
    };
    let policies = checked_policies(&args.policy, &DEFAULT_POLICIES)?;
    let mut procs_map = args.procs_map.iter().map(|m| procs_entry(m)).collect::<Result<Vec<_>>>()?;
    // The sizes the source papers agree on (CTC-SP2: 430), after the
    // user's, so that the user's win.
    procs_map.extend(schedlab_workload::PAPER_MACHINES.iter().map(|m| (m.trace.to_owned(), m.procs)));
    let accasim = if args.accasim { find_accasim() } else { None };
    Ok(Plan {
        traces: list_traces(&dir)?,
        policies,
        procs_map,
        accasim,
        repeat: args.repeat.unwrap_or(3),
        no_check: args.no_check,
    })
}

/// The policy specs given, or `defaults` when none was, each checked to
/// resolve.
pub(super) fn checked_policies(given: &[String], defaults: &[&str]) -> Result<Vec<String>> {
    let policies: Vec<String> =
        if given.is_empty() { defaults.iter().map(|s| (*s).to_owned()).collect() } else { given.to_vec() };
    for p in &policies {
        check_policy(p)?;
    }
    Ok(policies)
}

/// A policy spec that resolves, or the error a run would give.
fn check_policy(text: &str) -> Result<()> {
    let s = PolicySpec::parse(text)?;
    let request = RunRequest {
        policy: s.id,
        params: schedlab_experiment::given_texts(s.params),
        predictor: s.predictor,
        ..RunRequest::default()
    };
    resolve(&request).with_context(|| format!("policy `{text}`"))?;
    Ok(())
}

fn procs_entry(text: &str) -> Result<(String, u32)> {
    let (prefix, n) = split_param(text).map_err(|e| anyhow!("--procs-map: {e}"))?;
    match n.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok((prefix, n)),
        _ => bail!("--procs-map `{text}`: expected PREFIX=N with N a positive number of processors"),
    }
}

/// The AccaSim script when AccaSim is installed; a note on stderr otherwise.
fn find_accasim() -> Option<PathBuf> {
    if !accasim::installed() {
        eprintln!("schedlab: note: AccaSim is not installed (python3 -c \"import accasim\" failed); skipping it (install: bash scripts/install-accasim.sh)");
        return None;
    }
    let script = accasim::script();
    if script.is_none() {
        eprintln!(
            "schedlab: note: scripts/accasim_easy.py not found (set SCHEDLAB_ROOT to the repository); skipping AccaSim"
        );
    }
    script
}

/// Files named *.swf, *.swf.gz or *.gz in `dir`, sorted by name.
pub(super) fn list_traces(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot read trace directory {}", dir.display()))?;
    let mut traces: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".swf") || n.ends_with(".gz")))
        .collect();
    traces.sort_by_key(|p| p.file_name().map(|n| n.to_owned()));
    if traces.is_empty() {
        bail!("no trace (*.swf, *.swf.gz, *.gz) in {}", dir.display());
    }
    Ok(traces)
}

/// The machine size override for a trace, by file name prefix.
pub(super) fn procs_for(name: &str, map: &[(String, u32)]) -> Option<u32> {
    map.iter().find(|(prefix, _)| name.starts_with(prefix.as_str())).map(|(_, n)| *n)
}

fn bench_trace(
    exe: &Path,
    trace: &Path,
    plan: &Plan,
    progress: &BenchProgress,
    rows: &mut Vec<Row>,
    notes: &mut Vec<String>,
) -> Result<()> {
    let name = crate::trace_input::trace_name(trace);
    let procs = procs_for(&name, &plan.procs_map);
    if let Some(n) = procs {
        notes.push(format!("{name}: simulated on {n} processors (not the header's; change with --procs-map PREFIX=N)"));
    }
    progress.step(&format!("{name}: parse"));
    let base = child(exe, trace, None, procs, plan);
    rows.push(Row::Parse(parse_row(&name, trace, procs, plan.repeat, &base)));
    let mut easy = None;
    for policy in &plan.policies {
        progress.step(&format!("{name}: {policy}"));
        let run = child(exe, trace, Some(policy), procs, plan);
        let row = run_row(&name, policy, &run, base.as_ref().ok());
        if is_plain_easy(policy) && row.error.is_none() {
            easy = Some((row.seconds, row.mean_wait));
        }
        rows.push(Row::Run(row));
    }
    if let Some(script) = &plan.accasim {
        progress.step(&format!("{name}: AccaSim EASY"));
        if easy.is_none() {
            easy = child(exe, trace, Some("easy"), procs, plan).ok().map(|m| (m.seconds, m.mean_wait));
        }
        let jobs_procs = base.as_ref().map_or(procs.unwrap_or(0), |m| m.procs);
        let parse = base.as_ref().ok().map(|m| m.parse_seconds);
        rows.push(Row::Accasim(accasim_row(&name, script, trace, jobs_procs, easy, parse)));
    }
    Ok(())
}

fn is_plain_easy(spec: &str) -> bool {
    PolicySpec::parse(spec).is_ok_and(|s| s.id == "easy" && s.params.is_empty() && s.predictor.is_none())
}

/// Runs `schedlab-bench one` and reads its JSON line.
fn child(
    exe: &Path,
    trace: &Path,
    policy: Option<&str>,
    procs: Option<u32>,
    plan: &Plan,
) -> Result<Measurement, String> {
    let mut cmd = Command::new(exe);
    cmd.arg("one").arg(trace).args(["--repeat", &plan.repeat.to_string()]);
    if let Some(p) = policy {
        cmd.args(["--policy", p]);
    }
    if let Some(n) = procs {
        cmd.args(["--procs", &n.to_string()]);
    }
    if plan.no_check {
        cmd.arg("--no-check");
    }
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    measurement(&out)
}

/// The measurement a `one` child printed, or why there is none.
pub(super) fn measurement(out: &std::process::Output) -> Result<Measurement, String> {
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(format!("{} ({})", line.trim_start_matches("schedlab: error: "), out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).map_err(|e| format!("unreadable child output: {e}"))
}

fn parse_row(
    name: &str,
    trace: &Path,
    procs: Option<u32>,
    repeat: u32,
    base: &Result<Measurement, String>,
) -> ParseRow {
    let mut row = ParseRow {
        trace: name.to_owned(),
        jobs: 0,
        procs: 0,
        bytes: 0,
        file_seconds: 0.0,
        file_mb_per_s: 0.0,
        memory_seconds: 0.0,
        memory_mb_per_s: 0.0,
        peak_rss: None,
        error: None,
    };
    let m = match base {
        Ok(m) => m,
        Err(e) => {
            row.error = Some(e.clone());
            return row;
        }
    };
    (row.jobs, row.procs, row.bytes, row.peak_rss) = (m.jobs, m.procs, m.bytes, m.peak_rss);
    row.file_seconds = m.parse_seconds;
    row.file_mb_per_s = mb_per_s(m.bytes, m.parse_seconds);
    match memory_parse(trace, procs, repeat) {
        Ok(s) => (row.memory_seconds, row.memory_mb_per_s) = (s, mb_per_s(m.bytes, s)),
        Err(e) => row.error = Some(format!("in-memory parse: {e:#}")),
    }
    row
}

fn mb_per_s(bytes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        bytes as f64 / 1e6 / seconds
    } else {
        0.0
    }
}

/// Best time to read the trace from its decompressed text in memory.
fn memory_parse(trace: &Path, procs: Option<u32>, repeat: u32) -> Result<f64> {
    let raw = std::fs::read(trace).with_context(|| format!("cannot read {}", trace.display()))?;
    let text = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut text)?;
        text
    } else {
        raw
    };
    let opts = ReadOptions { machine_size: procs, ..ReadOptions::default() };
    let mut best = f64::INFINITY;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let loaded = read_swf(&text[..], &opts)?;
        best = best.min(start.elapsed().as_secs_f64());
        drop(loaded);
    }
    Ok(best)
}

fn run_row(name: &str, policy: &str, run: &Result<Measurement, String>, base: Option<&Measurement>) -> RunRow {
    let mut row = RunRow {
        trace: name.to_owned(),
        policy: policy.to_owned(),
        procs: 0,
        jobs: 0,
        events: 0,
        seconds: 0.0,
        jobs_per_s: 0.0,
        peak_rss: None,
        sim_rss_bytes_per_job: None,
        total_rss_bytes_per_job: None,
        sim_heap_bytes_per_job: 0.0,
        mean_wait: 0.0,
        mbs: 0.0,
        check: String::new(),
        error: None,
    };
    let m = match run {
        Ok(m) => m,
        Err(e) => {
            row.error = Some(e.clone());
            return row;
        }
    };
    let jobs = m.jobs.max(1) as f64;
    (row.procs, row.jobs, row.events, row.seconds) = (m.procs, m.jobs, m.events, m.seconds);
    row.jobs_per_s = if m.seconds > 0.0 { m.jobs as f64 / m.seconds } else { 0.0 };
    row.peak_rss = m.peak_rss;
    row.total_rss_bytes_per_job = m.peak_rss.map(|p| p as f64 / jobs);
    row.sim_rss_bytes_per_job =
        m.peak_rss.zip(base.and_then(|b| b.peak_rss)).map(|(p, b)| (p as f64 - b as f64) / jobs);
    row.sim_heap_bytes_per_job = m.heap_peak_run.saturating_sub(m.heap_loaded) as f64 / jobs;
    (row.mean_wait, row.mbs, row.check) = (m.mean_wait, m.mbs, m.check.clone());
    row
}

fn accasim_row(
    name: &str,
    script: &Path,
    trace: &Path,
    procs: u32,
    easy: Option<(f64, f64)>,
    parse: Option<f64>,
) -> AccasimRow {
    let result = accasim::run(script, trace, procs);
    let (r, error) = match result {
        Ok(r) => (r, None),
        Err(e) => (AccasimResult::default(), Some(e)),
    };
    let ok = error.is_none();
    let ratio = easy.filter(|(s, _)| ok && *s > 0.0).map(|(s, _)| r.seconds / s);
    let ratio_with_parse = easy.zip(parse).filter(|_| ok).map(|((s, _), p)| r.seconds / (s + p));
    AccasimRow {
        trace: name.to_owned(),
        procs,
        version: r.version,
        jobs: r.jobs,
        seconds: r.seconds,
        peak_rss_mb: r.peak_rss_mb,
        mean_wait: r.mean_wait,
        schedlab_easy_seconds: easy.map(|e| e.0),
        schedlab_mean_wait: easy.map(|e| e.1),
        ratio,
        ratio_with_parse,
        error,
    }
}

/// Progress of the whole bench on stderr: a bar on a terminal, one line
/// per step otherwise, nothing with --quiet.
pub(super) struct BenchProgress {
    bar: Option<ProgressBar>,
    lines: bool,
    total: u64,
    done: std::cell::Cell<u64>,
}

impl BenchProgress {
    pub(super) fn new(total: u64, quiet: bool) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("bench [{bar:30}] {pos}/{len} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
            bar
        });
        BenchProgress { bar, lines: !quiet && !terminal, total, done: std::cell::Cell::new(0) }
    }

    pub(super) fn step(&self, what: &str) {
        let done = self.done.get();
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(what.to_owned());
        } else if self.lines {
            eprintln!("bench [{}/{}] {what}", done + 1, self.total);
        }
        self.done.set(done + 1);
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn write_text(out: &mut dyn Write, rows: &[Row], notes: &[String], plan: &Plan) -> std::io::Result<()> {
    for note in notes {
        writeln!(out, "note: {note}")?;
    }
    let check = if plan.no_check { "without" } else { "with" };
    writeln!(out, "times: best of {} ({check} the run checker); MB = 10^6 bytes of uncompressed text", plan.repeat)?;
    writeln!(out)?;
    write_parse_table(out, rows)?;
    writeln!(out)?;
    write_run_table(out, rows)?;
    if rows.iter().any(|r| matches!(r, Row::Accasim(_))) {
        writeln!(out)?;
        write_accasim_table(out, rows)?;
    }
    writeln!(out)?;
    writeln!(out, "sim B/job = (peak RSS of the run − peak RSS of a process that only loads the trace) / jobs;")?;
    writeln!(out, "heap B/job = (peak live heap during the run − live heap with the trace loaded) / jobs;")?;
    writeln!(out, "total B/job = peak RSS of the run / jobs.")
}

pub(super) fn mb(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "n/a".to_owned(), |b| fixed(b as f64 / 1e6, 1))
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".to_owned(), |x| fixed(x, digits))
}

fn write_parse_table(out: &mut dyn Write, rows: &[Row]) -> std::io::Result<()> {
    let mut t =
        Table::new(&["trace", "jobs", "procs", "MB", "file s", "file MB/s", "parse s", "parse MB/s", "peak MB"]);
    for row in rows {
        let Row::Parse(p) = row else { continue };
        if let (Some(e), 0) = (&p.error, p.jobs) {
            t.message_row(p.trace.clone(), format!("error: {e}"));
            continue;
        }
        t.row(vec![
            p.trace.clone(),
            grouped(p.jobs),
            p.procs.to_string(),
            fixed(p.bytes as f64 / 1e6, 1),
            fixed(p.file_seconds, 3),
            fixed(p.file_mb_per_s, 0),
            fixed(p.memory_seconds, 3),
            fixed(p.memory_mb_per_s, 0),
            mb(p.peak_rss),
        ]);
    }
    writeln!(out, "parsing (file: gzip + parse + clean; parse: from the decompressed text in memory)")?;
    t.write(out)
}

fn write_run_table(out: &mut dyn Write, rows: &[Row]) -> std::io::Result<()> {
    let headers = [
        "trace",
        "policy",
        "jobs",
        "events",
        "seconds",
        "jobs/s",
        "peak MB",
        "sim B/job",
        "heap B/job",
        "total B/job",
        "check",
    ];
    let mut t = Table::new(&headers).align(1, output::Align::Left);
    for row in rows {
        let Row::Run(r) = row else { continue };
        if let Some(e) = &r.error {
            t.message_row(r.trace.clone(), format!("{}  error: {e}", r.policy));
            continue;
        }
        t.row(vec![
            r.trace.clone(),
            r.policy.clone(),
            grouped(r.jobs),
            grouped(r.events),
            fixed(r.seconds, 3),
            grouped(r.jobs_per_s.round() as u64),
            mb(r.peak_rss),
            opt(r.sim_rss_bytes_per_job, 0),
            fixed(r.sim_heap_bytes_per_job, 0),
            opt(r.total_rss_bytes_per_job, 0),
            r.check.clone(),
        ]);
    }
    writeln!(out, "runs")?;
    t.write(out)
}

fn write_accasim_table(out: &mut dyn Write, rows: &[Row]) -> std::io::Result<()> {
    let headers = [
        "trace",
        "procs",
        "jobs",
        "AccaSim s",
        "schedlab s",
        "ratio",
        "ratio w/ parse",
        "AccaSim MB",
        "wait AccaSim",
        "wait schedlab",
    ];
    let mut t = Table::new(&headers);
    let mut version = None;
    for row in rows {
        let Row::Accasim(a) = row else { continue };
        version = version.or(a.version.clone());
        if let Some(e) = &a.error {
            t.message_row(a.trace.clone(), format!("error: {e}"));
            continue;
        }
        t.row(vec![
            a.trace.clone(),
            a.procs.to_string(),
            grouped(a.jobs),
            fixed(a.seconds, 2),
            opt(a.schedlab_easy_seconds, 3),
            opt(a.ratio, 0),
            opt(a.ratio_with_parse, 0),
            fixed(a.peak_rss_mb, 1),
            fixed(a.mean_wait, 1),
            opt(a.schedlab_mean_wait, 1),
        ]);
    }
    let v = version.map(|v| format!(" {v}")).unwrap_or_default();
    writeln!(
        out,
        "AccaSim{v} EASY vs schedlab easy (ratio = AccaSim seconds / schedlab seconds; mean waits should agree)"
    )?;
    t.write(out)
}
