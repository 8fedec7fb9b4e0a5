//! The waiting queue in score order, twice: every job in one treap
//! (`schedlab_profile::treap`), for the jobs in turn; and the jobs of each
//! size in a treap of their own whose subtrees know their least
//! prediction, so that a pass finds the next job that can backfill without
//! reading the queue.
//!
//! A job is filed under (score key, job index): the key orders scores as
//! numbers, lowest first (±∞ at the ends), and ties fall to the job index,
//! that is submission, then job number. Under a runtime source that learns
//! (`last`, `tsafrir`) a waiting job's prediction can change while it
//! waits, so it is filed with the least possible prediction (one second)
//! and every job the walk reaches is tested with its current one.
//!
//! Why by size: after the pass's reservations, a job of `size` processors
//! may start now iff its prediction is at most how long `size` processors
//! stay free, a horizon that shrinks as the size grows and that has a
//! step at every reservation. One treap pruned by the least size and the
//! least prediction of a subtree cannot answer that: those two least values
//! come from different jobs (a short wide job and a long narrow one), so on
//! a long queue the walk entered nearly every subtree and tested the jobs
//! one by one (half of a depth-100 backlog's time, growing with the queue).
//! Within one size the horizon is one number, so a subtree whose least
//! prediction is within it holds an answer and the walk is exact: O(log q)
//! per size that has an answer better than the best found so far, plus
//! O(1) per size with waiting jobs up to the idle processors.

use std::collections::BTreeMap;

use schedlab_engine::{JobIdx, Time};
use schedlab_profile::treap::{Search, Summary, Treap};

use crate::queue_index::{Entry, Least};

/// A score as a key whose unsigned order is the score's numeric order
/// (for any score but NaN, which the policy refuses before filing).
pub(crate) fn score_key(score: f64) -> u64 {
    // Adding zero turns −0 into +0, so the two compare equal as numbers do.
    let bits = (score + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

pub(crate) type Key = (u64, JobIdx);

/// The positions strictly between which a query looks, either end open.
pub(crate) type Between<F> = (Option<(F, JobIdx)>, Option<(F, JobIdx)>);

/// Every entry.
struct Any;

impl<F> Search<(F, JobIdx), Entry, Least> for Any {
    fn enter(&self, _: &Least, _: &Least) -> bool {
        true
    }

    fn accept(&self, _: &Least, _: &(F, JobIdx), _: &Entry) -> bool {
        true
    }
}

/// The least prediction of a run of jobs of one size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeastPrediction(Time);

impl Summary<Time> for LeastPrediction {
    const EMPTY: Self = LeastPrediction(Time::MAX);

    fn of(prediction: &Time) -> Self {
        LeastPrediction(*prediction)
    }

    fn join(&self, right: &Self) -> Self {
        LeastPrediction(self.0.min(right.0))
    }
}

/// A job of one size whose prediction (at least one second) is within
/// `horizon`; with `live`, its current prediction.
struct Within<'a> {
    horizon: Time,
    live: Option<&'a dyn Fn(JobIdx) -> Time>,
}

impl<F> Search<(F, JobIdx), Time, LeastPrediction> for Within<'_> {
    fn enter(&self, _: &LeastPrediction, s: &LeastPrediction) -> bool {
        s.0.max(1) <= self.horizon
    }

    fn accept(&self, _: &LeastPrediction, key: &(F, JobIdx), filed: &Time) -> bool {
        let prediction = self.live.map_or(*filed, |current| current(key.1));
        prediction.max(1) <= self.horizon
    }
}

/// The waiting jobs filed under keys of type `F` (a score's key, by
/// default), ties to the job index.
#[derive(Debug)]
pub(crate) struct ScoreOrder<F = u64> {
    tree: Treap<(F, JobIdx), Entry, Least>,
    /// Per size with waiting jobs, those jobs by key with their filed
    /// predictions.
    by_size: BTreeMap<u32, Treap<(F, JobIdx), Time, LeastPrediction>>,
    /// Each filed job's key and size.
    keys: Vec<Option<(F, u32)>>,
    /// Predictions change while jobs wait.
    live: bool,
}

impl<F: Ord + Copy> ScoreOrder<F> {
    pub fn new(jobs: usize, live: bool) -> Self {
        Self { tree: Treap::default(), by_size: BTreeMap::new(), keys: vec![None; jobs], live }
    }

    /// The key job `j` is filed under, if it is.
    pub fn filed(&self, j: JobIdx) -> Option<F> {
        self.keys[j as usize].map(|(key, _)| key)
    }

    /// How many jobs are filed.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// Files waiting job `j` (again) under `key`, with its size and
    /// prediction (one second, the least, when live).
    pub fn insert(&mut self, j: JobIdx, key: F, size: u32, prediction: Time) {
        self.remove(j);
        let prediction = if self.live { 1 } else { prediction };
        self.tree.insert((key, j), Entry { size, prediction });
        self.by_size.entry(size).or_default().insert((key, j), prediction);
        self.keys[j as usize] = Some((key, size));
    }

    pub fn remove(&mut self, j: JobIdx) {
        let Some((key, size)) = self.keys[j as usize].take() else { return };
        self.tree.remove(&(key, j));
        if let Some(jobs) = self.by_size.get_mut(&size) {
            jobs.remove(&(key, j));
            if jobs.is_empty() {
                self.by_size.remove(&size);
            }
        }
    }

    /// The next job after `after` in score order.
    pub fn next(&self, after: Option<(F, JobIdx)>) -> Option<(F, JobIdx)> {
        self.tree.first_after(after.as_ref(), &Any).map(|(k, _)| k)
    }

    /// The next job after `after` in score order that needs at most `free`
    /// processors and whose prediction (at least one second) is at most
    /// `horizon(size)`, which must not grow with the size (how long that
    /// many processors stay free). Sizes are read from the smallest up, so
    /// a size whose least prediction exceeds the last horizon computed is
    /// passed without computing its own, and the search stops at the first
    /// horizon under a second. When live, `current` gives a job's
    /// prediction now. With `before`, only jobs filed before it count.
    pub fn next_fitting(
        &self,
        (after, before): Between<F>,
        free: u32,
        horizon: &mut dyn FnMut(u32) -> Time,
        current: &dyn Fn(JobIdx) -> Time,
    ) -> Option<(F, JobIdx)> {
        let live = self.live.then_some(current);
        let mut best = before;
        let mut found = false;
        let mut bound = Time::MAX;
        for (&size, jobs) in self.by_size.range(..=free) {
            let least = jobs.summary().0.max(1);
            if least > bound {
                continue;
            }
            bound = horizon(size);
            if bound < 1 {
                break;
            }
            if least > bound {
                continue;
            }
            let within = Within { horizon: bound, live };
            if let Some((key, _)) = jobs.first_between(after.as_ref(), best.as_ref(), &within) {
                best = Some(key);
                found = true;
            }
        }
        best.filter(|_| found)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::{score_key, Key, ScoreOrder};
    use schedlab_engine::{JobIdx, Time};

    #[derive(Clone, Debug)]
    enum Op {
        Insert {
            j: JobIdx,
            key: u64,
            size: u32,
            prediction: Time,
        },
        Remove(JobIdx),
        /// A live job's prediction changes while it waits.
        Predict(JobIdx, Time),
        /// `after` picks a filed key by position (or none); the horizons
        /// per size 1..=8 are made non-increasing by a running minimum.
        Query {
            after: Option<usize>,
            before: Option<usize>,
            free: u32,
            horizons: Vec<Time>,
        },
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        let op = prop_oneof![
            5 => (0u32..48, 0u64..12, 1u32..=8, 0i64..40)
                .prop_map(|(j, key, size, prediction)| Op::Insert { j, key, size, prediction }),
            2 => (0u32..48).prop_map(Op::Remove),
            1 => (0u32..48, 0i64..40).prop_map(|(j, p)| Op::Predict(j, p)),
            4 => (
                proptest::option::of(0usize..64),
                proptest::option::of(0usize..64),
                0u32..=9,
                prop::collection::vec(0i64..45, 8)
            )
                .prop_map(|(after, before, free, horizons)| Op::Query { after, before, free, horizons }),
        ];
        prop::collection::vec(op, 1..150)
    }

    /// The first filed job after `after`, read in key order, that needs at
    /// most `free` processors and whose prediction (the filed one, or the
    /// current one when live; at least one second) is within the horizon
    /// of its size (and, with `before`, is filed before it).
    fn naive(
        filed: &BTreeMap<Key, (u32, Time)>,
        current: &[Time],
        live: bool,
        (after, before): (Option<Key>, Option<Key>),
        free: u32,
        horizon: &[Time],
    ) -> Option<Key> {
        let fits = |(&key, &(size, filed)): (&Key, &(u32, Time))| {
            let prediction = if live { current[key.1 as usize] } else { filed };
            size <= free && prediction.max(1) <= horizon[size as usize - 1]
        };
        filed
            .iter()
            .filter(|e| after.is_none_or(|a| *e.0 > a) && before.is_none_or(|b| *e.0 < b))
            .find(|&e| fits(e))
            .map(|e| *e.0)
    }

    fn run(ops: &[Op], live: bool) -> Result<(), TestCaseError> {
        let mut order = ScoreOrder::new(48, live);
        let mut filed: BTreeMap<Key, (u32, Time)> = BTreeMap::new();
        let mut current = vec![1; 48];
        for op in ops {
            match op {
                Op::Insert { j, key, size, prediction } => {
                    order.insert(*j, *key, *size, *prediction);
                    filed.retain(|k, _| k.1 != *j);
                    filed.insert((*key, *j), (*size, *prediction));
                    current[*j as usize] = *prediction;
                }
                Op::Remove(j) => {
                    order.remove(*j);
                    filed.retain(|k, _| k.1 != *j);
                }
                Op::Predict(j, p) => current[*j as usize] = *p,
                Op::Query { after, before, free, horizons } => {
                    let mut least = Time::MAX;
                    let horizon: Vec<Time> = horizons
                        .iter()
                        .map(|&h| {
                            least = least.min(h);
                            least
                        })
                        .collect();
                    let after = after.and_then(|i| filed.keys().nth(i).copied());
                    let before = before.and_then(|i| filed.keys().nth(i).copied());
                    let got =
                        order.next_fitting((after, before), *free, &mut |size| horizon[size as usize - 1], &|j| {
                            current[j as usize]
                        });
                    prop_assert_eq!(got, naive(&filed, &current, live, (after, before), *free, &horizon));
                    let next = filed.keys().find(|&&k| after.is_none_or(|a| k > a)).copied();
                    prop_assert_eq!(order.next(after), next);
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// The index by size answers as a scan of the queue in key order,
        /// with predictions fixed and with predictions that change.
        #[test]
        fn next_fitting_agrees_with_a_scan_in_key_order(ops in ops(), live in any::<bool>()) {
            run(&ops, live)?;
        }
    }

    #[test]
    fn keys_order_scores_as_numbers() {
        let scores = [f64::NEG_INFINITY, -1e300, -2.5, -1e-300, 0.0, 1e-300, 3.0, 1e300, f64::INFINITY];
        for pair in scores.windows(2) {
            assert!(score_key(pair[0]) < score_key(pair[1]), "{} before {}", pair[0], pair[1]);
        }
        assert_eq!(score_key(-0.0), score_key(0.0));
    }
}
