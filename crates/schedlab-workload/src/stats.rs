//! Trace statistics (docs/semantics.md, "Reading a trace"), computed on the cleaned jobs.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::job::Trace;

/// What a trace looks like before any simulation.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceStats {
    /// Number of jobs.
    pub jobs: u64,
    /// Machine size P.
    pub procs: u32,
    /// Earliest submit time, seconds.
    pub first_submit: i64,
    /// Latest submit time, seconds.
    pub last_submit: i64,
    /// last_submit − first_submit, seconds.
    pub duration: i64,
    /// Σ(runtime × size) / (P × duration), a fraction (0.7 = 70 %). `None`
    /// (JSON `null`) when every job is submitted in the same second: the
    /// work then arrives at once and has no rate to compare with the
    /// machine's (see `docs/decisions.md`).
    pub offered_load: Option<f64>,
    /// Mean job size, processors.
    pub mean_parallelism: f64,
    /// Mean run time, seconds.
    pub mean_runtime: f64,
    /// Mean of runtime / estimate (1 = perfect estimates).
    pub mean_estimate_accuracy: f64,
    /// Distinct known user ids (field 12 ≥ 0).
    pub users: u64,
    /// Distinct known queues (field 15 ≥ 0).
    pub queues: u64,
    /// Σ runtime × size, processor-seconds. Summed exactly, reported as a
    /// float so that JSON and JavaScript read it as a plain number (exact
    /// up to 2^53 processor-seconds, far beyond any real log).
    pub total_work: f64,
}

/// Statistics of a cleaned trace; all zeros (but `procs`) for no job.
pub fn stats(trace: &Trace) -> TraceStats {
    let jobs = &trace.jobs;
    let mut s = TraceStats { jobs: jobs.len() as u64, procs: trace.procs, ..TraceStats::default() };
    if jobs.is_empty() {
        return s;
    }
    s.first_submit = jobs.iter().map(|j| j.submit).min().unwrap_or(0);
    s.last_submit = jobs.iter().map(|j| j.submit).max().unwrap_or(0);
    s.duration = s.last_submit.saturating_sub(s.first_submit);
    let n = jobs.len() as f64;
    let mut runtime_sum = 0i128;
    let mut size_sum = 0u128;
    let mut accuracy_sum = 0.0f64;
    let mut work = 0u128;
    for j in jobs {
        let runtime = j.runtime.max(0);
        runtime_sum += i128::from(runtime);
        size_sum += u128::from(j.size);
        work += u128::from(runtime.unsigned_abs()) * u128::from(j.size);
        accuracy_sum += runtime as f64 / j.estimate.max(1) as f64;
    }
    s.total_work = work as f64;
    s.mean_runtime = runtime_sum as f64 / n;
    s.mean_parallelism = size_sum as f64 / n;
    s.mean_estimate_accuracy = accuracy_sum / n;
    let capacity = f64::from(trace.procs) * s.duration as f64;
    s.offered_load = (capacity > 0.0).then(|| s.total_work / capacity);
    s.users = distinct(jobs.iter().map(|j| j.user));
    s.queues = distinct(jobs.iter().map(|j| j.queue));
    s
}

fn distinct(ids: impl Iterator<Item = i32>) -> u64 {
    ids.filter(|&id| id >= 0).collect::<BTreeSet<_>>().len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{Job, SwfExtra};

    fn job(id: u64, submit: i64, runtime: i64, size: u32, estimate: i64, user: i32, queue: i32) -> Job {
        Job { id, submit, runtime, size, estimate, user, group: -1, queue, partition: -1, status: 1 }
    }

    fn trace(procs: u32, jobs: Vec<Job>) -> Trace {
        let extras = vec![SwfExtra::unknown(-1); jobs.len()];
        Trace { procs, jobs, extras }
    }

    #[test]
    fn hand_computed() {
        let t =
            trace(10, vec![job(1, 0, 100, 2, 200, 1, 0), job(2, 50, 50, 4, 50, 2, -1), job(3, 100, 0, 1, 10, 1, 3)]);
        let s = stats(&t);
        assert_eq!((s.jobs, s.procs, s.first_submit, s.last_submit, s.duration), (3, 10, 0, 100, 100));
        assert_eq!(s.total_work, 400.0);
        assert!(s.offered_load.is_some_and(|x| (x - 0.4).abs() < 1e-12), "{:?}", s.offered_load);
        assert!((s.mean_parallelism - 7.0 / 3.0).abs() < 1e-12);
        assert!((s.mean_runtime - 50.0).abs() < 1e-12);
        assert!((s.mean_estimate_accuracy - 0.5).abs() < 1e-12);
        assert_eq!((s.users, s.queues), (2, 2));
    }

    #[test]
    fn zero_duration_and_empty() {
        let s = stats(&trace(4, vec![job(1, 7, 10, 1, 10, 1, 1)]));
        assert_eq!((s.duration, s.offered_load), (0, None));
        // Many jobs, all at t = 0: work, but no rate to compare with P.
        let s = stats(&trace(4, (1..=5).map(|i| job(i, 0, 100, 2, 100, 1, 1)).collect()));
        assert_eq!((s.duration, s.total_work, s.offered_load), (0, 1000.0, None));
        let s = stats(&trace(4, vec![]));
        assert_eq!((s.jobs, s.procs, s.offered_load), (0, 4, None));
    }
}
