//! `schedlab-bench --queue-stress`: every policy under the longest queues.
//!
//! Three series of cases, each run by every policy in a child process of
//! its own (`schedlab-bench one`, as the per-trace bench does), so each
//! case's peak RSS is its own and a case that runs too long can be stopped:
//!
//! - **backlog**: N Lublin jobs (seed 1) all submitted at t = 0 on 128
//!   processors, N = 10,000, 100,000 and 1,000,000 by default; the queue
//!   starts N long and only shrinks. Growth from one size to the next shows
//!   the cost per event as the queue grows (about 10× per 10× jobs for an
//!   n log n policy, 100× for a quadratic one). The model has no estimates:
//!   each job requests its runtime times an estimate-to-runtime ratio drawn
//!   from the HPC2N trace's jobs of the same runtime class (`estimates`),
//!   so jobs end early as real ones do and plans are compressed; without
//!   HPC2N (or `--estimates-from`) the estimates are exact, and a note says
//!   so.
//! - **HPC2N** at load factors 1.0, 1.3, 1.6, 2.0 and 3.0: a real trace
//!   whose queue grows with the load.
//! - **the largest trace** of the directory (by file size) at load factor 2,
//!   when it is not HPC2N (whose series runs at the load factors asked
//!   for).
//!
//! Besides seconds, each case prints the reservation changes per job and
//! the microseconds per change (the cost the conservative family pays per
//! unit of the algorithm's own work), and microseconds per scheduling pass
//! (the cost of a dynamic formula: per waiting job when it is scored at
//! every pass, far less when its order is merged by submission second).
//!
//! A child that runs longer than `--time-limit` seconds (trace loading
//! included) is stopped and shown as "> LIMIT s"; the larger cases of the
//! same series are then skipped for that policy, since they would run over
//! the limit too.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::args::BenchArgs;
use crate::bench::{checked_policies, list_traces, mb, measurement, procs_for, BenchProgress};
use crate::bench_one::Measurement;
use crate::output::{self, fixed, grouped, Table};

/// The registry's policies with their defaults, composable backfilling at
/// three depths, and the two time-dependent presets (WFP3 and UNICEP read
/// `wait`: their order is merged by submission second, `clock_order`).
const DEFAULT_POLICIES: [&str; 12] = [
    "fcfs",
    "easy",
    "pv-easy",
    "cbf",
    "slack",
    "selective",
    "dbf",
    "backfill:depth=8",
    "backfill:depth=100",
    "backfill:depth=all",
    "backfill:depth=8,order=wfp3",
    "backfill:depth=8,order=unicep",
];
const DEFAULT_BACKLOGS: [u32; 3] = [10_000, 100_000, 1_000_000];
const DEFAULT_LOAD_FACTORS: [f64; 5] = [1.0, 1.3, 1.6, 2.0, 3.0];
/// The machine of the backlog series.
const BACKLOG_PROCS: u32 = 128;
/// The trace of the load-factor series, by file name prefix.
const SERIES_TRACE: &str = "HPC2N";
/// The load factor of the largest trace's case.
const LARGEST_LOAD_FACTOR: f64 = 2.0;

/// What a case runs on.
#[derive(Clone, Debug)]
enum Input {
    Backlog(u32),
    Trace { path: PathBuf, load_factor: f64, procs: Option<u32> },
}

/// One case of a series.
#[derive(Clone, Debug)]
struct Case {
    series: &'static str,
    label: String,
    input: Input,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Done,
    OverLimit,
    Skipped,
    Failed,
}

/// One (case, policy) row; `--json` prints the list of them.
#[derive(Debug, Serialize)]
struct StressRow {
    series: &'static str,
    case: String,
    policy: String,
    status: Status,
    jobs: u64,
    events: u64,
    /// Reservation changes the run recorded (see `Measurement`).
    reservation_changes: u64,
    /// Scheduling passes of the run.
    passes: u64,
    /// Mean waiting jobs at a pass (see `Measurement`).
    mean_waiting: f64,
    /// Best run time (engine, checker, metrics; a calibration run included).
    seconds: Option<f64>,
    /// Peak RSS of the case's process, bytes.
    peak_rss: Option<u64>,
    check: String,
    error: Option<String>,
}

struct Plan {
    cases: Vec<Case>,
    /// The trace the backlogs' estimate ratios come from; `None`: exact.
    estimates_from: Option<PathBuf>,
    policies: Vec<String>,
    limit: Duration,
    repeat: u32,
    no_check: bool,
    notes: Vec<String>,
}

pub fn main(args: &BenchArgs) -> Result<ExitCode> {
    let plan = plan(args)?;
    let exe = std::env::current_exe()
        .context("cannot find the schedlab-bench executable for the benchmark's child processes")?;
    let progress = BenchProgress::new((plan.cases.len() * plan.policies.len()) as u64, args.quiet);
    let mut rows: Vec<StressRow> = Vec::new();
    for case in &plan.cases {
        for policy in &plan.policies {
            progress.step(&format!("{} {}: {policy}", case.series, case.label));
            let over_before =
                rows.iter().any(|r| r.series == case.series && r.policy == *policy && r.status == Status::OverLimit);
            rows.push(if over_before { skipped(case, policy) } else { run_case(&exe, case, policy, &plan) });
        }
    }
    progress.finish();
    if args.json {
        output::print_json(&rows)?;
    } else {
        let mut out = output::stdout();
        write_text(&mut out, &rows, &plan)?;
        out.flush()?;
    }
    let failed = rows.iter().any(|r| r.status == Status::Failed);
    Ok(if failed { ExitCode::from(crate::fail::FAILED) } else { ExitCode::SUCCESS })
}

fn plan(args: &BenchArgs) -> Result<Plan> {
    let policies = checked_policies(&args.policy, &DEFAULT_POLICIES)?;
    let backlogs = if args.backlog.is_empty() { DEFAULT_BACKLOGS.to_vec() } else { args.backlog.clone() };
    let load_factors =
        if args.load_factor.is_empty() { DEFAULT_LOAD_FACTORS.to_vec() } else { args.load_factor.clone() };
    if let Some(bad) = load_factors.iter().find(|x| !(x.is_finite() && **x > 0.0)) {
        anyhow::bail!("--load-factor {bad}: must be a finite number above 0");
    }
    let mut cases: Vec<Case> = backlogs
        .iter()
        .map(|&n| Case {
            series: "backlog",
            label: format!("{} jobs", grouped(u64::from(n))),
            input: Input::Backlog(n),
        })
        .collect();
    let mut notes = Vec::new();
    let dir = trace_dir(args);
    match &dir {
        Some(dir) => add_trace_cases(dir, &load_factors, &mut cases, &mut notes)?,
        None => notes.push("no trace directory (--traces or SCHEDLAB_TRACES): trace cases skipped".to_owned()),
    }
    let estimates_from = estimates_source(args, dir.as_deref())?;
    notes.push(match &estimates_from {
        Some(p) => format!(
            "backlog estimates: runtime × an estimate-to-runtime ratio drawn from {}'s jobs of the same power-of-two runtime class",
            crate::trace_input::trace_name(p)
        ),
        None => "backlog estimates: exact (no HPC2N trace and no --estimates-from), so no job ends early".to_owned(),
    });
    Ok(Plan {
        cases,
        estimates_from,
        policies,
        limit: Duration::from_secs(args.time_limit),
        repeat: args.repeat.unwrap_or(1),
        no_check: args.no_check,
        notes,
    })
}

/// `--estimates-from`, else the HPC2N trace of the trace directory.
fn estimates_source(args: &BenchArgs, dir: Option<&Path>) -> Result<Option<PathBuf>> {
    if let Some(p) = &args.estimates_from {
        anyhow::ensure!(p.is_file(), "--estimates-from {}: no such file", p.display());
        return Ok(Some(p.clone()));
    }
    let Some(dir) = dir else { return Ok(None) };
    let traces = list_traces(dir)?;
    Ok(traces.into_iter().find(|p| crate::trace_input::trace_name(p).starts_with(SERIES_TRACE)))
}

fn trace_dir(args: &BenchArgs) -> Option<PathBuf> {
    match (&args.traces, std::env::var_os("SCHEDLAB_TRACES")) {
        (Some(d), _) => Some(d.clone()),
        (None, Some(d)) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => None,
    }
}

/// HPC2N at every load factor, then the largest trace at load factor 2
/// unless it is HPC2N.
fn add_trace_cases(dir: &Path, load_factors: &[f64], cases: &mut Vec<Case>, notes: &mut Vec<String>) -> Result<()> {
    let traces = list_traces(dir)?;
    let builtin: Vec<(String, u32)> =
        schedlab_workload::PAPER_MACHINES.iter().map(|m| (m.trace.to_owned(), m.procs)).collect();
    let name = |p: &Path| crate::trace_input::trace_name(p);
    let series = traces.iter().find(|p| name(p).starts_with(SERIES_TRACE));
    match series {
        Some(path) => {
            for &lf in load_factors {
                let input =
                    Input::Trace { path: path.clone(), load_factor: lf, procs: procs_for(&name(path), &builtin) };
                cases.push(Case { series: SERIES_TRACE, label: format!("{} ×{lf:?}", name(path)), input });
            }
        }
        None => notes.push(format!("no {SERIES_TRACE}* trace in {}: its load-factor series is skipped", dir.display())),
    }
    let size = |p: &PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    let Some(largest) = traces.iter().max_by_key(|p| size(p)) else { return Ok(()) };
    // The series already runs HPC2N at the load factors asked for; one
    // more case at factor 2 would override a shorter series given on
    // purpose.
    if Some(largest) == series {
        notes.push(format!("the largest trace is {}: its cases are the {SERIES_TRACE} series", name(largest)));
        return Ok(());
    }
    let input = Input::Trace {
        path: largest.clone(),
        load_factor: LARGEST_LOAD_FACTOR,
        procs: procs_for(&name(largest), &builtin),
    };
    cases.push(Case { series: "largest", label: format!("{} ×{LARGEST_LOAD_FACTOR:?}", name(largest)), input });
    Ok(())
}

fn skipped(case: &Case, policy: &str) -> StressRow {
    StressRow {
        series: case.series,
        case: case.label.clone(),
        policy: policy.to_owned(),
        status: Status::Skipped,
        jobs: 0,
        events: 0,
        reservation_changes: 0,
        passes: 0,
        mean_waiting: 0.0,
        seconds: None,
        peak_rss: None,
        check: String::new(),
        error: None,
    }
}

fn run_case(exe: &Path, case: &Case, policy: &str, plan: &Plan) -> StressRow {
    let mut cmd = Command::new(exe);
    cmd.arg("one").args(["--policy", policy, "--repeat", &plan.repeat.to_string()]);
    match &case.input {
        Input::Backlog(n) => {
            cmd.args(["--backlog", &n.to_string(), "--procs", &BACKLOG_PROCS.to_string()]);
            if let Some(p) = &plan.estimates_from {
                cmd.arg("--estimates-from").arg(p);
            }
        }
        Input::Trace { path, load_factor, procs } => {
            cmd.arg(path).args(["--load-factor", &load_factor.to_string()]);
            if let Some(n) = procs {
                cmd.args(["--procs", &n.to_string()]);
            }
        }
    }
    if plan.no_check {
        cmd.arg("--no-check");
    }
    let mut row = skipped(case, policy);
    match timed_child(cmd, plan.limit) {
        Ok(m) => {
            row.status = Status::Done;
            (row.jobs, row.events, row.seconds, row.peak_rss) = (m.jobs, m.events, Some(m.seconds), m.peak_rss);
            (row.reservation_changes, row.passes, row.mean_waiting) = (m.reservation_changes, m.passes, m.mean_waiting);
            row.check = m.check;
        }
        Err(Ended::OverLimit) => row.status = Status::OverLimit,
        Err(Ended::Failed(e)) => {
            row.status = Status::Failed;
            row.error = Some(e);
        }
    }
    row
}

/// Why a child gave no measurement.
enum Ended {
    OverLimit,
    Failed(String),
}

/// Runs a `one` child, stopping it after `limit`.
fn timed_child(mut cmd: Command, limit: Duration) -> Result<Measurement, Ended> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Ended::Failed(format!("cannot start the benchmark child: {e}")))?;
    // Read both pipes on their own threads so a child that writes much can
    // never block on a full pipe while this thread waits for it.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Ended::OverLimit);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(Ended::Failed(format!("cannot wait for the benchmark child: {e}"))),
        }
    };
    let out = std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    measurement(&out).map_err(Ended::Failed)
}

fn write_text(out: &mut dyn Write, rows: &[StressRow], plan: &Plan) -> std::io::Result<()> {
    for note in &plan.notes {
        writeln!(out, "note: {note}")?;
    }
    let check = if plan.no_check { "without" } else { "with" };
    let limit = plan.limit.as_secs();
    writeln!(
        out,
        "queue stress: best of {} ({check} the run checker, a calibration run included where a policy needs one);",
        plan.repeat
    )?;
    writeln!(
        out,
        "a case whose process runs over {limit} s is stopped (> {limit} s) and the larger cases of its series are skipped"
    )?;
    for (series, title) in [
        ("backlog", "backlog (jobs at t = 0 on 128 processors): seconds (× the previous size's time)"),
        (SERIES_TRACE, "HPC2N at rising load factors: seconds (× the first load factor's time)"),
        ("largest", "the largest trace at load factor 2: seconds"),
    ] {
        let cases: Vec<&Case> = plan.cases.iter().filter(|c| c.series == series).collect();
        if cases.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "{title}")?;
        write_series(out, rows, plan, &cases)?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "µs per reservation change (× the policy's at the first HPC2N load factor), changes per job in brackets"
    )?;
    write_per_change(out, rows, plan)?;
    writeln!(out)?;
    writeln!(
        out,
        "every case: jobs, events, passes, mean waiting jobs at a pass, the reservation changes the run recorded (its output grows with them), seconds, cost per pass and per pass and waiting job, peak RSS of its process"
    )?;
    write_cases(out, rows, limit)
}

/// A row per policy, a column per case: the cost of one reservation change,
/// compared with the same policy's on HPC2N at the first load factor (the
/// reference of the per-change target), and the changes per job.
fn write_per_change(out: &mut dyn Write, rows: &[StressRow], plan: &Plan) -> std::io::Result<()> {
    let mut headers = vec!["policy".to_owned()];
    headers.extend(plan.cases.iter().map(|c| c.label.clone()));
    let mut t = Table::with_headers(headers);
    let find = |c: &Case, policy: &str| {
        rows.iter()
            .find(|r| r.series == c.series && r.case == c.label && r.policy == policy && r.status == Status::Done)
    };
    let reference = plan.cases.iter().find(|c| c.series == SERIES_TRACE);
    for policy in &plan.policies {
        let base = reference.and_then(|c| find(c, policy)).and_then(us_per_change);
        let mut cells = vec![policy.clone()];
        for case in &plan.cases {
            cells.push(find(case, policy).map_or_else(String::new, |r| per_change_cell(r, base)));
        }
        t.row(cells);
    }
    t.write(out)
}

/// Microseconds of run time per reservation change; `None` without changes.
fn us_per_change(row: &StressRow) -> Option<f64> {
    let s = row.seconds?;
    (row.reservation_changes > 0).then(|| s * 1e6 / row.reservation_changes as f64)
}

/// "0.83 (1.9×) [188.0]": µs per change, against `base`, changes per job.
fn per_change_cell(row: &StressRow, base: Option<f64>) -> String {
    let per_job = if row.jobs > 0 { row.reservation_changes as f64 / row.jobs as f64 } else { 0.0 };
    match (us_per_change(row), base.filter(|b| *b > 0.0)) {
        (Some(us), Some(b)) => format!("{} ({}×) [{}]", fixed(us, 2), fixed(us / b, 1), fixed(per_job, 1)),
        (Some(us), None) => format!("{} [{}]", fixed(us, 2), fixed(per_job, 1)),
        (None, _) => "no changes".to_owned(),
    }
}

/// Microseconds of run time per scheduling pass.
fn us_per_pass(row: &StressRow) -> String {
    match row.seconds {
        Some(s) if row.passes > 0 => fixed(s * 1e6 / row.passes as f64, 2),
        _ => String::new(),
    }
}

/// Nanoseconds of run time per pass and waiting job: a dynamic formula
/// scored at every pass costs one evaluation and a heap entry per waiting
/// job, so this stays flat as the queue grows; one merged by submission
/// second (`clock_order`) costs far less, falling as the queue grows.
fn ns_per_waiting_job(row: &StressRow) -> String {
    match row.seconds {
        Some(s) if row.passes > 0 && row.mean_waiting > 0.0 => {
            fixed(s * 1e9 / (row.passes as f64 * row.mean_waiting), 1)
        }
        _ => String::new(),
    }
}

/// One table per series: a row per policy, a column per case; backlog
/// cells compare with the previous size, load-factor cells with the first.
fn write_series(out: &mut dyn Write, rows: &[StressRow], plan: &Plan, cases: &[&Case]) -> std::io::Result<()> {
    let mut headers = vec!["policy".to_owned()];
    headers.extend(cases.iter().map(|c| c.label.clone()));
    let mut t = Table::with_headers(headers);
    let limit = plan.limit.as_secs();
    for policy in &plan.policies {
        let times: Vec<Option<&StressRow>> = cases
            .iter()
            .map(|c| rows.iter().find(|r| r.series == c.series && r.case == c.label && r.policy == *policy))
            .collect();
        let mut cells = vec![policy.clone()];
        for (k, row) in times.iter().enumerate() {
            let base = match cases[k].series {
                "backlog" if k > 0 => times[k - 1],
                "backlog" => None,
                _ if k > 0 => times[0],
                _ => None,
            };
            cells.push(row.map_or_else(String::new, |r| cell(r, base, limit)));
        }
        t.row(cells);
    }
    t.write(out)
}

/// "1.234 (12.3×)", "> 120 s", "skipped" or "failed".
fn cell(row: &StressRow, base: Option<&StressRow>, limit: u64) -> String {
    match (row.status, row.seconds) {
        (Status::Done, Some(s)) => match base.and_then(|b| b.seconds).filter(|b| *b > 0.0) {
            Some(b) => format!("{} ({}×)", fixed(s, 3), fixed(s / b, 1)),
            None => fixed(s, 3),
        },
        (Status::OverLimit, _) => format!("> {limit} s"),
        (Status::Skipped, _) => "skipped".to_owned(),
        _ => "failed".to_owned(),
    }
}

fn write_cases(out: &mut dyn Write, rows: &[StressRow], limit: u64) -> std::io::Result<()> {
    let headers = [
        "case",
        "policy",
        "jobs",
        "events",
        "passes",
        "mean waiting",
        "reservation changes",
        "seconds",
        "µs/pass",
        "ns/pass/waiting job",
        "peak MB",
        "check",
    ];
    let mut t = Table::new(&headers).align(1, output::Align::Left);
    for r in rows {
        if let Some(e) = &r.error {
            t.message_row(r.case.clone(), format!("{}  error: {e}", r.policy));
            continue;
        }
        let seconds = cell(r, None, limit);
        t.row(vec![
            r.case.clone(),
            r.policy.clone(),
            grouped(r.jobs),
            grouped(r.events),
            grouped(r.passes),
            fixed(r.mean_waiting, 0),
            grouped(r.reservation_changes),
            seconds,
            us_per_pass(r),
            ns_per_waiting_job(r),
            mb(r.peak_rss),
            r.check.clone(),
        ]);
    }
    t.write(out)
}
