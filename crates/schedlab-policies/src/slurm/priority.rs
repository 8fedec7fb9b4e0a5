//! Job priorities: priority/basic (submission order) and
//! priority/multifactor's weighted sum of age, fair-share, job size,
//! partition and QOS factors, and the queue in that order.

use schedlab_profile::treap::{Search, Summary, Treap};
use std::cmp::Reverse;
use std::collections::BTreeMap;

use schedlab_engine::{JobIdx, Time};
use schedlab_workload::Job;

use super::fairshare::{Assoc, Tree};

/// What multifactor reads, from the parameters.
#[derive(Clone, Debug)]
pub(crate) struct Weights {
    pub(crate) age: u32,
    pub(crate) fairshare: u32,
    pub(crate) job_size: u32,
    pub(crate) partition: u32,
    pub(crate) qos: u32,
    /// `PriorityMaxAge`, seconds.
    pub(crate) max_age: Time,
    pub(crate) favor_small: bool,
    pub(crate) size_relative: bool,
    pub(crate) classic: bool,
}

/// A waiting job's place: its partition's `PriorityTier` and its
/// priority as one number (the tier in the high 32 bits), highest first,
/// then its index.
pub(crate) type Key = (Reverse<u64>, JobIdx);

/// The tier and the priority as one number, in `sort_job_queue2`'s order.
fn rank(priority: u32, tier: u32) -> u64 {
    (u64::from(tier) << 32) | u64::from(priority)
}

/// The least time limit (seconds) of a stretch of the queue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeastLimit(Time);

impl Summary<Time> for LeastLimit {
    const EMPTY: Self = LeastLimit(Time::MAX);
    fn of(limit: &Time) -> Self {
        LeastLimit(*limit)
    }
    fn join(&self, right: &Self) -> Self {
        LeastLimit(self.0.min(right.0))
    }
}

/// Jobs whose limit is below a bound, or every job.
struct LimitBelow(Time);

impl Search<Key, Time, LeastLimit> for LimitBelow {
    fn enter(&self, _: &LeastLimit, subtree: &LeastLimit) -> bool {
        subtree.0 < self.0
    }
    fn accept(&self, _: &LeastLimit, _: &Key, limit: &Time) -> bool {
        *limit < self.0
    }
}

/// The waiting jobs in Slurm's order, each with its time limit in seconds:
/// the higher partition `PriorityTier` first, then the higher priority,
/// then the lower job id (`sort_job_queue2`, src/slurmctld/job_scheduler.c;
/// no reservations, no preemption). Job ids follow submission, as job
/// indices do. The order is
/// a treap whose subtrees know their least limit, so a backfill cycle
/// finds the next job short enough to fit before the map's last
/// reservation in O(log q) instead of walking the jobs that cannot.
#[derive(Default)]
pub(crate) struct Queue {
    order: Treap<Key, Time, LeastLimit>,
    /// Each waiting job's priority and tier (where it is filed) and size.
    filed: BTreeMap<JobIdx, Filed>,
    /// How many waiting jobs have each size, so whether any fits the free
    /// processors is one lookup.
    sizes: BTreeMap<u32, usize>,
}

/// Where a waiting job is filed, and its size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filed {
    pub(crate) priority: u32,
    pub(crate) tier: u32,
    pub(crate) size: u32,
}

impl Queue {
    pub(crate) fn insert(&mut self, j: JobIdx, f: Filed, limit: Time) {
        self.filed.insert(j, f);
        self.order.insert((Reverse(rank(f.priority, f.tier)), j), limit);
        *self.sizes.entry(f.size).or_default() += 1;
    }

    pub(crate) fn remove(&mut self, j: JobIdx) {
        if let Some(Filed { priority, tier, size }) = self.filed.remove(&j) {
            self.order.remove(&(Reverse(rank(priority, tier)), j));
            if let Some(n) = self.sizes.get_mut(&size) {
                *n -= 1;
                if *n == 0 {
                    self.sizes.remove(&size);
                }
            }
        }
    }

    /// Files `j` again under a new priority; whether its place changed.
    pub(crate) fn update(&mut self, j: JobIdx, priority: u32) -> bool {
        match self.filed.get(&j) {
            Some(f) if f.priority == priority => false,
            Some(&f) => {
                let limit =
                    *self.order.get(&(Reverse(rank(f.priority, f.tier)), j)).expect("a filed job is in the order");
                self.remove(j);
                self.insert(j, Filed { priority, ..f }, limit);
                true
            }
            None => false,
        }
    }

    /// Whether some waiting job needs no more than `free` processors: if
    /// none does, no pass can start a job, whatever the order.
    pub(crate) fn any_fits(&self, free: u32) -> bool {
        self.sizes.first_key_value().is_some_and(|(&least, _)| least <= free)
    }

    /// The next job in order after `after` (from the first for `None`);
    /// jobs started meanwhile are gone, so a pass walks the queue while
    /// it changes.
    pub(crate) fn next_after(&self, after: Option<Key>) -> Option<Key> {
        self.next_shorter(after, Time::MAX)
    }

    /// The next job in order after `after` whose limit is below `bound`.
    pub(crate) fn next_shorter(&self, after: Option<Key>, bound: Time) -> Option<Key> {
        self.order.first_after(after.as_ref(), &LimitBelow(bound)).map(|(k, _)| k)
    }

    pub(crate) fn jobs(&self) -> Vec<JobIdx> {
        self.filed.keys().copied().collect()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.filed.is_empty()
    }
}

/// priority/basic's `priority_p_set`: each job one less than the job
/// submitted before it, starting below 2^32 − 1 (`last_prio − 1`), never
/// below 1. Only the order matters, so the job index stands in for it.
pub(crate) fn basic(j: JobIdx) -> u32 {
    u32::MAX.saturating_sub(1).saturating_sub(j).max(1)
}

/// The factors of a job at `now`, each in [0, 1]
/// (`set_priority_factors`, priority_multifactor.c).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Factors {
    pub(crate) age: f64,
    pub(crate) fairshare: f64,
    pub(crate) job_size: f64,
    pub(crate) partition: f64,
    pub(crate) qos: f64,
}

/// The job's limit in minutes, as Slurm keeps it.
pub(crate) fn limit_minutes(job: &Job) -> i64 {
    (job.estimate.max(1) + 59) / 60
}

pub(crate) fn factors(w: &Weights, job: &Job, assoc: Assoc, tree: &mut Tree, procs: u32, now: Time) -> Factors {
    // Age: time since the job became eligible (its submission) over
    // PriorityMaxAge, at most 1.
    let age = if w.age == 0 {
        0.0
    } else {
        let diff = (now - job.submit).max(0);
        if diff < w.max_age {
            diff as f64 / w.max_age as f64
        } else {
            1.0
        }
    };
    let fairshare = if w.fairshare == 0 {
        0.0
    } else if w.classic {
        tree.classic_factor(assoc)
    } else {
        tree.fair_tree_factor(assoc)
    };
    let job_size = if w.job_size == 0 { 0.0 } else { job_size(w, job, procs) };
    // One partition of PriorityJobFactor 1: normalised, 1. No QOS has a
    // priority, so the QOS factor is 0.
    let partition = 1.0;
    Factors { age, fairshare, job_size, partition, qos: 0.0 }
}

/// The job-size factor on one node of `procs` cores (`node_record_count`
/// = 1, the job's `min_nodes` = 1): favouring large jobs,
/// `(1 + cpus / procs) / 2`; with PriorityFavorSmall,
/// `(0 + (procs − cpus) / procs) / 2`; with SMALL_RELATIVE_TO_TIME, cpus
/// over the time limit in minutes over `procs` (one minus that when
/// favouring small jobs). Clamped to [0, 1].
fn job_size(w: &Weights, job: &Job, procs: u32) -> f64 {
    let cpus = f64::from(job.size);
    let cluster = f64::from(procs);
    let f = if w.size_relative {
        // min_nodes × cluster_cpus / node_record_count is the whole node
        // here, which is at least cpus.
        let js = cluster.max(cpus) / limit_minutes(job) as f64 / cluster;
        if w.favor_small {
            1.0 - js
        } else {
            js
        }
    } else if w.favor_small {
        (0.0 + (cluster - cpus) / cluster) / 2.0
    } else {
        (1.0 + cpus / cluster) / 2.0
    };
    f.clamp(0.0, 1.0)
}

/// The weighted sum, truncated to a whole number as Slurm stores it, at
/// least 1 (`_get_priority_internal`). Nice and the site factor are 0.
pub(crate) fn multifactor(w: &Weights, f: &Factors) -> u32 {
    let sum = f.age * f64::from(w.age)
        + f.fairshare * f64::from(w.fairshare)
        + f.job_size * f64::from(w.job_size)
        + f.partition * f64::from(w.partition)
        + f.qos * f64::from(w.qos);
    if sum < 1.0 {
        1
    } else if sum >= 4_294_967_295.0 {
        u32::MAX
    } else {
        sum as u32
    }
}
