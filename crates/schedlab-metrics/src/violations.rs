//! Reservation violations (pv-easy-conference §3, table 2; docs/semantics.md, "Metrics"),
//! judged against the reservation in force when the offending job was
//! backfilled.
//!
//! A job `k` backfilled while `h` was the first waiting job (its first
//! backfill, `JobRecord::backfilled_behind` and `backfilled_on_start`) is
//! judged against `r`, the reservation `h` held at that moment: the last
//! change of `h`'s reservation made at or before it, in the same wait of
//! `h` (the run record's reservation history). `h` suffers a violation of `r` when
//! the wait ends (`h` starts) after `r` *and* at `r` the idle processors
//! plus those still held by the jobs backfilled behind `h` under `r` would
//! have sufficed for it. When they would not have, `h` was delayed by its
//! predecessors outliving their predictions: the paper's "benign" case, not
//! counted. "At `r`" means after the jobs ending at `r` have released their
//! processors and before anything starts at `r`.
//!
//! A job counts once, against the first of its reservations (in the order
//! they were made) that it suffered a violation of; its delay from
//! reservation is DTR = start − r, with the start that ended that wait.
//!
//! Reported: count, mean size of the victims, mean and maximum DTR, and
//! mean and maximum slowdown increment SI = DTR / max(runtime, τ).

use schedlab_engine::{JobIdx, ReservationChange, RunRecord, Time};
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
    // Most runs with estimates have no offender waiting past its promise:
    // skip the sweep structures, which cost more memory than the run itself.
    let mut judged = offenders_by_reservation(run);
    judged.retain(|o| measured.contains(&(o.victim as usize)) && o.start_after > o.reservation);
    if judged.is_empty() {
        return ReservationViolations::default();
    }
    let usage = Usage::new(jobs, run);
    let mut segments: Vec<(JobIdx, Time, Time)> = run.segments.iter().map(|s| (s.job, s.start, s.end)).collect();
    segments.sort_unstable();
    let mut v = ReservationViolations::default();
    let (mut size_sum, mut dtr_sum, mut si_sum) = (0.0, 0.0, 0.0);
    // Grouped by victim, its reservations in the order they were made.
    for group in judged.chunk_by(|a, b| a.victim == b.victim) {
        let h = group[0].victim as usize;
        let job = &jobs[h];
        let violated = group.iter().find(|o| {
            let idle = i64::from(run.procs) - usage.at(o.reservation);
            let held: i64 = o
                .offenders
                .iter()
                .filter(|&&k| holds_at(run, &segments, k, o.reservation))
                .map(|&k| i64::from(jobs[k as usize].size))
                .sum();
            idle + held >= i64::from(job.size)
        });
        let Some(o) = violated else { continue };
        let dtr = o.start_after - o.reservation;
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

/// One reservation of a victim with the jobs backfilled behind it while it
/// was in force.
struct Judged {
    victim: JobIdx,
    /// Its position in the run's reservation history (the order made).
    change: usize,
    reservation: Time,
    /// The start that ended the wait the reservation belongs to.
    start_after: Time,
    offenders: Vec<JobIdx>,
}

/// Every reservation some job was backfilled under, with those jobs, by
/// victim and then in the order the reservations were made. One walk over
/// the history in time order, merged with the backfills in time order,
/// keeping each job's latest change.
fn offenders_by_reservation(run: &RunRecord) -> Vec<Judged> {
    let starts = Starts::new(run);
    let mut backfills: Vec<(Time, JobIdx, JobIdx)> = run
        .jobs
        .iter()
        .enumerate()
        .filter_map(|(k, r)| {
            let h = r.backfilled_behind?;
            Some((starts.nth(k as JobIdx, r.backfilled_on_start)?, h, k as JobIdx))
        })
        .collect();
    if backfills.is_empty() {
        return Vec::new();
    }
    backfills.sort_unstable();
    // Only the heads jobs were backfilled behind need their latest change.
    let mut victims: Vec<JobIdx> = backfills.iter().map(|b| b.1).collect();
    victims.sort_unstable();
    victims.dedup();
    let mut latest: Vec<Option<(usize, ReservationChange)>> = vec![None; victims.len()];
    let mut history = run.reservations.iter().enumerate().peekable();
    let mut found: Vec<(usize, ReservationChange, JobIdx)> = Vec::new();
    for (at, h, k) in backfills {
        while let Some((i, c)) = history.next_if(|(_, c)| c.time <= at) {
            if let Ok(v) = victims.binary_search(&c.job) {
                latest[v] = Some((i, c));
            }
        }
        // The reservation in force must belong to the wait `h` was in.
        let wait = starts.count_until(h, at);
        let in_force = victims.binary_search(&h).ok().and_then(|v| latest[v]);
        if let Some((i, c)) = in_force.filter(|(_, c)| c.wait == wait) {
            found.push((i, c, k));
        }
    }
    found.sort_unstable_by_key(|&(i, _, k)| (i, k));
    let mut judged: Vec<Judged> = found
        .chunk_by(|a, b| a.0 == b.0)
        .filter_map(|group| {
            let (change, c, _) = group[0];
            Some(Judged {
                victim: c.job,
                change,
                reservation: c.start,
                start_after: starts.nth(c.job, c.wait)?,
                offenders: group.iter().map(|g| g.2).collect(),
            })
        })
        .collect();
    judged.sort_by_key(|j| (j.victim, j.change));
    judged
}

/// The starts of each job: those of its preempted segments, then its last.
struct Starts<'a> {
    run: &'a RunRecord,
    /// (job, start) of every preempted segment, sorted.
    segments: Vec<(JobIdx, Time)>,
}

impl<'a> Starts<'a> {
    fn new(run: &'a RunRecord) -> Self {
        let mut segments: Vec<(JobIdx, Time)> = run.segments.iter().map(|s| (s.job, s.start)).collect();
        segments.sort_unstable();
        Starts { run, segments }
    }

    fn of(&self, j: JobIdx) -> &[(JobIdx, Time)] {
        let from = self.segments.partition_point(|s| s.0 < j);
        let to = self.segments.partition_point(|s| s.0 <= j);
        &self.segments[from..to]
    }

    /// Job `j`'s `k`-th start (0 for its first).
    fn nth(&self, j: JobIdx, k: u32) -> Option<Time> {
        let own = self.of(j);
        match (k as usize).cmp(&own.len()) {
            std::cmp::Ordering::Less => Some(own[k as usize].1),
            std::cmp::Ordering::Equal => Some(self.run.jobs[j as usize].start),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// How many times job `j` has started at or before `t`.
    fn count_until(&self, j: JobIdx, t: Time) -> u32 {
        let own = self.of(j);
        let segments = own.partition_point(|s| s.1 <= t);
        let last = usize::from(segments == own.len() && self.run.jobs[j as usize].start <= t);
        (segments + last) as u32
    }
}

/// Whether job `k` holds processors at `t`, in its last run or in one of
/// its preempted segments (`segments` sorted by job).
fn holds_at(run: &RunRecord, segments: &[(JobIdx, Time, Time)], k: JobIdx, t: Time) -> bool {
    let r = &run.jobs[k as usize];
    let inside = |start: Time, end: Time| start < t && t < end;
    let from = segments.partition_point(|s| s.0 < k);
    inside(r.start, r.end) || segments[from..].iter().take_while(|s| s.0 == k).any(|s| inside(s.1, s.2))
}
