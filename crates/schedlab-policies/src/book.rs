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
//! to re-place its waiting jobs from scratch ([`Book::reset`]). A slot at
//! the next second when only stale jobs are expected to end then gets no
//! wake-up (the scheduler would wake every second of their overrun); the
//! next pass finds it passed and re-places the same way.
//!
//! Costs: the profile's operations are O(log p) for p breakpoints
//! (`schedlab_profile::Profile`); the planned (waiting) jobs are also kept by slot
//! start, so starting the jobs whose slot has come and setting the wake-up
//! timer cost O(log q) per job started, never a scan of the queue;
//! compression ([`Book::compress`]) checks each planned job in O(log p) and
//! re-places only the jobs that can move.

use std::collections::BTreeSet;

use schedlab_engine::{EngineError, Happened, JobIdx, Sim, Time};
use schedlab_profile::Profile;

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
    /// A running job outlived its slot and now overlaps planned jobs, or a
    /// planned slot has passed unstarted (no wake-up was set for it at a
    /// stale job's expected end, `Sim::stale_end`): either way the plan no
    /// longer holds.
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
    /// Scratch list reused between passes.
    due: Vec<JobIdx>,
}

impl Book {
    /// Starts a pass: forgets the past, gives back the rest of the slots of
    /// jobs that ended early and extends the slots of overdue jobs.
    pub fn begin(&mut self, sim: &Sim<'_>, happened: &Happened) -> Changes {
        let now = sim.now();
        if self.slots.is_empty() {
            self.slots = vec![None; sim.jobs().len()];
        }
        let profile = self.profile.get_or_insert_with(|| Profile::new(now, sim.procs()));
        profile.advance(now);
        let mut changes = Changes::default();
        for &j in &happened.completed {
            if let Some(slot) = self.slots[j as usize].take() {
                let end = slot.start + slot.duration;
                if end > now {
                    profile.release(now, end - now, sim.job(j).size);
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
        let passed = self.planned.first().is_some_and(|&(start, _)| start < now);
        changes.overcommitted = passed || profile.is_overcommitted();
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
        self.plan(sim, j, Slot { start, duration });
        start
    }

    /// Compression (conservative backfilling): every planned job with a
    /// future slot, in priority order, gives its slot back and takes the
    /// earliest one now free, which is never later since its old one is
    /// still free while it looks. Appends to `moved`, in priority order, the
    /// jobs whose slot may have changed, for the policy to record their new
    /// reservations.
    ///
    /// A job that cannot start earlier is left in place without touching
    /// the profile: it can start earlier iff, in the profile with it, its
    /// processors are free just before its start or a whole window fits
    /// before it ([`Book::can_move`], two searches of O(log p)). So a
    /// compression costs O(q log p) for q planned jobs, plus a placement
    /// per job that moves. Marking only the jobs that a freed interval
    /// could reach was tried (an index of the planned jobs by size, start
    /// and length): its upkeep at every placement, start and freed interval
    /// cost more than these checks on every trace measured, at normal load
    /// and overloaded (docs/decisions.md, "Scale under load").
    pub fn compress(&mut self, sim: &Sim<'_>, moved: &mut Vec<JobIdx>) {
        let now = sim.now();
        self.due.clear();
        self.due.extend(self.planned.range((now + 1, 0)..).map(|&(_, j)| j));
        self.due.sort_unstable();
        for i in 0..self.due.len() {
            let j = self.due[i];
            let Some(old) = self.slots[j as usize] else { continue };
            let size = sim.job(j).size;
            if !self.can_move(now, old, size) {
                continue;
            }
            self.unplan(j);
            self.profile_mut().release(old.start, old.duration, size);
            let start = self.earliest(now, old.duration, size);
            self.plan(sim, j, Slot { start, duration: old.duration });
            moved.push(j);
        }
    }

    /// Whether a planned job with slot `old` on `size` processors could
    /// start earlier, with no window starting before `from`: while the
    /// profile is not overcommitted, its own slot is free of it in the
    /// profile without it, so it can start earlier iff some t in
    /// [from, start) has `size` processors free over [t, min(t + d, start))
    /// in the profile with it: `size` processors free just before its
    /// start, or a whole window before it.
    pub fn can_move(&self, from: Time, old: Slot, size: u32) -> bool {
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

    /// Takes waiting job `j` out of the profile (no-op without a slot).
    pub fn unplace(&mut self, sim: &Sim<'_>, j: JobIdx) {
        let size = sim.job(j).size;
        if let Some(slot) = self.unplan(j) {
            self.profile_mut().release(slot.start, slot.duration, size);
        }
    }

    /// Starts a trial of changes to be taken back at once with
    /// [`Book::rollback`] (see `Profile::checkpoint`).
    pub fn checkpoint(&mut self) {
        self.profile_mut().checkpoint();
    }

    /// Brings the profile back to the checkpoint and returns true; the
    /// caller then gives each job the trial moved its old slot with
    /// [`Book::put_back`] and forgets a job it placed ([`Book::forget`]).
    /// False when the profile cannot (nothing changed; the caller takes the
    /// trial's placements back one by one).
    pub fn rollback(&mut self) -> bool {
        self.profile_mut().rollback()
    }

    /// Takes waiting job `j` out of the profile for a trial but leaves it
    /// filed under its slot, which it returns: the trial then sets it down
    /// somewhere ([`Book::set_down`]) and finally either files it there
    /// ([`Book::refile`]) or gives it its old slot back. Not touching the
    /// index of planned jobs spares a trial that is taken back four updates
    /// of it per job.
    pub fn lift(&mut self, sim: &Sim<'_>, j: JobIdx) -> Slot {
        let slot = self.slots[j as usize].expect("a lifted job is planned");
        self.profile_mut().release(slot.start, slot.duration, sim.job(j).size);
        slot
    }

    /// Puts a lifted job into the profile at `slot` (which the caller knows
    /// fits); it stays filed under the slot it was lifted from.
    pub fn set_down(&mut self, sim: &Sim<'_>, j: JobIdx, slot: Slot) {
        self.profile_mut().allocate(slot.start, slot.duration, sim.job(j).size);
        self.slots[j as usize] = Some(slot);
    }

    /// Keeps the trial's changes (see `Profile::commit`).
    pub fn commit(&mut self) {
        self.profile_mut().commit();
    }

    /// Files a job that was lifted from `old` and set down under its new
    /// slot.
    pub fn refile(&mut self, j: JobIdx, old: Slot) {
        let new = self.slots[j as usize].expect("set down");
        if new.start != old.start {
            self.planned.remove(&(old.start, j));
            self.planned.insert((new.start, j));
        }
    }

    /// Gives a lifted job its old slot back without touching the profile,
    /// which holds it there again (after [`Book::rollback`]).
    pub fn put_back(&mut self, j: JobIdx, old: Slot) {
        self.slots[j as usize] = Some(old);
    }

    /// Takes waiting job `j`'s slot out of the index without touching the
    /// profile, which no longer holds it (after [`Book::rollback`]).
    pub fn forget(&mut self, j: JobIdx) {
        self.unplan(j);
    }

    /// Allocates `slot` to waiting job `j` and files it.
    fn plan(&mut self, sim: &Sim<'_>, j: JobIdx, slot: Slot) {
        let size = sim.job(j).size;
        self.profile_mut().allocate(slot.start, slot.duration, size);
        // A job placed again without being taken out first would keep its
        // first allocation in the profile as capacity no job uses; the
        // policies never do that (a rebuild leaves the pass's arrivals to
        // the arrival step), and the debug builds check it.
        debug_assert!(self.slots[j as usize].is_none(), "job {j} placed twice");
        if let Some(old) = self.slots[j as usize] {
            self.planned.remove(&(old.start, j));
        }
        self.slots[j as usize] = Some(slot);
        self.planned.insert((slot.start, j));
    }

    /// Takes a planned job's slot out of the index (not out of the
    /// profile: the caller does that) and returns it.
    fn unplan(&mut self, j: JobIdx) -> Option<Slot> {
        let slot = self.slots[j as usize].take()?;
        self.planned.remove(&(slot.start, j));
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
        take_due(&mut self.planned, sim.now(), &mut self.due);
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
        keep_wake(sim, self.planned.first().map(|&(t, _)| t), &mut self.wake)
    }
}

/// The tag of the book's wake-up timers; policies use other tags for their
/// own timers.
pub(crate) const WAKE: u64 = 0;

/// Moves the planned jobs whose slot has come by `now` into `due`, in
/// priority order (job index), the order they start in.
pub(crate) fn take_due(planned: &mut BTreeSet<(Time, JobIdx)>, now: Time, due: &mut Vec<JobIdx>) {
    due.clear();
    while let Some(&(start, j)) = planned.first() {
        if start > now {
            break;
        }
        planned.pop_first();
        due.push(j);
    }
    due.sort_unstable();
}

/// Keeps a timer (`wake`, the one set last) at `first`, the earliest
/// future slot of a waiting job, so that a job starts at its slot even when
/// no other event falls on that second.
pub(crate) fn keep_wake(sim: &mut Sim<'_>, first: Option<Time>, wake: &mut Option<Time>) -> Result<(), EngineError> {
    let Some(t) = first else { return Ok(()) };
    // A slot at the second stale jobs are expected to end can only come
    // with their completion, itself a pass (`Sim::stale_end`).
    if sim.stale_end() == Some(t) {
        return Ok(());
    }
    let pending = wake.is_some_and(|w| w > sim.now() && w <= t);
    if !pending {
        sim.set_timer(t, WAKE)?;
        *wake = Some(t);
    }
    Ok(())
}
