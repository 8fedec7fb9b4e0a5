//! Building small traces by hand and running them.

use schedlab::engine::{Control, RunRecord, Time};
use schedlab::experiment::{self, PolicySpec, RunOutcome, RunRequest};
use schedlab::workload::{Job, SwfExtra, Trace};

/// One row of a hand-written trace: (submit, runtime, size, estimate, user).
/// Job numbers are 1, 2, 3, … in row order.
pub type Row = (Time, Time, u32, Time, i32);

pub fn trace(procs: u32, rows: &[Row]) -> Trace {
    let jobs: Vec<Job> = rows
        .iter()
        .enumerate()
        .map(|(i, &(submit, runtime, size, estimate, user))| Job {
            id: i as u64 + 1,
            submit,
            runtime,
            size,
            estimate,
            user,
            group: -1,
            queue: -1,
            partition: -1,
            status: 1,
        })
        .collect();
    let extras = vec![SwfExtra::unknown(-1); jobs.len()];
    Trace { procs, jobs, extras, cluster: None }
}

/// A policy as the command line names it: `ID[:k=v,k=v][@source]`.
pub fn request(spec: &str) -> RunRequest {
    PolicySpec::parse(spec).unwrap_or_else(|e| panic!("{e}")).request()
}

/// Runs `spec` on `trace` with the run checker on; panics with the reason
/// if the run or the check fails.
pub fn run(trace: &Trace, spec: &str) -> RunOutcome {
    run_seeded(trace, spec, 0)
}

pub fn run_seeded(trace: &Trace, spec: &str, seed: u64) -> RunOutcome {
    let mut req = request(spec);
    req.seed = seed;
    let settings = experiment::resolve(&req).unwrap_or_else(|e| panic!("{spec}: {e}"));
    experiment::run(trace, &settings, &mut |_| Control::Continue).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

pub fn starts(record: &RunRecord) -> Vec<Time> {
    record.jobs.iter().map(|r| r.first_start).collect()
}

/// Job numbers (1-based) whose flag is set.
pub fn which(record: &RunRecord, flag: impl Fn(&schedlab::engine::JobRecord) -> bool) -> Vec<usize> {
    record.jobs.iter().enumerate().filter(|(_, r)| flag(r)).map(|(i, _)| i + 1).collect()
}
