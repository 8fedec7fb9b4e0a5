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
//! least of those. The trees are visited in order of their least
//! prediction (that of their first job by estimate), kept in an ordered
//! set, so a query stops at the first tree predicted longer than the best
//! job found; a tree whose bound (that prediction, its least job number:
//! no more than its answer) does not beat the best job found before it is
//! not walked.
//!
//! The same groups, filed by job number instead
//! ([`Keyed::ByPriority`]), answer EASY's backfill in priority order
//! within a horizon: the jobs of a group predicted within it are those of
//! the least estimates, so a subtree's least estimate bounds its
//! predictions, and only the groups whose least prediction is within the
//! horizon are reached.
//!
//! Each subtree knows its least size, its least job and its first and last
//! (estimate, job), so a walk reaches only subtrees that may hold a fitting
//! job of the run and of a lower number than the best one found so far.
//! A query costs O(log g) per tree visited for its bound (and per tree
//! whose least prediction changed since the last query, to file it
//! again), O(log q) per tree walked to find the run, plus
//! one walk per improvement of the best job within the run (the fitting
//! jobs of lower number than every fitting job before them in estimate
//! order: few unless numbers fall as estimates rise). In a class entirely
//! within `f` every job fits, so a walk is O(log q). Only in the class that
//! straddles `f` may a subtree's least size and least number belong to
//! different jobs, and a walk go deeper, up to the length of the run: that
//! is the bound proven. The size classes are what keeps the mismatch
//! small: with one tree per user only, a backlog whose small jobs start
//! first leaves the fitting jobs far behind unfitting ones of lower
//! number, and every walk crosses them.

use std::collections::BTreeSet;

use schedlab_engine::{JobIdx, Sim, Time, UserForecast};
use schedlab_profile::treap::{Search, Summary, Treap};

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

/// A walk over one group's jobs in priority order: the first one after a
/// given job that fits in `free` processors, is predicted to run at most
/// `horizon` seconds and is numbered below `below`. A subtree's least
/// estimate gives its least prediction, since predictions rise with the
/// estimate.
struct WithinHorizon {
    forecast: UserForecast,
    free: u32,
    horizon: Time,
    below: JobIdx,
}

impl Search<JobIdx, Filed, Bounds> for WithinHorizon {
    fn enter(&self, _: &Bounds, s: &Bounds) -> bool {
        s.size <= self.free && s.job < self.below && self.forecast.predict(s.first.0) <= self.horizon
    }

    fn accept(&self, _: &Bounds, j: &JobIdx, f: &Filed) -> bool {
        f.size <= self.free && *j < self.below && self.forecast.predict(f.key.0) <= self.horizon
    }
}

/// How each group's jobs are filed: by (estimate, job) for the order by
/// prediction ([`LivePredictionOrder::next`]), or by job for the order by
/// priority within a horizon ([`LivePredictionOrder::first_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keyed {
    ByEstimate,
    ByPriority,
}

/// The groups with waiting jobs, in order of their least current
/// prediction (that of their job of least estimate), so that a query
/// reaches only the groups that may hold its answer. A group's key changes
/// when its least estimate changes (a job filed or forgotten) and when its
/// user's forecast changes (a job of that user completes); both only mark
/// the group, and the next query files the marked groups again.
#[derive(Debug, Default)]
struct ByLeastPrediction {
    /// Per group, its key while it has waiting jobs.
    key: Vec<Option<Time>>,
    set: BTreeSet<(Time, u32)>,
    /// The groups whose key may be out of date, each once.
    marked: Vec<u32>,
    is_marked: Vec<bool>,
}

impl ByLeastPrediction {
    fn new(groups: usize) -> Self {
        Self { key: vec![None; groups], set: BTreeSet::new(), marked: Vec::new(), is_marked: vec![false; groups] }
    }

    fn mark(&mut self, g: u32) {
        if !std::mem::replace(&mut self.is_marked[g as usize], true) {
            self.marked.push(g);
        }
    }

    /// Files group `g` under `key` (`None`: it has no waiting jobs).
    fn refile(&mut self, g: u32, key: Option<Time>) {
        if self.key[g as usize] == key {
            return;
        }
        if let Some(old) = std::mem::replace(&mut self.key[g as usize], key) {
            self.set.remove(&(old, g));
        }
        if let Some(new) = key {
            self.set.insert((new, g));
        }
    }
}

#[derive(Debug)]
pub(crate) struct LivePredictionOrder {
    keyed: Keyed,
    /// Per job, its group: its user (dense, in order of SWF id) and its
    /// size class.
    group_of: Vec<u32>,
    /// Estimate per job: the first part of its key by estimate.
    estimate: Vec<Time>,
    /// Size classes per user.
    classes: u32,
    /// Per group, its waiting jobs by (estimate, job) (`Keyed::ByEstimate`).
    by_estimate: Vec<Treap<(Time, JobIdx), Filed, Bounds>>,
    /// Per group, its waiting jobs by job (`Keyed::ByPriority`).
    by_priority: Vec<Treap<JobIdx, Filed, Bounds>>,
    /// The groups with waiting jobs, by least prediction.
    groups: ByLeastPrediction,
}

impl LivePredictionOrder {
    pub fn new(sim: &Sim<'_>, keyed: Keyed) -> Self {
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
        let groups = ids.len() * classes as usize;
        let trees = |k: Keyed| if keyed == k { groups } else { 0 };
        Self {
            keyed,
            group_of,
            estimate,
            classes,
            by_estimate: (0..trees(Keyed::ByEstimate)).map(|_| Treap::default()).collect(),
            by_priority: (0..trees(Keyed::ByPriority)).map(|_| Treap::default()).collect(),
            groups: ByLeastPrediction::new(groups),
        }
    }

    /// Files job `j`, which must not be filed already.
    pub fn insert(&mut self, sim: &Sim<'_>, j: JobIdx) {
        let g = self.group_of[j as usize];
        let key = (self.estimate[j as usize], j);
        let filed = Filed { key, size: sim.job(j).size };
        match self.keyed {
            Keyed::ByEstimate => self.by_estimate[g as usize].insert(key, filed),
            Keyed::ByPriority => self.by_priority[g as usize].insert(j, filed),
        }
        self.groups.mark(g);
    }

    /// Forgets job `j`, which must be filed.
    pub fn remove(&mut self, j: JobIdx) {
        let g = self.group_of[j as usize];
        match self.keyed {
            Keyed::ByEstimate => self.by_estimate[g as usize].remove(&(self.estimate[j as usize], j)),
            Keyed::ByPriority => self.by_priority[g as usize].remove(&j),
        }
        self.groups.mark(g);
    }

    /// Takes note that the jobs `completed` ended: their users' forecasts,
    /// and so the predictions of those users' waiting jobs, may change.
    pub fn completed(&mut self, completed: &[JobIdx]) {
        for &j in completed {
            let first = self.group_of[j as usize] / self.classes * self.classes;
            // A group without waiting jobs has no key to change (one that
            // got jobs since the last query is marked already).
            for g in first..first + self.classes {
                if self.groups.key[g as usize].is_some() {
                    self.groups.mark(g);
                }
            }
        }
    }

    /// The summary of group `g`'s waiting jobs.
    fn summary(&self, g: u32) -> Bounds {
        match self.keyed {
            Keyed::ByEstimate => self.by_estimate[g as usize].summary(),
            Keyed::ByPriority => self.by_priority[g as usize].summary(),
        }
    }

    /// Files the marked groups again under their current least prediction.
    fn refile_marked(&mut self, sim: &Sim<'_>) {
        for g in std::mem::take(&mut self.groups.marked) {
            self.groups.is_marked[g as usize] = false;
            let all = self.summary(g);
            let key = (all.job != JobIdx::MAX).then(|| sim.forecast(all.job).predict(all.first.0));
            self.groups.refile(g, key);
        }
    }

    /// Whether the jobs of group `g` may need `free` processors or fewer.
    fn class_fits(&self, g: u32, free: u32) -> bool {
        1u64 << (g % self.classes) <= u64::from(free)
    }

    /// The first filed job after `after` in (current prediction, job)
    /// order that needs at most `free` processors, with its prediction.
    /// (`Keyed::ByEstimate` only.)
    pub fn next(&mut self, sim: &Sim<'_>, after: Option<(Time, JobIdx)>, free: u32) -> Option<(Time, JobIdx)> {
        self.refile_marked(sim);
        let mut best: Option<(Time, JobIdx)> = None;
        for &(least, g) in &self.groups.set {
            // Every job of the group is predicted at least `least`, and so
            // is every job of the groups after it.
            if best.is_some_and(|b| least > b.0) {
                break;
            }
            if !self.class_fits(g, free) {
                continue;
            }
            let tree = &self.by_estimate[g as usize];
            let all = tree.summary();
            // Every job of the group is also numbered at least its least
            // number, so its answer is no less than that pair: a group
            // whose pair does not beat the best so far is not walked.
            if all.size > free || best.is_some_and(|b| (least, all.job) >= b) {
                continue;
            }
            if let Some(found) = next_in_group(tree, sim.forecast(all.job), after, free) {
                best = Some(best.map_or(found, |b| b.min(found)));
            }
        }
        best
    }

    /// The first filed job after `after` in priority order that needs at
    /// most `free` processors and is predicted to run at most `horizon`
    /// seconds. Only the groups whose least prediction is within the
    /// horizon are reached, each walked for a job numbered below the best
    /// found so far; the answer comes with how many groups were reached.
    /// (`Keyed::ByPriority` only.)
    pub fn first_within(
        &mut self,
        sim: &Sim<'_>,
        after: Option<JobIdx>,
        free: u32,
        horizon: Time,
    ) -> (Option<JobIdx>, usize) {
        self.refile_marked(sim);
        let mut best: Option<JobIdx> = None;
        let mut reached = 0;
        for &(_, g) in self.groups.set.range(..=(horizon, u32::MAX)) {
            reached += 1;
            if !self.class_fits(g, free) {
                continue;
            }
            let tree = &self.by_priority[g as usize];
            let all = tree.summary();
            let below = best.unwrap_or(JobIdx::MAX);
            if all.size > free || all.job >= below {
                continue;
            }
            let walk = WithinHorizon { forecast: sim.forecast(all.job), free, horizon, below };
            if let Some((j, _)) = tree.first_after(after.as_ref(), &walk) {
                best = Some(j);
            }
        }
        (best, reached)
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
pub(crate) mod tests {
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

    /// The query by priority the index replaces: the first waiting job
    /// after `after` that fits in `free` processors and is predicted to run
    /// at most `horizon` seconds, found by reading the whole queue.
    fn by_scanning(sim: &Sim<'_>, after: Option<JobIdx>, free: u32, horizon: Time) -> Option<JobIdx> {
        sim.waiting()
            .iter()
            .copied()
            .find(|&j| after.is_none_or(|a| j > a) && sim.job(j).size <= free && sim.prediction(j) <= horizon)
    }

    /// Horizons around the predictions the jobs below can have.
    pub(crate) const HORIZONS: [Time; 10] = [0, 1, 2, 3, 7, 10, 11, 60, 1000, Time::MAX];

    /// Both keyings of the index, fed the same jobs.
    struct Orders {
        by_estimate: LivePredictionOrder,
        by_priority: LivePredictionOrder,
    }

    /// A policy that, at every pass, reads the whole index in order for
    /// every number of free processors (and, by priority, every horizon)
    /// and compares it with the sorted copy or the scan, then starts jobs
    /// (`start_some`).
    struct Probe {
        orders: Option<Orders>,
        rng: SplitMix64,
        compared: usize,
    }

    impl Probe {
        fn compare(&mut self, sim: &Sim<'_>) {
            let orders = self.orders.as_mut().expect("filed at the first pass");
            for free in 1..=sim.procs() {
                self.compared += read_through(|after| {
                    let got = orders.by_estimate.next(sim, after, free);
                    assert_eq!(got, by_sorting(sim, after, free), "at {} with {free} free after {after:?}", sim.now());
                    got
                });
                for horizon in HORIZONS {
                    self.compared += read_through(|after| {
                        let (got, _) = orders.by_priority.first_within(sim, after, free, horizon);
                        let want = by_scanning(sim, after, free, horizon);
                        assert_eq!(got, want, "at {} with {free} free within {horizon} after {after:?}", sim.now());
                        got
                    });
                }
            }
        }
    }

    impl Policy for Probe {
        fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
            let orders = self.orders.get_or_insert_with(|| Orders {
                by_estimate: LivePredictionOrder::new(sim, Keyed::ByEstimate),
                by_priority: LivePredictionOrder::new(sim, Keyed::ByPriority),
            });
            for order in [&mut orders.by_estimate, &mut orders.by_priority] {
                order.completed(&happened.completed);
                for &j in &happened.arrived {
                    order.insert(sim, j);
                }
            }
            self.compare(sim);
            let orders = self.orders.as_mut().expect("filed at the first pass");
            start_some(sim, &mut self.rng, &mut |sim, j| {
                orders.by_estimate.remove(j);
                orders.by_priority.remove(j);
                sim.start(j)
            })
        }

        fn guarantees(&self) -> Vec<Guarantee> {
            Vec::new()
        }
    }

    /// Reads an order in full: `next(after)` answers (and checks) the query
    /// after `after`, from none on, until it answers none; returns how many
    /// queries it answered.
    pub(crate) fn read_through<T: Copy>(mut next: impl FnMut(Option<T>) -> Option<T>) -> usize {
        let mut after = None;
        let mut read = 0;
        loop {
            read += 1;
            match next(after) {
                Some(found) => after = Some(found),
                None => return read,
            }
        }
    }

    /// Starts, through `start`, a pseudo-random choice of the waiting jobs
    /// that fit (so that completions keep changing predictions) and always
    /// the first waiting job when the machine is idle (so that the run
    /// ends).
    pub(crate) fn start_some(
        sim: &mut Sim<'_>,
        rng: &mut SplitMix64,
        start: &mut dyn FnMut(&mut Sim<'_>, JobIdx) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        let waiting: Vec<JobIdx> = sim.waiting().iter().copied().collect();
        for j in waiting {
            if sim.job(j).size <= sim.free() && rng.next_u64().is_multiple_of(3) {
                start(sim, j)?;
            }
        }
        if sim.free() == sim.procs() {
            if let Some(&head) = sim.waiting().first() {
                start(sim, head)?;
            }
        }
        Ok(())
    }

    /// Jobs of a few users, with few distinct estimates (so that runs of
    /// equal predictions are long and cross estimates) and runtimes from
    /// zero to the estimate (so that `last`'s accuracy varies).
    pub(crate) fn jobs(rows: &[(i64, u32, i64, i64, i32)]) -> Vec<Job> {
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
        let mut probe = Probe { orders: None, rng: SplitMix64::new(seed), compared: 0 };
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
