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

use schedlab_engine::{JobIdx, Nodes, Sim, Slot, Time};
use schedlab_workload::{units_on, Request, Spread};

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
        self.begin(nodes);
        let now: Vec<Slot> = nodes.fitting(request);
        let mut units: u64 = now.iter().map(|s| self.worth(request, u64::from(s.units))).sum();
        let need = u64::from(request.count);
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
                    units = units + self.worth(request, after) - self.worth(request, before);
                }
            }
            let last_of_second = running.peek().is_none_or(|&(next, _)| next > end);
            if at.is_none() && last_of_second && units >= need {
                at = Some(end);
            }
        }
        let Some(at) = at else { return Some(NodeShadow { at: Time::MAX }) };
        let placement = self.first_fit(nodes, request, &now);
        for slot in placement {
            self.change(nodes, request, slot, false);
        }
        Some(NodeShadow { at })
    }

    /// Units of `request` node `n` could hold after the releases planned
    /// so far (and the reservation and backfilled jobs taken).
    pub fn units_at(&self, nodes: &Nodes, n: u32, request: &Request) -> u64 {
        let free = self.free(nodes, n);
        if request.exclusive && free != nodes.capacity(n) {
            return 0;
        }
        units_on(free, &request.each)
    }

    /// Takes a job that will still run at the reservation from the plan.
    pub fn take(&mut self, nodes: &Nodes, request: &Request, slots: &[Slot]) {
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

    /// What `units` on one node are worth towards the request: a node for
    /// a per-node request, the units themselves for tasks.
    fn worth(&self, request: &Request, units: u64) -> u64 {
        match request.spread {
            Spread::Nodes => u64::from(units > 0),
            Spread::Tasks => units,
        }
    }

    /// First fit of `request` on the planned state: its nodes are among
    /// those that hold a unit now (`now`) and those the pass touched.
    fn first_fit(&self, nodes: &Nodes, request: &Request, now: &[Slot]) -> Vec<Slot> {
        let mut candidates: Vec<u32> = now.iter().map(|s| s.node).collect();
        candidates.extend(self.touched.iter().copied().filter(|&n| nodes.in_partition(n, request.partition)));
        candidates.sort_unstable();
        candidates.dedup();
        let mut left = u64::from(request.count);
        let mut out = Vec::new();
        for n in candidates {
            if left == 0 {
                break;
            }
            let here = self.units_at(nodes, n, request);
            if here == 0 {
                continue;
            }
            let take = if request.spread == Spread::Nodes { 1 } else { here.min(left) };
            out.push(Slot { node: n, units: take as u32 });
            left -= take;
        }
        out
    }
}
