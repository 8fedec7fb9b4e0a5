//! An ordered map kept as a treap (a binary search tree balanced by random
//! priorities) whose nodes also hold a [`Summary`] of their subtree, so
//! that searches guided by those summaries ("the first entry after `k`
//! whose running total drops below a level", "the first waiting job after
//! `j` that fits in `f` processors") take one walk from the root: O(log n)
//! expected for n entries, as do insertion and removal.
//!
//! Nodes live in one vector and refer to each other by index; removed
//! nodes are recycled. Priorities come from a fixed-seed generator, so the
//! tree's shape (on which no answer depends) is the same on every run and
//! platform. Used by policies that index their waiting queue.

use schedlab_engine::SplitMix64;

/// The index of "no node".
const NIL: u32 = u32::MAX;

/// What a subtree knows about its entries: `of` one value, `join` of two
/// neighbouring runs of entries (left before right), `EMPTY` of none
/// (`join(EMPTY, s) = join(s, EMPTY) = s`).
pub trait Summary<V>: Copy {
    const EMPTY: Self;
    fn of(value: &V) -> Self;
    fn join(&self, right: &Self) -> Self;
}

#[derive(Clone, Debug)]
struct Node<K, V, S> {
    key: K,
    value: V,
    summary: S,
    priority: u64,
    left: u32,
    right: u32,
}

#[derive(Clone, Debug)]
pub struct Treap<K, V, S> {
    nodes: Vec<Node<K, V, S>>,
    recycled: Vec<u32>,
    root: u32,
    len: usize,
    rng: SplitMix64,
}

impl<K: Ord + Copy, V: Copy, S: Summary<V>> Default for Treap<K, V, S> {
    fn default() -> Self {
        Self { nodes: Vec::new(), recycled: Vec::new(), root: NIL, len: 0, rng: SplitMix64::new(0x7EA9_5EED) }
    }
}

impl<K: Ord + Copy, V: Copy, S: Summary<V>> Treap<K, V, S> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The summary of every entry.
    pub fn summary(&self) -> S {
        self.sum(self.root)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.recycled.clear();
        self.root = NIL;
        self.len = 0;
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        let mut i = self.root;
        while i != NIL {
            let n = &self.nodes[i as usize];
            match key.cmp(&n.key) {
                std::cmp::Ordering::Less => i = n.left,
                std::cmp::Ordering::Greater => i = n.right,
                std::cmp::Ordering::Equal => return Some(&n.value),
            }
        }
        None
    }

    /// Sets the value at `key` to `change(old value)`, removing the entry
    /// when it returns `None`.
    pub fn update(&mut self, key: K, change: impl FnOnce(Option<V>) -> Option<V>) {
        let (before, rest) = self.split(self.root, &key, false);
        let (at, after) = self.split(rest, &key, true);
        let old = (at != NIL).then(|| self.nodes[at as usize].value);
        if at != NIL {
            self.recycle(at);
        }
        let at = match change(old) {
            Some(value) => self.new_node(key, value),
            None => NIL,
        };
        let left = self.merge(before, at);
        self.root = self.merge(left, after);
    }

    /// Sets the value at `key`, in one descent: the entry, new or not, gets
    /// a freshly drawn priority and goes where it puts it. A subtree that
    /// the new entry will head is split around it (expected O(1) nodes),
    /// taking out the key's old node if it is there; a key met above that
    /// point sinks to its place by rotations. Either way the tree is the
    /// one that replacing the entry by [`Treap::update`] builds (a treap's
    /// shape is fixed by its keys and priorities, which never repeat), and
    /// an old node's slot is reused as `update` reuses it.
    pub fn insert(&mut self, key: K, value: V) {
        let priority = self.rng.next_u64();
        self.root = self.insert_at(self.root, key, value, priority);
    }

    /// Removes the entry at `key`, if any: its children merge in its place.
    pub fn remove(&mut self, key: &K) {
        self.root = self.remove_from(self.root, key);
    }

    /// Sets `key` to `value` with `priority` in subtree `i`; returns the
    /// subtree's root.
    fn insert_at(&mut self, i: u32, key: K, value: V, priority: u64) -> u32 {
        if i == NIL || priority > self.nodes[i as usize].priority {
            let (left, old, right) = self.split_out(i, &key);
            let node = Node { key, value, summary: S::of(&value), priority, left, right };
            let n = if old == NIL {
                self.allocate(node)
            } else {
                self.nodes[old as usize] = node;
                old
            };
            self.refresh(n);
            return n;
        }
        match key.cmp(&self.nodes[i as usize].key) {
            std::cmp::Ordering::Less => {
                let left = self.insert_at(self.nodes[i as usize].left, key, value, priority);
                self.nodes[i as usize].left = left;
            }
            std::cmp::Ordering::Greater => {
                let right = self.insert_at(self.nodes[i as usize].right, key, value, priority);
                self.nodes[i as usize].right = right;
            }
            std::cmp::Ordering::Equal => {
                let n = &mut self.nodes[i as usize];
                n.value = value;
                n.priority = priority;
                return self.sift_down(i);
            }
        }
        self.refresh(i);
        i
    }

    /// Rotates node `i`, whose priority was lowered, below every child of
    /// a higher priority; returns the subtree's root.
    fn sift_down(&mut self, i: u32) -> u32 {
        let n = &self.nodes[i as usize];
        let (left, right) = (n.left, n.right);
        let priority_of = |c: u32| if c == NIL { None } else { Some(self.nodes[c as usize].priority) };
        let top = match (priority_of(left), priority_of(right)) {
            (Some(l), r) if l > n.priority && r.is_none_or(|r| l > r) => left,
            (_, Some(r)) if r > n.priority => right,
            _ => {
                self.refresh(i);
                return i;
            }
        };
        if top == left {
            self.nodes[i as usize].left = self.nodes[left as usize].right;
            let below = self.sift_down(i);
            self.nodes[left as usize].right = below;
        } else {
            self.nodes[i as usize].right = self.nodes[right as usize].left;
            let below = self.sift_down(i);
            self.nodes[right as usize].left = below;
        }
        self.refresh(top);
        top
    }

    /// Splits subtree `i` into the keys before `key`, the node holding
    /// `key` (`NIL` if none; detached, its links stale) and the keys after.
    fn split_out(&mut self, i: u32, key: &K) -> (u32, u32, u32) {
        if i == NIL {
            return (NIL, NIL, NIL);
        }
        let n = &self.nodes[i as usize];
        match key.cmp(&n.key) {
            std::cmp::Ordering::Less => {
                let (a, at, b) = self.split_out(n.left, key);
                self.nodes[i as usize].left = b;
                self.refresh(i);
                (a, at, i)
            }
            std::cmp::Ordering::Greater => {
                let (a, at, b) = self.split_out(n.right, key);
                self.nodes[i as usize].right = a;
                self.refresh(i);
                (i, at, b)
            }
            std::cmp::Ordering::Equal => (n.left, i, n.right),
        }
    }

    /// Takes `key` out of subtree `i` (if there); returns the subtree's
    /// root.
    fn remove_from(&mut self, i: u32, key: &K) -> u32 {
        if i == NIL {
            return NIL;
        }
        let k = self.nodes[i as usize].key;
        if *key == k {
            let merged = self.merge(self.nodes[i as usize].left, self.nodes[i as usize].right);
            self.recycle(i);
            return merged;
        }
        if *key < k {
            let left = self.remove_from(self.nodes[i as usize].left, key);
            self.nodes[i as usize].left = left;
        } else {
            let right = self.remove_from(self.nodes[i as usize].right, key);
            self.nodes[i as usize].right = right;
        }
        self.refresh(i);
        i
    }

    /// Removes every entry with a key at or before `key` and returns their
    /// summary.
    pub fn drain_through(&mut self, key: &K) -> S {
        let (gone, kept) = self.split(self.root, key, true);
        self.root = kept;
        let total = self.sum(gone);
        let mut stack = vec![gone];
        while let Some(i) = stack.pop() {
            if i == NIL {
                continue;
            }
            stack.push(self.nodes[i as usize].left);
            stack.push(self.nodes[i as usize].right);
            self.recycle(i);
        }
        total
    }

    /// The summary of every entry with a key at or before `key`.
    pub fn summary_through(&self, key: &K) -> S {
        let mut acc = S::EMPTY;
        let mut i = self.root;
        while i != NIL {
            let n = &self.nodes[i as usize];
            if n.key <= *key {
                acc = acc.join(&self.sum(n.left)).join(&S::of(&n.value));
                i = n.right;
            } else {
                i = n.left;
            }
        }
        acc
    }

    /// Every entry in key order.
    pub fn entries(&self) -> Vec<(K, V)> {
        let mut out = Vec::with_capacity(self.len);
        let mut stack = Vec::new();
        let mut i = self.root;
        while i != NIL || !stack.is_empty() {
            while i != NIL {
                stack.push(i);
                i = self.nodes[i as usize].left;
            }
            let top = stack.pop().unwrap_or(NIL);
            let n = &self.nodes[top as usize];
            out.push((n.key, n.value));
            i = n.right;
        }
        out
    }

    /// The first entry with a key after `after` (every key if `None`) that
    /// `search` accepts. `search.enter(before, subtree)` must be true for
    /// every subtree holding an accepted entry (it prunes the walk), where
    /// `before` summarises every entry of the map before the subtree;
    /// `search.accept(before, key, value)` decides for one entry.
    pub fn first_after(&self, after: Option<&K>, search: &impl Search<K, V, S>) -> Option<(K, V)> {
        self.first_in(self.root, S::EMPTY, after, None, search)
    }

    /// [`Treap::first_after`] among the keys before `before` too (every key
    /// if `None`): a query that already holds an answer from elsewhere asks
    /// only for a better one, and walks no entry past it.
    pub fn first_between(
        &self,
        after: Option<&K>,
        before: Option<&K>,
        search: &impl Search<K, V, S>,
    ) -> Option<(K, V)> {
        self.first_in(self.root, S::EMPTY, after, before, search)
    }

    /// The last entry with a key before `before` that `search` accepts
    /// (the mirror of [`Treap::first_after`]).
    pub fn last_before(&self, before: &K, search: &impl Search<K, V, S>) -> Option<(K, V)> {
        self.last_in(self.root, S::EMPTY, Some(before), search)
    }

    /// `after = None`: no lower bound on the keys; `before = None`: no
    /// upper bound.
    fn first_in(
        &self,
        i: u32,
        acc: S,
        after: Option<&K>,
        before: Option<&K>,
        search: &impl Search<K, V, S>,
    ) -> Option<(K, V)> {
        if i == NIL || !search.enter(&acc, &self.nodes[i as usize].summary) {
            return None;
        }
        let n = &self.nodes[i as usize];
        let through = acc.join(&self.sum(n.left));
        if after.is_some_and(|a| n.key <= *a) {
            return self.first_in(n.right, through.join(&S::of(&n.value)), after, before, search);
        }
        if before.is_some_and(|b| n.key >= *b) {
            return self.first_in(n.left, acc, after, before, search);
        }
        // Every key of the left subtree is before this one, so before `before`.
        if let Some(found) = self.first_in(n.left, acc, after, None, search) {
            return Some(found);
        }
        if search.accept(&through, &n.key, &n.value) {
            return Some((n.key, n.value));
        }
        self.first_in(n.right, through.join(&S::of(&n.value)), None, before, search)
    }

    /// `before = None`: every key of the subtree qualifies.
    fn last_in(&self, i: u32, acc: S, before: Option<&K>, search: &impl Search<K, V, S>) -> Option<(K, V)> {
        if i == NIL || !search.enter(&acc, &self.nodes[i as usize].summary) {
            return None;
        }
        let n = &self.nodes[i as usize];
        if before.is_some_and(|b| n.key >= *b) {
            return self.last_in(n.left, acc, before, search);
        }
        let through = acc.join(&self.sum(n.left));
        if let Some(found) = self.last_in(n.right, through.join(&S::of(&n.value)), before, search) {
            return Some(found);
        }
        if search.accept(&through, &n.key, &n.value) {
            return Some((n.key, n.value));
        }
        self.last_in(n.left, acc, None, search)
    }

    fn sum(&self, i: u32) -> S {
        if i == NIL {
            S::EMPTY
        } else {
            self.nodes[i as usize].summary
        }
    }

    fn new_node(&mut self, key: K, value: V) -> u32 {
        let priority = self.rng.next_u64();
        self.allocate(Node { key, value, summary: S::of(&value), priority, left: NIL, right: NIL })
    }

    /// Stores a node in a recycled slot or a new one.
    fn allocate(&mut self, node: Node<K, V, S>) -> u32 {
        self.len += 1;
        match self.recycled.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    fn recycle(&mut self, i: u32) {
        self.len -= 1;
        self.recycled.push(i);
    }

    /// Recomputes node `i`'s summary from its children.
    fn refresh(&mut self, i: u32) {
        let n = &self.nodes[i as usize];
        let summary = self.sum(n.left).join(&S::of(&n.value)).join(&self.sum(n.right));
        self.nodes[i as usize].summary = summary;
    }

    /// Splits subtree `i` into keys before `key` and the rest; with
    /// `inclusive`, `key` itself goes to the first part.
    fn split(&mut self, i: u32, key: &K, inclusive: bool) -> (u32, u32) {
        if i == NIL {
            return (NIL, NIL);
        }
        let k = self.nodes[i as usize].key;
        let goes_left = if inclusive { k <= *key } else { k < *key };
        if goes_left {
            let (a, b) = self.split(self.nodes[i as usize].right, key, inclusive);
            self.nodes[i as usize].right = a;
            self.refresh(i);
            (i, b)
        } else {
            let (a, b) = self.split(self.nodes[i as usize].left, key, inclusive);
            self.nodes[i as usize].left = b;
            self.refresh(i);
            (a, i)
        }
    }

    /// Joins two subtrees, every key of `a` before every key of `b`.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        if self.nodes[a as usize].priority > self.nodes[b as usize].priority {
            let r = self.merge(self.nodes[a as usize].right, b);
            self.nodes[a as usize].right = r;
            self.refresh(a);
            a
        } else {
            let l = self.merge(a, self.nodes[b as usize].left);
            self.nodes[b as usize].left = l;
            self.refresh(b);
            b
        }
    }
}

/// A search of [`Treap::first_after`] or [`Treap::last_before`].
pub trait Search<K, V, S> {
    /// Whether the subtree summarised by `subtree`, after the entries
    /// summarised by `before`, may hold an accepted entry.
    fn enter(&self, before: &S, subtree: &S) -> bool;
    /// Whether the entry is accepted, after the entries summarised by
    /// `before`.
    fn accept(&self, before: &S, key: &K, value: &V) -> bool;
}
