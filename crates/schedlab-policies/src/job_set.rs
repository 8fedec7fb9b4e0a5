//! A set of jobs (positions in priority order) as a bitset with two summary
//! levels, so that adding, removing and "the first job after j" cost a few
//! word operations however many jobs the set holds: cheaper than a
//! `BTreeSet` where a policy marks many jobs at once.

use schedlab_engine::JobIdx;

#[derive(Clone, Debug, Default)]
pub(crate) struct JobSet {
    /// Bit j: job j is in the set.
    bits: Vec<u64>,
    /// Bit w: word w of `bits` is not zero.
    words: Vec<u64>,
    /// Bit g: word g of `words` is not zero.
    groups: Vec<u64>,
}

impl JobSet {
    pub fn new(jobs: usize) -> Self {
        let bits = jobs.div_ceil(64).max(1);
        let words = bits.div_ceil(64).max(1);
        Self { bits: vec![0; bits], words: vec![0; words], groups: vec![0; words.div_ceil(64).max(1)] }
    }

    #[cfg(test)]
    pub fn contains(&self, j: JobIdx) -> bool {
        let j = j as usize;
        self.bits.get(j / 64).is_some_and(|b| b >> (j % 64) & 1 == 1)
    }

    pub fn insert(&mut self, j: JobIdx) {
        let j = j as usize;
        self.bits[j / 64] |= 1 << (j % 64);
        self.words[j / 4096] |= 1 << (j / 64 % 64);
        self.groups[j / 262_144] |= 1 << (j / 4096 % 64);
    }

    pub fn remove(&mut self, j: JobIdx) {
        let j = j as usize;
        let Some(word) = self.bits.get_mut(j / 64) else { return };
        *word &= !(1 << (j % 64));
        if *word == 0 {
            self.words[j / 4096] &= !(1 << (j / 64 % 64));
            if self.words[j / 4096] == 0 {
                self.groups[j / 262_144] &= !(1 << (j / 4096 % 64));
            }
        }
    }

    #[cfg(test)]
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.words.fill(0);
        self.groups.fill(0);
    }

    /// The first job in the set at or after `from`.
    pub fn first_from(&self, from: usize) -> Option<JobIdx> {
        // Within from's word, then the next nonzero word (through the
        // summaries), then its lowest bit.
        let w = from / 64;
        if let Some(&word) = self.bits.get(w) {
            let rest = word & (!0u64).checked_shl((from % 64) as u32).unwrap_or(0);
            if rest != 0 {
                return Some((w * 64 + rest.trailing_zeros() as usize) as JobIdx);
            }
        }
        let w = self.next_word(w + 1)?;
        Some((w * 64 + self.bits[w].trailing_zeros() as usize) as JobIdx)
    }

    /// The first nonzero word of `bits` at or after `from`.
    fn next_word(&self, from: usize) -> Option<usize> {
        let g = from / 64;
        if let Some(&summary) = self.words.get(g) {
            let rest = summary & (!0u64).checked_shl((from % 64) as u32).unwrap_or(0);
            if rest != 0 {
                return Some(g * 64 + rest.trailing_zeros() as usize);
            }
        }
        let g = self.next_group(g + 1)?;
        Some(g * 64 + self.words[g].trailing_zeros() as usize)
    }

    /// The first nonzero word of `words` at or after `from`.
    fn next_group(&self, from: usize) -> Option<usize> {
        let mut h = from / 64;
        let mut mask = (!0u64).checked_shl((from % 64) as u32).unwrap_or(0);
        while let Some(&summary) = self.groups.get(h) {
            let rest = summary & mask;
            if rest != 0 {
                return Some(h * 64 + rest.trailing_zeros() as usize);
            }
            h += 1;
            mask = !0;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Against a `BTreeSet`, over sparse and dense patterns that cross the
    /// word and summary boundaries.
    #[test]
    fn agrees_with_an_ordered_set() {
        let n = 600_000;
        let mut s = JobSet::new(n);
        let mut model = BTreeSet::new();
        let mut x: u64 = 12345;
        for step in 0..200_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let j = ((x >> 33) % n as u64) as JobIdx;
            if step % 3 == 0 {
                s.remove(j);
                model.remove(&j);
            } else {
                s.insert(j);
                model.insert(j);
            }
            if step % 997 == 0 {
                let from = ((x >> 7) % n as u64) as usize;
                assert_eq!(s.first_from(from), model.range(from as JobIdx..).next().copied(), "from {from}");
            }
        }
        for &j in model.iter().take(1000) {
            assert!(s.contains(j));
        }
        let all: Vec<JobIdx> = std::iter::successors(s.first_from(0), |&j| s.first_from(j as usize + 1)).collect();
        assert_eq!(all, model.iter().copied().collect::<Vec<_>>());
        s.clear();
        assert_eq!(s.first_from(0), None);
    }
}
