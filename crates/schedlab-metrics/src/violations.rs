//! Reservation violations (pv-easy-conference §3, table 2; docs/semantics.md, "Metrics").
//!
//! A blocked job `h` with a reservation `r` (the first one recorded for it)
//! suffers a violation when it starts after `r` *and* at `r` the idle
//! processors plus those held by jobs backfilled while `h` was the first
//! waiting job would have sufficed for it. When they would not have, `h` was
//! delayed by its predecessors outliving their predictions: the paper's
//! "benign" case, not counted. "At `r`" means after the jobs ending at `r`
//! have released their processors and before anything starts at `r`.
//!
//! Reported: count, mean size of the victims, mean and maximum delay from
//! reservation DTR = start − r, and mean and maximum slowdown increment
//! SI = DTR / max(runtime, τ).

use schedlab_engine::{JobIdx, RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReservationViolations {
    pub count: usize,
    pub mean_victim_size: f64,
    pub mean_dtr: f64,
    pub max_dtr: Time,
    pub mean_si: f64,
    pub max_si: f64,
}

/// Processor usage at any instant, from sorted starts and ends.
struct Usage {
    starts: Vec<(Time, i64)>,
    ends: Vec<(Time, i64)>,
}

impl Usage {
    fn new(jobs: &[Job], run: &RunRecord) -> Self {
        let mut starts = Vec::with_capacity(run.jobs.len() + run.segments.len());
        let mut ends = Vec::with_capacity(starts.capacity());
        // A zero-length interval holds nothing at any instant.
        for (j, start, end) in intervals(run).filter(|&(_, start, end)| end > start) {
            starts.push((start, i64::from(jobs[j as usize].size)));
            ends.push((end, i64::from(jobs[j as usize].size)));
        }
        Self { starts: prefix_sums(starts), ends: prefix_sums(ends) }
    }

    /// Processors held at `t` after releases at `t`, before starts at `t`.
    fn at(&self, t: Time) -> i64 {
        let started = self.starts.partition_point(|s| s.0 < t);
        let ended = self.ends.partition_point(|e| e.0 <= t);
        let total = |v: &[(Time, i64)], k: usize| if k == 0 { 0 } else { v[k - 1].1 };
        total(&self.starts, started) - total(&self.ends, ended)
    }
}

fn prefix_sums(mut v: Vec<(Time, i64)>) -> Vec<(Time, i64)> {
    v.sort_unstable();
    let mut sum = 0;
    for e in &mut v {
        sum += e.1;
        e.1 = sum;
    }
    v
}

fn intervals(run: &RunRecord) -> impl Iterator<Item = (JobIdx, Time, Time)> + '_ {
    let last = run.jobs.iter().enumerate().map(|(j, r)| (j as JobIdx, r.start, r.end));
    run.segments.iter().map(|s| (s.job, s.start, s.end)).chain(last)
}

pub(crate) fn reservation_violations(
    jobs: &[Job],
    run: &RunRecord,
    measured: std::ops::Range<usize>,
    tau: Time,
) -> ReservationViolations {
    let candidate = |h: usize| {
        let rec = &run.jobs[h];
        rec.first_reservation.is_some_and(|r| rec.blocked && rec.first_start > r)
    };
    // Most runs with estimates have no late start at all: skip the sweep
    // structures, which cost more memory than the run itself.
    if !measured.clone().any(candidate) {
        return ReservationViolations::default();
    }
    let usage = Usage::new(jobs, run);
    let mut segments: Vec<(JobIdx, Time, Time)> = run.segments.iter().map(|s| (s.job, s.start, s.end)).collect();
    segments.sort_unstable();
    let mut behind: Vec<(JobIdx, JobIdx)> =
        run.jobs.iter().enumerate().filter_map(|(k, r)| r.backfilled_behind.map(|h| (h, k as JobIdx))).collect();
    behind.sort_unstable();
    let mut v = ReservationViolations::default();
    let (mut size_sum, mut dtr_sum, mut si_sum) = (0.0, 0.0, 0.0);
    for h in measured {
        let (job, rec) = (&jobs[h], &run.jobs[h]);
        let Some(r) = rec.first_reservation.filter(|&r| rec.blocked && rec.first_start > r) else { continue };
        let idle = i64::from(run.procs) - usage.at(r);
        let backfilled = held_by_backfilled(jobs, run, &segments, &behind, h as JobIdx, r);
        if idle + backfilled < i64::from(job.size) {
            continue;
        }
        let dtr = rec.first_start - r;
        let si = dtr as f64 / job.runtime.max(tau) as f64;
        v.count += 1;
        size_sum += f64::from(job.size);
        dtr_sum += dtr as f64;
        si_sum += si;
        v.max_dtr = v.max_dtr.max(dtr);
        v.max_si = v.max_si.max(si);
    }
    if v.count > 0 {
        let n = v.count as f64;
        v.mean_victim_size = size_sum / n;
        v.mean_dtr = dtr_sum / n;
        v.mean_si = si_sum / n;
    }
    v
}

/// Processors held at `t` by jobs first backfilled while `h` was first.
fn held_by_backfilled(
    jobs: &[Job],
    run: &RunRecord,
    segments: &[(JobIdx, Time, Time)],
    behind: &[(JobIdx, JobIdx)],
    h: JobIdx,
    t: Time,
) -> i64 {
    let from = behind.partition_point(|&(b, _)| b < h);
    behind[from..]
        .iter()
        .take_while(|&&(b, _)| b == h)
        .filter(|&&(_, k)| holds_at(run, segments, k, t))
        .map(|&(_, k)| i64::from(jobs[k as usize].size))
        .sum()
}

/// Whether job `k` holds processors at `t`, in its last run or in one of
/// its preempted segments (`segments` sorted by job).
fn holds_at(run: &RunRecord, segments: &[(JobIdx, Time, Time)], k: JobIdx, t: Time) -> bool {
    let r = &run.jobs[k as usize];
    let inside = |start: Time, end: Time| start < t && t < end;
    let from = segments.partition_point(|s| s.0 < k);
    inside(r.start, r.end) || segments[from..].iter().take_while(|s| s.0 == k).any(|s| inside(s.1, s.2))
}
