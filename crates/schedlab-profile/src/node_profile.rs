//! An availability profile of a machine of nodes (docs/semantics.md,
//! "Machines of nodes"): the future free amounts of each resource of each
//! node, given the running jobs until their expected ends and the
//! reservations on the slots they hold. Conservative backfilling and
//! composable backfilling plan in it on nodes as they plan in [`Profile`]
//! on processors.
//!
//! Each node keeps its own list of breakpoints (the times its free amounts
//! change after the origin, with the amounts from then on), so a
//! reservation changes only the nodes it holds: O(r × b) per slot for a
//! node of b breakpoints and r resources (a shift of the node's list). An
//! ordered set of every (breakpoint, node) is the index over nodes: it
//! gives the candidate start times in order, and forgetting the past
//! ([`NodeProfile::advance`]) visits only the nodes that have a
//! breakpoint in it.
//!
//! [`NodeProfile::earliest`] sweeps time once: each node of the request's
//! partition gives what it is worth to the request throughout a window
//! starting at the time asked for (one node, or its units) and every later
//! change of that worth as the window's start moves (a sliding minimum
//! over the node's steps); merged in time order, the first time the sum
//! reaches the request is the earliest start, and the request's first fit
//! by node index among the nodes free throughout the window then gives its
//! slots. So a search costs O(N + B log B) for N nodes in the partition
//! and B breakpoints on them from the time asked for on; nothing is
//! copied. This is more than the processor profile's O(log p) per window,
//! and BENCHMARKS.md says how much more it costs on a 1,000-node machine.
//!
//! Free amounts are signed so that a profile can be overcommitted for a
//! moment (a running job outlived its prediction); a node whose amount is
//! negative holds no unit.
//!
//! [`Profile`]: crate::Profile

use std::collections::BTreeSet;

use schedlab_engine::{first_fit, Slot, Time};
use schedlab_workload::{Cluster, Request, Spread};

/// One node's free amounts over time.
#[derive(Clone, Debug, Default)]
struct Line {
    /// Times after the origin at which the free amounts change, increasing.
    times: Vec<Time>,
    /// `(times.len() + 1) × r` amounts: the first `r` from the origin until
    /// `times[0]`, then the amounts from each time on.
    free: Vec<i64>,
}

impl Line {
    /// Index of the step in force at `t` (the number of times at or before `t`).
    fn step_at(&self, t: Time) -> usize {
        self.times.partition_point(|&x| x <= t)
    }
}

/// Free amounts of every node over time, for planning on nodes.
#[derive(Clone, Debug)]
pub struct NodeProfile {
    origin: Time,
    /// Resources per node.
    r: usize,
    capacity: Vec<u64>,
    /// Each partition's nodes, increasing.
    members: Vec<Vec<u32>>,
    lines: Vec<Line>,
    /// Every breakpoint of every node, as (time, node).
    points: BTreeSet<(Time, u32)>,
}

impl NodeProfile {
    /// Every node of `cluster`'s machine idle from `origin` on.
    pub fn new(cluster: &Cluster, origin: Time) -> Self {
        let m = &cluster.machine;
        let r = m.resources.len();
        let capacity: Vec<u64> =
            m.node_type_of().iter().flat_map(|&t| m.node_types[t as usize].capacity.iter().copied()).collect();
        let members = m.partitions.iter().map(|p| p.nodes.clone()).collect();
        let mut profile = NodeProfile { origin, r, capacity, members, lines: Vec::new(), points: BTreeSet::new() };
        profile.reset(origin);
        profile
    }

    /// Starts again from `origin` with every node idle, keeping the
    /// allocated memory where it can.
    pub fn reset(&mut self, origin: Time) {
        self.origin = origin;
        let nodes = self.capacity.len() / self.r.max(1);
        self.lines.resize_with(nodes, Line::default);
        for (n, line) in self.lines.iter_mut().enumerate() {
            line.times.clear();
            line.free.clear();
            line.free.extend(self.capacity[n * self.r..(n + 1) * self.r].iter().map(|&c| c as i64));
        }
        self.points.clear();
    }

    /// The profile's origin: nothing before it is kept.
    pub fn origin(&self) -> Time {
        self.origin
    }

    /// Nodes of the machine.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// How many (node, time) breakpoints the profile holds.
    pub fn breakpoints(&self) -> usize {
        self.points.len()
    }

    /// The free amounts of node `n` at `t` (at the origin for earlier times).
    pub fn free_at(&self, n: u32, t: Time) -> &[i64] {
        let line = &self.lines[n as usize];
        let i = line.step_at(t);
        &line.free[i * self.r..(i + 1) * self.r]
    }

    /// Forgets the past: the profile now starts at `now`. Visits only the
    /// nodes with a breakpoint at or before `now`.
    pub fn advance(&mut self, now: Time) {
        if now <= self.origin {
            return;
        }
        self.origin = now;
        while let Some(&(t, n)) = self.points.first() {
            if t > now {
                break;
            }
            self.points.pop_first();
            let line = &mut self.lines[n as usize];
            let passed = line.step_at(now);
            if passed > 0 {
                line.times.drain(..passed);
                line.free.drain(..passed * self.r);
            }
        }
    }

    /// What a slot of `request` takes of each resource of its node:
    /// `units` × `each`, or the whole node for an exclusive request.
    fn taken(&self, request: &Request, slot: Slot, k: usize) -> i64 {
        if request.exclusive {
            return self.capacity[slot.node as usize * self.r + k] as i64;
        }
        request.amount(k, u64::from(slot.units)) as i64
    }

    /// Holds `slots` of `request` over `[start, end)`.
    pub fn reserve(&mut self, request: &Request, slots: &[Slot], start: Time, end: Time) {
        self.change(request, slots, start, end, -1);
    }

    /// Gives back `slots` of `request` over `[start, end)` (the part of it
    /// before the origin is already forgotten).
    pub fn release(&mut self, request: &Request, slots: &[Slot], start: Time, end: Time) {
        self.change(request, slots, start, end, 1);
    }

    fn change(&mut self, request: &Request, slots: &[Slot], start: Time, end: Time, sign: i64) {
        let start = start.max(self.origin);
        if end <= start {
            return;
        }
        for &slot in slots {
            let n = slot.node;
            let from = self.split(n, start);
            let to = self.split(n, end);
            let r = self.r;
            for k in 0..r {
                let amount = sign * self.taken(request, slot, k);
                let line = &mut self.lines[n as usize];
                for i in from..to {
                    line.free[i * r + k] += amount;
                }
            }
            self.merge(n, to);
            self.merge(n, from);
        }
    }

    /// Whether any resource of any of `slots`' nodes is overcommitted
    /// (negative) somewhere in `[start, end)`: after a running job's window
    /// was extended there, whether the plan still holds.
    pub fn overcommitted_within(&self, slots: &[Slot], start: Time, end: Time) -> bool {
        let r = self.r;
        slots.iter().any(|s| {
            let line = &self.lines[s.node as usize];
            let mut i = line.step_at(start);
            loop {
                if line.free[i * r..(i + 1) * r].iter().any(|&f| f < 0) {
                    return true;
                }
                if i >= line.times.len() || line.times[i] >= end {
                    return false;
                }
                i += 1;
            }
        })
    }

    /// Makes `t` a breakpoint of node `n` (if after the origin) and returns
    /// the index of the step that starts at `t` (0 at the origin).
    fn split(&mut self, n: u32, t: Time) -> usize {
        if t <= self.origin {
            return 0;
        }
        let r = self.r;
        let line = &mut self.lines[n as usize];
        let i = line.times.partition_point(|&x| x < t);
        if line.times.get(i) == Some(&t) {
            return i + 1;
        }
        line.times.insert(i, t);
        // The new step starts as a copy of the one it splits, moved into
        // place without a temporary.
        line.free.extend_from_within(i * r..(i + 1) * r);
        line.free[(i + 1) * r..].rotate_right(r);
        self.points.insert((t, n));
        i + 1
    }

    /// Removes the breakpoint that starts step `i` of node `n` if its
    /// amounts equal the previous step's, so that every breakpoint left is
    /// a change (and a candidate worth trying).
    fn merge(&mut self, n: u32, i: usize) {
        let r = self.r;
        let line = &mut self.lines[n as usize];
        if i == 0 || i > line.times.len() || line.free[(i - 1) * r..i * r] != line.free[i * r..(i + 1) * r] {
            return;
        }
        let t = line.times.remove(i - 1);
        line.free.drain(i * r..(i + 1) * r);
        self.points.remove(&(t, n));
    }

    /// Units of `request` a step's free amounts hold (none for an exclusive
    /// request unless the node is idle).
    fn units_in(&self, n: u32, free: &[i64], request: &Request) -> u64 {
        let cap = &self.capacity[n as usize * self.r..(n as usize + 1) * self.r];
        if request.exclusive && free.iter().zip(cap).any(|(&f, &c)| f != c as i64) {
            return 0;
        }
        let mut most = u64::MAX;
        for (k, (&f, &e)) in free.iter().zip(&request.each).enumerate() {
            // What a request spread over nodes asks once per node comes first.
            let Some(rest) = u64::try_from(f).unwrap_or(0).checked_sub(request.per_node(k)) else { return 0 };
            if let Some(units) = rest.checked_div(e) {
                most = most.min(units);
            }
        }
        most
    }

    /// Units of `request` node `n` holds throughout `[t, t + duration)`.
    pub fn units_throughout(&self, n: u32, request: &Request, t: Time, duration: Time) -> u64 {
        let line = &self.lines[n as usize];
        let end = t.saturating_add(duration.max(1));
        let mut i = line.step_at(t);
        let mut most = u64::MAX;
        loop {
            most = most.min(self.units_in(n, &line.free[i * self.r..(i + 1) * self.r], request));
            if most == 0 || i >= line.times.len() || line.times[i] >= end {
                return most;
            }
            i += 1;
        }
    }

    /// The first-fit placement of `request` on nodes free throughout
    /// `[t, t + duration)`, if it fits then.
    pub fn fit_at(&self, request: &Request, t: Time, duration: Time) -> Option<Vec<Slot>> {
        let members = self.members.get(request.partition as usize)?;
        if let Spread::Over { .. } = request.spread {
            let units: Vec<(u32, u64)> =
                members.iter().map(|&n| (n, self.units_throughout(n, request, t, duration))).collect();
            return first_fit(request, &units);
        }
        let mut left = u64::from(request.count);
        let mut out = Vec::new();
        for &n in members {
            if left == 0 {
                break;
            }
            let here = self.units_throughout(n, request, t, duration);
            if here == 0 {
                continue;
            }
            let take = if request.spread == Spread::Nodes { 1 } else { here.min(left) };
            out.push(Slot { node: n, units: take as u32 });
            left -= take;
        }
        (left == 0).then_some(out)
    }

    /// The earliest start `t >= from` (and at or after the origin) at which
    /// `request` fits on nodes free throughout `[t, t + duration)` (a zero
    /// duration counts as one second), with its first-fit slots then;
    /// `None` if it never fits.
    pub fn earliest(&self, request: &Request, from: Time, duration: Time) -> Option<(Time, Vec<Slot>)> {
        self.earliest_before(request, from, duration, Time::MAX)
    }

    /// As [`NodeProfile::earliest`], among starts before `until` only.
    ///
    /// One sweep over time: each node of the partition gives the changes,
    /// from `from` on, of what it is worth to the request (a node, or its
    /// units) throughout a window starting then ([`NodeProfile::worth_changes`]);
    /// merged in time order, the first time their sum reaches the request
    /// is the answer, whose slots are then the first fit at that time.
    pub fn earliest_before(
        &self,
        request: &Request,
        from: Time,
        duration: Time,
        until: Time,
    ) -> Option<(Time, Vec<Slot>)> {
        let from = from.max(self.origin);
        let members = self.members.get(request.partition as usize)?;
        if from >= until {
            return None;
        }
        let need = i64::from(request.count);
        let mut events = Vec::new();
        let mut total = 0;
        for &n in members {
            total += self.worth_changes(n, request, (from, until), duration.max(1), &mut events);
        }
        let mut at = from;
        let mut i = 0;
        let mut sorted = false;
        loop {
            if total >= need {
                if at >= until {
                    return None;
                }
                let fit = self.fit_at(request, at, duration);
                // For tasks spread over nodes the sum says only that a fit
                // is possible (the allocation rule decides): look further.
                if fit.is_some() || !matches!(request.spread, Spread::Over { .. }) {
                    return fit.map(|slots| (at, slots));
                }
            }
            if !sorted {
                events.sort_unstable();
                sorted = true;
            }
            let (t, _) = *events.get(i)?;
            while let Some(&(_, delta)) = events.get(i).filter(|e| e.0 == t) {
                total += delta;
                i += 1;
            }
            at = t;
        }
    }

    /// What node `n` is worth to `request` throughout a window of
    /// `duration` starting at `from` (one if it holds a unit of a per-node
    /// request, else its units up to the request's count), returned; and
    /// each later change of that worth before `until` as the window's
    /// start moves on, appended to `out` as (time, change). A sliding
    /// minimum over the node's steps: O(b) for b breakpoints from `from`
    /// to `until` plus the window.
    fn worth_changes(
        &self,
        n: u32,
        request: &Request,
        (from, until): (Time, Time),
        duration: Time,
        out: &mut Vec<(Time, i64)>,
    ) -> i64 {
        let line = &self.lines[n as usize];
        let r = self.r;
        let last = line.times.len();
        let cap = u64::from(request.count);
        let worth = |i: usize| -> i64 {
            let units = self.units_in(n, &line.free[i * r..(i + 1) * r], request);
            let w = match request.spread {
                Spread::Nodes => units.min(1),
                Spread::Tasks => units.min(cap),
                Spread::Over { .. } => request.worth(units),
            };
            w as i64
        };
        // Step i starts at times[i - 1] (the origin for step 0).
        let begins = |i: usize| line.times[i - 1];
        let mut lo = line.step_at(from);
        let mut hi = lo;
        let mut window: std::collections::VecDeque<(usize, i64)> = std::collections::VecDeque::new();
        let push = |window: &mut std::collections::VecDeque<(usize, i64)>, i: usize| {
            let w = worth(i);
            while window.back().is_some_and(|b| b.1 >= w) {
                window.pop_back();
            }
            window.push_back((i, w));
        };
        push(&mut window, lo);
        while hi < last && begins(hi + 1) < from.saturating_add(duration) {
            hi += 1;
            push(&mut window, hi);
        }
        let first = window.front().map_or(0, |f| f.1);
        let mut value = first;
        loop {
            // The window's first step leaves when its start reaches the
            // next step; a step enters once the window's end passes its start.
            let leaves = (lo < last).then(|| begins(lo + 1));
            let enters = (hi < last).then(|| begins(hi + 1) - duration + 1);
            let t = match (leaves, enters) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) => a,
                (None, Some(b)) => b,
                (None, None) => break,
            };
            if t >= until {
                break;
            }
            while lo < last && begins(lo + 1) <= t {
                lo += 1;
            }
            while window.front().is_some_and(|f| f.0 < lo) {
                window.pop_front();
            }
            while hi < last && begins(hi + 1) < t.saturating_add(duration) {
                hi += 1;
                push(&mut window, hi);
            }
            let now = window.front().map_or(0, |f| f.1);
            if now != value {
                out.push((t, now - value));
                value = now;
            }
        }
        first
    }
}

#[cfg(test)]
#[path = "node_profile_tests.rs"]
mod tests;
