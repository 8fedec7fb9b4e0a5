//! A tournament tree over nodes: each node's key (a time), and the least
//! key with its node at the root, so that the node profile finds the nodes
//! whose first breakpoint has passed without an ordered set of every
//! breakpoint, and the nodes whose first breakpoint comes before a
//! search's bound. A key changes in O(log n); the least is read in O(1).

use schedlab_engine::Time;

/// The least of `n` keys, each changed in O(log n).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tournament {
    /// Leaves start here; `best[1]` is the root.
    width: usize,
    /// At each tree node, the least (key, node) below it; ties go to the
    /// lower node, so the answer never depends on the order of changes.
    best: Vec<(Time, u32)>,
}

impl Tournament {
    /// `n` nodes, every key `Time::MAX` (no breakpoint).
    pub(crate) fn new(n: usize) -> Self {
        let width = n.max(1).next_power_of_two();
        let mut best = vec![(Time::MAX, u32::MAX); 2 * width];
        for (i, leaf) in best[width..width + n].iter_mut().enumerate() {
            leaf.1 = i as u32;
        }
        let mut t = Tournament { width, best };
        for at in (1..width).rev() {
            t.pull(at);
        }
        t
    }

    /// Sets node `n`'s key to `key`.
    pub(crate) fn set(&mut self, n: u32, key: Time) {
        let mut at = self.width + n as usize;
        if self.best[at].0 == key {
            return;
        }
        self.best[at].0 = key;
        // Once a tree node's answer is what it was, none above it changes.
        while at > 1 {
            at /= 2;
            let old = self.best[at];
            self.pull(at);
            if self.best[at] == old {
                break;
            }
        }
    }

    /// The least key and its node (the lowest node among equal keys);
    /// `Time::MAX` when every key is.
    pub(crate) fn least(&self) -> (Time, u32) {
        self.best[1]
    }

    /// Calls `visit` on every node whose key is below `until`, in node
    /// order: O(k log n) for k such nodes, since a subtree whose least key
    /// is not below `until` is not entered.
    pub(crate) fn below(&self, until: Time, visit: &mut impl FnMut(u32)) {
        self.below_from(1, until, visit);
    }

    fn below_from(&self, at: usize, until: Time, visit: &mut impl FnMut(u32)) {
        if self.best.get(at).is_none_or(|b| b.0 >= until) {
            return;
        }
        if at >= self.width {
            visit((at - self.width) as u32);
            return;
        }
        self.below_from(2 * at, until, visit);
        self.below_from(2 * at + 1, until, visit);
    }

    fn pull(&mut self, at: usize) {
        self.best[at] = self.best[2 * at].min(self.best[2 * at + 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed-seed SplitMix64, so the stress case is the same at every run.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[test]
    fn the_least_key_of_three_nodes_by_hand() {
        let mut t = Tournament::new(3);
        assert_eq!(t.least().0, Time::MAX);
        t.set(2, 40);
        t.set(1, 50);
        assert_eq!(t.least(), (40, 2));
        t.set(0, 40);
        assert_eq!(t.least(), (40, 0));
        t.set(0, Time::MAX);
        t.set(2, 60);
        assert_eq!(t.least(), (50, 1));
        let mut found = Vec::new();
        t.below(60, &mut |n| found.push(n));
        assert_eq!(found, [1]);
        found.clear();
        t.below(61, &mut |n| found.push(n));
        assert_eq!(found, [1, 2]);
    }

    /// Random changes on trees of 1 to 70 nodes: the root is always the
    /// least (key, node) of a plain list of keys, and the nodes below a
    /// random bound are those of the list whose keys are below it.
    #[test]
    fn random_changes_agree_with_a_scan_of_every_key() {
        let mut state = 31;
        for n in 1..70usize {
            let mut t = Tournament::new(n);
            let mut keys = vec![Time::MAX; n];
            for _ in 0..400 {
                let node = (next(&mut state) % n as u64) as u32;
                let key = if next(&mut state).is_multiple_of(5) { Time::MAX } else { (next(&mut state) % 50) as Time };
                t.set(node, key);
                keys[node as usize] = key;
                let naive = keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).min().unwrap();
                if naive.0 == Time::MAX {
                    assert_eq!(t.least().0, Time::MAX);
                } else {
                    assert_eq!(t.least(), naive);
                }
                let until = (next(&mut state) % 60) as Time;
                let mut found = Vec::new();
                t.below(until, &mut |n| found.push(n));
                let expected: Vec<u32> = (0..n as u32).filter(|&i| keys[i as usize] < until).collect();
                assert_eq!(found, expected, "below {until}");
            }
        }
    }
}
