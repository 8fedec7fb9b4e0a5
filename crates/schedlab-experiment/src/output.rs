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

/// What each job of a run on a machine of nodes held: its partition, its
/// nodes and the amount of each of the machine's resources, summed over its
/// placement (a whole node of an exclusive partition counts whole). The
/// per-job table's last columns on such a machine, in the CSV and in the
/// Python DataFrame alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobHoldings {
    /// `partition`, `nodes`, then each resource's name (`cpu`, `mem` in
    /// MiB, `gpu`, …).
    pub columns: Vec<String>,
    /// The machine's partition names, which `partition` indexes.
    pub partitions: Vec<String>,
    /// Per job in priority order: its partition's index and node count.
    pub placed: Vec<(u32, u32)>,
    /// Per job, the amount of each resource, `resources` a job.
    pub amounts: Vec<u64>,
    pub resources: usize,
}

/// The [`JobHoldings`] of `run`, `None` on the archive's processors.
pub fn job_holdings(trace: &Trace, run: &RunRecord) -> Option<JobHoldings> {
    let (cluster, placements) = (trace.cluster.as_deref()?, run.placements.as_ref()?);
    let m = &cluster.machine;
    let types = m.node_type_of();
    let r = m.resources.len();
    let mut placed = Vec::with_capacity(trace.jobs.len());
    let mut amounts = Vec::with_capacity(trace.jobs.len() * r);
    for j in 0..trace.jobs.len() {
        let request = cluster.request(j);
        let slots = placements.of(j as u32);
        let mut held = vec![0u64; r];
        for slot in slots {
            let capacity = &m.node_types[types[slot.node as usize] as usize].capacity;
            for (k, h) in held.iter_mut().enumerate() {
                let each = if request.exclusive { capacity[k] } else { request.amount(k, u64::from(slot.units)) };
                *h = h.saturating_add(each);
            }
        }
        placed.push((request.partition, slots.len() as u32));
        amounts.extend(held);
    }
    let columns = ["partition", "nodes"].into_iter().map(str::to_owned).chain(m.resources.iter().cloned()).collect();
    let partitions = m.partitions.iter().map(|p| p.name.clone()).collect();
    Some(JobHoldings { columns, partitions, placed, amounts, resources: r })
}

impl JobHoldings {
    /// Job `j`'s cells as CSV text, after a comma each.
    fn csv_cells(&self, j: usize) -> String {
        let (partition, nodes) = self.placed[j];
        let mut s = format!(",{},{nodes}", csv_text(&self.partitions[partition as usize]));
        for a in &self.amounts[j * self.resources..(j + 1) * self.resources] {
            s += &format!(",{a}");
        }
        s
    }
}

/// A text cell, quoted when it holds a comma, a quote or a line break.
fn csv_text(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Writes the per-job table ([`job_rows`]) as CSV, with the jobs'
/// [`JobHoldings`] after them on a machine of nodes. Empty cells mean
/// "none" (no fair start, no reservation).
pub fn write_jobs_csv<W: Write>(mut out: W, trace: &Trace, run: &RunRecord, bsd_threshold: Time) -> io::Result<()> {
    let holdings = job_holdings(trace, run);
    let extra = holdings.as_ref().map_or_else(String::new, |h| format!(",{}", h.columns.join(",")));
    writeln!(out, "{}{extra}", JOB_COLUMNS.join(","))?;
    for (j, r) in job_rows(trace, run, bsd_threshold).enumerate() {
        let extra = holdings.as_ref().map_or_else(String::new, |h| h.csv_cells(j));
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}{extra}",
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
