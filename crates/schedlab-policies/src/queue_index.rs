//! Indexes of the waiting queue for the backfilling policies (EASY,
//! PV-EASY), so that a pass finds the next job to backfill without reading
//! the whole queue.
//!
//! Each waiting job is filed with its size and its current prediction in
//! treaps (`schedlab_profile::treap`) whose subtrees know their least size and least
//! prediction:
//!
//! - by priority, in one treap per *size class* (sizes in [2^c, 2^(c+1))):
//!   "the first job after j with at most f processors" is the first job of
//!   each class no larger than f (a class entirely within f: its first
//!   job; the class that straddles f: a walk pruned by least size), and
//!   "... that also ends by the shadow time or uses only extra processors"
//!   is pruned exactly within every class entirely within f and by least
//!   size and least prediction within the straddling one; each query costs
//!   O(log q) per size class, that is O(log q · log P) for a machine of P
//!   processors;
//! - by (prediction, job), for shortest-first orders: "the next job in that
//!   order with at most f processors", O(log q).
//!
//! Predictions of waiting jobs change while they wait only when the
//! runtime source learns from history (`last`, `tsafrir`): every completion
//! may change the predictions of all the waiting jobs of its user, and
//! re-filing them would cost that user's whole queue at each completion (on
//! HPC2N, 25 times the cost of the old scan). For those sources the index
//! is *live*: it files each job with the least possible prediction (one
//! second), so subtrees are pruned by size only, and the walk by priority
//! tests each job it reaches with its current prediction; a pass walks at
//! most the queue once per size class, as the scan did. Where a horizon
//! prunes by prediction (EASY's backfill in priority order) and the walks
//! grow long, the query turns to the live order by priority instead (see
//! `first_by_live_priority`), which reaches only the (user, size class)
//! groups whose least prediction is within the horizon. The order by
//! prediction is then kept per user and size class by estimate, which
//! orders those jobs by prediction whatever the user's history
//! (`live_prediction_order`): O(log q) per (user, class) with waiting jobs
//! per query at worst (a group that cannot beat the best found is not
//! walked), and nothing to re-file when a prediction changes.
//! With `estimate`, `exact` and `virtual` predictions never change, and
//! every query is as costed above.
//!
//! The policy removes the jobs it starts. As a safeguard, a job a query
//! finds that is no longer waiting is dropped and the query goes on.

use std::cell::Cell;

use schedlab_engine::{Happened, JobIdx, RuntimeSource, Sim, Time};
use schedlab_profile::treap::{Search, Summary, Treap};

use crate::live_prediction_order::{Keyed, LivePredictionOrder};

/// What the index keeps of a waiting job (composable backfilling's score
/// order keeps the same, under another key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) size: u32,
    pub(crate) prediction: Time,
}

/// The least size and the least prediction of a subtree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Least {
    pub(crate) size: u32,
    pub(crate) prediction: Time,
}

impl Summary<Entry> for Least {
    const EMPTY: Self = Least { size: u32::MAX, prediction: Time::MAX };

    fn of(e: &Entry) -> Self {
        Least { size: e.size, prediction: e.prediction }
    }

    fn join(&self, right: &Self) -> Self {
        Least { size: self.size.min(right.size), prediction: self.prediction.min(right.prediction) }
    }
}

/// A query over the index by priority: `accept(size, prediction)` decides
/// for one job; `enter(least size, least prediction)` must hold for every
/// subtree that holds a job `accept` takes (it prunes the walk).
/// With `live`, a job is tested with its current prediction, not the
/// filed one.
struct Where<'a> {
    enter: &'a dyn Fn(u32, Time) -> bool,
    accept: &'a dyn Fn(u32, Time) -> bool,
    live: Option<&'a Sim<'a>>,
}

impl Search<JobIdx, Entry, Least> for Where<'_> {
    fn enter(&self, _: &Least, s: &Least) -> bool {
        (self.enter)(s.size, s.prediction)
    }

    fn accept(&self, _: &Least, j: &JobIdx, e: &Entry) -> bool {
        let prediction = self.live.map_or(e.prediction, |sim| sim.prediction(*j));
        (self.accept)(e.size, prediction)
    }
}

impl Search<(Time, JobIdx), Entry, Least> for Where<'_> {
    fn enter(&self, _: &Least, s: &Least) -> bool {
        (self.enter)(s.size, s.prediction)
    }

    fn accept(&self, _: &Least, _: &(Time, JobIdx), e: &Entry) -> bool {
        (self.accept)(e.size, e.prediction)
    }
}

/// How many jobs a walk by priority under live predictions tests, at
/// least and per group the live order by priority last reached, before
/// the query turns to that order. A short queue, or one whose jobs mostly
/// fit the horizon, is answered by the walk alone, which costs less than
/// reaching every group within the horizon (no walk, and a fixed budget,
/// were both slower on HPC2N at load factor 2); a queue of jobs that fit
/// by size but not by prediction costs at most a few tests per group more
/// than the live order alone.
const WALK_BUDGET_LEAST: u32 = 256;
const WALK_TESTS_PER_GROUP: u32 = 8;

/// The live order by priority costs O(log q) per job filed or forgotten
/// and per change of a user's forecast, which on a trace whose walks are
/// short is pure loss. So it is started only once the walks have tested,
/// past [`WALK_BUDGET_LEAST`] each, this many jobs per job of the trace:
/// never on HPC2N at load factor 2 (about 27 per job), after about 70
/// passes of the horizon backlog (90,000 per pass).
const TESTS_PER_JOB_BEFORE_ORDER: u64 = 64;

/// When a query by priority under live predictions walks and when it turns
/// to the live order by priority: the constants above, which the tests
/// lower so that the live order answers at every query.
#[derive(Clone, Copy, Debug)]
struct WalkCosts {
    budget_least: u32,
    tests_per_group: u32,
    tests_per_job_before_order: u64,
}

impl Default for WalkCosts {
    fn default() -> Self {
        Self {
            budget_least: WALK_BUDGET_LEAST,
            tests_per_group: WALK_TESTS_PER_GROUP,
            tests_per_job_before_order: TESTS_PER_JOB_BEFORE_ORDER,
        }
    }
}

/// The orders a policy needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Orders {
    pub by_priority: bool,
    pub by_prediction: bool,
}

#[derive(Debug)]
pub(crate) struct QueueIndex {
    orders: Orders,
    /// Per job, its entry while it is filed.
    filed: Vec<Option<Entry>>,
    /// One treap per size class, keyed by job.
    classes: Vec<Treap<JobIdx, Entry, Least>>,
    by_prediction: Treap<(Time, JobIdx), Entry, Least>,
    /// Predictions change while jobs wait (see the module doc).
    live: bool,
    /// With `live` and the order by prediction: the waiting jobs per user and
    /// size class, by estimate.
    by_live_prediction: Option<LivePredictionOrder>,
    /// With `live`, from the first query by priority within a horizon: the
    /// waiting jobs per user and size class, by priority.
    by_live_priority: Option<LivePredictionOrder>,
    /// When walks give up and the live order by priority starts.
    costs: WalkCosts,
    /// How many jobs the next walk by priority under live predictions may
    /// test (see [`WALK_BUDGET_LEAST`]).
    walk_budget: u32,
    /// How many jobs the walks by priority under live predictions tested
    /// past [`WALK_BUDGET_LEAST`] each, before the live order by priority.
    tested_past_budget: u64,
}

/// Whether a job of `size` processors predicted to run `prediction` seconds
/// may backfill: it needs at most `free` processors and, unless it needs at
/// most `extra`, ends within `horizon`.
fn fits_within(free: u32, extra: u32, horizon: Time) -> impl Fn(u32, Time) -> bool {
    move |size, prediction| size <= free && (size <= extra || prediction <= horizon)
}

/// The size class of `size`: floor(log2(size)).
pub(crate) fn class_of(size: u32) -> usize {
    (u32::BITS - 1 - size.max(1).leading_zeros()) as usize
}

impl QueueIndex {
    pub fn new(orders: Orders, source: RuntimeSource) -> Self {
        Self {
            orders,
            filed: Vec::new(),
            classes: Vec::new(),
            by_prediction: Treap::default(),
            live: source.learns(),
            by_live_prediction: None,
            by_live_priority: None,
            costs: WalkCosts::default(),
            walk_budget: WALK_BUDGET_LEAST,
            tested_past_budget: 0,
        }
    }

    /// Files the jobs that arrived; call at the start of every pass.
    pub fn refresh(&mut self, sim: &Sim<'_>, happened: &Happened) {
        if self.filed.is_empty() {
            self.filed = vec![None; sim.jobs().len()];
            self.classes = (0..=class_of(sim.procs())).map(|_| Treap::default()).collect();
            if self.live && self.orders.by_prediction {
                self.by_live_prediction = Some(LivePredictionOrder::new(sim, Keyed::ByEstimate));
            }
        }
        for order in self.live_orders() {
            order.completed(&happened.completed);
        }
        for &j in &happened.arrived {
            self.insert(sim, j);
        }
    }

    /// Files waiting job `j` (again) with its current prediction (one
    /// second, the least, when live).
    pub fn insert(&mut self, sim: &Sim<'_>, j: JobIdx) {
        self.remove(j);
        let prediction = if self.live { 1 } else { sim.prediction(j) };
        let e = Entry { size: sim.job(j).size, prediction };
        if self.orders.by_priority {
            self.classes[class_of(e.size)].insert(j, e);
        }
        if self.orders.by_prediction && !self.live {
            self.by_prediction.insert((e.prediction, j), e);
        }
        for order in self.live_orders() {
            order.insert(sim, j);
        }
        self.filed[j as usize] = Some(e);
    }

    pub fn remove(&mut self, j: JobIdx) {
        if let Some(e) = self.filed[j as usize].take() {
            if self.orders.by_priority {
                self.classes[class_of(e.size)].remove(&j);
            }
            if self.orders.by_prediction && !self.live {
                self.by_prediction.remove(&(e.prediction, j));
            }
            for order in self.live_orders() {
                order.remove(j);
            }
        }
    }

    /// The live orders kept.
    fn live_orders(&mut self) -> impl Iterator<Item = &mut LivePredictionOrder> {
        self.by_live_prediction.iter_mut().chain(self.by_live_priority.iter_mut())
    }

    /// The first waiting job after `after` in priority order that needs at
    /// most `free` processors and, unless it needs at most `extra`, is
    /// predicted to run at most `horizon` seconds.
    pub fn first_by_priority(
        &mut self,
        sim: &Sim<'_>,
        after: Option<JobIdx>,
        free: u32,
        extra: u32,
        horizon: Time,
    ) -> Option<JobIdx> {
        let extra = extra.min(free);
        if self.live && horizon < Time::MAX {
            return self.first_by_live_priority(sim, after, free, extra, horizon);
        }
        // For a subtree, the least size and least prediction may belong to
        // different jobs, so this only prunes; the job test is exact.
        let fits = fits_within(free, extra, horizon);
        self.first_by_priority_where(sim, after, free, &fits, &fits)
    }

    /// [`QueueIndex::first_by_priority`] when predictions change while jobs
    /// wait. The walk by priority tests each job that fits with its current
    /// prediction. Until the live order by priority is kept (see
    /// [`TESTS_PER_JOB_BEFORE_ORDER`]) the walk goes on to the answer;
    /// after, where it gives up (see [`WALK_BUDGET_LEAST`]), the answer
    /// is the first of the first job that needs at most `extra` processors
    /// (found by size alone) and the first that fits in `free` and is
    /// predicted within the horizon (found among the groups of the live
    /// order by priority whose least prediction is within it), so that the
    /// jobs that fit but are predicted past the horizon are not walked.
    fn first_by_live_priority(
        &mut self,
        sim: &Sim<'_>,
        after: Option<JobIdx>,
        free: u32,
        extra: u32,
        horizon: Time,
    ) -> Option<JobIdx> {
        let budget = if self.by_live_priority.is_some() { self.walk_budget } else { u32::MAX };
        let tested = Cell::new(0u32);
        let fits = fits_within(free, extra, horizon);
        let enter = |size: u32, _: Time| tested.get() < budget && size <= free;
        let accept = |size: u32, prediction: Time| {
            tested.set(tested.get() + 1);
            fits(size, prediction)
        };
        let walked = self.first_by_priority_where(sim, after, free, &enter, &accept);
        if self.by_live_priority.is_none() {
            self.tested_past_budget += u64::from(tested.get().saturating_sub(self.costs.budget_least));
            // Saturating, so that the tests' setting of u64::MAX never starts
            // the order.
            let threshold = self.costs.tests_per_job_before_order.saturating_mul(self.filed.len() as u64);
            if self.tested_past_budget >= threshold {
                self.file_live_priority(sim);
            }
            return walked;
        }
        if tested.get() < budget {
            return walked;
        }
        loop {
            let fits_extra = |size: u32, _: Time| size <= extra;
            let by_size = Where { enter: &fits_extra, accept: &fits_extra, live: None };
            let first_in_extra = self.first_in_classes(after, extra, &by_size);
            let order = self.by_live_priority.as_mut()?;
            let (first_within, reached) = order.first_within(sim, after, free, horizon);
            let per_group = self.costs.tests_per_group.saturating_mul(u32::try_from(reached).unwrap_or(u32::MAX));
            self.walk_budget = per_group.max(self.costs.budget_least);
            let j = first_in_extra.into_iter().chain(first_within).min()?;
            if sim.is_waiting(j) {
                return Some(j);
            }
            self.remove(j);
        }
    }

    /// Starts the live order by priority with the jobs filed now.
    fn file_live_priority(&mut self, sim: &Sim<'_>) {
        let mut order = LivePredictionOrder::new(sim, Keyed::ByPriority);
        for j in (0..self.filed.len() as JobIdx).filter(|&j| self.filed[j as usize].is_some()) {
            order.insert(sim, j);
        }
        self.by_live_priority = Some(order);
    }

    /// The first job after `after` that `query` takes in the size classes
    /// that have a size up to `max_size`.
    fn first_in_classes(&self, after: Option<JobIdx>, max_size: u32, query: &Where<'_>) -> Option<JobIdx> {
        let mut best: Option<JobIdx> = None;
        for (c, tree) in self.classes.iter().enumerate() {
            if (1u64 << c) > u64::from(max_size) {
                break;
            }
            if let Some((j, _)) = tree.first_after(after.as_ref(), query) {
                best = Some(best.map_or(j, |b| b.min(j)));
            }
        }
        best
    }

    /// The first waiting job after `after` in priority order that needs at
    /// most `max_size` processors and that `accept(size, prediction)` takes;
    /// `enter(least size, least prediction)` must hold for every subtree
    /// holding such a job. The walk searches each size class that has a
    /// size up to `max_size` and keeps the first job found.
    pub fn first_by_priority_where(
        &mut self,
        sim: &Sim<'_>,
        after: Option<JobIdx>,
        max_size: u32,
        enter: &dyn Fn(u32, Time) -> bool,
        accept: &dyn Fn(u32, Time) -> bool,
    ) -> Option<JobIdx> {
        let query = Where { enter, accept, live: None };
        let live = Where { enter, accept, live: Some(sim) };
        let query = if self.live { &live } else { &query };
        loop {
            let j = self.first_in_classes(after, max_size, query)?;
            if sim.is_waiting(j) {
                return Some(j);
            }
            self.remove(j);
        }
    }

    /// The next waiting job after `after` in (prediction, job) order that
    /// needs at most `free` processors, with its prediction.
    pub fn next_by_prediction(
        &mut self,
        sim: &Sim<'_>,
        after: Option<(Time, JobIdx)>,
        free: u32,
    ) -> Option<(Time, JobIdx)> {
        if self.by_live_prediction.is_some() {
            loop {
                let found = self.by_live_prediction.as_mut().and_then(|order| order.next(sim, after, free))?;
                if sim.is_waiting(found.1) {
                    return Some(found);
                }
                self.remove(found.1);
            }
        }
        let fits = |size: u32, _: Time| size <= free;
        let query = Where { enter: &fits, accept: &fits, live: None };
        loop {
            let (key, _) = self.by_prediction.first_after(after.as_ref(), &query)?;
            if sim.is_waiting(key.1) {
                return Some(key);
            }
            self.remove(key.1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live_prediction_order::tests::{jobs, read_through, start_some, HORIZONS};
    use proptest::prelude::*;
    use schedlab_engine::{run, Control, EngineError, Guarantee, Policy, RunConfig, SplitMix64};

    /// The query the index replaces, found by reading the whole queue.
    fn by_scanning(sim: &Sim<'_>, after: Option<JobIdx>, free: u32, extra: u32, horizon: Time) -> Option<JobIdx> {
        sim.waiting().iter().copied().find(|&j| {
            let size = sim.job(j).size;
            after.is_none_or(|a| j > a) && size <= free && (size <= extra || sim.prediction(j) <= horizon)
        })
    }

    /// A policy that, at every pass, reads the index by priority in full for
    /// every number of free and extra processors and every horizon, and
    /// compares it with the scan; then starts jobs (`start_some`).
    struct Probe {
        queue: QueueIndex,
        rng: SplitMix64,
        compared: usize,
    }

    impl Probe {
        fn compare(&mut self, sim: &Sim<'_>) {
            for free in 1..=sim.procs() {
                for extra in [0, 1, free / 2, free] {
                    for horizon in HORIZONS {
                        self.compared += read_through(|after| {
                            let got = self.queue.first_by_priority(sim, after, free, extra, horizon);
                            let want = by_scanning(sim, after, free, extra.min(free), horizon);
                            let at = sim.now();
                            assert_eq!(
                                got, want,
                                "at {at}, {free} free, {extra} extra, within {horizon}, after {after:?}"
                            );
                            got
                        });
                    }
                }
            }
        }
    }

    impl Policy for Probe {
        fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
            self.queue.refresh(sim, happened);
            self.compare(sim);
            let queue = &mut self.queue;
            start_some(sim, &mut self.rng, &mut |sim, j| {
                queue.remove(j);
                sim.start(j)
            })
        }

        fn guarantees(&self) -> Vec<Guarantee> {
            Vec::new()
        }
    }

    /// Walk costs that reach the live order by priority at once (every
    /// query), after short walks, or never (the walk alone).
    const COSTS: [WalkCosts; 3] = [
        WalkCosts { budget_least: 0, tests_per_group: 0, tests_per_job_before_order: 0 },
        WalkCosts { budget_least: 2, tests_per_group: 1, tests_per_job_before_order: 0 },
        WalkCosts { budget_least: 2, tests_per_group: 1, tests_per_job_before_order: u64::MAX },
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

        #[test]
        fn the_query_by_priority_within_a_horizon_reads_like_a_scan(
            rows in prop::collection::vec(
                (0i64..30, 1u32..=8, prop::sample::select(vec![1i64, 2, 3, 10, 11, 100, 1000]), 0i64..=100, -1i32..3),
                1..60,
            ),
            tsafrir in any::<bool>(),
            costs in 0..COSTS.len(),
            seed in any::<u64>(),
        ) {
            let source = if tsafrir { RuntimeSource::Tsafrir } else { RuntimeSource::Last };
            let mut queue = QueueIndex::new(Orders { by_priority: true, by_prediction: false }, source);
            queue.costs = COSTS[costs];
            queue.walk_budget = COSTS[costs].budget_least;
            let config = RunConfig { procs: 8, source, overrun: Default::default(), seed: 0, progress_every: 0 };
            let mut probe = Probe { queue, rng: SplitMix64::new(seed), compared: 0 };
            run(&jobs(&rows), &config, &mut probe, &mut |_| Control::Continue).expect("the probe run completes");
            prop_assert!(probe.compared > 0);
        }
    }
}
