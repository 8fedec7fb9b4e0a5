//! The reservation book on a machine of nodes (`cbf` and `backfill` when
//! `Sim::cluster` is some): a [`NodeProfile`] that holds the running jobs
//! on their nodes until their expected ends and the planned jobs on the
//! slots they hold, plus each job's slots and window. It mirrors
//! `book::Book`, which the processor model keeps using unchanged.
//!
//! A planned job starts at its slot's time on the very nodes it holds: the
//! profile kept them free for it, since every running job is in it until
//! its expected end. Only a job that outlived its prediction can break
//! that, when its longer window overlaps a reservation on one of its
//! nodes, and then [`Changes::overcommitted`] makes the policy re-place its
//! waiting jobs from scratch; should the nodes still not be free when the
//! slot comes, the job is placed again from now (docs/decisions.md,
//! "Machines of nodes").

use std::collections::BTreeSet;

use schedlab_engine::{EngineError, Happened, JobIdx, Sim, Slot, Time};
use schedlab_profile::NodeProfile;
use schedlab_workload::Request;

use crate::book::{keep_wake, take_due, Changes};

/// A job's planned (or, once running, actual) window and nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Held {
    pub start: Time,
    pub duration: Time,
    pub slots: Vec<Slot>,
}

#[derive(Debug, Default)]
pub(crate) struct NodeBook {
    profile: Option<NodeProfile>,
    held: Vec<Option<Held>>,
    /// Waiting jobs that hold slots, by (start, job).
    planned: BTreeSet<(Time, JobIdx)>,
    /// The latest wake-up timer set.
    wake: Option<Time>,
    /// Scratch list reused between passes.
    due: Vec<JobIdx>,
    /// Counts the changes of the profile and of the machine other than a
    /// pass's own reservations: jobs started, ended or overdue, a reset.
    revision: u64,
    /// The revision a pass began with.
    pass_base: u64,
    /// The searches of composable backfilling's passes.
    trail: Trail,
}

/// A search's answer: the earliest start and its slots, if any.
type Window = Option<(Time, Vec<Slot>)>;

/// The searches a pass of composable backfilling made, in order, from the
/// state of revision `base`: a pass that begins from the same revision
/// and asks the same jobs in the same order finds the same profile at
/// each search (its own reservations so far are the ones the trail's
/// searches held), so the answers are the trail's as long as their
/// starts have not passed (the earliest start from a later time up to
/// that start is still that start, on the same first fit). A pass made
/// only of arrivals asks again for the same reservations; this answers
/// them without a sweep.
#[derive(Debug, Default)]
struct Trail {
    base: u64,
    /// Each search: the job, its duration, whether its window was held,
    /// and the answer.
    steps: Vec<(JobIdx, Time, bool, Window)>,
    /// How many of this pass's searches are the trail's first ones.
    at: usize,
    /// Whether every search of this pass so far was the trail's.
    following: bool,
}

impl NodeBook {
    /// Starts a pass: forgets the past, gives back the rest of the windows
    /// of jobs that ended early and extends the windows of overdue jobs
    /// (which may overcommit the plan: the policy then re-places).
    pub fn begin(&mut self, sim: &Sim<'_>, happened: &Happened) -> Changes {
        let now = sim.now();
        let Some(cluster) = sim.cluster() else { return Changes::default() };
        if self.held.is_empty() {
            self.held = vec![None; sim.jobs().len()];
        }
        let profile = self.profile.get_or_insert_with(|| NodeProfile::new(cluster, now));
        profile.advance(now);
        let mut changes = Changes::default();
        for &j in &happened.completed {
            if let Some(h) = self.held[j as usize].take() {
                let end = h.start + h.duration;
                if end > now {
                    profile.release(cluster.request(j as usize), &h.slots, now, end);
                    changes.early = true;
                }
            }
        }
        for &j in &happened.overdue {
            let end = sim.expected_end(j);
            if let Some(h) = self.held[j as usize].as_mut() {
                let old_end = (h.start + h.duration).max(now);
                if end > old_end {
                    profile.reserve(cluster.request(j as usize), &h.slots, old_end, end);
                    changes.overcommitted |= profile.overcommitted_within(&h.slots, old_end, end);
                }
                h.duration = end - h.start;
            }
        }
        changes.overcommitted |= self.planned.first().is_some_and(|&(start, _)| start < now);
        if !happened.completed.is_empty() || !happened.overdue.is_empty() {
            self.revision += 1;
        }
        self.pass_base = self.revision;
        self.trail.at = 0;
        self.trail.following = self.trail.base == self.revision;
        changes
    }

    /// Forgets every waiting job's slots and keeps only the running jobs
    /// on their nodes until their expected ends.
    pub fn reset(&mut self, sim: &Sim<'_>) {
        let now = sim.now();
        let Some(cluster) = sim.cluster() else { return };
        self.revision += 1;
        let profile = self.profile.get_or_insert_with(|| NodeProfile::new(cluster, now));
        profile.reset(now);
        for (end, j) in sim.running() {
            profile.reserve(cluster.request(j as usize), sim.placement(j), now, end);
        }
        for &(_, j) in &self.planned {
            self.held[j as usize] = None;
        }
        self.planned.clear();
    }

    pub fn held(&self, j: JobIdx) -> Option<&Held> {
        self.held[j as usize].as_ref()
    }

    /// The earliest window of waiting job `j` from `from` for `duration`,
    /// without placing it; `None` if its request never fits.
    pub fn earliest(&self, sim: &Sim<'_>, j: JobIdx, from: Time, duration: Time) -> Option<(Time, Vec<Slot>)> {
        let (profile, request) = (self.profile.as_ref()?, sim.request(j)?);
        let from = from.max(sim.now());
        // A job the engine's index says fits now is tried at once: the
        // first fit stops at its last node, where the sweep visits them all.
        if from == sim.now() && sim.fits(j) {
            if let Some(slots) = fit_now(sim, profile, request, duration) {
                return Some((from, slots));
            }
        }
        search(sim, profile, request, (from, Time::MAX), duration)
    }

    /// Places waiting job `j` at its earliest window from `from`, with its
    /// current prediction; returns the start (`Time::MAX` when its request
    /// never fits, and then it holds nothing).
    pub fn place(&mut self, sim: &Sim<'_>, j: JobIdx, from: Time) -> Time {
        let duration = sim.prediction(j);
        match self.earliest(sim, j, from, duration) {
            Some((start, slots)) => {
                self.plan(sim, j, Held { start, duration, slots });
                start
            }
            None => Time::MAX,
        }
    }

    /// Composable backfilling's reservation of waiting job `j` from now
    /// with its current prediction: its window held as [`NodeBook::place`]
    /// holds it, or, unless `hold`, only found. The start (`Time::MAX`
    /// when its request never fits). The answer of the last pass's same
    /// search is given again while nothing it read changed ([`Trail`]).
    pub fn reserve_in_pass(&mut self, sim: &Sim<'_>, j: JobIdx, hold: bool) -> Time {
        let (now, duration) = (sim.now(), sim.prediction(j));
        let unchanged = self.revision == self.pass_base;
        let t = &mut self.trail;
        let remembered = t
            .steps
            .get(t.at)
            .filter(|s| unchanged && t.following && (s.0, s.1, s.2) == (j, duration, hold))
            .filter(|s| s.3.as_ref().is_none_or(|(start, _)| *start >= now))
            .map(|s| s.3.clone());
        let found = match remembered {
            Some(found) => {
                t.at += 1;
                found
            }
            None => {
                t.following = false;
                let found = self.earliest(sim, j, now, duration);
                if unchanged {
                    let t = &mut self.trail;
                    t.steps.truncate(t.at);
                    t.steps.push((j, duration, hold, found.clone()));
                    t.at += 1;
                    t.base = self.pass_base;
                }
                found
            }
        };
        match found {
            Some((start, slots)) if hold => {
                self.plan(sim, j, Held { start, duration, slots });
                start
            }
            Some((start, _)) => start,
            None => Time::MAX,
        }
    }

    /// Places each of `order`'s jobs, in that order, from now.
    pub fn place_all(&mut self, sim: &Sim<'_>, order: &[JobIdx]) {
        for &j in order {
            self.place(sim, j, sim.now());
        }
    }

    /// Compression: every planned job with a future start, in priority
    /// order, gives its slots back and takes the earliest window now free
    /// before its start, if there is one (a search bounded by its start);
    /// otherwise it keeps its slots. Appends the jobs that moved to `moved`.
    pub fn compress(&mut self, sim: &Sim<'_>, moved: &mut Vec<JobIdx>) {
        let now = sim.now();
        self.revision += 1;
        self.due.clear();
        self.due.extend(self.planned.range((now + 1, 0)..).map(|&(_, j)| j));
        self.due.sort_unstable();
        for i in 0..self.due.len() {
            let j = self.due[i];
            let (Some(old), Some(request)) = (self.held[j as usize].clone(), sim.request(j)) else { continue };
            let Some(profile) = self.profile.as_mut() else { return };
            let end = old.start + old.duration;
            profile.release(request, &old.slots, old.start, end);
            match search(sim, profile, request, (now, old.start), old.duration) {
                Some((start, slots)) => {
                    self.unplan(j);
                    self.plan(sim, j, Held { start, duration: old.duration, slots });
                    moved.push(j);
                }
                None => profile.reserve(request, &old.slots, old.start, end),
            }
        }
    }

    /// Takes waiting job `j` out of the profile (no-op without slots).
    pub fn unplace(&mut self, sim: &Sim<'_>, j: JobIdx) {
        if let (Some(h), Some(request), Some(profile)) = (self.unplan(j), sim.request(j), self.profile.as_mut()) {
            profile.release(request, &h.slots, h.start, h.start + h.duration);
        }
    }

    /// Starts waiting job `j` now for its prediction if it fits now
    /// without touching any planned window (true), in the profile and on
    /// the machine.
    pub fn try_start_now(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<bool, EngineError> {
        if !sim.fits(j) {
            return Ok(false);
        }
        let (now, duration) = (sim.now(), sim.prediction(j));
        let Some(profile) = self.profile.as_ref() else { return Ok(false) };
        let Some(request) = sim.request(j) else { return Ok(false) };
        let Some(slots) = fit_now(sim, profile, request, duration) else { return Ok(false) };
        // The profile and the machine agree on what is free now; the check
        // keeps a disagreement from becoming an engine error.
        if !sim.nodes().is_some_and(|nodes| nodes.can_take(request, &slots)) {
            return Ok(false);
        }
        self.revision += 1;
        self.hold(sim, j, Held { start: now, duration, slots: slots.clone() });
        sim.start_on(j, slots, duration)?;
        Ok(true)
    }

    /// Starts, in priority order, every waiting job whose slot has come, on
    /// its slots; one whose slots are taken after all is placed again from
    /// now (and starts if that is now).
    pub fn start_due(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let now = sim.now();
        self.revision += 1;
        take_due(&mut self.planned, now, &mut self.due);
        for i in 0..self.due.len() {
            let j = self.due[i];
            let Some(h) = self.held[j as usize].clone() else { continue };
            let free = match (sim.nodes(), sim.request(j)) {
                (Some(nodes), Some(request)) => nodes.can_take(request, &h.slots),
                _ => false,
            };
            if free {
                sim.start_on(j, h.slots, h.duration)?;
                continue;
            }
            self.unplace(sim, j);
            let start = self.place(sim, j, now);
            sim.reserve(j, start);
            if start == now {
                self.planned.remove(&(now, j));
                if let Some(h) = self.held[j as usize].clone() {
                    sim.start_on(j, h.slots, h.duration)?;
                }
            }
        }
        Ok(())
    }

    /// Keeps a timer at the earliest future slot of a waiting job (see
    /// `Book::set_wake`).
    pub fn set_wake(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        keep_wake(sim, self.planned.first().map(|&(t, _)| t), &mut self.wake)
    }

    /// Holds `h` for waiting job `j` in the profile and files it.
    fn plan(&mut self, sim: &Sim<'_>, j: JobIdx, h: Held) {
        self.planned.insert((h.start, j));
        self.hold(sim, j, h);
    }

    /// Holds `h` for job `j` in the profile, without filing it.
    fn hold(&mut self, sim: &Sim<'_>, j: JobIdx, h: Held) {
        if let (Some(request), Some(profile)) = (sim.request(j), self.profile.as_mut()) {
            profile.reserve(request, &h.slots, h.start, h.start + h.duration);
        }
        self.held[j as usize] = Some(h);
    }

    /// Takes a planned job's slots out of the index (not out of the
    /// profile: the caller does that) and returns them.
    fn unplan(&mut self, j: JobIdx) -> Option<Held> {
        let h = self.held[j as usize].take()?;
        self.planned.remove(&(h.start, j));
        Some(h)
    }
}

/// The profile's earliest window of `request` from `from` and before
/// `until` (`NodeProfile::earliest_before`), told the nodes that hold a
/// unit of it now by the engine's node index: the profile, whose origin
/// is now, holds at most what the machine holds now, so the search visits
/// only those and the nodes whose first breakpoint comes before its bound.
fn search(
    sim: &Sim<'_>,
    profile: &NodeProfile,
    request: &Request,
    (from, until): (Time, Time),
    duration: Time,
) -> Option<(Time, Vec<Slot>)> {
    let Some(nodes) = sim.nodes() else { return profile.earliest_before(request, from, duration, until) };
    let holders: Vec<u32> = nodes.fitting(request).iter().map(|s| s.node).collect();
    profile.earliest_among(request, (from, until), duration, &holders)
}

/// The profile's first fit of `request` from now for `duration`
/// (`NodeProfile::fit_at` at now), found through the engine's node index:
/// the profile holds at most what the machine holds now (the running jobs
/// until their expected ends, and reservations on top), so a node the
/// index skips as unable to hold a unit now holds none in the profile
/// either, and only the nodes the index offers are asked of the profile.
fn fit_now(sim: &Sim<'_>, profile: &NodeProfile, request: &Request, duration: Time) -> Option<Vec<Slot>> {
    let now = sim.now();
    let Some(nodes) = sim.nodes() else { return profile.fit_at(request, now, duration) };
    nodes.find_where(request, &|n, r| profile.units_throughout(n, r, now, duration))
}
