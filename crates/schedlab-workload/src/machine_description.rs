//! A machine of nodes as a result document describes it: what the run's
//! figures are measured against (each resource's total, each partition's
//! nodes and cores), in a form a reader takes in at once, where
//! [`Machine`] lists every node of every partition.

use serde::Serialize;

use crate::machine::{Machine, CPU, MEM};

/// The machine of nodes a run was on, summarised.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MachineDescription {
    pub nodes: u32,
    /// Every resource, in the machine's order (`cpu` first).
    pub resources: Vec<ResourceTotal>,
    /// Node types in node order: type `k`'s nodes follow type `k − 1`'s.
    pub node_types: Vec<NodeTypeDescription>,
    pub partitions: Vec<PartitionDescription>,
    /// The partition of jobs that name none.
    pub default_partition: String,
}

/// A resource and how much of it the machine has.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceTotal {
    pub name: String,
    /// `cores` for `cpu`, `MiB` for `mem`, none for a count (GPUs).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub total: u64,
}

/// A kind of node: how many, the first one's number, and each resource.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeTypeDescription {
    pub count: u32,
    /// Its nodes are `first..first + count`.
    pub first: u32,
    /// Amount of each resource on one node, in the machine's order.
    #[cfg_attr(feature = "ts", ts(type = "Array<number>"))]
    pub capacity: Vec<u64>,
}

/// A partition: its nodes as ranges, their cores, and its limits.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionDescription {
    pub name: String,
    pub nodes: u32,
    /// Its node numbers as increasing ranges, `0-3,8`.
    pub node_ranges: String,
    /// Σ of its nodes' cores, what its core utilisation divides by.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub cores: u64,
    /// Longest time a job may ask for, seconds; absent when unlimited.
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_time: Option<i64>,
    pub priority_tier: u32,
    pub exclusive: bool,
}

impl Machine {
    /// The machine as a result document describes it.
    pub fn description(&self) -> MachineDescription {
        let types = self.node_type_of();
        let cores = |n: u32| self.node_types[types[n as usize] as usize].capacity[0];
        let resources = (0..self.resources.len())
            .map(|k| ResourceTotal {
                name: self.resources[k].clone(),
                unit: unit_of(&self.resources[k]),
                total: self.total(k),
            })
            .collect();
        let mut first = 0;
        let node_types = self
            .node_types
            .iter()
            .map(|t| {
                let d = NodeTypeDescription { count: t.count, first, capacity: t.capacity.clone() };
                first += t.count;
                d
            })
            .collect();
        let partitions = self
            .partitions
            .iter()
            .map(|p| PartitionDescription {
                name: p.name.clone(),
                nodes: p.nodes.len() as u32,
                node_ranges: ranges_text(&p.nodes),
                cores: p.nodes.iter().map(|&n| cores(n)).fold(0, u64::saturating_add),
                max_time: p.max_time,
                priority_tier: p.priority_tier,
                exclusive: p.exclusive,
            })
            .collect();
        MachineDescription {
            nodes: self.nodes() as u32,
            resources,
            node_types,
            partitions,
            default_partition: self
                .partitions
                .get(self.default_partition as usize)
                .map_or_else(String::new, |p| p.name.clone()),
        }
    }
}

fn unit_of(resource: &str) -> Option<&'static str> {
    match resource {
        CPU => Some("cores"),
        MEM => Some("MiB"),
        _ => None,
    }
}

/// Increasing node numbers as ranges: `[0, 1, 2, 5]` is `0-2,5`.
fn ranges_text(nodes: &[u32]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < nodes.len() {
        let mut j = i;
        while j + 1 < nodes.len() && nodes[j + 1] == nodes[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        out += &if j > i { format!("{}-{}", nodes[i], nodes[j]) } else { nodes[i].to_string() };
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_numbers_read_as_ranges() {
        assert_eq!(ranges_text(&[0, 1, 2, 5]), "0-2,5");
        assert_eq!(ranges_text(&[3]), "3");
        assert_eq!(ranges_text(&[]), "");
        assert_eq!(ranges_text(&[1, 3, 4]), "1,3-4");
    }

    /// `a:2x(cpu=4,mem=1G)+b:1x(cpu=8,gpu=2)`: by hand, 16 cores, 2,048
    /// MiB and 2 GPUs in all; `a` is nodes 0–1 with 8 cores, `b` node 2.
    #[test]
    fn a_machine_is_described_by_its_totals_and_partitions() {
        let m = Machine::from_spec("a:2x(cpu=4,mem=1G)+b:1x(cpu=8,gpu=2)").unwrap();
        let d = m.description();
        assert_eq!(d.nodes, 3);
        let totals: Vec<(&str, Option<&str>, u64)> =
            d.resources.iter().map(|r| (r.name.as_str(), r.unit, r.total)).collect();
        assert_eq!(totals, [("cpu", Some("cores"), 16), ("mem", Some("MiB"), 2048), ("gpu", None, 2)]);
        assert_eq!((d.node_types[1].first, d.node_types[1].count), (2, 1));
        let parts: Vec<(&str, u32, &str, u64)> =
            d.partitions.iter().map(|p| (p.name.as_str(), p.nodes, p.node_ranges.as_str(), p.cores)).collect();
        assert_eq!(parts, [("a", 2, "0-1", 8), ("b", 1, "2", 8)]);
        assert_eq!(d.default_partition, "a");
    }
}
