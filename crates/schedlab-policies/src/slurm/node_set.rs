//! A set of nodes as a bitmap of 64-bit words (Slurm's `bitstr_t`): the
//! backfill map keeps one per record, so its operations cost a word per
//! 64 nodes, whatever is set.

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct NodeSet {
    words: Vec<u64>,
}

impl NodeSet {
    /// No node of a machine of `nodes`.
    pub(crate) fn empty(nodes: usize) -> Self {
        NodeSet { words: vec![0; nodes.div_ceil(64)] }
    }

    /// Every node of a machine of `nodes`.
    pub(crate) fn full(nodes: usize) -> Self {
        let mut s = NodeSet::empty(nodes);
        for n in 0..nodes {
            s.insert(n as u32);
        }
        s
    }

    /// The nodes `members` of a machine of `nodes`.
    pub(crate) fn of(nodes: usize, members: impl IntoIterator<Item = u32>) -> Self {
        let mut s = NodeSet::empty(nodes);
        for n in members {
            s.insert(n);
        }
        s
    }

    pub(crate) fn insert(&mut self, n: u32) {
        self.words[n as usize / 64] |= 1 << (n % 64);
    }

    pub(crate) fn contains(&self, n: u32) -> bool {
        self.words.get(n as usize / 64).is_some_and(|w| w & (1 << (n % 64)) != 0)
    }

    pub(crate) fn count(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// `bit_and`, and whether any node is left, in the same pass.
    pub(crate) fn and_any(&mut self, other: &NodeSet) -> bool {
        let mut any = 0;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
            any |= *a;
        }
        any != 0
    }

    /// `bit_and_not`.
    pub(crate) fn and_not(&mut self, other: &NodeSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
    }

    /// `bit_or`.
    pub(crate) fn or(&mut self, other: &NodeSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// `bit_super_set(self, other)`: every node of `self` is in `other`.
    pub(crate) fn is_subset(&self, other: &NodeSet) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & !b == 0)
    }

    /// Whether `a ∧ b` is a subset of `c ∧ d`, without making either set.
    pub(crate) fn and_is_subset(a: &NodeSet, b: &NodeSet, c: &NodeSet, d: &NodeSet) -> bool {
        a.words.iter().zip(&b.words).zip(c.words.iter().zip(&d.words)).all(|((a, b), (c, d))| a & b & !(c & d) == 0)
    }

    /// Whether `a ∧ b` is a subset of `c`, without making the set.
    pub(crate) fn and_is_within(a: &NodeSet, b: &NodeSet, c: &NodeSet) -> bool {
        a.words.iter().zip(&b.words).zip(&c.words).all(|((a, b), c)| a & b & !c == 0)
    }

    /// The nodes both sets hold (`bit_overlap`).
    pub(crate) fn overlap(&self, other: &NodeSet) -> u32 {
        self.words.iter().zip(&other.words).map(|(a, b)| (a & b).count_ones()).sum()
    }

    /// The bitmap's words, node `n` at bit `n % 64` of word `n / 64`.
    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_across_word_boundaries() {
        let mut a = NodeSet::of(130, [0, 63, 64, 129]);
        assert_eq!(a.count(), 4);
        assert!(a.contains(64) && a.contains(129) && !a.contains(1) && !a.contains(500));
        let b = NodeSet::of(130, [63, 64]);
        assert!(b.is_subset(&a) && !a.is_subset(&b));
        let all = NodeSet::full(130);
        assert!(NodeSet::and_is_subset(&b, &all, &a, &all) && !NodeSet::and_is_subset(&a, &all, &b, &all));
        assert!(NodeSet::and_is_within(&all, &b, &a) && !NodeSet::and_is_within(&all, &a, &b));
        assert!(NodeSet::and_is_within(&a, &b, &b));
        assert_eq!(a.overlap(&b), 2);
        a.and_not(&b);
        assert_eq!(a, NodeSet::of(130, [0, 129]));
        a.or(&b);
        assert!(a.and_any(&NodeSet::of(130, [0, 64])));
        assert_eq!(a, NodeSet::of(130, [0, 64]));
        assert_eq!(NodeSet::full(65).count(), 65);
        assert!(NodeSet::empty(65).is_empty());
    }
}
