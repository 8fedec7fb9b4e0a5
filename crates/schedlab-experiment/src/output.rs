use std::io::{self, Write};

use schedlab_engine::{RunRecord, Time};
use schedlab_workload::{write_swf, Header, SwfRow, Trace};

use crate::{RunSettings, TraceIdentity};

fn opt(t: Option<Time>) -> String {
    t.map_or_else(String::new, |t| t.to_string())
}

/// The columns of the per-job table, in order (docs/semantics.md, "Outputs").
pub const JOB_COLUMNS: [&str; 16] = [
    "job",
    "user",
    "size",
    "submit",
    "start",
    "end",
    "wait",
    "runtime",
    "estimate",
    "prediction",
    "bsd",
    "preempted",
    "backfilled",
    "blocked",
    "fair_start",
    "reservation",
];

/// One row of the per-job table: a job as read and what the run did with
/// it. The CSV writer and the Python binding's DataFrame both read these
/// rows, so the two tables cannot disagree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobRow {
    pub job: u64,
    pub user: i32,
    pub size: u32,
    pub submit: Time,
    /// The last start (the one the job completed from).
    pub start: Time,
    pub end: Time,
    /// end − submit − runtime: lost work and overheads of a preempted job count as waiting.
    pub wait: Time,
    pub runtime: Time,
    pub estimate: Time,
    pub prediction: Time,
    /// (wait + max(runtime, τ)) / max(runtime, τ).
    pub bsd: f64,
    /// Times the job was preempted.
    pub preempted: u32,
    pub backfilled: bool,
    pub blocked: bool,
    pub fair_start: Option<Time>,
    pub reservation: Option<Time>,
}

/// The per-job table of a run, one row per job in priority order.
pub fn job_rows<'a>(trace: &'a Trace, run: &'a RunRecord, bsd_threshold: Time) -> impl Iterator<Item = JobRow> + 'a {
    trace.jobs.iter().zip(&run.jobs).map(move |(job, rec)| {
        let wait = rec.end - job.submit - job.runtime;
        let bound = job.runtime.max(bsd_threshold) as f64;
        JobRow {
            job: job.id,
            user: job.user,
            size: job.size,
            submit: job.submit,
            start: rec.start,
            end: rec.end,
            wait,
            runtime: job.runtime,
            estimate: job.estimate,
            prediction: rec.prediction,
            bsd: (wait as f64 + bound) / bound,
            preempted: rec.starts.saturating_sub(1),
            backfilled: rec.backfilled,
            blocked: rec.blocked,
            fair_start: rec.fair_start,
            reservation: rec.first_reservation,
        }
    })
}

/// Writes the per-job table ([`job_rows`]) as CSV. Empty cells mean "none"
/// (no fair start, no reservation).
pub fn write_jobs_csv<W: Write>(mut out: W, trace: &Trace, run: &RunRecord, bsd_threshold: Time) -> io::Result<()> {
    writeln!(out, "{}", JOB_COLUMNS.join(","))?;
    for r in job_rows(trace, run, bsd_threshold) {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.job,
            r.user,
            r.size,
            r.submit,
            r.start,
            r.end,
            r.wait,
            r.runtime,
            r.estimate,
            r.prediction,
            r.bsd,
            r.preempted,
            u8::from(r.backfilled),
            u8::from(r.blocked),
            opt(r.fair_start),
            opt(r.reservation),
        )?;
    }
    Ok(())
}

/// Writes the simulated schedule as SWF: field 3 is the simulated wait
/// (last start − submit), field 4 the runtime, the other fields as read.
pub fn write_schedule_swf<W: Write>(out: W, trace: &Trace, run: &RunRecord, comments: &[String]) -> io::Result<()> {
    let rows = trace.jobs.iter().zip(&trace.extras).zip(&run.jobs).map(|((job, extra), rec)| SwfRow {
        job: *job,
        extra: *extra,
        wait: rec.start - job.submit,
        runtime: job.runtime,
        procs: job.size,
    });
    write_swf(out, comments, rows)
}

/// Header comments of a simulated schedule written by
/// [`write_schedule_swf`]: enough to read it back with the same machine size
/// and to know where it came from (the command line's `--swf-out` writes the
/// same lines; the web page uses this function).
pub fn schedule_comments(settings: &RunSettings, id: &TraceIdentity, header: &Header) -> Vec<String> {
    let mut c = vec![
        "Version: 2.2".to_owned(),
        format!(
            "Note: simulated schedule by schedlab {}: policy {}, predictor {}, seed {}; field 3 is the simulated wait",
            env!("CARGO_PKG_VERSION"),
            settings.policy.id,
            settings.source.id(),
            settings.seed
        ),
        format!("Note: trace {} (sha256 {})", id.name, id.sha256),
    ];
    if let Some(v) = &header.computer {
        c.push(format!("Computer: {v}"));
    }
    if let Some(v) = &header.installation {
        c.push(format!("Installation: {v}"));
    }
    if let Some(v) = header.unix_start_time {
        c.push(format!("UnixStartTime: {v}"));
    }
    if let Some(v) = &header.time_zone_string {
        c.push(format!("TimeZoneString: {v}"));
    }
    c.push(format!("MaxJobs: {}", id.jobs));
    c.push(format!("MaxRecords: {}", id.jobs));
    c.push(format!("MaxProcs: {}", id.procs));
    c
}
