//! The fair-slowdown fairness table (selective-reservation §5, table 9).
//!
//! A job's *fair start* is the start it would have had if, at the instant
//! it arrived in a reference FCFS-conservative (CBF) run of the same trace,
//! the scheduler had switched to strict FCFS without backfilling: the jobs
//! running then keep their real ends from the reference run, and the jobs
//! queued then (submitted no later, in priority order), then the job
//! itself, start one after the other, each as soon as enough processors
//! are free and never before the one ahead of it, each running its actual
//! runtime. "Running at the instant it arrived" means started before the
//! submit second and ending after it; a job that started in the very
//! second counts as queued.
//!
//! fair-slowdown = (fair start − submit + runtime) / max(runtime, 1), and
//! the job's slowdown = (end − submit) / max(runtime, 1) as in the other
//! metrics. The table gives the share (percent) of measured jobs whose
//! slowdown is ≤ 1, in (1, 1.5], (1.5, 2], (2, 4] and > 4 times their fair
//! slowdown.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use schedlab_engine::{RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;

use crate::summary::measured;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FairSlowdownTable {
    /// The reference run, e.g. `cbf@estimate`.
    pub reference: String,
    pub jobs: usize,
    pub rows: Vec<FairSlowdownRow>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FairSlowdownRow {
    /// "<=1", "1-1.5", "1.5-2", "2-4", ">4" (times the fair slowdown).
    pub range: &'static str,
    pub jobs: usize,
    pub percent: f64,
}

const RANGES: [(&str, f64); 5] = [("<=1", 1.0), ("1-1.5", 1.5), ("1.5-2", 2.0), ("2-4", 4.0), (">4", f64::INFINITY)];

/// Every job's fair start, from a reference CBF run of the same jobs.
pub fn fair_starts(jobs: &[Job], reference: &RunRecord) -> Vec<Time> {
    let mut by_start: Vec<(Time, usize)> = reference.jobs.iter().enumerate().map(|(i, r)| (r.start, i)).collect();
    by_start.sort_unstable();
    // Running jobs (started before the current submit second) by (end, job),
    // and queued jobs by priority.
    let mut running: BTreeMap<(Time, usize), u32> = BTreeMap::new();
    let mut queued: BTreeSet<usize> = BTreeSet::new();
    let mut next_start = 0;
    let mut out = Vec::with_capacity(jobs.len());
    for (j, job) in jobs.iter().enumerate() {
        let a = job.submit;
        while next_start < by_start.len() && by_start[next_start].0 < a {
            let i = by_start[next_start].1;
            queued.remove(&i);
            running.insert((reference.jobs[i].end, i), jobs[i].size);
            next_start += 1;
        }
        while let Some((&(end, i), _)) = running.first_key_value() {
            if end > a {
                break;
            }
            running.remove(&(end, i));
        }
        if reference.jobs[j].start >= a {
            queued.insert(j);
        }
        out.push(fcfs_start(jobs, reference.procs, a, &running, &queued, j));
    }
    out
}

/// Strict FCFS from time `a`: queued jobs up to `target` start in priority
/// order; returns `target`'s start.
fn fcfs_start(
    jobs: &[Job],
    procs: u32,
    a: Time,
    running: &BTreeMap<(Time, usize), u32>,
    queued: &BTreeSet<usize>,
    target: usize,
) -> Time {
    let mut ends: BinaryHeap<Reverse<(Time, u32)>> = running.iter().map(|(&(end, _), &s)| Reverse((end, s))).collect();
    let mut free = i64::from(procs) - running.values().map(|&s| i64::from(s)).sum::<i64>();
    let mut t = a;
    for &k in queued.range(..=target) {
        let size = i64::from(jobs[k].size);
        while free < size {
            let Some(Reverse((end, s))) = ends.pop() else { break };
            t = t.max(end);
            free += i64::from(s);
        }
        if k == target {
            return t;
        }
        free -= size;
        ends.push(Reverse((t + jobs[k].runtime, jobs[k].size)));
    }
    t
}

/// The table for `run`, against `reference` (named `reference_name`).
pub fn fair_slowdown_table(
    jobs: &[Job],
    run: &RunRecord,
    reference: &RunRecord,
    reference_name: &str,
    skip_percent: f64,
) -> FairSlowdownTable {
    let fair = fair_starts(jobs, reference);
    let mut counts = [0usize; 5];
    let range = measured(jobs.len(), skip_percent);
    for i in range.clone() {
        let job = &jobs[i];
        let rt = job.runtime.max(1) as f64;
        let slowdown = (run.jobs[i].end - job.submit) as f64 / rt;
        let fair_slowdown = (fair[i] - job.submit + job.runtime) as f64 / rt;
        let row = RANGES.iter().position(|&(_, f)| slowdown <= f * fair_slowdown).unwrap_or(4);
        counts[row] += 1;
    }
    let n = range.len();
    let rows = RANGES
        .iter()
        .zip(counts)
        .map(|(&(range, _), jobs)| FairSlowdownRow {
            range,
            jobs,
            percent: if n == 0 { 0.0 } else { 100.0 * jobs as f64 / n as f64 },
        })
        .collect();
    FairSlowdownTable { reference: reference_name.to_string(), jobs: n, rows }
}
