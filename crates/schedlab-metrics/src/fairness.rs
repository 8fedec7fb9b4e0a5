//! The full strict-fairness audit (`metrics.fairness_all`): every job that
//! ever waited, not only the first waiting one (pv-easy-journal §3: "if no
//! job is delayed by any jobs with lower priority, this scheduling sequence
//! can be viewed as strictly fair").
//!
//! Recomputed from the run record alone, by a sweep over the run's instants
//! (submit times, starts and ends); each instant is judged on the state left
//! after everything that happened in it, which lasts until the next one.
//!
//! **The fair pass.** At an instant, go through the waiting jobs in priority
//! order with a running count `claimed` (0 at first). Job `w` *could start*
//! when its size is at most
//!
//! `room(w) = idle + held_by_lower(w) − claimed`,
//!
//! where `held_by_lower(w)` is what running jobs of lower priority than `w`
//! hold; it then claims its size. This is PV-EASY's shadow-load preemption
//! applied to every waiting job, not only the first: a job starts on idle
//! processors first, then on those of the lowest-priority running jobs, so
//! a later job finds what its predecessors left of the processors it may
//! use. "Without delaying any higher-priority job" therefore reads: `w` may
//! not take processors a higher-priority job that could start at the same
//! instant needs. A higher-priority job that cannot start at that instant,
//! even without the lower-priority jobs, claims nothing: it is waiting for
//! processors of higher-priority jobs to come free.
//!
//! **Delayed.** A waiting job is delayed at an instant when the fair pass
//! lets it start but the idle processors it leaves (`idle − claimed`) would
//! not have sufficed: the lower-priority running jobs are what stop it. Its
//! delay runs from the first such instant to the start that ends that wait.
//! A job that waits while idle processors alone would suffice (a policy
//! keeping them for a reservation) is not delayed by anyone.
//!
//! **Culprits.** At a job's first delayed instant, the running jobs of lower
//! priority whose processors it would have taken: from the lowest priority
//! up, after the processors claimed by higher-priority jobs of the same
//! pass, until its shortfall is covered (the jobs shadow-load preemption
//! would have preempted for it).
//!
//! **No runtimes.** The reading uses neither predictions nor actual
//! runtimes: in a strictly fair schedule a lower-priority job never delays a
//! higher-priority one later, since it is preempted as soon as that one
//! could start, so only the same instant matters. The audit thus compares
//! runs with different runtime sources on equal terms.
//!
//! **Cost.** `held_by_lower` is non-increasing along the queue and `claimed`
//! only grows, so the pass looks for the next waiting job whose size is at
//! most an upper bound of the room (a segment tree of sizes by priority
//! position) and checks it exactly (a Fenwick tree of processors held by
//! priority). Each job found claims a processor or more; each job checked
//! and refused lowers the bound, since the room fell below its size after
//! the previous job. The pass stops where no lower-priority job runs any
//! more (no later job can be delayed), at once under FCFS. An instant costs
//! O((found + refused + 1) log n), with both counts at most the machine
//! size; a walk over the whole queue at every instant would be quadratic in
//! a backlog.

use std::collections::BTreeSet;

use schedlab_engine::{Fenwick, JobIdx, RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;

/// A job the lower-priority running jobs delayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedJob {
    pub job: JobIdx,
    /// Its first delayed instant.
    pub from: Time,
    /// From then to the start that ended that wait, seconds.
    pub delay: Time,
    /// The lower-priority running jobs whose processors it would have
    /// taken at `from`, lowest priority first.
    pub culprits: Vec<JobIdx>,
}

/// The full audit of one run, per job.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FairnessAudit {
    /// Per job, in priority order: whether it waited at any instant (it was
    /// in the queue after everything that happened at some second).
    pub waited: Vec<bool>,
    /// The delayed jobs, in priority order.
    pub delayed: Vec<DelayedJob>,
}

/// The summary of [`FairnessAudit`] over the measured jobs
/// (`metrics.fairness_all`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FairnessAll {
    /// Jobs that waited.
    pub blocked: usize,
    /// Jobs delayed by lower-priority jobs.
    pub delayed: usize,
    /// Mean delay of the delayed jobs, seconds.
    pub mean_delay: f64,
    pub max_delay: Time,
    /// Distinct lower-priority jobs that delayed a measured job.
    pub culprits: usize,
}

impl FairnessAudit {
    /// The summary over the jobs whose indices are in `measured`.
    pub fn summary(&self, measured: std::ops::Range<usize>) -> FairnessAll {
        let inside = |j: JobIdx| measured.contains(&(j as usize));
        let delayed: Vec<&DelayedJob> = self.delayed.iter().filter(|d| inside(d.job)).collect();
        let mut culprits: Vec<JobIdx> = delayed.iter().flat_map(|d| d.culprits.iter().copied()).collect();
        culprits.sort_unstable();
        culprits.dedup();
        let total: f64 = delayed.iter().map(|d| d.delay as f64).sum();
        FairnessAll {
            blocked: self.waited.get(measured.clone()).map_or(0, |w| w.iter().filter(|&&w| w).count()),
            delayed: delayed.len(),
            mean_delay: if delayed.is_empty() { 0.0 } else { total / delayed.len() as f64 },
            max_delay: delayed.iter().map(|d| d.delay).max().unwrap_or(0),
            culprits: culprits.len(),
        }
    }
}

/// Runs the full audit over a finished run of `jobs`.
pub fn fairness_audit(jobs: &[Job], run: &RunRecord) -> FairnessAudit {
    let runs = Runs::new(run);
    let mut sweep = Sweep::new(jobs, run.procs);
    let (mut submit, mut end, mut start) = (0, 0, 0);
    loop {
        let next = [
            jobs.get(submit).map(|j| j.submit),
            runs.ends.get(end).map(|&e| runs.get(e).end),
            runs.starts.get(start).map(|&e| runs.get(e).start),
        ];
        let Some(t) = next.into_iter().flatten().min() else { break };
        while submit < jobs.len() && jobs[submit].submit <= t {
            sweep.enqueue(submit as JobIdx);
            submit += 1;
        }
        // Ends before starts: a job preempted and restarted in the same
        // second never waits.
        while let Some(r) = runs.ends.get(end).map(|&e| runs.get(e)).filter(|r| r.end <= t) {
            sweep.release(r.job);
            if !r.last {
                sweep.enqueue(r.job);
            }
            end += 1;
        }
        while let Some(r) = runs.starts.get(start).map(|&e| runs.get(e)).filter(|r| r.start <= t) {
            sweep.dequeue(r.job, t);
            if r.end > r.start {
                sweep.hold(r.job);
            }
            start += 1;
        }
        sweep.fair_pass(t);
        sweep.settle();
    }
    sweep.finish()
}

/// One run of a job: a preempted segment or its last run.
#[derive(Clone, Copy)]
struct Run {
    job: JobIdx,
    start: Time,
    end: Time,
    last: bool,
}

/// The runs of a record as two lists of indices, sorted by start and by
/// end (4 bytes a run each): `j < n` is job `j`'s last run, `n + s` the
/// preempted segment `s`. A preempted segment that ends as it starts holds
/// nothing and ends no wait: it is left out.
struct Runs<'a> {
    run: &'a RunRecord,
    starts: Vec<u32>,
    ends: Vec<u32>,
}

impl<'a> Runs<'a> {
    fn new(run: &'a RunRecord) -> Self {
        let n = run.jobs.len();
        let all = Runs { run, starts: Vec::new(), ends: Vec::new() };
        let segments = run.segments.iter().enumerate().filter(|(_, s)| s.end > s.start).map(|(s, _)| n + s);
        let runs: Vec<u32> = (0..n).chain(segments).map(|e| e as u32).collect();
        // Sorted as (time, index) pairs rather than indices by a key read
        // through `get`: the comparisons then touch no record, which made
        // these sorts several times faster in WebAssembly. The indices go
        // in ascending, so ties keep that order, as the stable sort by
        // time alone did.
        let sorted = |time: &dyn Fn(Run) -> Time, keep: &dyn Fn(Run) -> bool| -> Vec<u32> {
            let mut pairs: Vec<(Time, u32)> =
                runs.iter().map(|&e| (e, all.get(e))).filter(|&(_, r)| keep(r)).map(|(e, r)| (time(r), e)).collect();
            pairs.sort_unstable();
            pairs.into_iter().map(|(_, e)| e).collect()
        };
        let starts = sorted(&|r| r.start, &|_| true);
        let ends = sorted(&|r| r.end, &|r| r.end > r.start);
        Runs { starts, ends, ..all }
    }

    fn get(&self, e: u32) -> Run {
        let n = self.run.jobs.len();
        match (e as usize).checked_sub(n) {
            None => {
                let r = &self.run.jobs[e as usize];
                Run { job: e, start: r.start, end: r.end, last: true }
            }
            Some(s) => {
                let s = self.run.segments[s];
                Run { job: s.job, start: s.start, end: s.end, last: false }
            }
        }
    }
}

/// A job not delayed (yet), in [`Sweep::entry`].
const NOT_DELAYED: u32 = u32::MAX;

/// The queue and the machine during the sweep.
struct Sweep<'a> {
    jobs: &'a [Job],
    procs: i64,
    used: i64,
    /// Sizes of waiting jobs by priority position.
    waiting: MinTree,
    /// Processors held by running jobs, by priority position.
    held: Fenwick,
    running: BTreeSet<JobIdx>,
    /// Jobs that joined the queue at the current instant; leaving it at the
    /// same instant is no wait.
    fresh: Vec<bool>,
    joined_now: Vec<JobIdx>,
    waited: Vec<bool>,
    /// Each job's index in `delayed` once it has been delayed (its delay
    /// stays 0 until the wait ends).
    entry: Vec<u32>,
    delayed: Vec<DelayedJob>,
}

impl<'a> Sweep<'a> {
    fn new(jobs: &'a [Job], procs: u32) -> Self {
        let n = jobs.len();
        Sweep {
            jobs,
            procs: i64::from(procs),
            used: 0,
            waiting: MinTree::new(n),
            held: Fenwick::new(n),
            running: BTreeSet::new(),
            fresh: vec![false; n],
            joined_now: Vec::new(),
            waited: vec![false; n],
            entry: vec![NOT_DELAYED; n],
            delayed: Vec::new(),
        }
    }

    fn size(&self, j: JobIdx) -> i64 {
        i64::from(self.jobs[j as usize].size)
    }

    fn enqueue(&mut self, j: JobIdx) {
        self.waiting.set(j as usize, self.jobs[j as usize].size);
        self.fresh[j as usize] = true;
        self.joined_now.push(j);
    }

    /// Leaves the queue at `t`, ending the job's current wait.
    fn dequeue(&mut self, j: JobIdx, t: Time) {
        self.waiting.set(j as usize, u32::MAX);
        if !self.fresh[j as usize] {
            self.waited[j as usize] = true;
        }
        if let Some(d) = self.delayed.get_mut(self.entry[j as usize] as usize).filter(|d| d.delay == 0) {
            d.delay = t - d.from;
        }
    }

    /// The instant is over: jobs that joined the queue in it have waited
    /// if they are still there.
    fn settle(&mut self) {
        for &j in &self.joined_now {
            self.fresh[j as usize] = false;
        }
        self.joined_now.clear();
    }

    fn hold(&mut self, j: JobIdx) {
        self.used += self.size(j);
        self.held.add(j as usize, self.size(j));
        self.running.insert(j);
    }

    fn release(&mut self, j: JobIdx) {
        self.used -= self.size(j);
        self.held.add(j as usize, -self.size(j));
        self.running.remove(&j);
    }

    /// The fair pass at instant `t` (see the module documentation).
    fn fair_pass(&mut self, t: Time) {
        let idle = self.procs - self.used;
        let mut claimed = 0i64;
        let mut from = 0usize;
        while from < self.jobs.len() {
            // No job at or after `from` has more room than the first one,
            // and none can be delayed once no lower-priority job runs.
            let lower = self.held.above(from);
            let bound = idle + lower - claimed;
            if bound <= 0 || lower == 0 {
                break;
            }
            let Some(w) = self.waiting.first_at_most(from, u32::try_from(bound).unwrap_or(u32::MAX)) else { break };
            let size = i64::from(self.jobs[w].size);
            if size <= idle + self.held.above(w) - claimed {
                if size > idle - claimed && self.entry[w] == NOT_DELAYED {
                    self.record_delay(w as JobIdx, t, idle, claimed);
                }
                claimed += size;
            }
            from = w + 1;
        }
    }

    fn record_delay(&mut self, w: JobIdx, t: Time, idle: i64, claimed: i64) {
        self.entry[w as usize] = self.delayed.len() as u32;
        let culprits = self.culprits(w, idle, claimed);
        self.delayed.push(DelayedJob { job: w, from: t, delay: 0, culprits });
    }

    /// The lowest-priority running jobs below `w` whose processors, after
    /// the `claimed − idle` already given to higher-priority jobs, cover
    /// `w`'s shortfall on idle processors.
    fn culprits(&self, w: JobIdx, idle: i64, claimed: i64) -> Vec<JobIdx> {
        let mut given = (claimed - idle).max(0);
        let mut short = self.size(w) - (idle - claimed).max(0);
        let mut out = Vec::new();
        for &r in self.running.range(w + 1..).rev() {
            let size = self.size(r);
            let left = size - given.min(size);
            given -= size - left;
            if left > 0 {
                out.push(r);
                short -= left;
                if short <= 0 {
                    break;
                }
            }
        }
        out
    }

    fn finish(mut self) -> FairnessAudit {
        self.delayed.sort_unstable_by_key(|d| d.job);
        FairnessAudit { waited: self.waited, delayed: self.delayed }
    }
}

/// Minimum over priority positions (a waiting job's size, `u32::MAX` for a
/// position not waiting), answering "the first position at or after `from`
/// whose value is at most `limit`" in O(log n).
struct MinTree {
    leaves: usize,
    min: Vec<u32>,
}

impl MinTree {
    fn new(n: usize) -> Self {
        let leaves = n.max(1).next_power_of_two();
        MinTree { leaves, min: vec![u32::MAX; 2 * leaves] }
    }

    fn set(&mut self, i: usize, value: u32) {
        let mut node = i + self.leaves;
        self.min[node] = value;
        while node > 1 {
            node /= 2;
            self.min[node] = self.min[2 * node].min(self.min[2 * node + 1]);
        }
    }

    /// Climbs from the leaf of `from` through the subtrees that cover the
    /// positions after it, left to right, to the first whose minimum is at
    /// most `limit`, then descends to its leftmost such leaf: O(log n)
    /// nodes. A loop rather than a recursion, because in WebAssembly each
    /// call returns its `Option` through the stack in linear memory and
    /// the recursive search took four times its native time there.
    fn first_at_most(&self, from: usize, limit: u32) -> Option<usize> {
        if from >= self.leaves {
            return None;
        }
        let mut node = from + self.leaves;
        while self.min[node] > limit {
            // The next subtree to the right: up while `node` is a right
            // child, then its sibling; none is left past the root.
            while node % 2 == 1 {
                if node == 1 {
                    return None;
                }
                node /= 2;
            }
            node += 1;
        }
        while node < self.leaves {
            node *= 2;
            if self.min[node] > limit {
                node += 1;
            }
        }
        Some(node - self.leaves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_finds_the_first_small_enough_position() {
        let mut t = MinTree::new(10);
        for (i, v) in [(0, 5), (3, 2), (4, 9), (7, 1), (9, 4)] {
            t.set(i, v);
        }
        let cases = [(0, 5, Some(0)), (0, 4, Some(3)), (1, 9, Some(3)), (4, 8, Some(7)), (8, 3, None), (8, 4, Some(9))];
        for (from, limit, want) in cases {
            assert_eq!(t.first_at_most(from, limit), want, "from {from}, at most {limit}");
        }
        t.set(3, u32::MAX);
        assert_eq!(t.first_at_most(0, 4), Some(7));
        assert_eq!(MinTree::new(0).first_at_most(0, u32::MAX - 1), None);
    }

    /// Every start and limit on trees of every size up to 33 (leaves past
    /// `n` included), against a scan of the positions.
    #[test]
    fn the_tree_agrees_with_a_scan() {
        for n in 0..34usize {
            let mut t = MinTree::new(n);
            let values: Vec<u32> =
                (0..n).map(|i| if i % 5 == 2 { u32::MAX } else { ((i * 7 + n) % 11) as u32 }).collect();
            for (i, &v) in values.iter().enumerate() {
                t.set(i, v);
            }
            for from in 0..n + 3 {
                for limit in (0..12).chain([u32::MAX - 1]) {
                    let want = values.iter().enumerate().skip(from).find(|(_, &v)| v <= limit).map(|(i, _)| i);
                    assert_eq!(t.first_at_most(from, limit), want, "n {n}, from {from}, at most {limit}");
                }
            }
        }
    }
}
