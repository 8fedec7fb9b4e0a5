//! `schedlab-bench one` (hidden): one benchmark measurement in a process of
//! its own, so that its peak resident set size belongs to it alone. Prints
//! one JSON line ([`Measurement`]).
//!
//! Without `--policy` the child only parses the trace: its peak RSS is the
//! baseline that `bench` subtracts from a run's peak.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use schedlab_engine::Control;
use schedlab_experiment::{resolve, RunRequest};
use schedlab_synth::{generate_backlog, LublinParams};
use schedlab_workload::{Loaded, Machine, ReadOptions, Trace};
use serde::{Deserialize, Serialize};

use crate::args::{BenchOneArgs, PolicySpec};
use crate::estimates::RatioTable;
use crate::fail::run_failure;
use crate::{memory, output, trace_input};

/// What one child measured. Memory figures are bytes; `None` where the
/// platform cannot tell.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Measurement {
    pub jobs: u64,
    pub procs: u32,
    /// Uncompressed bytes of the trace.
    pub bytes: u64,
    /// Best time to read and clean the trace from its file (gzip included).
    pub parse_seconds: f64,
    pub events: u64,
    /// Changes of a reservation the run recorded (its reservation log's
    /// entries): part of a run's output, so a lower bound on its work.
    pub reservation_changes: u64,
    /// Scheduling passes of the run (the policy's decision points).
    #[serde(default)]
    pub passes: u64,
    /// Waiting jobs at the start of a pass, averaged over the run's distinct
    /// arrival and end times (`mean_waiting`): the q a dynamic formula
    /// re-scores at each pass.
    #[serde(default)]
    pub mean_waiting: f64,
    /// Best time of the run (engine, checker, metrics); 0 for a parse-only child.
    pub seconds: f64,
    pub mean_wait: f64,
    pub mbs: f64,
    pub check: String,
    /// VmHWM at the end.
    pub peak_rss: Option<u64>,
    /// VmRSS once the trace is loaded.
    pub rss_loaded: Option<u64>,
    /// Live heap bytes once the trace is loaded.
    pub heap_loaded: u64,
    /// Highest live heap bytes during the runs (0 for a parse-only child).
    pub heap_peak_run: u64,
}

pub fn main(args: &BenchOneArgs) -> Result<ExitCode> {
    let (trace, bytes, parse_seconds) = match (args.backlog, &args.trace) {
        (Some(jobs), _) => (backlog(jobs, args.procs, args.estimates_from.as_deref())?, 0, 0.0),
        (None, Some(path)) => {
            let machine = args.nodes.as_deref().map(Machine::from_spec).transpose();
            let opts = ReadOptions {
                machine_size: args.procs,
                load_factor: args.load_factor.unwrap_or(1.0),
                machine: machine.map_err(|e| anyhow::anyhow!("--nodes: {e}"))?,
                ..ReadOptions::default()
            };
            let (loaded, parse_seconds) = best_parse(path, args, &opts)?;
            (loaded.trace, loaded.bytes, parse_seconds)
        }
        (None, None) => anyhow::bail!("give a trace or --backlog N"),
    };
    if let Some(path) = &args.write_swf {
        write_swf(path, &trace)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut m = Measurement {
        jobs: trace.jobs.len() as u64,
        procs: trace.procs,
        bytes,
        parse_seconds,
        rss_loaded: memory::rss_now(),
        heap_loaded: memory::heap_now() as u64,
        ..Measurement::default()
    };
    if let Some(spec) = &args.policy {
        measure_runs(&mut m, &trace, spec, args)?;
    }
    m.peak_rss = memory::peak_rss();
    let mut out = output::stdout();
    serde_json::to_writer(&mut out, &m)?;
    writeln!(out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes `trace` as SWF to `path`, its machine size in the header.
fn write_swf(path: &Path, trace: &Trace) -> Result<()> {
    let file = std::fs::File::create(path).with_context(|| format!("--write-swf {}", path.display()))?;
    let rows = trace.jobs.iter().zip(&trace.extras).map(|(j, e)| schedlab_workload::SwfRow::from_trace(*j, *e));
    schedlab_workload::write_swf(file, &[format!("MaxProcs: {}", trace.procs)], rows)
        .with_context(|| format!("--write-swf {}", path.display()))
}

/// Reads the trace `repeat` times (a parse-only child) or once, keeping the
/// best time; only one copy is alive at a time.
/// The queue-stress backlog: `jobs` Lublin jobs (seed 1) all submitted at
/// t = 0 on `procs` processors (128 by default), with exact estimates or,
/// given a trace, estimates drawn from its ratios (seed 1 too).
fn backlog(jobs: u32, procs: Option<u32>, estimates_from: Option<&Path>) -> Result<Trace> {
    let params = LublinParams { procs: procs.unwrap_or(128), jobs, seed: 1, ..LublinParams::default() };
    let mut trace = generate_backlog(&params).map_err(|e| anyhow::anyhow!("--backlog: {e}"))?;
    if let Some(path) = estimates_from {
        let source = trace_input::load(path, &ReadOptions::default())
            .with_context(|| format!("--estimates-from {}", path.display()))?;
        let table = RatioTable::from_trace(&source.trace).ok_or_else(|| {
            anyhow::anyhow!("--estimates-from {}: no job with a positive runtime and estimate", path.display())
        })?;
        table.apply(&mut trace, 1);
    }
    Ok(trace)
}

fn best_parse(path: &Path, args: &BenchOneArgs, opts: &ReadOptions) -> Result<(Loaded, f64)> {
    let times = if args.policy.is_some() { 1 } else { args.repeat.max(1) };
    let mut best = f64::INFINITY;
    let mut kept = None;
    for _ in 0..times {
        drop(kept.take());
        let start = Instant::now();
        let loaded = trace_input::load(path, opts)?;
        best = best.min(start.elapsed().as_secs_f64());
        kept = Some(loaded);
    }
    let loaded = kept.ok_or_else(|| anyhow::anyhow!("no parse was made"))?;
    Ok((loaded, best))
}

fn measure_runs(m: &mut Measurement, trace: &Trace, spec: &str, args: &BenchOneArgs) -> Result<()> {
    let spec = PolicySpec::parse(spec)?;
    let request = RunRequest {
        policy: spec.id,
        params: schedlab_experiment::given_texts(spec.params),
        predictor: spec.predictor,
        skip_check: args.no_check,
        ..RunRequest::default()
    };
    let settings = resolve(&request)?;
    memory::reset_heap_peak();
    let mut best = f64::INFINITY;
    for _ in 0..args.repeat.max(1) {
        let start = Instant::now();
        let outcome = schedlab_experiment::run(trace, &settings, &mut |_| Control::Continue)
            .map_err(|e| run_failure(e.to_string()))?;
        best = best.min(start.elapsed().as_secs_f64());
        m.events = outcome.record.events;
        m.reservation_changes = outcome.record.reservations.len() as u64;
        m.passes = outcome.record.passes;
        m.mean_waiting = mean_waiting(trace, &outcome.record);
        m.mean_wait = outcome.metrics.mean_wait;
        m.mbs = outcome.metrics.mbs;
        m.check = if outcome.checked { "passed" } else { "skipped" }.to_owned();
    }
    m.seconds = best;
    m.heap_peak_run = memory::heap_peak() as u64;
    Ok(())
}

/// The waiting jobs at the start of a pass, averaged over the distinct
/// submit and end times of the run (where passes happen; follow-up passes
/// at the same time are not told apart). A job submitted at t waits at t's
/// pass; one that starts at t still waits when that pass begins.
fn mean_waiting(trace: &Trace, record: &schedlab_engine::RunRecord) -> f64 {
    let mut submits: Vec<i64> = trace.jobs.iter().map(|j| j.submit).collect();
    let mut starts: Vec<i64> = record.jobs.iter().map(|r| r.first_start).collect();
    let mut times: Vec<i64> = submits.iter().copied().chain(record.jobs.iter().map(|r| r.end)).collect();
    submits.sort_unstable();
    starts.sort_unstable();
    times.sort_unstable();
    times.dedup();
    if times.is_empty() {
        return 0.0;
    }
    let (mut submitted, mut started, mut sum) = (0usize, 0usize, 0u64);
    for &t in &times {
        submitted += submits[submitted..].iter().take_while(|&&s| s <= t).count();
        started += starts[started..].iter().take_while(|&&s| s < t).count();
        sum += submitted.saturating_sub(started) as u64;
    }
    sum as f64 / times.len() as f64
}
