//! The waiting queue in score order, with the least size and the least
//! prediction of every subtree (a treap, `schedlab_profile::treap`, with the entries and summaries of the queue index), so that a pass
//! finds the next job that can backfill without reading the whole queue.
//!
//! A job is filed under (score key, job index): the key orders scores as
//! numbers, lowest first (±∞ at the ends), and ties fall to the job index,
//! that is submission, then job number. Under a runtime source that learns
//! (`last`, `tsafrir`) a waiting job's prediction can change while it
//! waits, so it is filed with the least possible prediction (one second)
//! and every job the walk reaches is tested with its current one.

use schedlab_engine::{JobIdx, Sim, Time};
use schedlab_profile::treap::{Search, Treap};

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

/// A walk's test: `fits(size, prediction)` must be false for every job too
/// large or too long and must only grow harder with size and prediction, so
/// that a subtree whose least size and least prediction fail holds no job
/// that passes.
struct Fitting<'a, 'b> {
    fits: &'a dyn Fn(u32, Time) -> bool,
    live: Option<&'a Sim<'b>>,
}

impl Search<Key, Entry, Least> for Fitting<'_, '_> {
    fn enter(&self, _: &Least, s: &Least) -> bool {
        (self.fits)(s.size, s.prediction)
    }

    fn accept(&self, _: &Least, key: &Key, e: &Entry) -> bool {
        let prediction = self.live.map_or(e.prediction, |sim| sim.prediction(key.1));
        (self.fits)(e.size, prediction)
    }
}

#[derive(Debug, Default)]
pub(crate) struct ScoreOrder {
    tree: Treap<Key, Entry, Least>,
    /// Each filed job's key.
    keys: Vec<Option<u64>>,
    /// Predictions change while jobs wait.
    live: bool,
}

impl ScoreOrder {
    pub fn new(jobs: usize, live: bool) -> Self {
        Self { tree: Treap::default(), keys: vec![None; jobs], live }
    }

    pub fn insert(&mut self, sim: &Sim<'_>, j: JobIdx, key: u64) {
        self.remove(j);
        let prediction = if self.live { 1 } else { sim.prediction(j) };
        self.tree.insert((key, j), Entry { size: sim.job(j).size, prediction });
        self.keys[j as usize] = Some(key);
    }

    pub fn remove(&mut self, j: JobIdx) {
        if let Some(key) = self.keys[j as usize].take() {
            self.tree.remove(&(key, j));
        }
    }

    /// The next job after `after` in score order.
    pub fn next(&self, after: Option<Key>) -> Option<Key> {
        let any = |_: u32, _: Time| true;
        self.tree.first_after(after.as_ref(), &Fitting { fits: &any, live: None }).map(|(k, _)| k)
    }

    /// The next job after `after` in score order for which `fits(size,
    /// prediction)` holds (see [`Fitting`] for what `fits` must satisfy).
    pub fn next_fitting(&self, sim: &Sim<'_>, after: Option<Key>, fits: &dyn Fn(u32, Time) -> bool) -> Option<Key> {
        let live = self.live.then_some(sim);
        self.tree.first_after(after.as_ref(), &Fitting { fits, live }).map(|(k, _)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::score_key;

    #[test]
    fn keys_order_scores_as_numbers() {
        let scores = [f64::NEG_INFINITY, -1e300, -2.5, -1e-300, 0.0, 1e-300, 3.0, 1e300, f64::INFINITY];
        for pair in scores.windows(2) {
            assert!(score_key(pair[0]) < score_key(pair[1]), "{} before {}", pair[0], pair[1]);
        }
        assert_eq!(score_key(-0.0), score_key(0.0));
    }
}
