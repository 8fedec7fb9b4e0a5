//! EASY's reservation on a machine of nodes (docs/semantics.md, "Machines
//! of nodes"): when will the first waiting job's request fit, given the
//! running jobs' expected ends, node by node, and what does its
//! reservation leave for jobs that would still run then.
//!
//! The plan plays the running jobs' ends forward, earliest first, on an
//! overlay of the free amounts: a node's future free amounts are copied
//! from the engine's state the first time a released job touches it in
//! this pass (a generation stamp says which nodes are copied), so a pass
//! costs what it releases, never a copy of the machine. It counts the
//! units of the request the partition's nodes could hold (nodes for a
//! per-node request), starting from the nodes that can hold one now (the
//! node index's answer) and updating the count at each touched node; the
//! reservation is the end at which the count first reaches the request.
//! For tasks spread over exactly k nodes the count (each node's units up
//! to the most one node may take) and the nodes holding a unit only say
//! when a fit is possible; the k largest of those counts say whether it
//! is (the allocation rule places such a request exactly when they reach
//! its count, `placement`), so the shadow is exact without placing the
//! request at every end. The rule places it once, at the shadow time, in
//! one pass in node order that stops at its last node (listing every
//! candidate only when that pass fails and the rule must look ahead).

use std::collections::BTreeMap;

use schedlab_engine::{first_fit_in_order, largest_units, JobIdx, Nodes, Sim, Slot, Time};
use schedlab_workload::{Request, Spread};

/// The future free amounts of the nodes a pass touched.
#[derive(Default)]
pub struct NodePlanner {
    /// Per node and resource, the planned free amount (valid where
    /// `stamp` is the pass's generation).
    future: Vec<u64>,
    stamp: Vec<u32>,
    generation: u32,
    /// Nodes touched in this pass, in the order touched.
    touched: Vec<u32>,
    /// The last shadow: (head, the running jobs' revision, shadow time).
    /// Passes that start and end nothing (most submissions) find the same
    /// head on the same running jobs, and reuse it and its overlay.
    last: Option<(JobIdx, u64, Time)>,
}

/// The reservation of a job that does not fit now.
pub struct NodeShadow {
    /// When its request fits (the shadow time); `Time::MAX` if never.
    pub at: Time,
}

impl NodePlanner {
    /// The reservation of waiting job `head` (on a machine of nodes): the
    /// earliest expected end of running jobs at which it fits, every job
    /// expected to end by then released, with the head's first-fit nodes
    /// at that time taken from the plan. `None` on processors.
    pub fn shadow(&mut self, sim: &Sim<'_>, head: JobIdx) -> Option<NodeShadow> {
        let nodes = sim.nodes()?;
        let request = sim.request(head)?;
        let revision = sim.running_revision();
        if let Some((h, r, at)) = self.last {
            if (h, r) == (head, revision) {
                return Some(NodeShadow { at });
            }
        }
        let shadow = self.plan(sim, nodes, request);
        self.last = Some((head, revision, shadow.at));
        Some(shadow)
    }

    /// [`NodePlanner::shadow`] computed afresh.
    fn plan(&mut self, sim: &Sim<'_>, nodes: &Nodes, request: &Request) -> NodeShadow {
        self.begin(nodes);
        let now: Vec<Slot> = nodes.fitting(request);
        let mut units: u64 = now.iter().map(|s| request.worth(u64::from(s.units))).sum();
        let mut holding = now.len() as u64;
        let need = u64::from(request.count);
        let spread = matches!(request.spread, Spread::Over { .. });
        // For tasks spread over k nodes, the planned nodes by what each
        // counts towards the request: the rule places the request exactly
        // when the k largest count enough, so a second's releases are
        // judged without placing the request each time.
        let mut by_worth = BTreeMap::new();
        for s in now.iter().filter(|_| spread) {
            shift(&mut by_worth, 0, request.worth(u64::from(s.units)));
        }
        let mut at = None;
        let mut running = sim.running().peekable();
        while let Some((end, j)) = running.next() {
            if at.is_some_and(|s| end > s) {
                break;
            }
            let Some(r) = sim.request(j) else { continue };
            for &slot in sim.placement(j) {
                let n = slot.node;
                let counts = nodes.in_partition(n, request.partition);
                let before = if counts { self.units_at(nodes, n, request) } else { 0 };
                self.change(nodes, r, slot, true);
                if counts {
                    let after = self.units_at(nodes, n, request);
                    units = units + request.worth(after) - request.worth(before);
                    holding = holding + u64::from(after > 0) - u64::from(before > 0);
                    if spread {
                        shift(&mut by_worth, request.worth(before), request.worth(after));
                    }
                }
            }
            let last_of_second = running.peek().is_none_or(|&(next, _)| next > end);
            let may = last_of_second && units >= need && holding >= u64::from(request.min_nodes());
            if at.is_none() && may && (!spread || places(&by_worth, request)) {
                at = Some(end);
            }
        }
        let Some(at) = at else { return NodeShadow { at: Time::MAX } };
        let most = by_worth.last_key_value().map_or(u64::MAX, |(&w, _)| w);
        let placement = self.first_fit(nodes, request, &now, most).unwrap_or_default();
        for slot in placement {
            self.change(nodes, request, slot, false);
        }
        NodeShadow { at }
    }

    /// Units of `request` node `n` could hold after the releases planned
    /// so far (and the reservation and backfilled jobs taken).
    pub fn units_at(&self, nodes: &Nodes, n: u32, request: &Request) -> u64 {
        let free = self.free(nodes, n);
        if request.exclusive && free != nodes.capacity(n) {
            return 0;
        }
        request.units_in(free)
    }

    /// Takes a job that will still run at the reservation from the plan.
    pub fn take(&mut self, nodes: &Nodes, request: &Request, slots: &[Slot]) {
        // The job starts, so the next pass's running jobs differ; the
        // overlay no longer is the shadow's alone either way.
        self.last = None;
        for &slot in slots {
            self.change(nodes, request, slot, false);
        }
    }

    /// Starts a pass: no node touched yet.
    fn begin(&mut self, nodes: &Nodes) {
        let r = nodes.resources();
        if self.stamp.len() != nodes.len() {
            self.stamp = vec![0; nodes.len()];
            self.future = vec![0; nodes.len() * r];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.touched.clear();
    }

    /// A node's planned free amounts.
    fn free<'a>(&'a self, nodes: &'a Nodes, n: u32) -> &'a [u64] {
        if self.stamp[n as usize] == self.generation {
            let r = nodes.resources();
            &self.future[n as usize * r..(n as usize + 1) * r]
        } else {
            nodes.free(n)
        }
    }

    /// Gives back (or takes) one slot of `request` in the plan.
    fn change(&mut self, nodes: &Nodes, request: &Request, slot: Slot, give: bool) {
        let (n, r) = (slot.node as usize, nodes.resources());
        if self.stamp[n] != self.generation {
            self.stamp[n] = self.generation;
            self.future[n * r..(n + 1) * r].copy_from_slice(nodes.free(slot.node));
            self.touched.push(slot.node);
        }
        for k in 0..r {
            let amount = nodes.taken(request, slot, k);
            let f = &mut self.future[n * r + k];
            *f = if give { *f + amount } else { *f - amount };
        }
    }

    /// First fit of `request` on the planned state: its nodes are among
    /// those that hold a unit now (`now`, in node order) and those the pass
    /// touched; the two lists are merged in node order only as far as the
    /// request needs (for tasks spread over nodes, as far as the engine's
    /// allocation rule looks, with `most` the most any node counts
    /// towards the request).
    fn first_fit(&self, nodes: &Nodes, request: &Request, now: &[Slot], most: u64) -> Option<Vec<Slot>> {
        let mut touched: Vec<u32> =
            self.touched.iter().copied().filter(|&n| nodes.in_partition(n, request.partition)).collect();
        touched.sort_unstable();
        let mut candidates = merged(now.iter().map(|s| s.node), touched.into_iter());
        if let Spread::Over { .. } = request.spread {
            let planned = candidates.map(|n| (n, self.units_at(nodes, n, request)));
            return first_fit_in_order(request, most, planned);
        }
        let mut left = u64::from(request.count);
        let mut out = Vec::new();
        while left > 0 {
            let Some(n) = candidates.next() else { break };
            let here = self.units_at(nodes, n, request);
            if here == 0 {
                continue;
            }
            let take = if request.spread == Spread::Nodes { 1 } else { here.min(left) };
            out.push(Slot { node: n, units: take as u32 });
            left -= take;
        }
        (left == 0).then_some(out)
    }
}

/// Moves one node from `before` to `after` in a count of nodes by worth
/// (nodes worth nothing are not counted).
fn shift(by_worth: &mut BTreeMap<u64, u64>, before: u64, after: u64) {
    if before == after {
        return;
    }
    if before > 0 {
        if let Some(c) = by_worth.get_mut(&before) {
            *c -= 1;
            if *c == 0 {
                by_worth.remove(&before);
            }
        }
    }
    if after > 0 {
        *by_worth.entry(after).or_insert(0) += 1;
    }
}

/// Whether tasks spread over k nodes can be placed on nodes counted by
/// worth: the k largest count all of them.
fn places(by_worth: &BTreeMap<u64, u64>, request: &Request) -> bool {
    let k = u64::from(request.min_nodes());
    largest_units(by_worth, k).is_some_and(|sum| sum >= u64::from(request.count))
}

/// The union of two increasing sequences, increasing, each value once.
fn merged<A, B>(a: A, b: B) -> impl Iterator<Item = u32> + Clone
where
    A: Iterator<Item = u32> + Clone,
    B: Iterator<Item = u32> + Clone,
{
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) => x,
            (None, Some(&y)) => y,
            (None, None) => return None,
        };
        while a.next_if_eq(&next).is_some() {}
        while b.next_if_eq(&next).is_some() {}
        Some(next)
    })
}
