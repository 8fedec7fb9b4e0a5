//! What one kind of unit (a request's amounts per unit, its spread and
//! whether it takes nodes whole) each node holds while the backfill cycle
//! plays the running jobs' ends (`ends.rs`), and the question
//! `_will_run_test` asks of it: the first batch of ends after which the
//! usable nodes hold the units a job needs, and its nodes then, first fit
//! by node index.

use schedlab_engine::{first_fit, Slot};
use schedlab_workload::Request;

use super::node_set::NodeSet;

/// The changes of one play of the ends: the node each change touches, in
/// order, and where each batch's changes end in that list.
pub(super) struct Changes<'a> {
    pub(super) nodes: &'a [u32],
    pub(super) until: &'a [usize],
}

/// Units of one kind each node holds before the first batch and after
/// each change of a play.
pub(super) struct Holdings {
    /// Units each node holds before the first batch.
    first: Vec<u64>,
    /// The nodes that hold some then, by index.
    first_nodes: Vec<u32>,
    /// Units the node of each change holds after it.
    after: Vec<u64>,
    /// When no node ever holds more than one unit and none loses one
    /// (every node of a request of nodes; tasks on one-core nodes): the
    /// nodes that hold one after each batch, `words` words per batch. The
    /// count of usable ones then grows from batch to batch, so a test
    /// finds its batch by bisection, a word per 64 nodes at each step,
    /// instead of reading every change before it.
    bits: Option<Vec<u64>>,
    words: usize,
}

impl Holdings {
    /// `first` holds one entry per node; `after` one per change.
    pub(super) fn new(first: Vec<u64>, after: Vec<u64>, changes: &Changes<'_>) -> Holdings {
        let words = first.len().div_ceil(64);
        let first_nodes = (0..first.len() as u32).filter(|&n| first[n as usize] > 0).collect();
        let bits = at_most_one_each(&first, &after, changes, words);
        Holdings { first, first_nodes, after, bits, words }
    }

    /// The first batch after which the nodes of `usable` hold `need`
    /// units, and the first of those nodes by index that give them.
    pub(super) fn first_batch(
        &self,
        changes: &Changes<'_>,
        usable: &NodeSet,
        need: u64,
        work: &mut Work,
    ) -> Option<(usize, Vec<Slot>)> {
        match &self.bits {
            Some(bits) => self.bisect(bits, usable, need),
            None => self.walk(changes, usable, need, work),
        }
    }

    /// The first batch after which the nodes of `usable` hold a placement
    /// of `request`, tasks spread over an exact node count, by the
    /// engine's first-fit rule: their units summed are only a bound
    /// (the node count and each node's share must fit too), so every
    /// batch whose sum reaches the tasks is tried until one places them.
    pub(super) fn first_placement(
        &self,
        changes: &Changes<'_>,
        usable: &NodeSet,
        request: &Request,
        work: &mut Work,
    ) -> Option<(usize, Vec<Slot>)> {
        self.walk_until(changes, usable, u64::from(request.count), work, |w| w.placement(request))
    }

    fn bisect(&self, bits: &[u64], usable: &NodeSet, need: u64) -> Option<(usize, Vec<Slot>)> {
        let w = self.words;
        let usable = usable.words();
        let row = |k: usize| &bits[k * w..(k + 1) * w];
        let count = |k: usize| row(k).iter().zip(usable).map(|(a, b)| u64::from((a & b).count_ones())).sum::<u64>();
        let batches = bits.len().checked_div(w).unwrap_or(0);
        let (mut lo, mut hi) = (0, batches);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if count(mid) < need {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == batches {
            return None;
        }
        let mut slots = Vec::new();
        let mut left = need;
        for (i, (a, b)) in row(lo).iter().zip(usable).enumerate() {
            let mut word = a & b;
            while word != 0 && left > 0 {
                slots.push(Slot { node: (i * 64) as u32 + word.trailing_zeros(), units: 1 });
                word &= word - 1;
                left -= 1;
            }
            if left == 0 {
                break;
            }
        }
        Some((lo, slots))
    }

    /// The test change by change, as `_will_run_test` removes the jobs:
    /// the units the usable nodes hold, summed, until they are enough at
    /// the end of a batch.
    fn walk(&self, changes: &Changes<'_>, usable: &NodeSet, need: u64, work: &mut Work) -> Option<(usize, Vec<Slot>)> {
        self.walk_until(changes, usable, need, work, |w| Some(w.first_fit(need)))
    }

    /// The walk, asking `place` for the nodes at the end of each batch
    /// whose sum reaches `need`, until it gives some.
    fn walk_until(
        &self,
        changes: &Changes<'_>,
        usable: &NodeSet,
        need: u64,
        work: &mut Work,
        mut place: impl FnMut(&mut Work) -> Option<Vec<Slot>>,
    ) -> Option<(usize, Vec<Slot>)> {
        work.begin(self.first.len());
        let mut total = 0u64;
        for &n in &self.first_nodes {
            if usable.contains(n) {
                total += work.hold(n, self.first[n as usize]);
            }
        }
        let mut from = 0;
        for (k, &to) in changes.until.iter().enumerate() {
            for i in from..to {
                let n = changes.nodes[i];
                if usable.contains(n) {
                    let before = work.held(n);
                    total = total - before + work.hold(n, self.after[i]);
                }
            }
            from = to;
            if total >= need {
                if let Some(slots) = place(work) {
                    return Some((k, slots));
                }
            }
        }
        None
    }
}

/// The nodes holding a unit after each batch, if no node ever holds more
/// than one and none loses its unit (then counts only grow).
fn at_most_one_each(first: &[u64], after: &[u64], changes: &Changes<'_>, words: usize) -> Option<Vec<u64>> {
    if first.iter().any(|&h| h > 1) {
        return None;
    }
    let mut now = vec![0u64; words];
    for (n, _) in first.iter().enumerate().filter(|(_, &h)| h == 1) {
        now[n / 64] |= 1 << (n % 64);
    }
    let mut out = Vec::with_capacity(words * changes.until.len());
    let mut from = 0;
    for &to in changes.until {
        for (&n, &h) in changes.nodes[from..to].iter().zip(&after[from..to]) {
            let n = n as usize;
            let had = now[n / 64] >> (n % 64) & 1;
            if h > 1 || h < had {
                return None;
            }
            now[n / 64] |= h << (n % 64);
        }
        from = to;
        out.extend_from_slice(&now);
    }
    Some(out)
}

/// A test's working memory, kept between tests so that a test costs the
/// nodes it touches: the units each node holds, valid in the current
/// test only (its epoch), and the nodes given some.
#[derive(Default)]
pub(super) struct Work {
    epoch: u32,
    stamp: Vec<u32>,
    held: Vec<u64>,
    held_nodes: Vec<u32>,
}

impl Work {
    fn begin(&mut self, nodes: usize) {
        if self.stamp.len() != nodes || self.epoch == u32::MAX {
            *self = Work { stamp: vec![0; nodes], held: vec![0; nodes], ..Work::default() };
        }
        self.epoch += 1;
        self.held_nodes.clear();
    }

    fn held(&self, n: u32) -> u64 {
        if self.stamp[n as usize] == self.epoch {
            self.held[n as usize]
        } else {
            0
        }
    }

    /// Sets what node `n` holds; returns it.
    fn hold(&mut self, n: u32, units: u64) -> u64 {
        let i = n as usize;
        if self.stamp[i] != self.epoch {
            self.stamp[i] = self.epoch;
            self.held_nodes.push(n);
        }
        self.held[i] = units;
        units
    }

    /// The engine's first-fit placement of `request` on the nodes held.
    fn placement(&mut self, request: &Request) -> Option<Vec<Slot>> {
        self.held_nodes.sort_unstable();
        let held: Vec<(u32, u64)> =
            self.held_nodes.iter().map(|&n| (n, self.held[n as usize])).filter(|&(_, u)| u > 0).collect();
        first_fit(request, &held)
    }

    /// The first nodes, by index, that give `need` units.
    fn first_fit(&mut self, need: u64) -> Vec<Slot> {
        self.held_nodes.sort_unstable();
        let mut left = need;
        let mut slots = Vec::new();
        for &node in &self.held_nodes {
            if left == 0 {
                break;
            }
            let units = self.held[node as usize];
            if units == 0 {
                continue;
            }
            let take = units.min(left);
            slots.push(Slot { node, units: take as u32 });
            left -= take;
        }
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (SplitMix64), for the random cases.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        }
    }

    /// The naive answer: after each batch, every node's units recomputed
    /// from the start, summed over the usable nodes.
    fn naive(
        first: &[u64],
        after: &[u64],
        changes: &Changes<'_>,
        usable: &[bool],
        need: u64,
    ) -> Option<(usize, Vec<Slot>)> {
        for k in 0..changes.until.len() {
            let mut held = first.to_vec();
            for i in 0..changes.until[k] {
                held[changes.nodes[i] as usize] = after[i];
            }
            let total: u64 = (0..held.len()).filter(|&n| usable[n]).map(|n| held[n]).sum();
            if total >= need {
                let mut left = need;
                let mut slots = Vec::new();
                for n in (0..held.len()).filter(|&n| usable[n] && held[n] > 0) {
                    if left == 0 {
                        break;
                    }
                    let take = held[n].min(left);
                    slots.push(Slot { node: n as u32, units: take as u32 });
                    left -= take;
                }
                return Some((k, slots));
            }
        }
        None
    }

    /// Random plays (units only grow, as ends only give resources back;
    /// half of them with at most one unit per node, which the bisection
    /// answers) and random usable sets and needs: the structure answers
    /// as the naive recomputation does.
    #[test]
    fn answers_as_the_naive_replay() {
        let mut rng = Rng(7);
        let mut bisected = 0;
        for case in 0..400 {
            let nodes = 1 + rng.below(150) as usize;
            let most = if case % 2 == 0 { 1 } else { 1 + rng.below(6) };
            let mut held: Vec<u64> = (0..nodes).map(|_| rng.below(most + 1) / 2).collect();
            let first = held.clone();
            let (mut changed, mut after, mut until) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..rng.below(12) {
                for _ in 0..rng.below(8) {
                    let n = rng.below(nodes as u64) as usize;
                    held[n] = (held[n] + rng.below(2)).min(most);
                    changed.push(n as u32);
                    after.push(held[n]);
                }
                until.push(changed.len());
            }
            let changes = Changes { nodes: &changed, until: &until };
            let h = Holdings::new(first.clone(), after.clone(), &changes);
            bisected += usize::from(h.bits.is_some());
            let mut work = Work::default();
            for _ in 0..20 {
                let usable: Vec<bool> = (0..nodes).map(|_| rng.below(4) > 0).collect();
                let set = NodeSet::of(nodes, (0..nodes as u32).filter(|&n| usable[n as usize]));
                let need = 1 + rng.below(nodes as u64 * most / 2 + 1);
                let got = h.first_batch(&changes, &set, need, &mut work);
                assert_eq!(got, naive(&first, &after, &changes, &usable, need), "case {case}, need {need}");
            }
        }
        assert!(bisected >= 200, "the bisection answered {bisected} cases");
    }

    /// Three nodes with one unit each at most: node 1 holds one at first,
    /// node 0 gains one in batch 0, node 2 in batch 1. Two units on
    /// {0, 1, 2} come after batch 0 (nodes 0 and 1); on {1, 2} after
    /// batch 1; four never.
    #[test]
    fn one_unit_nodes_by_hand() {
        let changed = [0, 2];
        let until = [1, 2];
        let changes = Changes { nodes: &changed, until: &until };
        let h = Holdings::new(vec![0, 1, 0], vec![1, 1], &changes);
        assert!(h.bits.is_some());
        let mut work = Work::default();
        let slot = |node| Slot { node, units: 1 };
        let all = NodeSet::full(3);
        assert_eq!(h.first_batch(&changes, &all, 2, &mut work), Some((0, vec![slot(0), slot(1)])));
        let some = NodeSet::of(3, [1, 2]);
        assert_eq!(h.first_batch(&changes, &some, 2, &mut work), Some((1, vec![slot(1), slot(2)])));
        assert_eq!(h.first_batch(&changes, &all, 4, &mut work), None);
    }

    /// Four one-core tasks over exactly three nodes: node 0 holds four
    /// cores at first, node 1 gains one in batch 1, node 2 one in batch 2.
    /// The sum reaches four at batch 0 already, but on one node; at batch 1
    /// on two; only after batch 2 are there three, node 0 taking 4 − 2 = 2
    /// (one kept for each node still to take) and the others one each.
    #[test]
    fn tasks_over_a_node_count_wait_for_enough_nodes() {
        let changed = [1, 1, 2];
        let until = [1, 2, 3];
        let changes = Changes { nodes: &changed, until: &until };
        let h = Holdings::new(vec![4, 0, 0], vec![0, 1, 1], &changes);
        let request = Request {
            partition: 0,
            spread: schedlab_workload::Spread::Over { nodes: 3, per_node: vec![0] },
            count: 4,
            each: vec![1],
            exclusive: false,
        };
        let mut work = Work::default();
        let all = NodeSet::full(3);
        let slot = |node, units| Slot { node, units };
        assert_eq!(h.first_batch(&changes, &all, 4, &mut work).map(|a| a.0), Some(0), "the sum alone");
        assert_eq!(
            h.first_placement(&changes, &all, &request, &mut work),
            Some((2, vec![slot(0, 2), slot(1, 1), slot(2, 1)]))
        );
        assert_eq!(h.first_placement(&changes, &NodeSet::of(3, [0, 1]), &request, &mut work), None);
    }
}
