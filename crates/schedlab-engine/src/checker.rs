//! The run checker (SPEC §2): an independent reading of a finished run that
//! trusts nothing the engine computed on the way. It recomputes processor
//! usage from the recorded start and end times alone.

use schedlab_workload::Job;
use thiserror::Error;

use crate::{Guarantee, RunRecord, Time};

/// One broken rule, with the job it concerns when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub job: Option<u64>,
    pub message: String,
}

/// A run that broke the checker's rules; keeps the first few violations.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("run check failed with {count} violation(s); first: {}", first_message(.violations))]
pub struct CheckError {
    pub count: usize,
    pub violations: Vec<Violation>,
}

fn first_message(v: &[Violation]) -> String {
    v.first().map_or_else(String::new, |v| match v.job {
        Some(id) => format!("job {id}: {}", v.message),
        None => v.message.clone(),
    })
}

const KEPT: usize = 20;

#[derive(Default)]
struct Findings {
    count: usize,
    kept: Vec<Violation>,
}

impl Findings {
    fn add(&mut self, job: Option<u64>, message: String) {
        self.count += 1;
        if self.kept.len() < KEPT {
            self.kept.push(Violation { job, message });
        }
    }
}

/// Verifies a run: every job completes exactly once, never starts before its
/// submit time, runs exactly its runtime, processors in use never exceed the
/// machine, total useful work equals Σ runtime × size, and each of the
/// policy's `guarantees` holds.
pub fn check(jobs: &[Job], run: &RunRecord, guarantees: &[Guarantee]) -> Result<(), CheckError> {
    let mut f = Findings::default();
    if run.jobs.len() != jobs.len() {
        f.add(None, format!("the run records {} jobs, the trace has {}", run.jobs.len(), jobs.len()));
        return Err(CheckError { count: f.count, violations: f.kept });
    }
    check_jobs(jobs, run, &mut f);
    check_capacity(jobs, run, &mut f);
    for g in guarantees {
        match g {
            Guarantee::PriorityOrder => check_priority_order(jobs, run, &mut f),
            Guarantee::NoLaterThanFirstReservation => check_reservations(jobs, run, &mut f),
        }
    }
    if f.count == 0 {
        Ok(())
    } else {
        Err(CheckError { count: f.count, violations: f.kept })
    }
}

fn check_jobs(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    let (mut useful, mut expected) = (0i128, 0i128);
    for (job, rec) in jobs.iter().zip(&run.jobs) {
        let id = Some(job.id);
        if rec.completions != 1 {
            f.add(id, format!("completed {} times", rec.completions));
            continue;
        }
        if rec.first_start < job.submit {
            f.add(id, format!("started at {} before its submit time {}", rec.first_start, job.submit));
        }
        if rec.end - rec.start != job.runtime {
            f.add(id, format!("ran {} s from its last start, its runtime is {} s", rec.end - rec.start, job.runtime));
        }
        useful += i128::from(rec.end - rec.start) * i128::from(job.size);
        expected += i128::from(job.runtime) * i128::from(job.size);
    }
    if useful != expected {
        f.add(None, format!("useful work {useful} processor-seconds differs from Σ runtime × size = {expected}"));
    }
}

/// Sweeps starts and ends in time order (ends first within a second, since
/// an interval is [start, end)) and tracks processors in use.
fn check_capacity(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    let mut changes: Vec<(Time, i64)> = Vec::with_capacity(2 * jobs.len());
    for (job, rec) in jobs.iter().zip(&run.jobs) {
        // A zero-length job holds no processor over any interval; the engine
        // checked at its start that it fitted.
        if rec.end > rec.start {
            changes.push((rec.start, i64::from(job.size)));
            changes.push((rec.end, -i64::from(job.size)));
        }
    }
    changes.sort_unstable();
    let mut used = 0i64;
    for (t, delta) in changes {
        used += delta;
        if used > i64::from(run.procs) {
            f.add(None, format!("{used} processors in use at t={t} on a {}-processor machine", run.procs));
        }
    }
}

fn check_priority_order(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    for (i, pair) in run.jobs.windows(2).enumerate() {
        if pair[1].first_start < pair[0].first_start {
            f.add(
                Some(jobs[i + 1].id),
                format!(
                    "started at {} before job {} of higher priority (started at {})",
                    pair[1].first_start, jobs[i].id, pair[0].first_start
                ),
            );
        }
    }
}

fn check_reservations(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    for (job, rec) in jobs.iter().zip(&run.jobs) {
        if let Some(r) = rec.first_reservation {
            if rec.first_start > r {
                f.add(Some(job.id), format!("started at {} after its first reservation at {r}", rec.first_start));
            }
        }
    }
}
