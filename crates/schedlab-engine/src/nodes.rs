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
//! updates the node's leaf in every partition tree that holds it.
//!
//! The allocation rule is first fit by node index: a request of `count`
//! nodes takes the lowest-numbered nodes of its partition that can each
//! hold one unit; a request of tasks takes as many units as fit on the
//! lowest-numbered node that holds any, then the next, until it has them
//! all. The rule is deterministic and documented; a policy may also place
//! a job on nodes it chose (`Sim::start_on`), which the engine checks.

use schedlab_workload::{units_on, Cluster, Request, Spread};

/// A node and how many units of its job's request it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub node: u32,
    pub units: u32,
}

/// A partition's segment tree.
#[derive(Clone, Debug)]
struct Tree {
    /// The partition's nodes, increasing.
    nodes: Vec<u32>,
    /// Leaves: a power of two at least `nodes.len()`.
    width: usize,
    /// Per entry (1-based heap order), per resource, the largest free amount.
    max: Vec<u64>,
    /// Per entry, idle nodes below it.
    idle: Vec<u32>,
}

/// The free resources of every node, and the partition indexes over them.
#[derive(Clone, Debug)]
pub struct Nodes {
    /// Resources per node.
    r: usize,
    capacity: Vec<u64>,
    free: Vec<u64>,
    trees: Vec<Tree>,
    /// For each node, (partition, leaf position) of each tree holding it.
    leaves: Vec<Vec<(u32, u32)>>,
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
            let mut tree =
                Tree { nodes: part.nodes.clone(), width, max: vec![0; 2 * width * r], idle: vec![0; 2 * width] };
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
        Nodes { r, free: capacity.clone(), capacity, trees, leaves }
    }

    /// Resources per node.
    pub fn resources(&self) -> usize {
        self.r
    }

    /// Nodes of the machine.
    pub fn len(&self) -> usize {
        self.leaves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.leaves.is_empty()
    }

    /// The free amounts of node `n`.
    pub fn free(&self, n: u32) -> &[u64] {
        &self.free[n as usize * self.r..(n as usize + 1) * self.r]
    }

    /// The capacity of node `n`.
    pub fn capacity(&self, n: u32) -> &[u64] {
        &self.capacity[n as usize * self.r..(n as usize + 1) * self.r]
    }

    /// Whether node `n` holds nothing.
    pub fn is_idle(&self, n: u32) -> bool {
        self.free(n) == self.capacity(n)
    }

    /// What a slot of `request` takes from its node: `units` × `each`,
    /// or the whole node for an exclusive request.
    pub fn taken(&self, request: &Request, slot: Slot) -> Vec<u64> {
        if request.exclusive {
            return self.capacity(slot.node).to_vec();
        }
        request.each.iter().map(|&e| e * u64::from(slot.units)).collect()
    }

    /// The first-fit placement of `request` now, if it fits.
    pub fn find(&self, request: &Request) -> Option<Vec<Slot>> {
        self.find_where(request, &|_, _| u64::MAX)
    }

    /// The first-fit placement of `request` on nodes where `also(node,
    /// units)` allows units too (capped at what it returns): a planner's
    /// second state, such as what a reservation leaves free later.
    pub fn find_where(&self, request: &Request, also: &dyn Fn(u32, &Request) -> u64) -> Option<Vec<Slot>> {
        let tree = &self.trees[request.partition as usize];
        let mut found = Vec::new();
        let mut left = u64::from(request.count);
        self.descend(tree, 1, request, also, &mut found, &mut left);
        (left == 0).then_some(found)
    }

    /// Visits the leaves below `at` that could hold a unit, left to right,
    /// taking what they hold until `left` units are found.
    fn descend(
        &self,
        tree: &Tree,
        at: usize,
        request: &Request,
        also: &dyn Fn(u32, &Request) -> u64,
        found: &mut Vec<Slot>,
        left: &mut u64,
    ) {
        if *left == 0 || !tree.may_hold(at, self.r, request) {
            return;
        }
        if at < tree.width {
            self.descend(tree, 2 * at, request, also, found, left);
            self.descend(tree, 2 * at + 1, request, also, found, left);
            return;
        }
        let n = tree.nodes[at - tree.width];
        let here = self.units(n, request).min(also(n, request));
        if here == 0 {
            return;
        }
        let take = match request.spread {
            Spread::Nodes => 1,
            Spread::Tasks => here.min(*left),
        };
        found.push(Slot { node: n, units: take as u32 });
        *left -= take;
    }

    /// Units of `request` node `n` can hold now (0 or 1 node's worth for
    /// an exclusive request: every unit the idle node holds).
    pub fn units(&self, n: u32, request: &Request) -> u64 {
        if request.exclusive && !self.is_idle(n) {
            return 0;
        }
        units_on(self.free(n), &request.each)
    }

    /// Takes `slots` of `request` from the free resources.
    pub fn take(&mut self, request: &Request, slots: &[Slot]) {
        for &s in slots {
            let amounts = self.taken(request, s);
            let n = s.node as usize * self.r;
            for (f, a) in self.free[n..n + self.r].iter_mut().zip(&amounts) {
                *f -= a;
            }
            self.update(s.node);
        }
    }

    /// Gives `slots` of `request` back.
    pub fn give(&mut self, request: &Request, slots: &[Slot]) {
        for &s in slots {
            let amounts = self.taken(request, s);
            let n = s.node as usize * self.r;
            for (f, a) in self.free[n..n + self.r].iter_mut().zip(&amounts) {
                *f += a;
            }
            self.update(s.node);
        }
    }

    /// Whether `slots` can be taken now: each within the free amounts of
    /// its node, distinct nodes, in the request's partition, and as many
    /// units as the request asks.
    pub fn can_take(&self, request: &Request, slots: &[Slot]) -> bool {
        let nodes = &self.trees[request.partition as usize].nodes;
        let units: u64 = slots.iter().map(|s| u64::from(s.units)).sum();
        let distinct = slots.windows(2).all(|w| w[0].node < w[1].node);
        let each_fits = slots.iter().all(|s| {
            nodes.binary_search(&s.node).is_ok()
                && s.units > 0
                && (request.spread == Spread::Tasks || s.units == 1)
                && self.units(s.node, request) >= u64::from(s.units)
        });
        distinct && each_fits && units == u64::from(request.count)
    }

    /// Refreshes node `n`'s leaves and their ancestors.
    fn update(&mut self, n: u32) {
        let r = self.r;
        let idle = u32::from(self.is_idle(n));
        let free = &self.free[n as usize * r..(n as usize + 1) * r];
        for &(p, pos) in &self.leaves[n as usize] {
            let tree = &mut self.trees[p as usize];
            let mut at = tree.width + pos as usize;
            tree.max[at * r..(at + 1) * r].copy_from_slice(free);
            tree.idle[at] = idle;
            while at > 1 {
                at /= 2;
                tree.pull(at, r);
            }
        }
    }
}

impl Tree {
    /// Recomputes entry `at` from its two children.
    fn pull(&mut self, at: usize, r: usize) {
        let (l, rr) = (2 * at * r, (2 * at + 1) * r);
        for k in 0..r {
            self.max[at * r + k] = self.max[l + k].max(self.max[rr + k]);
        }
        self.idle[at] = self.idle[2 * at] + self.idle[2 * at + 1];
    }

    /// Whether some node below `at` may hold one unit of `request`.
    fn may_hold(&self, at: usize, r: usize, request: &Request) -> bool {
        if request.exclusive && self.idle[at] == 0 {
            return false;
        }
        self.max[at * r..(at + 1) * r].iter().zip(&request.each).all(|(m, e)| m >= e)
    }
}

#[cfg(test)]
#[path = "nodes_tests.rs"]
mod tests;
