//! A reservation book shared by the profile-based policies (`cbf`,
//! `slack`, `selective`, `dbf`): an availability profile that holds the
//! running jobs until their expected ends and the planned jobs at their
//! slots, plus each job's slot. Like `common`, it only reads and acts
//! through `Sim`, so sharing it couples no policy to another; each policy
//! decides on its own which jobs get a slot and in what order.
//!
//! A slot lasts the job's prediction when it was placed, and the job starts
//! with that same prediction, so plan and machine agree. With a runtime
//! source that can fall short, a running job can outlive its slot; the book
//! then extends it to the engine's corrected expected end, which may
//! overcommit the profile, and [`Changes::overcommitted`] tells the policy
//! to re-place its waiting jobs from scratch ([`Book::reset`]).
//!
//! Costs: the profile's operations are O(log p) for p breakpoints
//! (`engine::Profile`); the planned (waiting) jobs are also kept by slot
//! start, so starting the jobs whose slot has come and setting the wake-up
//! timer cost O(log q) per job started, never a scan of the queue; and
//! compression ([`Book::compress`]) touches only the jobs that can move.

use std::collections::{BTreeMap, BTreeSet};

use schedlab_engine::{EngineError, Happened, JobIdx, Profile, Sim, Time};

use crate::job_set::JobSet;

/// A job's planned (or, once running, actual) occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub start: Time,
    pub duration: Time,
}

/// What the start of a pass found.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Changes {
    /// A job ended before its slot did, so processors came free early.
    pub early: bool,
    /// A running job outlived its slot and now overlaps planned jobs.
    pub overcommitted: bool,
}

#[derive(Debug, Default)]
pub(crate) struct Book {
    profile: Option<Profile>,
    slots: Vec<Option<Slot>>,
    /// The latest wake-up timer set.
    wake: Option<Time>,
    /// Waiting jobs that hold a slot, by (slot start, job).
    planned: BTreeSet<(Time, JobIdx)>,
    /// Which planned jobs may move earlier, for policies that compress.
    settling: Option<Settling>,
    /// Scratch list reused between passes.
    due: Vec<JobIdx>,
}

impl Book {
    /// A book for a policy that compresses its plan when jobs end early
    /// ([`Book::compress`]); it keeps track of which jobs could move.
    pub fn compressing() -> Self {
        Self { settling: Some(Settling::default()), ..Self::default() }
    }

    /// Starts a pass: forgets the past, gives back the rest of the slots of
    /// jobs that ended early and extends the slots of overdue jobs.
    pub fn begin(&mut self, sim: &Sim<'_>, happened: &Happened) -> Changes {
        let now = sim.now();
        if self.slots.is_empty() {
            self.slots = vec![None; sim.jobs().len()];
            if let Some(s) = self.settling.as_mut() {
                s.marked = JobSet::new(sim.jobs().len());
                s.floor = vec![Time::MAX; sim.jobs().len()];
            }
        }
        let profile = self.profile.get_or_insert_with(|| Profile::new(now, sim.procs()));
        profile.advance(now);
        let mut changes = Changes::default();
        for &j in &happened.completed {
            if let Some(slot) = self.slots[j as usize].take() {
                let end = slot.start + slot.duration;
                if end > now {
                    profile.release(now, end - now, sim.job(j).size);
                    if let Some(s) = self.settling.as_mut() {
                        s.released(now, end);
                    }
                    changes.early = true;
                }
            }
        }
        for &j in &happened.overdue {
            let end = sim.expected_end(j);
            if let Some(slot) = self.slots[j as usize].as_mut() {
                let old_end = (slot.start + slot.duration).max(now);
                if end > old_end {
                    profile.allocate(old_end, end - old_end, sim.job(j).size);
                }
                slot.duration = end - slot.start;
            }
        }
        changes.overcommitted = profile.is_overcommitted();
        changes
    }

    /// Forgets every waiting job's slot and keeps only the running jobs
    /// until their expected ends; the policy then places its waiting jobs
    /// again in its own order.
    pub fn reset(&mut self, sim: &Sim<'_>) {
        let now = sim.now();
        let profile = self.profile.get_or_insert_with(|| Profile::new(now, sim.procs()));
        profile.reset(now, sim.procs());
        for (end, j) in sim.running() {
            profile.allocate(now, end - now, sim.job(j).size);
        }
        for &(_, j) in &self.planned {
            self.slots[j as usize] = None;
        }
        self.planned.clear();
        if let Some(s) = self.settling.as_mut() {
            s.clear();
        }
    }

    fn profile(&self) -> &Profile {
        self.profile.as_ref().expect("Book::begin runs first")
    }

    fn profile_mut(&mut self) -> &mut Profile {
        self.profile.as_mut().expect("Book::begin runs first")
    }

    pub fn slot(&self, j: JobIdx) -> Option<Slot> {
        self.slots[j as usize]
    }

    /// Waiting jobs that hold a slot, by (slot start, job).
    pub fn planned(&self) -> &BTreeSet<(Time, JobIdx)> {
        &self.planned
    }

    /// The earliest start at or after `from` for `duration` on `size`
    /// processors, without placing anything.
    pub fn earliest(&self, from: Time, duration: Time, size: u32) -> Time {
        self.profile().earliest_fit(from, duration, size)
    }

    /// Places waiting job `j` at the earliest slot at or after `from`, with
    /// its current prediction; returns the start.
    pub fn place(&mut self, sim: &Sim<'_>, j: JobIdx, from: Time) -> Time {
        let duration = sim.prediction(j);
        let start = self.earliest(from.max(sim.now()), duration, sim.job(j).size);
        // From now, the earliest slot is one the job cannot leave for an
        // earlier one; from later, it may be.
        self.plan(sim, j, Slot { start, duration }, from <= sim.now());
        start
    }

    /// Compression (conservative backfilling): every planned job with a
    /// future slot, in priority order, gives its slot back and takes the
    /// earliest one now free, which is never later since its old one is
    /// still free while it looks. Only for a book made by
    /// [`Book::compressing`]. Appends to `moved`, in priority order, the jobs
    /// it re-placed (those whose slot may have changed), for the policy to
    /// record their new reservations.
    ///
    /// Only the jobs that can move are touched; the result is the same as
    /// re-placing every job in turn. A planned job j (size n, slot
    /// [s, s + d)) is *settled* when no window of d seconds on n processors
    /// starts before s in the profile without j: re-placing it would give
    /// it back its slot and change nothing. While the profile is not
    /// overcommitted, j's own slot is free of j in the profile without j,
    /// so j can move iff some t in [now, s) has n processors free over
    /// [t, min(t + d, s)) in the profile *with* j. Taking processors away
    /// can only keep that false, and so can time passing (fewer t); only
    /// processors coming free can make a settled job movable, and only a
    /// job for which such a window meets the freed interval. Hence:
    ///
    /// - a job is settled when it is placed at its earliest slot from now;
    /// - every interval that comes free is recorded; before compressing, the
    ///   jobs that can now move using a point of one (a window as above that
    ///   meets it) are marked, from the runs of n free processors that meet
    ///   it, for each size n (see [`Settling::mark`]): exactly those, so
    ///   the marks never miss a movable job;
    /// - compression takes the marked jobs in priority order; a marked job
    ///   that cannot move is re-placed at its slot by the old algorithm too,
    ///   with no effect; one that moves frees the part of its old slot its
    ///   new one does not cover, which marks jobs again: those after it are
    ///   handled in this same pass, as the old algorithm would reach them;
    ///   those before it stay marked until the next compression, which is
    ///   when the old algorithm would reconsider them. Every unmarked job
    ///   is settled when its turn comes, and the old algorithm leaves it
    ///   where it is.
    pub fn compress(&mut self, sim: &Sim<'_>, moved: &mut Vec<JobIdx>) {
        let now = sim.now();
        let (Some(settling), Some(profile)) = (self.settling.as_mut(), self.profile.as_ref()) else { return };
        settling.mark_pending(profile);
        let mut cursor = None;
        while let Some(j) = self.settling.as_ref().and_then(|s| s.next_marked(cursor)) {
            cursor = Some(j);
            let floor = self.settling.as_mut().map_or(Time::MIN, |s| s.unmark(j));
            let Some(old) = self.slots[j as usize].filter(|s| s.start > now && self.planned.contains(&(s.start, j)))
            else {
                continue;
            };
            let size = sim.job(j).size;
            // A new window meets a point freed from `floor` on, so it starts
            // at floor − duration + 1 or later.
            let from = floor.saturating_sub(old.duration.max(1) - 1).max(now);
            if !self.can_move(from, old, size) {
                continue;
            }
            self.unplan(j, size);
            self.profile_mut().release(old.start, old.duration, size);
            let start = self.earliest(from, old.duration, size);
            self.plan(sim, j, Slot { start, duration: old.duration }, true);
            moved.push(j);
            // The part of the old slot that the new one does not cover.
            let freed = (old.start.max(start + old.duration), old.start + old.duration);
            if let (Some(settling), Some(profile)) = (self.settling.as_mut(), self.profile.as_ref()) {
                settling.released(freed.0, freed.1);
                settling.mark_pending(profile);
            }
        }
    }

    /// Whether a planned job with slot `old` on `size` processors could
    /// start earlier, with no window starting before `from` (see
    /// [`Book::compress`]): n processors free just before its start, or a
    /// whole window before it.
    fn can_move(&self, from: Time, old: Slot, size: u32) -> bool {
        let p = self.profile();
        p.free_at(old.start - 1) >= i64::from(size) || p.fits_before(from, old.duration, size, old.start)
    }

    /// Places each of `order`'s jobs, in that order, at its earliest slot
    /// from now (after [`Book::reset`]).
    pub fn place_all(&mut self, sim: &Sim<'_>, order: &[JobIdx]) {
        for &j in order {
            self.place(sim, j, sim.now());
        }
    }

    /// Puts waiting job `j` in the profile at `slot` (which the caller
    /// knows fits).
    pub fn place_at(&mut self, sim: &Sim<'_>, j: JobIdx, slot: Slot) {
        self.plan(sim, j, slot, false);
    }

    /// Takes waiting job `j` out of the profile (no-op without a slot).
    pub fn unplace(&mut self, sim: &Sim<'_>, j: JobIdx) {
        let size = sim.job(j).size;
        if let Some(slot) = self.unplan(j, size) {
            self.profile_mut().release(slot.start, slot.duration, size);
            if let Some(s) = self.settling.as_mut() {
                s.released(slot.start, slot.start + slot.duration);
            }
        }
    }

    /// Allocates `slot` to waiting job `j` and files it; `settled` says
    /// that it cannot move earlier.
    fn plan(&mut self, sim: &Sim<'_>, j: JobIdx, slot: Slot, settled: bool) {
        let size = sim.job(j).size;
        self.profile_mut().allocate(slot.start, slot.duration, size);
        // A job placed again without being taken out first would keep its
        // first allocation in the profile as capacity no job uses; the
        // policies never do that (a rebuild leaves the pass's arrivals to
        // the arrival step), and the debug builds check it.
        debug_assert!(self.slots[j as usize].is_none(), "job {j} placed twice");
        if let Some(old) = self.slots[j as usize] {
            self.planned.remove(&(old.start, j));
            if let Some(s) = self.settling.as_mut() {
                s.unfile(j, size, old);
            }
        }
        self.slots[j as usize] = Some(slot);
        self.planned.insert((slot.start, j));
        if let Some(s) = self.settling.as_mut() {
            s.file(j, size, slot, settled);
        }
    }

    /// Takes a planned job's slot out of the indexes (not out of the
    /// profile: the caller does that and says what came free) and returns
    /// it.
    fn unplan(&mut self, j: JobIdx, size: u32) -> Option<Slot> {
        let slot = self.slots[j as usize].take()?;
        self.planned.remove(&(slot.start, j));
        if let Some(s) = self.settling.as_mut() {
            s.unfile(j, size, slot);
        }
        Some(slot)
    }

    /// Whether waiting job `j` (not placed) could start now for its
    /// prediction without touching any slot.
    pub fn fits_now(&self, sim: &Sim<'_>, j: JobIdx) -> bool {
        let size = sim.job(j).size;
        size <= sim.free() && self.earliest(sim.now(), sim.prediction(j), size) == sim.now()
    }

    /// How long from now `size` processors stay free without touching any
    /// slot (0 if they are not free now): a job of that size fits now iff
    /// its prediction is at most this long.
    pub fn free_for(&self, sim: &Sim<'_>, size: u32) -> Time {
        self.profile().free_until(sim.now(), size).saturating_sub(sim.now())
    }

    /// Places `j` now and starts it (the caller checked [`Book::fits_now`]).
    pub fn start_now(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
        let slot = Slot { start: sim.now(), duration: sim.prediction(j) };
        self.profile_mut().allocate(slot.start, slot.duration, sim.job(j).size);
        self.slots[j as usize] = Some(slot);
        sim.start_predicted(j, slot.duration)
    }

    /// Starts, in priority order, every waiting job whose slot has come.
    pub fn start_due(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let now = sim.now();
        self.due.clear();
        while let Some(&(start, j)) = self.planned.first() {
            if start > now {
                break;
            }
            self.planned.pop_first();
            if let (Some(s), Some(slot)) = (self.settling.as_mut(), self.slots[j as usize]) {
                s.unfile(j, sim.job(j).size, slot);
            }
            self.due.push(j);
        }
        self.due.sort_unstable();
        for i in 0..self.due.len() {
            let j = self.due[i];
            let duration = self.slots[j as usize].map_or(1, |s| s.duration);
            sim.start_predicted(j, duration)?;
        }
        Ok(())
    }

    /// Keeps a timer at the earliest future slot of a waiting job, so a job
    /// starts at its slot even when no other event falls on that second.
    pub fn set_wake(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        if let Some(&(t, _)) = self.planned.first() {
            let pending = self.wake.is_some_and(|w| w > sim.now() && w <= t);
            if !pending {
                sim.set_timer(t, WAKE)?;
                self.wake = Some(t);
            }
        }
        Ok(())
    }
}

/// The tag of the book's wake-up timers; policies use other tags for their
/// own timers.
pub(crate) const WAKE: u64 = 0;

/// Which planned jobs may be able to move earlier (see [`Book::compress`]).
#[derive(Debug, Default)]
struct Settling {
    /// Planned jobs by size.
    groups: BTreeMap<u32, Group>,
    /// Jobs that may be able to move earlier.
    marked: JobSet,
    /// Per marked job, the earliest point freed since it was settled that
    /// it was marked for (`Time::MAX` for unmarked jobs).
    floor: Vec<Time>,
    /// Intervals where processors came free since the last marking.
    freed: Vec<(Time, Time)>,
    /// Scratch list of runs.
    runs: Vec<(Time, Time)>,
}

/// The planned jobs of one size, by (slot start, job) and by (duration,
/// slot start, job).
#[derive(Debug, Default)]
struct Group {
    by_start: BTreeSet<(Time, JobIdx)>,
    by_duration: BTreeSet<(Time, Time, JobIdx)>,
}

impl Settling {
    fn clear(&mut self) {
        self.groups.clear();
        while let Some(j) = self.marked.first_from(0) {
            self.unmark(j);
        }
        self.freed.clear();
    }

    /// Marks `j` as able to move using a point freed from `from` on.
    fn mark(marked: &mut JobSet, floor: &mut [Time], j: JobIdx, from: Time) {
        marked.insert(j);
        floor[j as usize] = floor[j as usize].min(from);
    }

    /// Unmarks `j`; returns the earliest freed point it was marked for.
    fn unmark(&mut self, j: JobIdx) -> Time {
        self.marked.remove(j);
        std::mem::replace(&mut self.floor[j as usize], Time::MAX)
    }

    fn file(&mut self, j: JobIdx, size: u32, slot: Slot, settled: bool) {
        let g = self.groups.entry(size).or_default();
        g.by_start.insert((slot.start, j));
        g.by_duration.insert((slot.duration, slot.start, j));
        if !settled {
            Self::mark(&mut self.marked, &mut self.floor, j, Time::MIN);
        }
    }

    fn unfile(&mut self, j: JobIdx, size: u32, slot: Slot) {
        self.unmark(j);
        if let Some(g) = self.groups.get_mut(&size) {
            g.by_start.remove(&(slot.start, j));
            g.by_duration.remove(&(slot.duration, slot.start, j));
            if g.by_start.is_empty() {
                self.groups.remove(&size);
            }
        }
    }

    fn next_marked(&self, after: Option<JobIdx>) -> Option<JobIdx> {
        self.marked.first_from(after.map_or(0, |a| a as usize + 1))
    }

    /// Records that processors came free over `[a, b)`.
    fn released(&mut self, a: Time, b: Time) {
        if a < b {
            self.freed.push((a, b));
        }
    }

    /// The recorded intervals, merged where they touch, in time order.
    fn take_freed(&mut self) -> Vec<(Time, Time)> {
        let mut freed = std::mem::take(&mut self.freed);
        if freed.len() > 1 {
            freed.sort_unstable();
            let mut merged: Vec<(Time, Time)> = Vec::with_capacity(freed.len());
            for (a, b) in freed.drain(..) {
                match merged.last_mut() {
                    Some(last) if a <= last.1 => last.1 = last.1.max(b),
                    _ => merged.push((a, b)),
                }
            }
            freed = merged;
        }
        freed
    }

    /// Marks, for every recorded interval, the planned jobs that could now
    /// move earlier using a point of it, then forgets the intervals.
    ///
    /// Such a job of size n starts after the interval's start (a window
    /// before its start must meet the interval) and n is at most the most
    /// processors free in the interval (the window needs n free at a point
    /// of it): every such job is marked. A size with more than `FEW` such
    /// jobs is narrowed further: a job of size n with slot
    /// [s, s + d) can use a point x of the interval only if x lies in a run
    /// [r0, r1) of at least n free processors with r0 < s and either
    /// s ≤ r1 (it can slide back into the run) or r1 − r0 ≥ d (the whole
    /// window fits in the run). Finding the runs costs a few walks of the
    /// profile per size, which pays off when many jobs of that size could
    /// be marked; a marked job costs a check of its own.
    fn mark_pending(&mut self, profile: &Profile) {
        const FEW: usize = 8;
        let freed = self.take_freed();
        for &(a, b) in &freed {
            let most = profile.max_free(a, b);
            if most <= 0 {
                continue;
            }
            let most = u32::try_from(most).unwrap_or(u32::MAX);
            for (&size, group) in self.groups.range(..=most) {
                let later = group.by_start.range((a + 1, 0)..);
                if later.clone().nth(FEW).is_none() {
                    later.for_each(|&(_, j)| Self::mark(&mut self.marked, &mut self.floor, j, a));
                    continue;
                }
                profile.runs(a, b, size, &mut self.runs);
                for &(r0, r1) in &self.runs {
                    let slide_back = group.by_start.range((r0 + 1, 0)..=(r1, JobIdx::MAX));
                    slide_back.for_each(|&(_, j)| Self::mark(&mut self.marked, &mut self.floor, j, a));
                    let len = r1.saturating_sub(r0);
                    let fit_whole = group.by_duration.range(..=(len, Time::MAX, JobIdx::MAX));
                    fit_whole
                        .filter(|&&(_, s, _)| s > r0)
                        .for_each(|&(_, _, j)| Self::mark(&mut self.marked, &mut self.floor, j, a));
                }
            }
        }
    }
}
