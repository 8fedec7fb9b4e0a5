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

use schedlab_engine::{EngineError, Happened, JobIdx, Profile, Sim, Time};

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
        changes.overcommitted = profile.is_overcommitted();
        changes
    }

    /// Forgets every waiting job's slot and keeps only the running jobs
    /// until their expected ends; the policy then places its waiting jobs
    /// again in its own order.
    pub fn reset(&mut self, sim: &Sim<'_>) {
        let now = sim.now();
        let mut profile = Profile::new(now, sim.procs());
        for (end, j) in sim.running() {
            profile.allocate(now, end - now, sim.job(j).size);
        }
        for &j in sim.waiting() {
            self.slots[j as usize] = None;
        }
        self.profile = Some(profile);
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
        self.place_at(sim, j, Slot { start, duration });
        start
    }

    /// Places waiting job `j` at the earliest slot at or after `from` with
    /// the duration it already had (or its prediction if it had none).
    pub fn replace(&mut self, sim: &Sim<'_>, j: JobIdx, from: Time) -> Time {
        let duration = self.slots[j as usize].map_or_else(|| sim.prediction(j), |s| s.duration);
        self.unplace(sim, j);
        let start = self.earliest(from.max(sim.now()), duration, sim.job(j).size);
        self.place_at(sim, j, Slot { start, duration });
        start
    }

    /// Compression (conservative backfilling): each of `order`'s jobs with
    /// a future slot, in that order, gives its slot back and takes the
    /// earliest one now free, which is never later since its old one is
    /// still free while it looks.
    pub fn compress(&mut self, sim: &Sim<'_>, order: &[JobIdx]) {
        for &j in order {
            if self.slot(j).is_some_and(|s| s.start > sim.now()) {
                self.replace(sim, j, sim.now());
            }
        }
    }

    /// Places each of `order`'s jobs, in that order, at its earliest slot
    /// from now (after [`Book::reset`]).
    pub fn place_all(&mut self, sim: &Sim<'_>, order: &[JobIdx]) {
        for &j in order {
            self.place(sim, j, sim.now());
        }
    }

    /// Puts `j` in the profile at `slot` (which the caller knows fits).
    pub fn place_at(&mut self, sim: &Sim<'_>, j: JobIdx, slot: Slot) {
        let size = sim.job(j).size;
        self.profile_mut().allocate(slot.start, slot.duration, size);
        self.slots[j as usize] = Some(slot);
    }

    /// Takes waiting job `j` out of the profile (no-op without a slot).
    pub fn unplace(&mut self, sim: &Sim<'_>, j: JobIdx) {
        if let Some(slot) = self.slots[j as usize].take() {
            let size = sim.job(j).size;
            self.profile_mut().release(slot.start, slot.duration, size);
        }
    }

    /// Whether waiting job `j` (not placed) could start now for its
    /// prediction without touching any slot.
    pub fn fits_now(&self, sim: &Sim<'_>, j: JobIdx) -> bool {
        let size = sim.job(j).size;
        size <= sim.free() && self.earliest(sim.now(), sim.prediction(j), size) == sim.now()
    }

    /// Places `j` now and starts it (the caller checked [`Book::fits_now`]).
    pub fn start_now(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
        let slot = Slot { start: sim.now(), duration: sim.prediction(j) };
        self.place_at(sim, j, slot);
        sim.start_predicted(j, slot.duration)
    }

    /// Starts, in priority order, every waiting job whose slot has come.
    pub fn start_due(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let now = sim.now();
        self.due.clear();
        let slots = &self.slots;
        self.due.extend(sim.waiting().iter().copied().filter(|&j| slots[j as usize].is_some_and(|s| s.start <= now)));
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
        let next = sim.waiting().iter().filter_map(|&j| self.slots[j as usize].map(|s| s.start)).min();
        if let Some(t) = next {
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
