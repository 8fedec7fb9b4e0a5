//! An index of time intervals for window queries: which intervals
//! `[start, end)` meet a window `[from, to)`, in the order the index was
//! built in, cheaply when the window is small.
//!
//! The intervals are the leaves of a complete binary tree whose nodes keep
//! the least start and the greatest end below them; a query descends only
//! into nodes that may hold an interval meeting the window. When the
//! intervals are sorted by start (runs) or nearly so (waits, in priority
//! order, which is submit order), the nodes visited are those on the paths
//! to the answers, so a query costs O((answers + 1) log n): a week of a
//! year-long trace costs what the week holds.

use schedlab_engine::Time;

#[derive(Clone, Debug, Default)]
pub struct IntervalIndex {
    items: Vec<u32>,
    /// Per node (1 is the root, leaves from `leaves`): least start, greatest end.
    min_start: Vec<Time>,
    max_end: Vec<Time>,
    leaves: usize,
}

impl IntervalIndex {
    /// `intervals` as `(start, end, item)`, in the order queries report them.
    pub fn new(intervals: &[(Time, Time, u32)]) -> Self {
        let leaves = intervals.len().next_power_of_two().max(1);
        let mut min_start = vec![Time::MAX; 2 * leaves];
        let mut max_end = vec![Time::MIN; 2 * leaves];
        for (k, &(start, end, _)) in intervals.iter().enumerate() {
            min_start[leaves + k] = start;
            max_end[leaves + k] = end;
        }
        for node in (1..leaves).rev() {
            min_start[node] = min_start[2 * node].min(min_start[2 * node + 1]);
            max_end[node] = max_end[2 * node].max(max_end[2 * node + 1]);
        }
        let items = intervals.iter().map(|i| i.2).collect();
        IntervalIndex { items, min_start, max_end, leaves }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Calls `visit` with every item whose interval meets `[from, to)`
    /// (`start < to` and `end > from`), in index order, until it returns
    /// `false`.
    pub fn visit(&self, from: Time, to: Time, mut visit: impl FnMut(u32) -> bool) {
        if self.items.is_empty() {
            return;
        }
        let mut stack = vec![1usize];
        while let Some(node) = stack.pop() {
            if self.min_start[node] >= to || self.max_end[node] <= from {
                continue;
            }
            if node >= self.leaves {
                if !visit(self.items[node - self.leaves]) {
                    return;
                }
                continue;
            }
            stack.push(2 * node + 1);
            stack.push(2 * node);
        }
    }

    pub fn heap_bytes(&self) -> usize {
        self.items.capacity() * 4 + (self.min_start.capacity() + self.max_end.capacity()) * 8
    }
}
