//! A finished run as Batsim's `jobs.csv`, column for column as Batsim 5
//! writes it (its `JobsTracer::write_job`), so that tools made for Batsim's
//! output, evalys first, read ours unchanged (docs/formats.md).
//!
//! Batsim prints its times with C++'s `std::to_string(double)`, which is
//! `printf("%f")`: six decimals. Our times are whole seconds, so every time
//! ends in `.000000`; a stretch has the digits `%f` gives it, `inf` for a
//! job of no execution time that waited, and `-nan` for one that did not
//! (0/0, as glibc prints the x86 default NaN).

use std::io::{self, BufWriter, Write};

use schedlab_engine::RunRecord;
use schedlab_workload::Job;

use crate::layout::{Band, Layout};

/// The header Batsim writes, in its order.
pub const BATSIM_JOBS_COLUMNS: &str = "job_id,workload_name,profile,submission_time,requested_number_of_resources,\
requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,\
allocated_resources,consumed_energy,metadata";

/// The workload name Batsim gives the first workload of its command line.
const WORKLOAD: &str = "w0";

/// Writes one row per job, in trace (priority) order, from the run record
/// and the processor layout of the same run.
///
/// A job's row describes the run it completed from (a preempted job's
/// earlier runs are not shown: Batsim has no preemption), on the
/// processors the layout gives it, numbered from 0. Its profile is named
/// after its run time, as a delay profile of that length; a job that ran
/// until its requested time is `COMPLETED_WALLTIME_REACHED` (Batsim kills
/// a delay at its walltime), any other `COMPLETED_SUCCESSFULLY`. The
/// energy is -1, as Batsim writes it without its energy plugin, and the
/// metadata empty.
pub fn write_batsim_jobs<W: Write>(out: W, jobs: &[Job], record: &RunRecord, layout: &Layout) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(64 * 1024, out);
    writeln!(w, "{BATSIM_JOBS_COLUMNS}")?;
    for (j, (job, rec)) in jobs.iter().zip(&record.jobs).enumerate() {
        let execution = rec.end - rec.start;
        let (success, state) =
            if job.runtime < job.estimate { (1, "COMPLETED_SUCCESSFULLY") } else { (0, "COMPLETED_WALLTIME_REACHED") };
        write!(w, "{},{WORKLOAD},{},{},{},", job.id, job.runtime, Fixed(job.submit as f64), job.size)?;
        write!(w, "{},{success},{state},{},", Fixed(job.estimate as f64), Fixed(rec.start as f64))?;
        write!(w, "{},{},", Fixed(execution as f64), Fixed(rec.end as f64))?;
        write!(w, "{},{},", Fixed((rec.start - job.submit) as f64), Fixed((rec.end - job.submit) as f64))?;
        let stretch = (rec.end - job.submit) as f64 / execution as f64;
        writeln!(w, "{},{},{},", Fixed(stretch), IntervalSet(layout.bands(j as u32)), Fixed(-1.0))?;
    }
    w.flush()
}

/// A number as `printf("%f")` prints it.
struct Fixed(f64);

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            x if x.is_nan() => f.write_str("-nan"),
            x if x.is_infinite() => f.write_str(if x > 0.0 { "inf" } else { "-inf" }),
            x => write!(f, "{x:.6}"),
        }
    }
}

/// Processor bands in Batsim's canonical interval-set syntax: closed
/// intervals `a-b` (or `a` alone), ascending, touching bands merged,
/// separated by spaces.
struct IntervalSet<'a>(&'a [Band]);

impl std::fmt::Display for IntervalSet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut merged: Vec<Band> = Vec::with_capacity(self.0.len());
        for &b in self.0 {
            match merged.last_mut() {
                Some(last) if last.hi == b.lo => last.hi = b.hi,
                _ => merged.push(b),
            }
        }
        for (i, b) in merged.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            match b.hi - b.lo {
                1 => write!(f, "{sep}{}", b.lo)?,
                _ => write!(f, "{sep}{}-{}", b.lo, b.hi - 1)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_printf_prints_them() {
        let cases = [(0.0, "0.000000"), (3600.0, "3600.000000"), (1.5, "1.500000"), (2.0 / 3.0, "0.666667")];
        for (x, want) in cases {
            assert_eq!(Fixed(x).to_string(), want);
        }
        assert_eq!(Fixed(f64::INFINITY).to_string(), "inf");
        assert_eq!(Fixed(f64::NAN).to_string(), "-nan");
    }

    #[test]
    fn interval_sets_are_canonical() {
        let b = |lo, hi| Band { lo, hi };
        assert_eq!(IntervalSet(&[b(0, 4), b(8, 9)]).to_string(), "0-3 8");
        assert_eq!(IntervalSet(&[b(0, 2), b(2, 5)]).to_string(), "0-4");
        assert_eq!(IntervalSet(&[b(7, 8)]).to_string(), "7");
        assert_eq!(IntervalSet(&[b(1, 3), b(5, 6), b(6, 8)]).to_string(), "1-2 5-7");
    }
}
