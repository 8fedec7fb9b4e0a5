//! The storage of the availability profile: the times at which the free
//! count changes (breakpoints), in order, in chunks of at most `CHUNK`
//! entries. Each chunk keeps its entries' running totals relative to its
//! start and the least and greatest of them; a segment tree over the chunks
//! combines those, so the total before any chunk and the least running
//! total of the whole profile cost O(log(n / CHUNK)).
//!
//! Changing the delta at one time costs O(CHUNK + log n) (the chunk's later
//! totals shift; a chunk that grows past `CHUNK` splits, which rebuilds the
//! segment tree, once per `CHUNK / 2` insertions at most). Searches walk
//! entries in order from a [`Cursor`], and pass a whole chunk at once when
//! its least or greatest total shows it holds no entry of interest: the
//! contiguous entries make a walk much cheaper per entry than a walk of a
//! pointer-based tree, and the skipping makes long blocked or free stretches
//! cheap.
//!
//! A trial of changes can be taken back at once ([`Skyline::checkpoint`],
//! [`Skyline::rollback`]): a journal keeps a copy of each chunk as it was
//! before the trial first changed it, and while it is kept chunks are
//! neither split (one may grow to `JOURNAL_CHUNK` entries) nor removed.

use schedlab_engine::Time;

/// Most entries in a chunk.
const CHUNK: usize = 32;

/// The summary of a run of entries: the sum of their deltas and the least
/// and greatest running total, each from the run's start up to and
/// including one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Totals {
    pub sum: i64,
    pub min: i64,
    pub max: i64,
}

impl Totals {
    const EMPTY: Self = Totals { sum: 0, min: i64::MAX, max: i64::MIN };

    fn join(&self, right: &Self) -> Self {
        Totals {
            sum: self.sum + right.sum,
            min: self.min.min(self.sum.saturating_add(right.min)),
            max: self.max.max(self.sum.saturating_add(right.max)),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Chunk {
    keys: Vec<Time>,
    /// Running total of the deltas from the chunk's first entry through
    /// each entry.
    totals: Vec<i64>,
}

impl Chunk {
    fn summary(&self) -> Totals {
        let mut t = Totals::EMPTY;
        if let Some(&last) = self.totals.last() {
            t.sum = last;
            for &v in &self.totals {
                t.min = t.min.min(v);
                t.max = t.max.max(v);
            }
        }
        t
    }

    /// The delta of entry `k`.
    fn delta(&self, k: usize) -> i64 {
        self.totals[k] - if k == 0 { 0 } else { self.totals[k - 1] }
    }
}

/// A position: entry `k` of chunk `c`, after a running total of `before`
/// (of every entry of the earlier chunks). `k` may equal the chunk's length
/// only at the very end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cursor {
    c: usize,
    k: usize,
    before: i64,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Skyline {
    chunks: Vec<Chunk>,
    /// Segment tree over the chunks' summaries; leaf i at `leaves + i`.
    tree: Vec<Totals>,
    leaves: usize,
    len: usize,
    journal: Journal,
}

/// Copies of the chunks a trial changed, as they were at
/// [`Skyline::checkpoint`], so [`Skyline::rollback`] costs what the trial
/// touched rather than an inverse change per change. While it is valid no
/// chunk is split or removed (a chunk may grow to `JOURNAL_CHUNK` entries),
/// so chunk indices stay put; a change that needs either ends it, and the
/// caller then undoes the trial change by change.
#[derive(Clone, Debug, Default)]
struct Journal {
    valid: bool,
    len: usize,
    /// Per chunk, whether its copy is saved.
    saved: Vec<bool>,
    /// (chunk, offset in `keys` and `totals`, entries) per saved chunk.
    copies: Vec<(usize, usize, usize)>,
    keys: Vec<Time>,
    totals: Vec<i64>,
}

/// Most entries a chunk may reach while a journal is kept.
const JOURNAL_CHUNK: usize = 4 * CHUNK;

impl Skyline {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn clear(&mut self) {
        self.end_journal();
        self.chunks.clear();
        self.rebuild();
    }

    /// Starts a journal: [`Skyline::rollback`] will bring back the entries
    /// as they are now (replacing any earlier journal).
    pub fn checkpoint(&mut self) {
        self.end_journal();
        let j = &mut self.journal;
        j.valid = true;
        j.len = self.len;
        j.saved.resize(self.chunks.len(), false);
    }

    /// Brings back the entries as they were at the checkpoint and returns
    /// true, or returns false (changing nothing) if the journal ended on the
    /// way (a split or removal of a chunk was needed, or none was started).
    pub fn rollback(&mut self) -> bool {
        if !self.journal.valid {
            return false;
        }
        let j = &mut self.journal;
        for &(c, off, n) in &j.copies {
            let ch = &mut self.chunks[c];
            ch.keys.clear();
            ch.keys.extend_from_slice(&j.keys[off..off + n]);
            ch.totals.clear();
            ch.totals.extend_from_slice(&j.totals[off..off + n]);
        }
        self.len = j.len;
        let touched = std::mem::take(&mut j.copies);
        if touched.len() * 4 > self.chunks.len() {
            self.rebuild();
        } else {
            for &(c, _, _) in &touched {
                self.refresh(c);
            }
        }
        self.journal.copies = touched;
        self.end_journal();
        true
    }

    /// Keeps every change since the checkpoint and ends the journal; chunks
    /// that grew past `CHUNK` meanwhile are split now.
    pub fn commit(&mut self) {
        let valid = self.journal.valid;
        let mut grown: Vec<usize> = self.journal.copies.iter().map(|c| c.0).collect();
        self.end_journal();
        if !valid {
            return;
        }
        grown.sort_unstable_by(|a, b| b.cmp(a));
        let mut split = false;
        for c in grown {
            while self.chunks[c].keys.len() > CHUNK {
                self.split(c, CHUNK / 2);
                split = true;
            }
        }
        if split {
            self.rebuild();
        }
    }

    /// Forgets the journal's copies.
    fn end_journal(&mut self) {
        let j = &mut self.journal;
        for &(c, _, _) in &j.copies {
            if let Some(s) = j.saved.get_mut(c) {
                *s = false;
            }
        }
        j.copies.clear();
        j.keys.clear();
        j.totals.clear();
        j.valid = false;
    }

    /// Saves chunk `c` in the journal before its first change.
    fn save(&mut self, c: usize) {
        let j = &mut self.journal;
        if !j.valid || j.saved[c] {
            return;
        }
        j.saved[c] = true;
        let ch = &self.chunks[c];
        j.copies.push((c, j.keys.len(), ch.keys.len()));
        j.keys.extend_from_slice(&ch.keys);
        j.totals.extend_from_slice(&ch.totals);
    }

    /// The summary of every entry.
    pub fn summary(&self) -> Totals {
        if self.chunks.is_empty() {
            Totals::EMPTY
        } else {
            self.tree[1]
        }
    }

    /// Every (key, delta) in key order.
    pub fn entries(&self) -> Vec<(Time, i64)> {
        let mut out = Vec::with_capacity(self.len);
        for c in &self.chunks {
            out.extend((0..c.keys.len()).map(|k| (c.keys[k], c.delta(k))));
        }
        out
    }

    /// Adds `delta` at `key`; an entry whose delta becomes zero is removed.
    pub fn add(&mut self, key: Time, delta: i64) {
        if delta == 0 {
            return;
        }
        let c = self.chunk_for(key);
        self.change(c, key, delta);
        self.after_change(c);
    }

    /// Adds `da` at `a` and `db` at `b > a` (an interval's two ends): when
    /// both fall in one chunk, its summary and the tree above it are
    /// refreshed once.
    pub fn add_two(&mut self, a: Time, da: i64, b: Time, db: i64) {
        let c = self.chunk_for(a);
        if da == 0 || db == 0 || self.chunks.get(c + 1).is_some_and(|next| next.keys[0] <= b) {
            self.add(a, da);
            self.add(b, db);
            return;
        }
        self.change(c, a, da);
        self.change(c, b, db);
        self.after_change(c);
    }

    /// The chunk that holds `key` or would hold it (the first chunk for a
    /// key before every entry; one is made if there is none).
    fn chunk_for(&mut self, key: Time) -> usize {
        if self.chunks.is_empty() {
            self.end_journal();
            self.chunks.push(Chunk::default());
            self.rebuild();
        }
        self.chunks.partition_point(|ch| ch.keys.first().is_some_and(|&f| f <= key)).saturating_sub(1)
    }

    /// Adds `delta` at `key` in chunk `c` (saved first if a journal is
    /// kept); the caller refreshes the chunk.
    fn change(&mut self, c: usize, key: Time, delta: i64) {
        self.save(c);
        let ch = &mut self.chunks[c];
        let k = ch.keys.partition_point(|&t| t < key);
        if ch.keys.get(k) == Some(&key) {
            for v in &mut ch.totals[k..] {
                *v += delta;
            }
            if ch.delta(k) == 0 {
                ch.keys.remove(k);
                ch.totals.remove(k);
                self.len -= 1;
            }
        } else {
            let before = if k == 0 { 0 } else { ch.totals[k - 1] };
            ch.keys.insert(k, key);
            ch.totals.insert(k, before);
            for v in &mut ch.totals[k..] {
                *v += delta;
            }
            self.len += 1;
        }
    }

    /// Removes every entry at or before `key`; returns the sum of their
    /// deltas.
    pub fn drain_through(&mut self, key: Time) -> i64 {
        self.end_journal();
        let whole = self.chunks.partition_point(|ch| ch.keys.last().is_some_and(|&l| l <= key));
        let mut total: i64 = self.chunks[..whole].iter().map(|ch| ch.totals.last().copied().unwrap_or(0)).sum();
        if whole > 0 {
            self.len -= self.chunks[..whole].iter().map(|ch| ch.keys.len()).sum::<usize>();
            self.chunks.drain(..whole);
            self.rebuild();
        }
        if let Some(ch) = self.chunks.first_mut() {
            let k = ch.keys.partition_point(|&t| t <= key);
            if k > 0 {
                let gone = ch.totals[k - 1];
                total += gone;
                ch.keys.drain(..k);
                ch.totals.drain(..k);
                for v in &mut ch.totals {
                    *v -= gone;
                }
                self.len -= k;
                self.after_change(0);
            }
        }
        total
    }

    /// The sum of the deltas at or before `key`.
    pub fn prefix_through(&self, key: Time) -> i64 {
        let c = self.chunks.partition_point(|ch| ch.keys.first().is_some_and(|&f| f <= key));
        if c == 0 {
            return 0;
        }
        let ch = &self.chunks[c - 1];
        let k = ch.keys.partition_point(|&t| t <= key);
        self.total_before(c - 1) + if k == 0 { 0 } else { ch.totals[k - 1] }
    }

    /// A cursor at the first entry after `key`.
    pub fn after(&self, key: Time) -> Cursor {
        let c = self.chunks.partition_point(|ch| ch.keys.last().is_some_and(|&l| l <= key));
        if c == self.chunks.len() {
            return self.end();
        }
        let k = self.chunks[c].keys.partition_point(|&t| t <= key);
        Cursor { c, k, before: self.total_before(c) }
    }

    /// A cursor past the last entry.
    fn end(&self) -> Cursor {
        match self.chunks.len() {
            0 => Cursor { c: 0, k: 0, before: 0 },
            n => Cursor { c: n - 1, k: self.chunks[n - 1].keys.len(), before: self.total_before(n - 1) },
        }
    }

    /// The entry at the cursor: its key and the running total through it.
    pub fn at(&self, cur: &Cursor) -> Option<(Time, i64)> {
        let ch = self.chunks.get(cur.c)?;
        Some((*ch.keys.get(cur.k)?, cur.before + ch.totals[cur.k]))
    }

    /// Moves the cursor to the next entry.
    pub fn step(&self, cur: &mut Cursor) {
        cur.k += 1;
        if cur.k >= self.chunks[cur.c].keys.len() && cur.c + 1 < self.chunks.len() {
            cur.before += self.chunks[cur.c].totals.last().copied().unwrap_or(0);
            cur.c += 1;
            cur.k = 0;
        }
    }

    /// Moves the cursor forward to the first entry, at or after it and
    /// before `limit`, whose running total is below `level` (`below`) or
    /// at least `level`; returns it, or `None` (cursor at `limit` or the
    /// end) if there is none. Within a chunk the entries are read in turn;
    /// past it, the segment tree leads straight to the next chunk that holds
    /// an entry of interest, so a search costs O(CHUNK + log n) however far
    /// it goes.
    pub fn find(&self, cur: &mut Cursor, below: bool, level: i64, limit: Time) -> Option<(Time, i64)> {
        let first = self.chunks.get(cur.c)?;
        if cur.k == 0 && !Self::holds(&self.tree[self.leaves + cur.c], cur.before, below, level) {
            cur.k = first.keys.len();
        }
        loop {
            let ch = &self.chunks[cur.c];
            // Entries compare with the level less what comes before.
            let rest = level - cur.before;
            for k in cur.k..ch.keys.len() {
                if ch.keys[k] >= limit {
                    cur.k = k;
                    return None;
                }
                if (ch.totals[k] < rest) == below {
                    cur.k = k;
                    return Some((ch.keys[k], cur.before + ch.totals[k]));
                }
            }
            let after = cur.before + ch.totals.last().copied().unwrap_or(0);
            match self.next_chunk(cur.c + 1, after, below, level) {
                Some((c, before)) => *cur = Cursor { c, k: 0, before },
                None => {
                    *cur = self.end();
                    return None;
                }
            }
        }
    }

    /// Whether a run of entries summarised by `s`, after a running total of
    /// `before`, holds an entry whose total is below `level` (`below`) or at
    /// least `level`.
    fn holds(s: &Totals, before: i64, below: bool, level: i64) -> bool {
        if below {
            before.saturating_add(s.min) < level
        } else {
            before.saturating_add(s.max) >= level
        }
    }

    /// The first chunk at or after `from` that holds an entry of interest
    /// (see [`Skyline::holds`]), with the running total before it, given
    /// the total `before` chunk `from`: up the segment tree from `from`'s
    /// leaf through the subtrees to its right, then down into the first that
    /// holds one. O(log n).
    fn next_chunk(&self, from: usize, mut before: i64, below: bool, level: i64) -> Option<(usize, i64)> {
        if from >= self.chunks.len() {
            return None;
        }
        let mut i = self.leaves + from;
        while !Self::holds(&self.tree[i], before, below, level) {
            before += self.tree[i].sum;
            // To the next subtree on the right: up while a right child.
            while i & 1 == 1 {
                i /= 2;
                if i <= 1 {
                    return None;
                }
            }
            i += 1;
        }
        while i < self.leaves {
            let left = &self.tree[2 * i];
            if Self::holds(left, before, below, level) {
                i *= 2;
            } else {
                before += left.sum;
                i = 2 * i + 1;
            }
        }
        let c = i - self.leaves;
        (c < self.chunks.len()).then_some((c, before))
    }

    /// The greatest running total of the entries from the cursor on that
    /// come before `limit` (`None` if there is none).
    pub fn max_before(&self, mut cur: Cursor, limit: Time) -> Option<i64> {
        let mut best: Option<i64> = None;
        loop {
            let Some(ch) = self.chunks.get(cur.c) else { return best };
            if cur.k == 0 && ch.keys.last().is_some_and(|&l| l < limit) {
                let s = self.tree[self.leaves + cur.c];
                best = Some(best.map_or(cur.before + s.max, |b| b.max(cur.before + s.max)));
                if cur.c + 1 == self.chunks.len() {
                    return best;
                }
                cur.before += s.sum;
                cur.c += 1;
                continue;
            }
            match self.at(&cur) {
                Some((key, total)) if key < limit => best = Some(best.map_or(total, |b| b.max(total))),
                _ => return best,
            }
            self.step(&mut cur);
        }
    }

    /// The last entry before `key` whose running total is below `level`
    /// (`below`) or at least `level`.
    pub fn find_back(&self, key: Time, below: bool, level: i64) -> Option<Time> {
        let mut c = self.chunks.partition_point(|ch| ch.keys.first().is_some_and(|&f| f < key));
        if c == 0 {
            return None;
        }
        c -= 1;
        let mut before = self.total_before(c);
        let mut k = self.chunks[c].keys.partition_point(|&t| t < key);
        loop {
            let ch = &self.chunks[c];
            if k == ch.keys.len() {
                let s = self.tree[self.leaves + c];
                let none = if below { before + s.min >= level } else { before + s.max < level };
                if none {
                    k = 0;
                }
            }
            while k > 0 {
                k -= 1;
                if (before + ch.totals[k] < level) == below {
                    return Some(ch.keys[k]);
                }
            }
            if c == 0 {
                return None;
            }
            c -= 1;
            before -= self.chunks[c].totals.last().copied().unwrap_or(0);
            k = self.chunks[c].keys.len();
        }
    }

    /// The running total of every entry of the chunks before `c`.
    fn total_before(&self, c: usize) -> i64 {
        let mut i = self.leaves + c;
        let mut total = 0;
        while i > 1 {
            if i & 1 == 1 {
                total += self.tree[i - 1].sum;
            }
            i /= 2;
        }
        total
    }

    /// After chunk `c` changed: split it if too long, drop it if empty,
    /// else refresh its summary.
    ///
    /// While a journal is kept a chunk may grow to `JOURNAL_CHUNK`
    /// entries; a split beyond that, or a removal, ends the journal.
    fn after_change(&mut self, c: usize) {
        let n = self.chunks[c].keys.len();
        let most = if self.journal.valid { JOURNAL_CHUNK } else { CHUNK };
        if n > most || n == 0 {
            self.end_journal();
        }
        if n > most {
            self.split(c, n - n / 2);
            self.rebuild();
        } else if n == 0 {
            self.chunks.remove(c);
            self.rebuild();
        } else {
            self.refresh(c);
        }
    }

    /// Moves the last `rest` entries of chunk `c` into a new chunk after it
    /// (the caller rebuilds the tree).
    fn split(&mut self, c: usize, rest: usize) {
        let ch = &mut self.chunks[c];
        let at = ch.keys.len() - rest;
        let keys = ch.keys.split_off(at);
        let mut totals = ch.totals.split_off(at);
        let base = ch.totals[at - 1];
        for v in &mut totals {
            *v -= base;
        }
        self.chunks.insert(c + 1, Chunk { keys, totals });
    }

    /// Refreshes chunk `c`'s summary and the tree above it.
    fn refresh(&mut self, c: usize) {
        let mut i = self.leaves + c;
        self.tree[i] = self.chunks[c].summary();
        while i > 1 {
            i /= 2;
            self.tree[i] = self.tree[2 * i].join(&self.tree[2 * i + 1]);
        }
    }

    fn rebuild(&mut self) {
        self.leaves = self.chunks.len().next_power_of_two().max(1);
        self.tree.clear();
        self.tree.resize(2 * self.leaves, Totals::EMPTY);
        for (c, ch) in self.chunks.iter().enumerate() {
            self.tree[self.leaves + c] = ch.summary();
        }
        for i in (1..self.leaves).rev() {
            self.tree[i] = self.tree[2 * i].join(&self.tree[2 * i + 1]);
        }
    }
}
