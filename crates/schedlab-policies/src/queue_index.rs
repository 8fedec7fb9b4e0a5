//! Indexes of the waiting queue for the backfilling policies (EASY,
//! PV-EASY), so that a pass finds the next job to backfill without reading
//! the whole queue.
//!
//! Each waiting job is filed with its size and its current prediction in
//! treaps (`engine::treap`) whose subtrees know their least size and least
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
//! most the queue once per size class, as the scan did. The order by
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

use schedlab_engine::treap::{Search, Summary, Treap};
use schedlab_engine::{Happened, JobIdx, RuntimeSource, Sim, Time};

use crate::live_prediction_order::LivePredictionOrder;

/// What the index keeps of a waiting job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    size: u32,
    prediction: Time,
}

/// The least size and the least prediction of a subtree.
#[derive(Clone, Copy, Debug)]
struct Least {
    size: u32,
    prediction: Time,
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
        }
    }

    /// Files the jobs that arrived; call at the start of every pass.
    pub fn refresh(&mut self, sim: &Sim<'_>, happened: &Happened) {
        if self.filed.is_empty() {
            self.filed = vec![None; sim.jobs().len()];
            self.classes = (0..=class_of(sim.procs())).map(|_| Treap::default()).collect();
            if self.live && self.orders.by_prediction {
                self.by_live_prediction = Some(LivePredictionOrder::new(sim));
            }
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
        if let Some(order) = &mut self.by_live_prediction {
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
            if let Some(order) = &mut self.by_live_prediction {
                order.remove(j);
            }
        }
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
        // For a subtree, the least size and least prediction may belong to
        // different jobs, so this only prunes; the job test is exact.
        let fits = |size: u32, prediction: Time| size <= free && (size <= extra || prediction <= horizon);
        self.first_by_priority_where(sim, after, free, &fits, &fits)
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
            let mut best: Option<JobIdx> = None;
            for (c, tree) in self.classes.iter().enumerate() {
                if (1u64 << c) > u64::from(max_size) {
                    break;
                }
                if let Some((j, _)) = tree.first_after(after.as_ref(), query) {
                    best = Some(best.map_or(j, |b| b.min(j)));
                }
            }
            let j = best?;
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
                let found = self.by_live_prediction.as_ref().and_then(|order| order.next(sim, after, free))?;
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
