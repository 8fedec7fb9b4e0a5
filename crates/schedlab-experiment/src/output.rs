use std::io::{self, Write};

use schedlab_engine::{RunRecord, Time};
use schedlab_workload::{write_swf, Header, SwfRow, Trace};

use crate::{RunSettings, TraceIdentity};

fn opt(t: Option<Time>) -> String {
    t.map_or_else(String::new, |t| t.to_string())
}

/// Writes the per-job table (docs/semantics.md, "Outputs") as CSV, one row per job in priority
/// order. Empty cells mean "none" (no fair start, no reservation).
pub fn write_jobs_csv<W: Write>(mut out: W, trace: &Trace, run: &RunRecord, bsd_threshold: Time) -> io::Result<()> {
    writeln!(
        out,
        "job,user,size,submit,start,end,wait,runtime,estimate,prediction,bsd,preempted,backfilled,blocked,fair_start,reservation"
    )?;
    for (job, rec) in trace.jobs.iter().zip(&run.jobs) {
        let wait = rec.end - job.submit - job.runtime;
        let bound = job.runtime.max(bsd_threshold) as f64;
        let bsd = (wait as f64 + bound) / bound;
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            job.id,
            job.user,
            job.size,
            job.submit,
            rec.start,
            rec.end,
            wait,
            job.runtime,
            job.estimate,
            rec.prediction,
            bsd,
            rec.starts.saturating_sub(1),
            u8::from(rec.backfilled),
            u8::from(rec.blocked),
            opt(rec.fair_start),
            opt(rec.first_reservation),
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
