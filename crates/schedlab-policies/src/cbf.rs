//! Conservative backfilling (Mu'alem and Feitelson 2001).
//!
//! Every waiting job holds a reservation in an availability profile that
//! also holds the running jobs until their expected ends. An arriving job
//! takes the earliest slot that delays no existing reservation. When a job
//! ends before its expected end, the schedule is *compressed*: in priority
//! order, each waiting job gives back its slot and takes the earliest one
//! now available, which is never later than the one it had (its old slot is
//! still free when it looks). Jobs whose reservation has come start.
//!
//! A reservation lasts the job's predicted runtime when it was placed, and
//! the job starts with that same prediction so that plan and machine agree.
//! With a runtime source that can fall short (`last`, `tsafrir`,
//! `virtual`), a running job may outlive its prediction; it then holds its
//! processors until its estimate, which can overcommit the plan. Only then
//! is the plan rebuilt from scratch (running jobs, then every waiting job in
//! priority order at its earliest slot); such rebuilds can move a
//! reservation later, which is why the "no later than the first
//! reservation" guarantee is only checked for `estimate` and `exact`.
//!
//! A timer is kept at the earliest future reservation, so a job starts at
//! its reservation even when no other event falls on that second.

use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Profile, Sim, Time};

use crate::{PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "cbf",
    name: "Conservative backfilling",
    description: "Every waiting job holds a reservation; an arriving job takes the earliest slot that delays no \
                  reservation, and when a job ends early the schedule is compressed in priority order so no \
                  reservation ever moves later. Predictable, fair, less aggressive than EASY.",
    params: &[],
    uses_runtime_source: true,
    default_source: "estimate",
    build,
    needs_calibration: crate::never_calibrate,
};

fn build(s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Cbf {
        upper_bound: s.source.is_upper_bound(),
        profile: None,
        plan: Vec::new(),
        wake: None,
        order: Vec::new(),
    })
}

/// A job's slot in the profile: planned (or actual) start and duration.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    start: Time,
    duration: Time,
}

struct Cbf {
    upper_bound: bool,
    profile: Option<Profile>,
    /// Per job, its reservation while waiting, its occupancy while running.
    plan: Vec<Slot>,
    /// The latest wake-up timer set.
    wake: Option<Time>,
    /// Reused snapshot of the waiting queue.
    order: Vec<JobIdx>,
}

impl Policy for Cbf {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let now = sim.now();
        if self.plan.is_empty() {
            self.plan = vec![Slot::default(); sim.jobs().len()];
        }
        let mut profile = self.profile.take().unwrap_or_else(|| Profile::new(now, sim.procs()));
        profile.advance(now);
        let early = self.release_early_ends(sim, &mut profile, &happened.completed);
        self.extend_overdue(sim, &mut profile, &happened.overdue);
        if profile.is_overcommitted() {
            profile = self.rebuild(sim);
        } else if early {
            self.compress(sim, &mut profile);
        }
        for &j in &happened.arrived {
            self.place(sim, &mut profile, j);
        }
        self.profile = Some(profile);
        self.start_due(sim)?;
        self.set_wake(sim)
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        if self.upper_bound {
            vec![Guarantee::NoLaterThanFirstReservation]
        } else {
            Vec::new()
        }
    }
}

impl Cbf {
    /// Gives back the rest of the slots of jobs that ended before their
    /// expected end; says whether any did.
    fn release_early_ends(&self, sim: &Sim<'_>, profile: &mut Profile, completed: &[JobIdx]) -> bool {
        let now = sim.now();
        let mut early = false;
        for &j in completed {
            let slot = self.plan[j as usize];
            let end = slot.start + slot.duration;
            if end > now {
                profile.release(now, end - now, sim.job(j).size);
                early = true;
            }
        }
        early
    }

    /// Running jobs that outlived their prediction now hold their processors
    /// until the engine's corrected expected end.
    fn extend_overdue(&mut self, sim: &Sim<'_>, profile: &mut Profile, overdue: &[JobIdx]) {
        let now = sim.now();
        for &j in overdue {
            let end = sim.expected_end(j);
            profile.allocate(now, end - now, sim.job(j).size);
            let slot = &mut self.plan[j as usize];
            slot.duration = end - slot.start;
        }
    }

    /// Moves every waiting job, in priority order, to the earliest slot now
    /// available; a slot never moves later because its old one is still
    /// free while the job looks.
    fn compress(&mut self, sim: &mut Sim<'_>, profile: &mut Profile) {
        let now = sim.now();
        self.order.clear();
        self.order.extend_from_slice(sim.waiting());
        for i in 0..self.order.len() {
            let j = self.order[i];
            let slot = self.plan[j as usize];
            if slot.start <= now {
                continue;
            }
            let size = sim.job(j).size;
            profile.release(slot.start, slot.duration, size);
            self.place(sim, profile, j);
        }
    }

    /// A fresh plan: running jobs until their expected ends, then every
    /// waiting job in priority order at its earliest slot.
    fn rebuild(&mut self, sim: &mut Sim<'_>) -> Profile {
        let now = sim.now();
        let mut profile = Profile::new(now, sim.procs());
        for (end, j) in sim.running() {
            profile.allocate(now, end - now, sim.job(j).size);
        }
        self.order.clear();
        self.order.extend_from_slice(sim.waiting());
        for i in 0..self.order.len() {
            let j = self.order[i];
            self.place(sim, &mut profile, j);
        }
        profile
    }

    /// Reserves the earliest slot for waiting job `j` with its current
    /// prediction.
    fn place(&mut self, sim: &mut Sim<'_>, profile: &mut Profile, j: JobIdx) {
        let size = sim.job(j).size;
        let duration = sim.prediction(j);
        let start = profile.earliest_fit(sim.now(), duration, size);
        profile.allocate(start, duration, size);
        self.plan[j as usize] = Slot { start, duration };
        sim.reserve(j, start);
    }

    /// Starts, in priority order, every waiting job whose reservation is now.
    fn start_due(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let now = sim.now();
        self.order.clear();
        self.order.extend(sim.waiting().iter().copied().filter(|&j| self.plan[j as usize].start <= now));
        for &j in &self.order {
            sim.start_predicted(j, self.plan[j as usize].duration)?;
        }
        Ok(())
    }

    /// Keeps a timer at the earliest future reservation.
    fn set_wake(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let next = sim.waiting().iter().map(|&j| self.plan[j as usize].start).min();
        if let Some(t) = next {
            let pending = self.wake.is_some_and(|w| w > sim.now() && w <= t);
            if !pending {
                sim.set_timer(t, 0)?;
                self.wake = Some(t);
            }
        }
        Ok(())
    }
}
