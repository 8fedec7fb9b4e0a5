//! The run checker (docs/semantics.md, "Simulation"): an independent reading of a finished run that
//! trusts nothing the engine computed on the way. It recomputes processor
//! usage from the recorded start and end times alone.

use schedlab_workload::{Cluster, Job};
use thiserror::Error;

mod nodes;

use crate::fenwick::Fenwick;
use crate::{Guarantee, JobIdx, ReservationChange, RunRecord, Segment, Time};

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
/// submit time, its segments (replayed through the run's preemption model)
/// do exactly its runtime of useful work, processors in use never exceed the
/// machine, total useful work equals Σ runtime × size, and each of the
/// policy's `guarantees` holds.
pub fn check(jobs: &[Job], run: &RunRecord, guarantees: &[Guarantee]) -> Result<(), CheckError> {
    check_on(jobs, None, run, guarantees)
}

/// [`check`] on a machine of nodes (`cluster`) as well: every job ran in
/// its partition in the shape it asked for, and no resource of any node
/// was ever over its capacity.
pub fn check_on(
    jobs: &[Job],
    cluster: Option<&Cluster>,
    run: &RunRecord,
    guarantees: &[Guarantee],
) -> Result<(), CheckError> {
    let mut f = Findings::default();
    if run.jobs.len() != jobs.len() {
        f.add(None, format!("the run records {} jobs, the trace has {}", run.jobs.len(), jobs.len()));
        return Err(CheckError { count: f.count, violations: f.kept });
    }
    check_jobs(jobs, run, &mut f);
    check_capacity(jobs, run, &mut f);
    if let Some(c) = cluster {
        nodes::check_nodes(jobs, c, run, &mut f);
    }
    for g in guarantees {
        match g {
            Guarantee::PriorityOrder => check_priority_order(jobs, run, &mut f),
            Guarantee::NoLaterThanFirstReservation => check_reservations(jobs, run, &mut f),
            Guarantee::StrictFairness => check_strict_fairness(jobs, run, &mut f),
            Guarantee::ReservationsFitTheirPass => check_passes(jobs, run, &mut f),
        }
    }
    if f.count == 0 {
        Ok(())
    } else {
        Err(CheckError { count: f.count, violations: f.kept })
    }
}

/// The preempted segments of each job, in time order.
fn segments_by_job(n: usize, run: &RunRecord) -> Vec<Vec<Segment>> {
    let mut by_job = vec![Vec::new(); n];
    for seg in &run.segments {
        if let Some(list) = by_job.get_mut(seg.job as usize) {
            list.push(*seg);
        }
    }
    for list in &mut by_job {
        list.sort_unstable_by_key(|s| s.start);
    }
    by_job
}

fn check_jobs(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    let segments = segments_by_job(jobs.len(), run);
    let (mut useful, mut expected) = (0i128, 0i128);
    for ((job, rec), segs) in jobs.iter().zip(&run.jobs).zip(&segments) {
        let id = Some(job.id);
        if rec.completions != 1 {
            f.add(id, format!("completed {} times", rec.completions));
            continue;
        }
        if rec.starts as usize != segs.len() + 1 {
            f.add(id, format!("started {} times but has {} preempted segments", rec.starts, segs.len()));
            continue;
        }
        let first = segs.first().map_or(rec.start, |s| s.start);
        if rec.first_start != first || first < job.submit {
            f.add(
                id,
                format!("started at {} (submitted at {}, first segment at {first})", rec.first_start, job.submit),
            );
        }
        match replay(job, rec, segs, run) {
            Ok(work) => useful += i128::from(work) * i128::from(job.size),
            Err(message) => f.add(id, message),
        }
        expected += i128::from(job.runtime) * i128::from(job.size);
    }
    if useful != expected {
        f.add(None, format!("useful work {useful} processor-seconds differs from Σ runtime × size = {expected}"));
    }
}

/// Replays a job's segments through the preemption model and returns the
/// useful work of its last one, or why the segments are inconsistent.
fn replay(job: &Job, rec: &crate::JobRecord, segs: &[Segment], run: &RunRecord) -> Result<Time, String> {
    let model = run.preemption;
    let mut saved = 0;
    let mut previous_end = Time::MIN;
    for (k, seg) in segs.iter().enumerate() {
        if seg.start < previous_end || seg.end < seg.start {
            return Err(format!("segment {}..{} overlaps or runs backwards", seg.start, seg.end));
        }
        saved = model.saved_after(saved, seg.end - seg.start, job.runtime, k > 0);
        previous_end = seg.end;
    }
    if rec.start < previous_end {
        return Err(format!("last start {} before its preemption at {previous_end}", rec.start));
    }
    let wall = model.wall(saved, job.runtime, !segs.is_empty());
    if rec.end - rec.start != wall {
        return Err(format!(
            "ran {} s from its last start; from progress {saved} to its runtime {} s it needs {wall} s",
            rec.end - rec.start,
            job.runtime
        ));
    }
    let held = segs.iter().map(|s| s.end - s.start).sum::<Time>() + rec.end - rec.start;
    if held != rec.held {
        return Err(format!("held its processors {} s, its segments add up to {held} s", rec.held));
    }
    Ok(job.runtime)
}

/// Sweeps starts and ends in time order (ends first within a second, since
/// an interval is [start, end)) and tracks processors in use.
fn check_capacity(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    let mut changes: Vec<(Time, i64)> = Vec::with_capacity(2 * jobs.len());
    for (j, start, end) in intervals(run) {
        // A zero-length interval holds no processor; the engine checked at
        // its start that it fitted.
        if end > start {
            let size = i64::from(jobs[j as usize].size);
            changes.push((start, size));
            changes.push((end, -size));
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

/// Each wait of a job ends no later than the first reservation made in it:
/// its first wait against `first_reservation`, the waits after a preemption
/// against the reservation history (a preempted job is planned afresh).
fn check_reservations(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    for (job, rec) in jobs.iter().zip(&run.jobs) {
        if let Some(r) = rec.first_reservation {
            if rec.first_start > r {
                f.add(Some(job.id), format!("started at {} after its first reservation at {r}", rec.first_start));
            }
        }
    }
    let segments = segments_by_job(jobs.len(), run);
    let mut last_wait: Vec<Option<u32>> = vec![None; jobs.len()];
    for c in run.reservations.iter() {
        let j = c.job as usize;
        let (Some(job), Some(rec)) = (jobs.get(j), run.jobs.get(j)) else {
            f.add(None, format!("a reservation names job index {j}, beyond the trace"));
            continue;
        };
        let first_of_its_wait = last_wait[j].is_none_or(|w| c.wait > w);
        last_wait[j] = Some(last_wait[j].map_or(c.wait, |w| w.max(c.wait)));
        if c.wait == 0 || !first_of_its_wait {
            continue;
        }
        let segs = &segments[j];
        let restart = match (c.wait as usize).cmp(&segs.len()) {
            std::cmp::Ordering::Less => segs[c.wait as usize].start,
            std::cmp::Ordering::Equal => rec.start,
            std::cmp::Ordering::Greater => {
                f.add(Some(job.id), format!("reserved in its wait {} but started only {} times", c.wait, rec.starts));
                continue;
            }
        };
        if restart > c.start {
            f.add(
                Some(job.id),
                format!("restarted at {restart} after the first reservation of that wait, at {}", c.start),
            );
        }
    }
}

/// [`Guarantee::ReservationsFitTheirPass`]: for each second whose passes
/// recorded reservation changes, every such reservation that still stands
/// after them, against the jobs running after them (held from their start
/// for their recorded prediction) and the second's other standing changes. Running jobs only
/// leave the plan as time goes on, so the load over a window is greatest at
/// its start or at a reservation starting inside it: those instants are
/// the ones checked. Jobs are added to the running set in start order and
/// taken out in end order, into a Fenwick tree by planned end.
fn check_passes(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    let planned_end = |j: usize| run.jobs[j].start.saturating_add(run.jobs[j].prediction.max(1));
    let mut ends: Vec<Time> = (0..jobs.len()).map(planned_end).collect();
    ends.sort_unstable();
    ends.dedup();
    let slot = |t: Time| ends.partition_point(|&e| e < t);
    // Sorted as (key, job) tuples rather than jobs by a key read from the
    // record: the comparisons then touch no record, which made these sorts
    // several times faster in WebAssembly. Jobs of equal keys are summed
    // together before any check, so their order does not matter.
    let mut by_start: Vec<(Time, usize)> = run.jobs.iter().enumerate().map(|(j, r)| (r.start, j)).collect();
    by_start.sort_unstable();
    let by_start: Vec<usize> = by_start.into_iter().map(|(_, j)| j).collect();
    let mut by_end: Vec<(Time, Time, usize)> = run.jobs.iter().enumerate().map(|(j, r)| (r.end, r.start, j)).collect();
    by_end.sort_unstable();
    let by_end: Vec<usize> = by_end.into_iter().map(|(_, _, j)| j).collect();
    let (mut held, mut started, mut ended) = (Fenwick::new(ends.len()), 0, 0);
    let changes: Vec<ReservationChange> = run.reservations.iter().collect();
    for pass in changes.chunk_by(|a, b| a.time == b.time) {
        let t = pass[0].time;
        while let Some(&j) = by_start.get(started).filter(|&&j| run.jobs[j].start <= t) {
            held.add(slot(planned_end(j)), i64::from(jobs[j].size));
            started += 1;
        }
        // A job ending at t left before the last pass of t (one of zero
        // length started at t leaves in a later batch of the same second).
        while let Some(&j) = by_end.get(ended).filter(|&&j| run.jobs[j].end <= t) {
            held.add(slot(planned_end(j)), -i64::from(jobs[j].size));
            ended += 1;
        }
        let pass = last_change_of_each_waiting_job(run, pass);
        check_pass(jobs, run, &pass, &|x| held.above_or_at(slot(x + 1)), f);
    }
}

/// The changes of one second that still stand after its last pass: a
/// second can hold several passes (a job of zero length ends in a later
/// batch of the same second), so only each job's last change counts, and
/// none of a job that started within the second.
fn last_change_of_each_waiting_job(run: &RunRecord, changes: &[ReservationChange]) -> Vec<ReservationChange> {
    let t = changes[0].time;
    // Stable: a job's changes keep their order, so the last is kept.
    let mut kept: Vec<ReservationChange> = changes.iter().rev().copied().collect();
    kept.sort_by_key(|c| c.job);
    kept.dedup_by_key(|c| c.job);
    kept.retain(|c| run.jobs.get(c.job as usize).is_some_and(|r| r.start > t));
    kept
}

/// One pass's changed reservations against `running_after(x)`, the
/// processors running jobs hold at instant x: the reserved load at each
/// reservation's start comes from the starts and ends sorted with running
/// sums (O(m log m) for m changes), the instants where the plan exceeds
/// the machine are listed, and a reservation is refused when one falls in
/// its window.
fn check_pass(
    jobs: &[Job],
    run: &RunRecord,
    pass: &[ReservationChange],
    running_after: &dyn Fn(Time) -> i64,
    f: &mut Findings,
) {
    let size = |c: &ReservationChange| jobs.get(c.job as usize).map_or(0, |j| i64::from(j.size));
    let window = |c: &ReservationChange| {
        let p = run.jobs.get(c.job as usize).map_or(1, |r| r.prediction.max(1));
        (c.start, c.start.saturating_add(p))
    };
    let running_sums = |points: Vec<(Time, i64)>| {
        let mut sum = 0;
        points
            .into_iter()
            .map(|(t, s)| {
                (t, {
                    sum += s;
                    sum
                })
            })
            .collect::<Vec<_>>()
    };
    let mut starts: Vec<(Time, i64)> = pass.iter().map(|c| (window(c).0, size(c))).collect();
    let mut ends: Vec<(Time, i64)> = pass.iter().map(|c| (window(c).1, size(c))).collect();
    starts.sort_unstable();
    ends.sort_unstable();
    let (starts, ends) = (running_sums(starts), running_sums(ends));
    // Reserved processors at x: those starting by x less those ended by x.
    let through = |sums: &[(Time, i64)], x: Time| {
        let k = sums.partition_point(|&(t, _)| t <= x);
        if k == 0 {
            0
        } else {
            sums[k - 1].1
        }
    };
    let over: Vec<(Time, i64)> = starts
        .iter()
        .map(|&(x, _)| (x, running_after(x) + through(&starts, x) - through(&ends, x)))
        .filter(|&(_, load)| load > i64::from(run.procs))
        .collect();
    for c in pass {
        let (from, to) = window(c);
        let k = over.partition_point(|&(x, _)| x < from);
        if let Some(&(x, load)) = over.get(k).filter(|&&(x, _)| x < to) {
            let id = jobs.get(c.job as usize).map(|j| j.id);
            f.add(id, format!("reserved at t={} for {from}, but {load} processors are planned at {x}", c.time));
        }
    }
}

/// Every interval a job held processors: preempted segments and last runs.
fn intervals(run: &RunRecord) -> impl Iterator<Item = (JobIdx, Time, Time)> + '_ {
    let last = run.jobs.iter().enumerate().map(|(j, r)| (j as JobIdx, r.start, r.end));
    run.segments.iter().map(|s| (s.job, s.start, s.end)).chain(last)
}

/// Strict fairness, recomputed from the record alone: sweeps every event time
/// in order and, on the state left after that second (jobs submitted, jobs
/// holding processors), checks that the first waiting job could not have
/// started on idle processors plus those of running jobs of lower priority.
fn check_strict_fairness(jobs: &[Job], run: &RunRecord, f: &mut Findings) {
    let changes = fairness_changes(run);
    let mut times: Vec<Time> = changes.iter().map(|c| c.0).chain(jobs.iter().map(|j| j.submit)).collect();
    times.sort_unstable();
    times.dedup();
    let mut held = Fenwick::new(jobs.len());
    let mut waiting = std::collections::BTreeSet::new();
    let (mut used, mut next_change, mut next_submit) = (0i64, 0usize, 0usize);
    for t in times {
        while next_submit < jobs.len() && jobs[next_submit].submit <= t {
            waiting.insert(next_submit as JobIdx);
            next_submit += 1;
        }
        while next_change < changes.len() && changes[next_change].0 <= t {
            let (_, change, j) = changes[next_change];
            let size = i64::from(jobs[j as usize].size);
            match change {
                Change::Preempted => {
                    used -= size;
                    held.add(j as usize, -size);
                    waiting.insert(j);
                }
                Change::Completed => {
                    used -= size;
                    held.add(j as usize, -size);
                }
                Change::Started => {
                    used += size;
                    held.add(j as usize, size);
                    waiting.remove(&j);
                }
                Change::Vanished => {
                    waiting.remove(&j);
                }
            }
            next_change += 1;
        }
        let Some(&head) = waiting.first() else { continue };
        let idle = i64::from(run.procs) - used;
        if idle + held.above(head as usize) >= i64::from(jobs[head as usize].size) {
            f.add(
                Some(jobs[head as usize].id),
                format!("waited at t={t} although idle processors plus those of lower-priority jobs sufficed"),
            );
        }
    }
}

/// What happens to a job at an instant, in the order applied within one
/// second: ends before starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Change {
    Preempted,
    Completed,
    Started,
    /// A zero-length last run: the job leaves the queue holding nothing.
    Vanished,
}

fn fairness_changes(run: &RunRecord) -> Vec<(Time, Change, JobIdx)> {
    let mut changes = Vec::with_capacity(2 * run.jobs.len() + 2 * run.segments.len());
    for s in &run.segments {
        if s.end > s.start {
            changes.push((s.start, Change::Started, s.job));
            changes.push((s.end, Change::Preempted, s.job));
        }
    }
    for (j, r) in run.jobs.iter().enumerate() {
        if r.end > r.start {
            changes.push((r.start, Change::Started, j as JobIdx));
            changes.push((r.end, Change::Completed, j as JobIdx));
        } else {
            changes.push((r.start, Change::Vanished, j as JobIdx));
        }
    }
    changes.sort_unstable();
    changes
}
