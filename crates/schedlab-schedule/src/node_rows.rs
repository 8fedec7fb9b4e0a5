//! The rows of the Gantt by node: a machine of nodes drawn as its nodes'
//! cores, node after node, so that a run sits on the rows of the nodes it
//! ran on (`layout.rs` says how a run's cores within a node are chosen).

use schedlab_engine::{JobIdx, Placements};
use schedlab_workload::{Cluster, Machine as NodeMachine};
use serde::Serialize;

use crate::layout::{Band, Machine};

/// Where each node's rows begin: node `n` owns the core rows
/// `first[n]..first[n + 1]`; the last entry is the machine's cores.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NodeRows {
    pub first: Vec<u32>,
}

impl NodeRows {
    /// The rows of `machine`'s nodes (its cores fit in 32 bits: the
    /// machine reader refuses more than 2^31).
    pub fn new(machine: &NodeMachine) -> NodeRows {
        let mut first = Vec::with_capacity(machine.nodes() + 1);
        let mut at = 0u32;
        first.push(at);
        for t in &machine.node_types {
            let cores = u32::try_from(t.capacity[0]).unwrap_or(u32::MAX);
            for _ in 0..t.count {
                at = at.saturating_add(cores);
                first.push(at);
            }
        }
        NodeRows { first }
    }

    pub fn nodes(&self) -> usize {
        self.first.len().saturating_sub(1)
    }

    /// Node `n`'s rows.
    pub fn rows(&self, n: u32) -> Band {
        Band { lo: self.first[n as usize], hi: self.first[n as usize + 1] }
    }

    /// The node owning row `row` (a binary search).
    pub fn node_of(&self, row: u32) -> u32 {
        (self.first.partition_point(|&f| f <= row) - 1) as u32
    }

    /// The nodes meeting rows `lo..hi`, as a range of node numbers: what a
    /// drawing of those rows labels, found by two binary searches.
    pub fn nodes_meeting(&self, lo: u32, hi: u32) -> std::ops::Range<u32> {
        if hi <= lo || self.nodes() == 0 {
            return 0..0;
        }
        let last = self.first[self.nodes()];
        if lo >= last {
            return 0..0;
        }
        self.node_of(lo)..self.node_of(hi.min(last) - 1) + 1
    }
}

/// The free cores of every node while the layout replays a run on nodes.
pub(crate) struct NodeCores<'a> {
    cluster: &'a Cluster,
    placements: &'a Placements,
    rows: NodeRows,
    /// Each node's free rows, made when a job first lands on the node.
    free: Vec<Option<Machine>>,
}

impl<'a> NodeCores<'a> {
    pub fn new(cluster: &'a Cluster, placements: &'a Placements) -> Self {
        let rows = NodeRows::new(&cluster.machine);
        let free = (0..rows.nodes()).map(|_| None).collect();
        NodeCores { cluster, placements, rows, free }
    }

    /// Takes, on each node of job `j`'s placement, the cores its slot holds
    /// there (the whole node for an exclusive request).
    pub fn take(&mut self, j: JobIdx, out: &mut Vec<Band>) -> Option<()> {
        let request = self.cluster.request(j as usize);
        for slot in self.placements.of(j) {
            let node = self.rows.rows(slot.node);
            let cores = if request.exclusive { node.width() } else { cores_of(request.each[0], slot.units)? };
            let free = self.free[slot.node as usize].get_or_insert_with(|| Machine::of(node));
            free.take(cores, out)?;
        }
        Some(())
    }

    /// Gives bands back to their nodes (each band lies within one node).
    pub fn release(&mut self, bands: &[Band]) {
        for &b in bands {
            let node = self.rows.node_of(b.lo) as usize;
            if let Some(free) = self.free[node].as_mut() {
                free.release(&[b]);
            }
        }
    }
}

/// The cores of a slot of `units` units of `each` cores, if that fits in 32 bits.
fn cores_of(each: u64, units: u32) -> Option<u32> {
    u32::try_from(each.checked_mul(u64::from(units))?).ok()
}

#[cfg(test)]
mod tests {
    use schedlab_engine::SplitMix64;

    use super::*;

    /// `2x(cpu=4)+1x(cpu=8)+1x(cpu=2)`: by hand, node 0 owns rows 0–3,
    /// node 1 rows 4–7, node 2 rows 8–15, node 3 rows 16–17.
    #[test]
    fn each_node_owns_its_cores_rows_in_node_order() {
        let rows = NodeRows::new(&NodeMachine::from_spec("2x(cpu=4)+1x(cpu=8)+1x(cpu=2)").unwrap());
        assert_eq!(rows.first, [0, 4, 8, 16, 18]);
        assert_eq!((rows.nodes(), rows.rows(2)), (4, Band { lo: 8, hi: 16 }));
        assert_eq!([0, 3, 4, 15, 16, 17].map(|r| rows.node_of(r)), [0, 0, 1, 2, 3, 3]);
        assert_eq!(rows.nodes_meeting(3, 9), 0..3);
        assert_eq!(rows.nodes_meeting(8, 16), 2..3);
        assert_eq!(rows.nodes_meeting(17, 40), 3..4);
        assert_eq!(rows.nodes_meeting(18, 40), 0..0);
        assert_eq!(rows.nodes_meeting(5, 5), 0..0);
    }

    /// On random machines, the two binary searches agree with a scan of
    /// every node for every row interval (an empty one meets none).
    #[test]
    fn node_queries_agree_with_brute_force() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..200 {
            let types: Vec<String> = (0..1 + rng.next_u64() % 4)
                .map(|_| format!("{}x(cpu={})", 1 + rng.next_u64() % 5, 1 + rng.next_u64() % 9))
                .collect();
            let rows = NodeRows::new(&NodeMachine::from_spec(&types.join("+")).unwrap());
            let last = rows.first[rows.nodes()];
            for lo in 0..last + 2 {
                for hi in lo..last + 3 {
                    let meeting: Vec<u32> = (0..rows.nodes() as u32)
                        .filter(|&n| lo < hi && rows.rows(n).lo < hi && lo < rows.rows(n).hi)
                        .collect();
                    let found: Vec<u32> = rows.nodes_meeting(lo, hi).collect();
                    assert_eq!(found, meeting, "{types:?} rows {lo}..{hi}");
                }
            }
        }
    }
}
