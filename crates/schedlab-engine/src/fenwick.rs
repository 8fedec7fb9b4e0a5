/// A Fenwick (binary indexed) tree of processor counts by job priority, so
/// the fairness audits (the engine's, the checker's, the metrics') can ask
/// "how many processors do running jobs of lower priority than this one
/// hold?" in O(log n) at every pass.
#[derive(Clone, Debug)]
pub struct Fenwick {
    tree: Vec<i64>,
    total: i64,
}

impl Fenwick {
    pub fn new(n: usize) -> Self {
        Self { tree: vec![0; n + 1], total: 0 }
    }

    pub fn add(&mut self, index: usize, delta: i64) {
        self.total += delta;
        let mut i = index + 1;
        while i < self.tree.len() {
            self.tree[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// Sum over indices `0..=index`.
    fn prefix(&self, index: usize) -> i64 {
        let mut sum = 0;
        let mut i = index + 1;
        while i > 0 {
            sum += self.tree[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }

    /// Sum over indices from `index` on.
    pub fn above_or_at(&self, index: usize) -> i64 {
        if index == 0 {
            self.total
        } else {
            self.above(index - 1)
        }
    }

    /// Indices the tree holds (`0..len`).
    pub fn len(&self) -> usize {
        self.tree.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sum over indices strictly greater than `index`.
    pub fn above(&self, index: usize) -> i64 {
        self.total - self.prefix(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_above_an_index() {
        let mut f = Fenwick::new(6);
        f.add(0, 4);
        f.add(3, 2);
        f.add(5, 7);
        assert_eq!(f.above(0), 9);
        assert_eq!(f.above(3), 7);
        assert_eq!(f.above(5), 0);
        f.add(5, -7);
        assert_eq!(f.above(2), 2);
    }
}
