use std::cell::Cell;

use crate::skyline::Skyline;
use schedlab_engine::Time;

/// An availability profile: free processors as a step function of time, from
/// an origin (the current time) to infinity. Conservative-style policies
/// keep running jobs and reservations in one.
///
/// Free counts are signed so that a profile can be *overcommitted* for a
/// moment (a running job outlived its prediction and now overlaps
/// reservations); [`Profile::is_overcommitted`] says so and the policy
/// repairs its plan.
///
/// The profile is the free count at the origin plus, at each later time
/// where it changes, the change (a breakpoint), kept in order in chunks
/// with their least and greatest running totals and a segment tree over the
/// chunks ([`crate::skyline`]): changing the profile costs O(log n) plus a
/// chunk's length, for n breakpoints; the free count at a time O(log n).
/// Searches walk breakpoints in order and pass whole chunks at once where
/// nothing can stop them; [`Profile::earliest_fit`] also starts where
/// earlier searches proved nothing fits (see there).
#[derive(Clone, Debug)]
pub struct Profile {
    origin: Time,
    /// Free processors from the origin until the first breakpoint.
    base: i64,
    /// Changes of the free count after the origin (every key > `origin`).
    changes: Skyline,
    /// Where earlier searches prove that no window of a class fits.
    hints: FitHints,
    /// The base and hints at the last [`Profile::checkpoint`].
    saved_base: i64,
    saved_hints: FitHints,
}

impl PartialEq for Profile {
    fn eq(&self, other: &Self) -> bool {
        self.steps() == other.steps()
    }
}

impl Eq for Profile {}

impl Profile {
    pub fn new(origin: Time, procs: u32) -> Self {
        Self {
            origin,
            base: i64::from(procs),
            changes: Skyline::default(),
            hints: FitHints::new(procs),
            saved_base: i64::from(procs),
            saved_hints: FitHints::new(procs),
        }
    }

    /// Starts a trial: until [`Profile::commit`], the next checkpoint,
    /// [`Profile::advance`] or [`Profile::reset`], the profile keeps what
    /// [`Profile::rollback`] needs to bring it back to this state at the
    /// cost of the chunks the trial changed (a policy that prices candidate
    /// schedules builds each and takes it back).
    pub fn checkpoint(&mut self) {
        self.changes.checkpoint();
        self.saved_base = self.base;
        self.saved_hints.copy_from(&self.hints);
    }

    /// Brings the profile back to its state at the checkpoint and returns
    /// true; or returns false and changes nothing, when the trial needed a
    /// change the journal does not cover (then the caller takes its changes
    /// back one by one). The fit hints return with it: those the trial
    /// proved may not hold without its changes.
    pub fn rollback(&mut self) -> bool {
        if !self.changes.rollback() {
            return false;
        }
        self.base = self.saved_base;
        self.hints.copy_from(&self.saved_hints);
        true
    }

    /// Keeps the trial's changes and ends it.
    pub fn commit(&mut self) {
        self.changes.commit();
    }

    /// Starts again from `origin` with `procs` free processors, keeping the
    /// allocated memory.
    pub fn reset(&mut self, origin: Time, procs: u32) {
        self.origin = origin;
        self.base = i64::from(procs);
        self.changes.clear();
        self.hints = FitHints::new(procs);
    }

    /// `(time, free)`: `free` processors from `time` until the next step's
    /// time; the last step lasts forever. Times strictly increase and
    /// neighbouring steps have different counts. O(n): for tests and
    /// debugging.
    pub fn steps(&self) -> Vec<(Time, i64)> {
        let mut free = self.base;
        let mut out = vec![(self.origin, free)];
        for (t, delta) in self.changes.entries() {
            free += delta;
            out.push((t, free));
        }
        out
    }

    /// How many times the free count changes after the origin.
    pub fn breakpoints(&self) -> usize {
        self.changes.len()
    }

    /// Forgets the past: the profile now starts at `now` (a time before the
    /// origin changes nothing).
    pub fn advance(&mut self, now: Time) {
        if now > self.origin {
            self.base += self.changes.drain_through(now);
            self.origin = now;
        }
    }

    /// Free processors at `t` (at the origin for earlier times).
    pub fn free_at(&self, t: Time) -> i64 {
        if t <= self.origin {
            self.base
        } else {
            self.base + self.changes.prefix_through(t)
        }
    }

    /// Whether the free count is negative anywhere. O(1).
    pub fn is_overcommitted(&self) -> bool {
        self.base < 0 || self.base.saturating_add(self.changes.summary().min) < 0
    }

    /// The earliest time `t >= from` (and at or after the origin) such that
    /// `size` processors are free throughout `[t, t + duration)` (a zero
    /// duration counts as one second); `Time::MAX` if there is none (only a
    /// profile whose tail lacks processors, i.e. a job larger than the
    /// machine).
    ///
    /// Candidate times are `from` and the later breakpoints, which is where
    /// the answer must lie. From a candidate, one walk of the tree finds the
    /// first breakpoint where fewer than `size` are free; if it is not
    /// before the window's end the candidate fits, otherwise a second walk
    /// finds the next breakpoint with enough free processors, the next
    /// candidate. So the cost is O(log n) times the number of windows with
    /// enough processors at their start that are too short for `duration`.
    pub fn earliest_fit(&self, from: Time, duration: Time, size: u32) -> Time {
        let duration = duration.max(1);
        let hint = self.hints.lower_bound(size, duration);
        let first = from.max(self.origin);
        let answer = self.scan_fit(first.max(hint), duration, size, Time::MAX);
        if first <= hint.max(self.origin) && answer != Time::MAX {
            self.hints.found(size, duration, answer);
        }
        answer
    }

    /// Whether some window of `duration` seconds on `size` processors fits
    /// within `[from, until)`.
    ///
    /// A search that starts at its class's fit hint and finds nothing
    /// proves that no window of the class starts at or before the last
    /// start it tried, so it raises the hint past it, as `earliest_fit`
    /// does with its answer: compression asks this of every planned job at
    /// each early end, and jobs of one class that cannot move would
    /// otherwise walk the same blocked stretch of the profile one after the
    /// other.
    pub fn fits_before(&self, from: Time, duration: Time, size: u32, until: Time) -> bool {
        let duration = duration.max(1);
        let hint = self.hints.lower_bound(size, duration);
        let first = from.max(self.origin).max(hint);
        let last_start = until.saturating_sub(duration);
        if first > last_start {
            return false;
        }
        let fits = self.scan_fit(first, duration, size, last_start) != Time::MAX;
        if !fits && first <= hint.max(self.origin) {
            self.hints.found(size, duration, last_start.saturating_add(1));
        }
        fits
    }

    /// The first time at or after `t` at which fewer than `size` processors
    /// are free (`t` itself if they are not free at `t`; `Time::MAX` if
    /// that never happens).
    pub fn free_until(&self, t: Time, size: u32) -> Time {
        let need = i64::from(size);
        let t = t.max(self.origin);
        if self.free_at(t) < need {
            return t;
        }
        let level = need - self.base;
        self.changes.find(&mut self.changes.after(t), true, level, Time::MAX).map_or(Time::MAX, |e| e.0)
    }

    /// The most processors free at any time in `[a, b)`.
    pub fn max_free(&self, a: Time, b: Time) -> i64 {
        let a = a.max(self.origin);
        let at_a = self.free_at(a);
        match self.changes.max_before(self.changes.after(a), b) {
            Some(m) => at_a.max(self.base + m),
            None => at_a,
        }
    }

    /// The maximal intervals where at least `size` processors are free and
    /// that meet `[a, b)`, in time order, into `out` (after clearing it);
    /// `Time::MAX` ends one that never ends.
    pub fn runs(&self, a: Time, b: Time, size: u32, out: &mut Vec<(Time, Time)>) {
        out.clear();
        let need = i64::from(size);
        let level = need - self.base;
        let mut x = a.max(self.origin);
        while x < b {
            if self.free_at(x) < need {
                match self.changes.find(&mut self.changes.after(x), false, level, b) {
                    Some((t, _)) => x = t,
                    None => return,
                }
            }
            // x is in a run: it began at the first breakpoint with enough
            // processors after the last one short of them (or at the origin).
            let start = match self.changes.find_back(x + 1, true, level) {
                None if self.base >= need => self.origin,
                short => {
                    let from = short.unwrap_or(self.origin);
                    self.changes.find(&mut self.changes.after(from), false, level, Time::MAX).map_or(x, |e| e.0)
                }
            };
            let end = self.changes.find(&mut self.changes.after(x), true, level, Time::MAX).map_or(Time::MAX, |e| e.0);
            out.push((start, end));
            x = end;
        }
    }

    /// The earliest fit at or after `start` (at or after the origin), or
    /// `Time::MAX` if none starts by `until`: from a candidate start, walk
    /// the breakpoints of its window; the first one short of processors
    /// sends the candidate to the next breakpoint with enough.
    fn scan_fit(&self, mut start: Time, duration: Time, size: u32, until: Time) -> Time {
        let need = i64::from(size);
        // Running totals of the breakpoints are relative to the base.
        let level = need - self.base;
        let mut cursor = self.changes.after(start);
        let mut enough = self.free_at(start) >= need;
        loop {
            if !enough {
                match self.changes.find(&mut cursor, false, level, Time::MAX) {
                    Some((t, _)) => start = t,
                    None => return Time::MAX,
                }
                self.changes.step(&mut cursor);
            }
            if start > until {
                return Time::MAX;
            }
            if self.changes.find(&mut cursor, true, level, start.saturating_add(duration)).is_none() {
                return start;
            }
            self.changes.step(&mut cursor);
            enough = false;
        }
    }

    /// Takes `size` processors over `[start, start + duration)`.
    pub fn allocate(&mut self, start: Time, duration: Time, size: u32) {
        self.add(start, duration, -i64::from(size));
    }

    /// Gives back `size` processors over `[start, start + duration)`.
    pub fn release(&mut self, start: Time, duration: Time, size: u32) {
        self.add(start, duration, i64::from(size));
    }

    /// Adds `delta` over `[start', start' + duration)` where `start'` is
    /// `start` moved up to the origin. (A start before the origin moves the
    /// whole interval, not only its beginning; callers only pass starts in
    /// the past for intervals that begin now.)
    fn add(&mut self, start: Time, duration: Time, delta: i64) {
        let start = start.max(self.origin);
        let end = start.saturating_add(duration);
        if end <= start {
            return;
        }
        if delta > 0 {
            self.hints.released(start, self.origin);
        }
        if start == self.origin {
            self.base += delta;
            self.changes.add(end, -delta);
        } else {
            self.changes.add_two(start, delta, end, -delta);
        }
    }
}

/// Lower bounds on earliest fits, by class of size and duration: entry
/// (k, m) is a time before which no window of `size` ≥ 2^k processors for
/// a `duration` in [2^m, 2^(m+1)) fits. A search proves such a bound for
/// every class that its (size, duration) dominates (no window fits for the
/// larger class where none fits for the smaller); a release of processors
/// from time `a` on pulls every bound of class m back to `a` − 2^(m+1) + 1,
/// the earliest start of a window of that class that could use it. Taking
/// away processors leaves every bound valid. So a search may start at the
/// bound of its class without changing its answer, which spares a backlog's
/// placements most of the profile they would otherwise walk.
#[derive(Clone, Debug)]
struct FitHints {
    /// Size classes that can hold a job (up to the machine's).
    sizes: usize,
    /// Duration classes used so far (classes above hold no bound).
    durations: Cell<usize>,
    /// Per duration class, at least every bound it holds (so a release
    /// that would pull bounds back to after it changes nothing).
    highest: Vec<Cell<Time>>,
    bounds: Vec<Cell<Time>>,
}

/// Duration classes: 2^0 to 2^62 seconds.
const DURATION_CLASSES: usize = 63;

impl FitHints {
    fn new(procs: u32) -> Self {
        let sizes = (u32::BITS - procs.max(1).leading_zeros()) as usize;
        Self {
            sizes,
            durations: Cell::new(0),
            highest: vec![Cell::new(Time::MIN); DURATION_CLASSES],
            bounds: vec![Cell::new(Time::MIN); sizes * DURATION_CLASSES],
        }
    }

    /// Becomes a copy of `other`, reusing its own memory.
    fn copy_from(&mut self, other: &FitHints) {
        self.sizes = other.sizes;
        self.durations.set(other.durations.get());
        self.highest.clone_from(&other.highest);
        self.bounds.clone_from(&other.bounds);
    }

    fn cell(&self, k: usize, m: usize) -> &Cell<Time> {
        &self.bounds[k * DURATION_CLASSES + m]
    }

    /// The bound of the class holding (size, duration ≥ 1).
    fn lower_bound(&self, size: u32, duration: Time) -> Time {
        let k = floor_log2(u64::from(size));
        let m = floor_log2(duration as u64);
        if k >= self.sizes || m >= self.durations.get() {
            return Time::MIN;
        }
        self.cell(k, m).get()
    }

    /// No window for (size, duration) fits before `answer`: a bound for
    /// every class whose sizes and durations are all at least these.
    ///
    /// Within a duration class the bounds never decrease with the size
    /// class (a search raises every larger class with its own, a release
    /// lowers every size class to one time), so the raise stops at the
    /// first size class already at `answer` or later: in a backlog most
    /// searches prove what larger classes already hold.
    fn found(&self, size: u32, duration: Time, answer: Time) {
        let used = self.durations.get().max(floor_log2(duration as u64) + 1);
        self.durations.set(used);
        for m in ceil_log2(duration as u64)..used {
            let h = &self.highest[m];
            h.set(h.get().max(answer));
            for k in ceil_log2(u64::from(size))..self.sizes {
                let c = self.cell(k, m);
                if c.get() >= answer {
                    break;
                }
                c.set(answer);
            }
        }
        debug_assert!(self.sizes_ordered());
    }

    /// Processors came free from `start` on (never before `origin`).
    fn released(&self, start: Time, origin: Time) {
        for m in 0..self.durations.get() {
            let longest = (1i64 << (m + 1)) - 1;
            let earliest = start.saturating_sub(longest).saturating_add(1).max(origin);
            if earliest >= self.highest[m].get() {
                continue;
            }
            self.highest[m].set(earliest);
            // From the largest size class down, while bounds are later
            // (they never increase as the size class falls; see `found`).
            for k in (0..self.sizes).rev() {
                let c = self.cell(k, m);
                if c.get() <= earliest {
                    break;
                }
                c.set(earliest);
            }
        }
        debug_assert!(self.sizes_ordered());
    }

    /// Whether, in every duration class, no bound is later than the bound
    /// of a larger size class: what `found` and `released` stop early on.
    fn sizes_ordered(&self) -> bool {
        (0..DURATION_CLASSES).all(|m| (1..self.sizes).all(|k| self.cell(k - 1, m).get() <= self.cell(k, m).get()))
    }
}

fn floor_log2(x: u64) -> usize {
    (u64::BITS - 1 - x.max(1).leading_zeros()) as usize
}

fn ceil_log2(x: u64) -> usize {
    if x <= 1 {
        0
    } else {
        floor_log2(x - 1) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order the early stops rely on holds under any mix of raises and
    /// releases, and the bounds are those of raising and lowering every
    /// dominated class without stopping.
    #[test]
    fn fit_hints_stay_ordered_by_size_and_match_the_full_update() {
        let hints = FitHints::new(256);
        let mut full = vec![Time::MIN; hints.sizes * DURATION_CLASSES];
        let mut used = 0;
        // A fixed linear congruential sequence: many mixes, the same each run.
        let mut x: u64 = 12_345;
        let mut next = |n: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % n
        };
        for _ in 0..20_000 {
            let (size, duration, t) = (1 + next(256) as u32, 1 + next(5_000) as Time, next(100_000) as Time);
            if next(3) == 0 {
                hints.released(t, 0);
                for m in 0..used {
                    // The earliest start of a window of class m that reaches t.
                    let earliest = (t - ((1i64 << (m + 1)) - 1) + 1).max(0);
                    for k in 0..hints.sizes {
                        let c = &mut full[k * DURATION_CLASSES + m];
                        *c = (*c).min(earliest);
                    }
                }
            } else {
                hints.found(size, duration, t);
                used = used.max(floor_log2(duration as u64) + 1);
                for k in ceil_log2(u64::from(size))..hints.sizes {
                    for m in ceil_log2(duration as u64)..used {
                        let c = &mut full[k * DURATION_CLASSES + m];
                        *c = (*c).max(t);
                    }
                }
            }
            assert!(hints.sizes_ordered());
        }
        let bounds: Vec<Time> = hints.bounds.iter().map(Cell::get).collect();
        assert_eq!(bounds, full);
    }

    #[test]
    fn allocation_and_release_round_trip() {
        let mut p = Profile::new(0, 10);
        p.allocate(5, 10, 4);
        assert_eq!(p.steps(), vec![(0, 10), (5, 6), (15, 10)]);
        p.allocate(10, 10, 6);
        assert_eq!(p.steps(), vec![(0, 10), (5, 6), (10, 0), (15, 4), (20, 10)]);
        p.release(10, 10, 6);
        p.release(5, 10, 4);
        assert_eq!(p.steps(), vec![(0, 10)]);
    }

    #[test]
    fn earliest_fit_skips_windows_that_are_too_full() {
        let mut p = Profile::new(0, 10);
        p.allocate(0, 10, 8); // 2 free until 10
        p.allocate(20, 10, 9); // 1 free in [20, 30)
        assert_eq!(p.earliest_fit(0, 5, 2), 0);
        assert_eq!(p.earliest_fit(0, 5, 3), 10, "fits between the two");
        assert_eq!(p.earliest_fit(0, 11, 3), 30, "too long for the gap");
        assert_eq!(p.earliest_fit(12, 8, 3), 12, "ends exactly when the second starts");
    }

    #[test]
    fn advance_drops_the_past() {
        let mut p = Profile::new(0, 10);
        p.allocate(0, 10, 8);
        p.advance(4);
        assert_eq!(p.steps(), vec![(4, 2), (10, 10)]);
        p.advance(12);
        assert_eq!(p.steps(), vec![(12, 10)]);
        assert_eq!(p.free_at(100), 10);
    }

    #[test]
    fn overcommitment_is_visible() {
        let mut p = Profile::new(0, 4);
        p.allocate(0, 10, 3);
        p.allocate(5, 10, 3);
        assert!(p.is_overcommitted());
        assert_eq!(p.free_at(7), -2);
    }
}
