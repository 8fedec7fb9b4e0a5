//! The free resources of a machine of nodes, indexed for first-fit
//! queries (docs/semantics.md, "Machines of nodes").
//!
//! Each partition keeps a segment tree over its nodes (in node order)
//! whose inner entries hold, per resource, the largest free amount below
//! them and the number of idle nodes below them. A query descends only
//! into subtrees whose maxima could hold one unit of the request (and that
//! hold an idle node, for an exclusive request), left to right, so it
//! visits O(k log N) entries for k nodes found in the best case and never
//! touches a subtree that cannot help. Taking or giving back a slot
//! updates the node's leaf in every partition tree that holds it, and the
//! entries above it level by level, each once, going up only from those
//! that changed.
//!
//! The allocation rule is first fit by node index: a request of `count`
//! nodes takes the lowest-numbered nodes of its partition that can each
//! hold one unit; a request of tasks takes as many units as fit on the
//! lowest-numbered node that holds any, then the next, until it has them
//! all; a request of tasks over exactly k nodes takes the lowest-numbered
//! nodes after which it can still be completed (`placement`). The rule is
//! deterministic and documented; a policy may also place a job on nodes it
//! chose (`Sim::start_on`), which the engine checks.
//!
//! A request of tasks over k nodes is first placed by one pass in node
//! order; when that pass fails, what it saw (the nodes holding a task,
//! what they count towards the request) usually shows that no placement
//! exists (`Walk::rules_out`), and only otherwise does the rule list every
//! node to look ahead.

use std::sync::Arc;

use schedlab_workload::{Cluster, Request, Spread};

use crate::placement::{first_fit, Need};
use crate::Fenwick;

/// A node and how many units of its job's request it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub node: u32,
    pub units: u32,
}

/// What never changes during a run: capacities, which partitions hold
/// each node, and each partition's nodes. Shared by a planner's copies, so
/// a copy costs only the free amounts and the trees' entries.
#[derive(Debug)]
struct Shape {
    /// Resources per node.
    r: usize,
    capacity: Vec<u64>,
    /// For each node, (partition, leaf position) of each tree holding it.
    leaves: Vec<Vec<(u32, u32)>>,
    /// Each partition's nodes, increasing.
    members: Vec<Vec<u32>>,
}

/// A partition's segment tree.
#[derive(Clone, Debug)]
struct Tree {
    /// Leaves: a power of two at least the partition's node count.
    width: usize,
    /// Per entry (1-based heap order), per resource, the largest free amount.
    max: Vec<u64>,
    /// Per entry, idle nodes below it.
    idle: Vec<u32>,
    /// Per resource, the free amount on all the partition's nodes: a
    /// request asking more than this is refused without a descent.
    total: Vec<u64>,
    /// Nodes by their free cores (when no node has more than
    /// `MAX_CORES_INDEXED`): how many nodes have at least c free cores, so
    /// a request of k nodes that k nodes cannot give cores is refused
    /// without a descent.
    by_cores: Option<Fenwick>,
}

/// Largest node (in cores) whose partition keeps `Tree::by_cores`.
const MAX_CORES_INDEXED: u64 = 1 << 16;

/// The free resources of every node, and the partition indexes over them.
#[derive(Debug)]
pub struct Nodes {
    shape: Arc<Shape>,
    free: Vec<u64>,
    trees: Vec<Tree>,
    /// How many times resources were given back. While it stays the same
    /// the free amounts have only shrunk, so a request that did not fit
    /// still does not: a policy may remember that instead of asking again.
    releases: u64,
}

impl Clone for Nodes {
    fn clone(&self) -> Self {
        Nodes {
            shape: Arc::clone(&self.shape),
            free: self.free.clone(),
            trees: self.trees.clone(),
            releases: self.releases,
        }
    }

    /// Copies in place, reusing the buffers (a planner's copy per pass).
    fn clone_from(&mut self, source: &Self) {
        self.shape = Arc::clone(&source.shape);
        self.free.clone_from(&source.free);
        self.trees.clone_from(&source.trees);
        self.releases = source.releases;
    }
}

impl Nodes {
    /// Every node idle.
    pub fn new(cluster: &Cluster) -> Nodes {
        let m = &cluster.machine;
        let r = m.resources.len();
        let types = m.node_type_of();
        let capacity: Vec<u64> =
            types.iter().flat_map(|&t| m.node_types[t as usize].capacity.iter().copied()).collect();
        let mut leaves = vec![Vec::new(); types.len()];
        let mut trees = Vec::with_capacity(m.partitions.len());
        for (p, part) in m.partitions.iter().enumerate() {
            let width = part.nodes.len().next_power_of_two();
            let total = (0..r)
                .map(|k| part.nodes.iter().map(|&n| capacity[n as usize * r + k]).fold(0, u64::saturating_add))
                .collect();
            let most = part.nodes.iter().map(|&n| capacity[n as usize * r]).max().unwrap_or(0);
            let by_cores = (most <= MAX_CORES_INDEXED).then(|| {
                let mut f = Fenwick::new(most as usize + 1);
                for &n in &part.nodes {
                    f.add(capacity[n as usize * r] as usize, 1);
                }
                f
            });
            let mut tree = Tree { width, max: vec![0; 2 * width * r], idle: vec![0; 2 * width], total, by_cores };
            for (i, &n) in part.nodes.iter().enumerate() {
                leaves[n as usize].push((p as u32, i as u32));
                let at = width + i;
                tree.max[at * r..(at + 1) * r].copy_from_slice(&capacity[n as usize * r..(n as usize + 1) * r]);
                tree.idle[at] = 1;
            }
            for at in (1..width).rev() {
                tree.pull(at, r);
            }
            trees.push(tree);
        }
        let members = m.partitions.iter().map(|p| p.nodes.clone()).collect();
        let free = capacity.clone();
        Nodes { shape: Arc::new(Shape { r, capacity, leaves, members }), free, trees, releases: 0 }
    }

    /// How many times resources were given back so far ([`Nodes::give`]).
    /// A request that did not fit when this count was c does not fit
    /// while it is still c.
    pub fn releases(&self) -> u64 {
        self.releases
    }

    /// Resources per node.
    pub fn resources(&self) -> usize {
        self.shape.r
    }

    /// Nodes of the machine.
    pub fn len(&self) -> usize {
        self.shape.leaves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shape.leaves.is_empty()
    }

    /// The free amounts of node `n`.
    pub fn free(&self, n: u32) -> &[u64] {
        let r = self.shape.r;
        &self.free[n as usize * r..(n as usize + 1) * r]
    }

    /// The capacity of node `n`.
    pub fn capacity(&self, n: u32) -> &[u64] {
        let r = self.shape.r;
        &self.shape.capacity[n as usize * r..(n as usize + 1) * r]
    }

    /// Whether node `n` holds nothing.
    pub fn is_idle(&self, n: u32) -> bool {
        self.free(n) == self.capacity(n)
    }

    /// What a slot of `request` takes of resource `k` on its node:
    /// `units` × `each` (and the per-node amount of a request spread over
    /// nodes), or the whole node for an exclusive request.
    pub fn taken(&self, request: &Request, slot: Slot, k: usize) -> u64 {
        if request.exclusive {
            return self.capacity(slot.node)[k];
        }
        request.amount(k, u64::from(slot.units))
    }

    /// The first-fit placement of `request` now, if it fits.
    pub fn find(&self, request: &Request) -> Option<Vec<Slot>> {
        self.find_where(request, &|_, _| u64::MAX)
    }

    /// The first-fit placement of `request` on nodes where `also(node,
    /// units)` allows units too (capped at what it returns): a planner's
    /// second state, such as what a reservation leaves free later.
    pub fn find_where(&self, request: &Request, also: &dyn Fn(u32, &Request) -> u64) -> Option<Vec<Slot>> {
        let p = request.partition as usize;
        if !self.trees[p].may_fit(request) {
            return None;
        }
        let mut found = Vec::new();
        let mut need = self.need(p, request);
        let mut walk = Walk::new(request, &need, self.shape.r);
        self.descend(p, 1, request, also, &mut Some(&mut found), &mut need, &mut walk);
        if need.done() {
            return Some(found);
        }
        if walk.rules_out(request, &need) {
            return None;
        }
        self.spread_ahead(request, also)
    }

    /// A request spread over nodes that the pass in node order could not
    /// place: the allocation rule's look-ahead over every node that holds
    /// a unit ([`first_fit`]).
    fn spread_ahead(&self, request: &Request, also: &dyn Fn(u32, &Request) -> u64) -> Option<Vec<Slot>> {
        if !matches!(request.spread, Spread::Over { .. }) {
            return None;
        }
        let candidates: Vec<(u32, u64)> =
            self.fitting_where(request, also).iter().map(|s| (s.node, u64::from(s.units))).collect();
        first_fit(request, &candidates)
    }

    /// Every node of `request`'s partition that can hold a unit now, in
    /// order, with all the units it can hold (a planner's starting point).
    pub fn fitting(&self, request: &Request) -> Vec<Slot> {
        self.fitting_where(request, &|_, _| u64::MAX)
    }

    /// [`Nodes::fitting`] on the nodes where `also(node, request)` allows
    /// units too, each capped at what it returns (a planner's view of the
    /// nodes, such as those free of its reservations).
    pub fn fitting_where(&self, request: &Request, also: &dyn Fn(u32, &Request) -> u64) -> Vec<Slot> {
        let p = request.partition as usize;
        let mut found = Vec::new();
        let mut all = Need { units: u64::MAX, nodes: u32::MAX, most: u64::MAX };
        let mut walk = Walk::new(request, &all, self.shape.r);
        self.descend(p, 1, request, also, &mut Some(&mut found), &mut all, &mut walk);
        found
    }

    /// What a placement of `request` in partition `p` needs, with the most
    /// units any of its nodes could hold now (what the tree's maxima hold).
    fn need(&self, p: usize, request: &Request) -> Need {
        let r = self.shape.r;
        Need { most: request.units_in(&self.trees[p].max[r..2 * r]), ..Need::of(request) }
    }

    /// Whether node `n` belongs to partition `p`.
    pub fn in_partition(&self, n: u32, p: u32) -> bool {
        self.shape.leaves[n as usize].iter().any(|l| l.0 == p)
    }

    /// Whether `request` fits now ([`Nodes::find`] without the placement,
    /// so without allocating).
    pub fn fits(&self, request: &Request) -> bool {
        let p = request.partition as usize;
        if !self.trees[p].may_fit(request) {
            return false;
        }
        let mut need = self.need(p, request);
        let mut walk = Walk::new(request, &need, self.shape.r);
        self.descend(p, 1, request, &|_, _| u64::MAX, &mut None, &mut need, &mut walk);
        need.done() || (!walk.rules_out(request, &need) && self.spread_ahead(request, &|_, _| u64::MAX).is_some())
    }

    /// Visits the leaves below `at` that could hold a unit, left to right,
    /// taking what they hold until `need` is met (every unit each holds,
    /// when `need` asks for `u64::MAX` units: a planner's list). `walk`
    /// holds what a subtree's maxima must reach and counts what was seen.
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &self,
        p: usize,
        at: usize,
        request: &Request,
        also: &dyn Fn(u32, &Request) -> u64,
        found: &mut Option<&mut Vec<Slot>>,
        need: &mut Need,
        walk: &mut Walk,
    ) {
        let tree = &self.trees[p];
        if need.done() || !tree.reaches(at, self.shape.r, &walk.floor, request.exclusive) {
            return;
        }
        if at < tree.width {
            self.descend(p, 2 * at, request, also, found, need, walk);
            self.descend(p, 2 * at + 1, request, also, found, need, walk);
            return;
        }
        let n = self.shape.members[p][at - tree.width];
        let all = need.units == u64::MAX;
        let here = match request.spread {
            Spread::Nodes if !all => u64::from(self.holds_unit(n, request) && also(n, request) > 0),
            _ => self.units(n, request).min(also(n, request)),
        };
        walk.saw(request, here);
        let take = if all { here } else { need.take(&request.spread, here) };
        if take == 0 {
            return;
        }
        if let Some(found) = found {
            found.push(Slot { node: n, units: take as u32 });
        }
        walk.aim(request, need);
    }

    /// Units of `request` node `n` can hold now (for an exclusive request,
    /// none unless the node is idle).
    pub fn units(&self, n: u32, request: &Request) -> u64 {
        if request.exclusive && !self.is_idle(n) {
            return 0;
        }
        request.units_in(self.free(n))
    }

    /// Whether node `n` can hold `units` units of `request` now: `units`
    /// at least that many, without a division (what each resource gives
    /// `units` units is at most its free amount).
    fn holds(&self, n: u32, request: &Request, units: u64) -> bool {
        if request.exclusive && !self.is_idle(n) {
            return false;
        }
        self.free(n).iter().enumerate().all(|(k, &f)| f >= request.amount(k, units))
    }

    /// Whether node `n` can hold one unit of `request` now: `units` > 0
    /// without a division.
    fn holds_unit(&self, n: u32, request: &Request) -> bool {
        if request.exclusive && !self.is_idle(n) {
            return false;
        }
        request.holds_unit(self.free(n))
    }

    /// Takes `slots` of `request` from the free resources.
    pub fn take(&mut self, request: &Request, slots: &[Slot]) {
        self.change(request, slots, false);
    }

    /// Gives `slots` of `request` back.
    pub fn give(&mut self, request: &Request, slots: &[Slot]) {
        self.releases += 1;
        self.change(request, slots, true);
    }

    /// Takes or gives back `slots`, then refreshes their leaves and the
    /// entries above them once each, level by level (the slots' nodes are
    /// increasing, so their leaves are too and shared parents are adjacent).
    fn change(&mut self, request: &Request, slots: &[Slot], give: bool) {
        let r = self.shape.r;
        for &s in slots {
            let base = s.node as usize * r;
            for k in 0..r {
                let amount = self.taken(request, s, k);
                let f = &mut self.free[base + k];
                *f = if give { *f + amount } else { *f - amount };
            }
        }
        let Nodes { shape, free, trees, .. } = self;
        let mut touched: Vec<usize> = Vec::with_capacity(slots.len());
        for (p, tree) in trees.iter_mut().enumerate() {
            touched.clear();
            for &s in slots {
                let n = s.node as usize;
                let Some(&(_, pos)) = shape.leaves[n].iter().find(|l| l.0 as usize == p) else { continue };
                for k in 0..r {
                    let amount = if request.exclusive {
                        shape.capacity[n * r + k]
                    } else {
                        request.amount(k, u64::from(s.units))
                    };
                    let t = &mut tree.total[k];
                    *t = if give { *t + amount } else { *t - amount };
                }
                let at = tree.width + pos as usize;
                let free = &free[n * r..(n + 1) * r];
                if let Some(f) = &mut tree.by_cores {
                    f.add(tree.max[at * r] as usize, -1);
                    f.add(free[0] as usize, 1);
                }
                tree.max[at * r..(at + 1) * r].copy_from_slice(free);
                tree.idle[at] = u32::from(free == &shape.capacity[n * r..(n + 1) * r]);
                touched.push(at);
            }
            // An entry whose maxima and idle count came out as they were
            // changes nothing above it, so only changed entries go up:
            // most paths stop well below the root.
            while touched.first().is_some_and(|&at| at > 1) {
                for at in touched.iter_mut() {
                    *at /= 2;
                }
                touched.dedup();
                touched.retain(|&at| tree.pull(at, r));
            }
        }
    }

    /// Whether `slots` can be taken now: each within the free amounts of
    /// its node, distinct nodes, in the request's partition, as many units
    /// as the request asks, and for a request spread over nodes exactly
    /// its node count.
    pub fn can_take(&self, request: &Request, slots: &[Slot]) -> bool {
        let units: u64 = slots.iter().map(|s| u64::from(s.units)).sum();
        let distinct = slots.windows(2).all(|w| w[0].node < w[1].node);
        let each_fits = slots.iter().all(|s| {
            (s.node as usize) < self.len()
                && self.in_partition(s.node, request.partition)
                && s.units > 0
                && (request.spread != Spread::Nodes || s.units == 1)
                && self.holds(s.node, request, u64::from(s.units))
        });
        let node_count = match request.spread {
            Spread::Over { nodes, .. } => slots.len() == nodes as usize,
            _ => true,
        };
        distinct && each_fits && node_count && units == u64::from(request.count)
    }
}

/// The tasks of `cores` cores each that the `k` nodes with the most free
/// cores could hold by their cores alone (a bound on a request spread over
/// k nodes): O(c log c) for nodes of at most c cores.
fn largest_tasks(by_cores: &Fenwick, cores: u64, k: u64) -> u64 {
    let (mut left, mut tasks) = (k, 0u64);
    let mut above = 0u64;
    for c in (1..by_cores.len()).rev() {
        if left == 0 {
            break;
        }
        let at_least = by_cores.above_or_at(c) as u64;
        let here = (at_least - above).min(left);
        above = at_least;
        tasks = tasks.saturating_add(here.saturating_mul(c as u64 / cores.max(1)));
        left -= here;
    }
    tasks
}

impl Tree {
    /// Recomputes entry `at` from its two children; whether it changed.
    fn pull(&mut self, at: usize, r: usize) -> bool {
        let (l, rr) = (2 * at * r, (2 * at + 1) * r);
        let mut changed = false;
        for k in 0..r {
            let max = self.max[l + k].max(self.max[rr + k]);
            changed |= self.max[at * r + k] != max;
            self.max[at * r + k] = max;
        }
        let idle = self.idle[2 * at] + self.idle[2 * at + 1];
        changed |= self.idle[at] != idle;
        self.idle[at] = idle;
        changed
    }

    /// Whether the partition's free amounts (and idle nodes, for an
    /// exclusive request) are enough for the whole request: a necessary
    /// condition checked before a descent.
    fn may_fit(&self, request: &Request) -> bool {
        let count = u64::from(request.count);
        let nodes = u64::from(request.min_nodes());
        if request.exclusive && request.spread != Spread::Tasks && u64::from(self.idle[1]) < nodes {
            return false;
        }
        if let (false, Some(f)) = (request.spread == Spread::Tasks, &self.by_cores) {
            let cores = request.amount(0, 1);
            if cores >= f.len() as u64 || (f.above_or_at(cores as usize) as u64) < nodes {
                return false;
            }
            if matches!(request.spread, Spread::Over { .. }) && largest_tasks(f, request.each[0], nodes) < count {
                return false;
            }
        }
        self.total.iter().enumerate().all(|(k, &t)| {
            request.each[k].saturating_mul(count).saturating_add(request.per_node(k).saturating_mul(nodes)) <= t
        })
    }

    /// Whether some node below `at` may hold `floor` (per resource, what
    /// the units a descent looks for take), and is idle for an exclusive
    /// request.
    fn reaches(&self, at: usize, r: usize, floor: &[u64], exclusive: bool) -> bool {
        if exclusive && self.idle[at] == 0 {
            return false;
        }
        self.max[at * r..(at + 1) * r].iter().zip(floor).all(|(&m, &f)| m >= f)
    }
}

/// What one descent looks for, and, for a request spread over nodes, what
/// it saw: enough to refuse the request without the look-ahead's list of
/// every node when the pass in node order failed.
struct Walk {
    /// The units a visited node must be able to hold: one, or for a
    /// request spread over nodes [`Need::least`] (only subtrees whose
    /// maxima could hold that many are visited).
    units: u64,
    /// Per resource, what `units` units take: computed once per change
    /// of `units` rather than at every entry visited.
    floor: Vec<u64>,
    /// `units` when the descent began.
    first: u64,
    /// Visited nodes holding a unit, the sum of what each counts towards
    /// the request ([`Request::worth`]) and the most any counts.
    holders: u64,
    worth: u64,
    most: u64,
}

impl Walk {
    fn new(request: &Request, need: &Need, r: usize) -> Walk {
        let spread = matches!(request.spread, Spread::Over { .. }) && need.units != u64::MAX;
        let units = if spread { need.least() } else { 1 };
        let floor = (0..r).map(|k| request.amount(k, units)).collect();
        Walk { units, floor, first: units, holders: 0, worth: 0, most: 0 }
    }

    /// Counts a visited node that holds `here` units.
    fn saw(&mut self, request: &Request, here: u64) {
        if here > 0 {
            let worth = request.worth(here);
            self.holders += 1;
            self.worth = self.worth.saturating_add(worth);
            self.most = self.most.max(worth);
        }
    }

    /// After a node was taken: what the next node must hold, if that grew.
    fn aim(&mut self, request: &Request, need: &Need) {
        if !matches!(request.spread, Spread::Over { .. }) || need.units == u64::MAX {
            return;
        }
        let units = need.least();
        if units != self.units {
            self.units = units;
            for (k, f) in self.floor.iter_mut().enumerate() {
                *f = request.amount(k, units);
            }
        }
    }

    /// Whether a failed pass over a request spread over k nodes shows it
    /// cannot be placed. A node holding fewer than the least the first
    /// node had to hold is in no placement (the other k - 1 could not
    /// make up the rest), and the least never falls; so while it stayed
    /// where it began, the pass visited every node that could be in one.
    /// The rule places the request exactly when the k largest of these
    /// count `count` (`placement`), which needs k of them and no more
    /// than their sum or k times the largest.
    fn rules_out(&self, request: &Request, need: &Need) -> bool {
        let Spread::Over { nodes, .. } = request.spread else { return false };
        if need.least() != self.first {
            return false;
        }
        let k = u64::from(nodes);
        self.holders < k || self.worth.min(k.saturating_mul(self.most)) < u64::from(request.count)
    }
}

#[cfg(test)]
#[path = "nodes_tests.rs"]
mod tests;
