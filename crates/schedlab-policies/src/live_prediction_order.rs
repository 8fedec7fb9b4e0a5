//! The waiting queue in order of (current prediction, job) when
//! predictions change while jobs wait (`last`, `tsafrir`), without
//! re-filing a job when its prediction changes.
//!
//! A completion changes the predictions of every waiting job of its user,
//! which can be the whole queue (a synthetic backlog has one user), so the
//! jobs are filed by (estimate, job) instead, in one tree per user and size
//! class (sizes in [2^c, 2^(c+1)), as in `queue_index`). For one user and
//! one moment, both learning sources make the prediction a non-decreasing
//! function of the estimate alone (`last`: estimate × the user's last
//! accuracy, rounded, clamped to [1, estimate]; `tsafrir`: the user's mean,
//! clamped to [1, estimate]), so a tree's jobs in estimate order are in
//! prediction order, and the jobs that share a prediction form a run of
//! consecutive estimates. The first job in (prediction, job) order that
//! fits in `f` processors is then, per tree, the job of least number among
//! the fitting jobs of the run that holds the first fitting job by
//! estimate; and over the trees of classes that have a size up to `f`, the
//! least of those. A tree whose bound (the prediction of its first job by
//! estimate, its least job number: no more than its answer) does not beat
//! the best job found in the trees before it is not walked.
//!
//! Each subtree knows its least size, its least job and its first and last
//! (estimate, job), so a walk reaches only subtrees that may hold a fitting
//! job of the run and of a lower number than the best one found so far.
//! A query costs O(1) per tree with waiting jobs for its bound, O(log q)
//! per tree walked to find the run, plus
//! one walk per improvement of the best job within the run (the fitting
//! jobs of lower number than every fitting job before them in estimate
//! order: few unless numbers fall as estimates rise). In a class entirely
//! within `f` every job fits, so a walk is O(log q). Only in the class that
//! straddles `f` may a subtree's least size and least number belong to
//! different jobs, and a walk go deeper, up to the length of the run: that
//! is the bound proven. With one tree per user only, that mismatch made
//! PV-EASY under `tsafrir` on the 100,000-job backlog take 53 s (the small
//! jobs start first, so the fitting ones left are far behind unfitting
//! ones of lower number); with the classes it takes under 1 s.

use std::collections::BTreeSet;

use schedlab_engine::treap::{Search, Summary, Treap};
use schedlab_engine::{JobIdx, Sim, Time, UserForecast};

use crate::queue_index::class_of;

/// A user's waiting job as filed: its key (estimate, job) and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Filed {
    key: (Time, JobIdx),
    size: u32,
}

/// What a subtree knows: its least size, its least job, and its first and
/// last keys (whose predictions bound those of every job in it).
#[derive(Clone, Copy, Debug)]
struct Bounds {
    size: u32,
    job: JobIdx,
    first: (Time, JobIdx),
    last: (Time, JobIdx),
}

impl Summary<Filed> for Bounds {
    const EMPTY: Self = Bounds { size: u32::MAX, job: JobIdx::MAX, first: (Time::MAX, JobIdx::MAX), last: (0, 0) };

    fn of(f: &Filed) -> Self {
        Bounds { size: f.size, job: f.key.1, first: f.key, last: f.key }
    }

    fn join(&self, right: &Self) -> Self {
        Bounds {
            size: self.size.min(right.size),
            job: self.job.min(right.job),
            first: self.first.min(right.first),
            last: self.last.max(right.last),
        }
    }
}

/// A walk over one user's jobs: those that fit in `free` processors, whose
/// current prediction lies in `[least, most]`, and whose number lies in
/// `(above, below)`. Predictions come from the user's forecast, so a walk
/// reads nothing but the tree (the jobs filed are all waiting).
struct Walk {
    forecast: UserForecast,
    free: u32,
    least: Time,
    most: Time,
    above: Option<JobIdx>,
    below: JobIdx,
}

impl Walk {
    /// The current prediction of the job filed under `key`: the same for
    /// every job of the user with that estimate.
    fn prediction(&self, key: (Time, JobIdx)) -> Time {
        self.forecast.predict(key.0)
    }
}

impl Search<(Time, JobIdx), Filed, Bounds> for Walk {
    fn enter(&self, _: &Bounds, s: &Bounds) -> bool {
        s.size <= self.free
            && s.job < self.below
            && self.prediction(s.first) <= self.most
            && self.prediction(s.last) >= self.least
    }

    fn accept(&self, _: &Bounds, key: &(Time, JobIdx), f: &Filed) -> bool {
        let p = self.prediction(*key);
        f.size <= self.free
            && (self.least..=self.most).contains(&p)
            && key.1 < self.below
            && self.above.is_none_or(|a| key.1 > a)
    }
}

#[derive(Debug, Default)]
pub(crate) struct LivePredictionOrder {
    /// Per job, its group: its user (dense, in order of SWF id) and its
    /// size class.
    group_of: Vec<u32>,
    /// Estimate per job: the first part of its key.
    estimate: Vec<Time>,
    /// Size classes per user.
    classes: u32,
    /// Per group, its waiting jobs by (estimate, job).
    by_group: Vec<Treap<(Time, JobIdx), Filed, Bounds>>,
    /// The groups that have waiting jobs filed.
    active: BTreeSet<u32>,
}

impl LivePredictionOrder {
    pub fn new(sim: &Sim<'_>) -> Self {
        let mut ids: Vec<i32> = sim.jobs().iter().map(|j| j.user).collect();
        ids.sort_unstable();
        ids.dedup();
        let classes = class_of(sim.procs()) as u32 + 1;
        let group_of = sim
            .jobs()
            .iter()
            .map(|j| ids.binary_search(&j.user).unwrap_or(0) as u32 * classes + class_of(j.size) as u32)
            .collect();
        let estimate = sim.jobs().iter().map(|j| j.estimate).collect();
        let by_group = (0..ids.len() as u32 * classes).map(|_| Treap::default()).collect();
        Self { group_of, estimate, classes, by_group, active: BTreeSet::new() }
    }

    /// Files job `j`, which must not be filed already.
    pub fn insert(&mut self, sim: &Sim<'_>, j: JobIdx) {
        let g = self.group_of[j as usize];
        let key = (self.estimate[j as usize], j);
        self.by_group[g as usize].insert(key, Filed { key, size: sim.job(j).size });
        self.active.insert(g);
    }

    /// Forgets job `j`, which must be filed.
    pub fn remove(&mut self, j: JobIdx) {
        let g = self.group_of[j as usize];
        let tree = &mut self.by_group[g as usize];
        tree.remove(&(self.estimate[j as usize], j));
        if tree.is_empty() {
            self.active.remove(&g);
        }
    }

    /// The first filed job after `after` in (current prediction, job)
    /// order that needs at most `free` processors, with its prediction.
    pub fn next(&self, sim: &Sim<'_>, after: Option<(Time, JobIdx)>, free: u32) -> Option<(Time, JobIdx)> {
        let fits = |g: &u32| 1u64 << (g % self.classes) <= u64::from(free);
        let mut best: Option<(Time, JobIdx)> = None;
        for &g in self.active.iter().filter(|&g| fits(g)) {
            let tree = &self.by_group[g as usize];
            let all = tree.summary();
            // Any job of the group gives its user's forecast.
            let forecast = sim.forecast(all.job);
            // Every job of the group is predicted at least as long as its
            // first by estimate and numbered at least its least number, so
            // its answer is no less than that pair: a group whose pair does
            // not beat the best so far is not walked.
            let bound = (forecast.predict(all.first.0), all.job);
            if all.size > free || best.is_some_and(|b| bound >= b) {
                continue;
            }
            if let Some(found) = next_in_group(tree, forecast, after, free) {
                best = Some(best.map_or(found, |b| b.min(found)));
            }
        }
        best
    }
}

/// [`LivePredictionOrder::next`] among the jobs of one group's `tree`,
/// whose user's forecast is `forecast`.
fn next_in_group(
    tree: &Treap<(Time, JobIdx), Filed, Bounds>,
    forecast: UserForecast,
    after: Option<(Time, JobIdx)>,
    free: u32,
) -> Option<(Time, JobIdx)> {
    let Some((pa, ja)) = after else { return least_job_of_first_run(tree, forecast, free, 0, None) };
    least_job_of_first_run(tree, forecast, free, pa, Some(ja))
        .or_else(|| least_job_of_first_run(tree, forecast, free, pa.saturating_add(1), None))
}

/// Among the jobs of `tree` that fit in `free` processors and are predicted
/// to run at least `least` seconds, those of the least prediction, and of
/// them the one of least number; with `above`, only jobs numbered above it
/// and predicted exactly `least` count.
fn least_job_of_first_run(
    tree: &Treap<(Time, JobIdx), Filed, Bounds>,
    forecast: UserForecast,
    free: u32,
    least: Time,
    above: Option<JobIdx>,
) -> Option<(Time, JobIdx)> {
    let most = if above.is_some() { least } else { Time::MAX };
    let any = Walk { forecast, free, least, most, above, below: JobIdx::MAX };
    let (first, _) = tree.first_after(None, &any)?;
    let run = forecast.predict(first.0);
    // Within the run, each later job found has a lower number than the best
    // so far; the walk prunes subtrees of no lower number.
    let mut best = first;
    loop {
        let lower = Walk { forecast, free, least: run, most: run, above, below: best.1 };
        match tree.first_after(Some(&best), &lower) {
            Some((key, _)) => best = key,
            None => return Some((run, best.1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use schedlab_engine::{
        run, Control, EngineError, Guarantee, Happened, Policy, RunConfig, RuntimeSource, SplitMix64,
    };
    use schedlab_workload::Job;

    /// The order the index replaces: a sorted copy of the waiting jobs by
    /// (current prediction, job), read from `after` on.
    fn by_sorting(sim: &Sim<'_>, after: Option<(Time, JobIdx)>, free: u32) -> Option<(Time, JobIdx)> {
        let mut all: Vec<(Time, JobIdx)> = sim.waiting().iter().map(|&j| (sim.prediction(j), j)).collect();
        all.sort_unstable();
        all.into_iter().find(|&e| after.is_none_or(|a| e > a) && sim.job(e.1).size <= free)
    }

    /// A policy that, at every pass, reads the whole index in order for
    /// every number of free processors and compares it with the sorted
    /// copy, then starts a pseudo-random choice of the jobs that fit (so
    /// that completions keep changing predictions) and always the first
    /// waiting job when the machine is idle (so that the run ends).
    struct Probe {
        order: Option<LivePredictionOrder>,
        rng: SplitMix64,
        compared: usize,
    }

    impl Probe {
        fn compare(&mut self, sim: &Sim<'_>) {
            let order = self.order.as_ref().expect("filed at the first pass");
            for free in 1..=sim.procs() {
                let mut after = None;
                loop {
                    let got = order.next(sim, after, free);
                    assert_eq!(got, by_sorting(sim, after, free), "at {} with {free} free after {after:?}", sim.now());
                    self.compared += 1;
                    match got {
                        Some(found) => after = Some(found),
                        None => break,
                    }
                }
            }
        }

        fn start(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
            self.order.as_mut().expect("filed at the first pass").remove(j);
            sim.start(j)
        }
    }

    impl Policy for Probe {
        fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
            let order = self.order.get_or_insert_with(|| LivePredictionOrder::new(sim));
            for &j in &happened.arrived {
                order.insert(sim, j);
            }
            self.compare(sim);
            let waiting: Vec<JobIdx> = sim.waiting().iter().copied().collect();
            for j in waiting {
                if sim.job(j).size <= sim.free() && self.rng.next_u64().is_multiple_of(3) {
                    self.start(sim, j)?;
                }
            }
            if sim.free() == sim.procs() {
                if let Some(&head) = sim.waiting().first() {
                    self.start(sim, head)?;
                }
            }
            Ok(())
        }

        fn guarantees(&self) -> Vec<Guarantee> {
            Vec::new()
        }
    }

    /// Jobs of a few users, with few distinct estimates (so that runs of
    /// equal predictions are long and cross estimates) and runtimes from
    /// zero to the estimate (so that `last`'s accuracy varies).
    fn jobs(rows: &[(i64, u32, i64, i64, i32)]) -> Vec<Job> {
        let mut submit = 0;
        rows.iter()
            .enumerate()
            .map(|(i, &(gap, size, estimate, runtime_pct, user))| {
                submit += gap;
                Job {
                    id: i as u64 + 1,
                    submit,
                    runtime: estimate * runtime_pct / 100,
                    size,
                    estimate,
                    user,
                    group: -1,
                    queue: -1,
                    partition: -1,
                    status: 1,
                }
            })
            .collect()
    }

    fn replay(jobs: &[Job], source: RuntimeSource, seed: u64) -> usize {
        let config = RunConfig { procs: 8, source, overrun: Default::default(), seed: 0, progress_every: 0 };
        let mut probe = Probe { order: None, rng: SplitMix64::new(seed), compared: 0 };
        run(jobs, &config, &mut probe, &mut |_| Control::Continue).expect("the probe run completes");
        probe.compared
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

        #[test]
        fn the_index_reads_like_a_sorted_copy_of_the_queue(
            rows in prop::collection::vec(
                (0i64..30, 1u32..=8, prop::sample::select(vec![1i64, 2, 3, 10, 11, 100, 1000]), 0i64..=100, -1i32..3),
                1..60,
            ),
            tsafrir in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let source = if tsafrir { RuntimeSource::Tsafrir } else { RuntimeSource::Last };
            prop_assert!(replay(&jobs(&rows), source, seed) > 0);
        }
    }
}
