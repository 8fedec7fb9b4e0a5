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
//! node of b breakpoints and r resources (a shift of the node's list). A
//! tournament tree over the nodes' first breakpoints (`tournament.rs`)
//! lets forgetting the past ([`NodeProfile::advance`]) visit only the
//! nodes that have a breakpoint in it, and costs O(log n) only when a
//! node's first breakpoint changes.
//!
//! [`NodeProfile::earliest`] sweeps time once: each node of the request's
//! partition gives what it is worth to the request throughout a window
//! starting at the time asked for (one node, or its units) and every later
//! change of that worth as the window's start moves (a sliding minimum
//! over the node's steps); merged in time order, the first time the sum
//! reaches the request is the earliest start, and the request's first fit
//! by node index among the nodes worth something then gives its slots. An
//! unbounded search first finds the time by which enough nodes are settled
//! for good (past its last breakpoint a node's worth never changes), and no
//! breakpoint after it is looked at. So a search costs O(N + B log B) for N
//! nodes in the partition and B breakpoints on them from the time asked
//! for to the answer's bound; nothing is copied. Told the nodes that hold
//! a unit of the request now ([`NodeProfile::earliest_among`]), a search
//! visits only those and the nodes whose first breakpoint comes before
//! its bound (the tournament tree finds them), since no other node holds
//! anything in a window starting before the bound; the settled bound
//! itself still reads every node's last step. BENCHMARKS.md says what a
//! search costs on a 1,000-node machine. A first fit from now is better
//! asked of the engine's node index with this profile as a cap (the node
//! book does so), since the profile holds at most what the machine holds
//! now.
//!
//! Free amounts are signed so that a profile can be overcommitted for a
//! moment (a running job outlived its prediction); a node whose amount is
//! negative holds no unit.
//!
//! [`Profile`]: crate::Profile

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use schedlab_engine::{first_fit, Slot, Time};
use schedlab_workload::{Cluster, Request, Spread};

use crate::tournament::Tournament;

/// A change of what one node is worth to a request as a window's start
/// moves: (time, change, the node's place among the nodes a search visits).
type WorthChange = (Time, i64, u32);

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
    /// Each partition's place of every node among its members (`u32::MAX`
    /// for a node outside it).
    places: Vec<Vec<u32>>,
    lines: Vec<Line>,
    /// Each node's first breakpoint (`Time::MAX` without one).
    first: Tournament,
    /// How many breakpoints all the nodes hold.
    count: usize,
}

impl NodeProfile {
    /// Every node of `cluster`'s machine idle from `origin` on.
    pub fn new(cluster: &Cluster, origin: Time) -> Self {
        let m = &cluster.machine;
        let r = m.resources.len();
        let capacity: Vec<u64> =
            m.node_type_of().iter().flat_map(|&t| m.node_types[t as usize].capacity.iter().copied()).collect();
        let members: Vec<Vec<u32>> = m.partitions.iter().map(|p| p.nodes.clone()).collect();
        let nodes = capacity.len() / r.max(1);
        let places = members
            .iter()
            .map(|nodes_of| {
                let mut places = vec![u32::MAX; nodes];
                for (m, &n) in nodes_of.iter().enumerate() {
                    places[n as usize] = m as u32;
                }
                places
            })
            .collect();
        let first = Tournament::default();
        let mut profile = NodeProfile { origin, r, capacity, members, places, lines: Vec::new(), first, count: 0 };
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
        self.first = Tournament::new(nodes);
        self.count = 0;
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
        self.count
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
        loop {
            let (t, n) = self.first.least();
            if t > now {
                break;
            }
            let line = &mut self.lines[n as usize];
            let passed = line.step_at(now);
            line.times.drain(..passed);
            line.free.drain(..passed * self.r);
            self.count -= passed;
            self.note_first(n);
        }
    }

    /// Tells the tournament node `n`'s first breakpoint after a change.
    fn note_first(&mut self, n: u32) {
        let t = self.lines[n as usize].times.first().copied().unwrap_or(Time::MAX);
        self.first.set(n, t);
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
        self.count += 1;
        if i == 0 {
            self.note_first(n);
        }
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
        line.times.remove(i - 1);
        line.free.drain(i * r..(i + 1) * r);
        self.count -= 1;
        if i == 1 {
            self.note_first(n);
        }
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
    /// is the answer, whose slots are then the first fit at that time, read
    /// from each node's worth then rather than asked of every node again.
    pub fn earliest_before(
        &self,
        request: &Request,
        from: Time,
        duration: Time,
        until: Time,
    ) -> Option<(Time, Vec<Slot>)> {
        self.search(request, (from, until), duration, None)
    }

    /// As [`NodeProfile::earliest_before`], told `holders`: every node of
    /// the request's partition that can hold a unit of it at the origin
    /// (more nodes may be listed; a planner asks the machine's node index,
    /// of which the profile holds at most what it holds now). A node not
    /// listed whose first breakpoint is not before the search's bound is
    /// worth nothing to any window starting before it, since every such
    /// window holds the node's first step, so only the nodes listed and
    /// those the tournament finds with a breakpoint before the bound are
    /// visited (on a busy machine, far fewer than the partition).
    pub fn earliest_among(
        &self,
        request: &Request,
        (from, until): (Time, Time),
        duration: Time,
        holders: &[u32],
    ) -> Option<(Time, Vec<Slot>)> {
        self.search(request, (from, until), duration, Some(holders))
    }

    /// The sweep of [`NodeProfile::earliest_before`], on the nodes of
    /// [`NodeProfile::earliest_among`] when `holders` are given.
    fn search(
        &self,
        request: &Request,
        (from, until): (Time, Time),
        duration: Time,
        holders: Option<&[u32]>,
    ) -> Option<(Time, Vec<Slot>)> {
        let from = from.max(self.origin);
        let members = self.members.get(request.partition as usize)?;
        if from >= until {
            return None;
        }
        let need = i64::from(request.count);
        // No answer lies past the time by which enough nodes are settled
        // for good, so no node's changes after it are looked at. A bounded
        // search (compression: before the job's own start) mostly finds no
        // earlier window, and then that time is past its bound anyway.
        let settled = if until == Time::MAX { self.settled_by(request, members, from) } else { None };
        let until = settled.map_or(until, |t| until.min(t.saturating_add(1)));
        let nodes = match holders {
            Some(holders) => self.candidates(request.partition as usize, until, holders),
            None => members.clone(),
        };
        let mut events = Vec::new();
        let mut window = VecDeque::new();
        let mut worth = Vec::with_capacity(nodes.len());
        for (m, &n) in nodes.iter().enumerate() {
            let out = (&mut events, &mut window);
            worth.push(self.worth_changes((n, m as u32), request, (from, until), duration.max(1), out));
        }
        let mut total: i64 = worth.iter().sum();
        // Tasks spread over k nodes need k nodes worth a task: until then
        // the allocation rule is not asked.
        let least_nodes = match request.spread {
            Spread::Over { nodes, .. } => nodes as usize,
            _ => 0,
        };
        let mut worth_some = worth.iter().filter(|&&w| w > 0).count();
        let mut at = from;
        let mut i = 0;
        let mut sorted = false;
        loop {
            if total >= need && worth_some >= least_nodes {
                if at >= until {
                    return None;
                }
                // For tasks spread over nodes the sum says only that a fit
                // is possible (the allocation rule decides): look further.
                if let Some(slots) = slots_from_worth(request, &nodes, &worth) {
                    return Some((at, slots));
                }
            }
            if !sorted {
                events.sort_unstable();
                sorted = true;
            }
            let (t, _, _) = *events.get(i)?;
            while let Some(&(_, delta, m)) = events.get(i).filter(|e| e.0 == t) {
                let before = worth[m as usize];
                total += delta;
                worth[m as usize] += delta;
                worth_some = worth_some + usize::from(worth[m as usize] > 0) - usize::from(before > 0);
                i += 1;
            }
            at = t;
        }
    }

    /// The nodes of partition `p` that may be worth something to a window
    /// starting before `until`: those of `holders` in it, and those whose
    /// first breakpoint is before `until`; increasing.
    fn candidates(&self, p: usize, until: Time, holders: &[u32]) -> Vec<u32> {
        let places = &self.places[p];
        let inside = |n: u32| places.get(n as usize).is_some_and(|&m| m != u32::MAX);
        let mut out: Vec<u32> = holders.iter().copied().filter(|&n| inside(n)).collect();
        self.first.below(until, &mut |n| {
            if inside(n) {
                out.push(n);
            }
        });
        out.sort_unstable();
        out.dedup();
        out
    }

    /// What node `n` is worth to `request` throughout a window of
    /// `duration` starting at `from` (one if it holds a unit of a per-node
    /// request, else its units up to the request's count), returned; and
    /// each later change of that worth before `until` as the window's
    /// start moves on, appended to `out` as (time, change, m), m its place
    /// among the nodes the search visits. A sliding minimum over the node's
    /// steps: O(b) for b breakpoints from `from` to `until` plus the window.
    fn worth_changes(
        &self,
        (n, m): (u32, u32),
        request: &Request,
        (from, until): (Time, Time),
        duration: Time,
        (out, window): (&mut Vec<WorthChange>, &mut VecDeque<(usize, i64)>),
    ) -> i64 {
        let line = &self.lines[n as usize];
        let r = self.r;
        let last = line.times.len();
        let worth = |i: usize| self.worth_in(n, &line.free[i * r..(i + 1) * r], request);
        // Step i starts at times[i - 1] (the origin for step 0).
        let begins = |i: usize| line.times[i - 1];
        let mut lo = line.step_at(from);
        let mut hi = lo;
        window.clear();
        let push = |window: &mut VecDeque<(usize, i64)>, i: usize| {
            let w = worth(i);
            while window.back().is_some_and(|b| b.1 >= w) {
                window.pop_back();
            }
            window.push_back((i, w));
        };
        push(window, lo);
        while hi < last && begins(hi + 1) < from.saturating_add(duration) {
            hi += 1;
            push(window, hi);
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
                push(window, hi);
            }
            let now = window.front().map_or(0, |f| f.1);
            if now != value {
                out.push((t, now - value, m));
                value = now;
            }
        }
        first
    }

    /// What a step's free amounts of node `n` are worth to `request`: one
    /// if they hold a unit of a per-node request, else the units they hold
    /// up to the request's count. A per-node request needs no division.
    fn worth_in(&self, n: u32, free: &[i64], request: &Request) -> i64 {
        match request.spread {
            Spread::Tasks => return self.units_in(n, free, request).min(u64::from(request.count)) as i64,
            Spread::Over { .. } => return request.worth(self.units_in(n, free, request)) as i64,
            Spread::Nodes => {}
        }
        let cap = &self.capacity[n as usize * self.r..(n as usize + 1) * self.r];
        if request.exclusive && free.iter().zip(cap).any(|(&f, &c)| f != c as i64) {
            return 0;
        }
        let holds = free.iter().zip(&request.each).all(|(&f, &e)| e == 0 || f >= e as i64);
        i64::from(holds)
    }

    /// The time by which `members` hold `request` for good, searching from
    /// `from`: after a node's last breakpoint every window on it sees only
    /// its last step, so once the nodes settled by then are worth the
    /// request, every later window start fits too and the earliest start is
    /// no later. `None` if the settled nodes are never worth it.
    fn settled_by(&self, request: &Request, members: &[u32], from: Time) -> Option<Time> {
        let need = i64::from(request.count);
        let r = self.r;
        // Past its last breakpoint a node is mostly idle again, and nodes of
        // one type are worth the same then: the last idle node's worth is
        // remembered rather than divided out at every node.
        let mut idle: Option<(usize, i64)> = None;
        let mut settled: Vec<(Time, i64)> = members
            .iter()
            .filter_map(|&n| {
                let line = &self.lines[n as usize];
                let i = line.times.len();
                let last = &line.free[i * r..(i + 1) * r];
                let cap = n as usize * r..(n as usize + 1) * r;
                let is_idle = last.iter().zip(&self.capacity[cap.clone()]).all(|(&f, &c)| f == c as i64);
                let w = match idle {
                    Some((at, w)) if is_idle && self.capacity[at..at + r] == self.capacity[cap.clone()] => w,
                    _ => {
                        let w = self.worth_in(n, last, request);
                        if is_idle {
                            idle = Some((cap.start, w));
                        }
                        w
                    }
                };
                (w > 0).then(|| (line.times.last().map_or(from, |&t| t.max(from)), w))
            })
            .collect();
        if let Spread::Over { nodes, .. } = request.spread {
            settled.sort_unstable();
            return largest_reach(settled, nodes as usize, need);
        }
        if request.spread == Spread::Nodes {
            // Every settled node is worth one: the need-th earliest.
            let k = usize::try_from(need - 1).ok().filter(|&k| k < settled.len())?;
            return Some(settled.select_nth_unstable(k).1 .0);
        }
        settled.sort_unstable();
        let mut total = 0;
        settled.into_iter().find_map(|(t, w)| {
            total += w;
            (total >= need).then_some(t)
        })
    }
}

/// The first time, of `settled` (each node's settling time and worth, in
/// time order), by which the `k` largest worths settled sum to `need`:
/// tasks over exactly `k` nodes, each node worth at most the tasks less
/// one per other node, fit on some nodes if and only if `k` of them are
/// worth a task and the `k` largest sum to the tasks (each of those can
/// give back down to one task), so from then on they fit on the settled
/// nodes, and the allocation rule, which places a request wherever some
/// placement exists, places them. O(m log k) for m settled nodes.
fn largest_reach(settled: Vec<(Time, i64)>, k: usize, need: i64) -> Option<Time> {
    let mut largest = BinaryHeap::with_capacity(k + 1);
    let mut sum = 0;
    for (t, w) in settled {
        largest.push(Reverse(w));
        sum += w;
        if largest.len() > k {
            sum -= largest.pop().map_or(0, |Reverse(w)| w);
        }
        if largest.len() == k && sum >= need {
            return Some(t);
        }
    }
    None
}

/// The first fit by node index of `request` on `members`, given what
/// each is worth to it throughout the window (as [`NodeProfile::fit_at`]
/// asks the nodes themselves): a node worth anything takes one unit of a
/// per-node request, or as many tasks as it is worth and are still needed;
/// tasks spread over nodes go by the engine's rule, `None` when it cannot
/// place them (the other requests are asked only once their worth is
/// enough, and always get their slots).
fn slots_from_worth(request: &Request, members: &[u32], worth: &[i64]) -> Option<Vec<Slot>> {
    if let Spread::Over { .. } = request.spread {
        let held: Vec<(u32, u64)> =
            members.iter().zip(worth).filter(|&(_, &w)| w > 0).map(|(&n, &w)| (n, w as u64)).collect();
        return first_fit(request, &held);
    }
    let mut left = i64::from(request.count);
    let mut out = Vec::new();
    for (&n, &w) in members.iter().zip(worth) {
        if left <= 0 {
            break;
        }
        if w <= 0 {
            continue;
        }
        let take = if request.spread == Spread::Nodes { 1 } else { w.min(left) };
        out.push(Slot { node: n, units: take as u32 });
        left -= take;
    }
    Some(out)
}

#[cfg(test)]
#[path = "node_profile_tests.rs"]
mod tests;
