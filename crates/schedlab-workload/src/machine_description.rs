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

impl Machine {
    /// The machine in the command line's `--nodes` form
    /// (`4x(cpu=16,mem=64G)`, `cpu:4x(cpu=16)+gpu:2x(cpu=32,gpu=4)`),
    /// when that form says all of it: one partition `all`, or partitions
    /// made of whole node types with no time limit, tier or exclusivity (a
    /// slurm.conf can say more). The text is read back and kept only if it
    /// gives this very machine, so a page's field shows what the user can
    /// edit and never a machine other than the one the run uses.
    pub fn spec(&self) -> Option<String> {
        let groups = self.node_type_partitions()?;
        let text = self
            .node_types
            .iter()
            .zip(&groups)
            .map(|(t, name)| {
                let amounts: Vec<String> =
                    self.resources.iter().zip(&t.capacity).map(|(r, &amount)| amount_spec(r, amount)).collect();
                let group = format!("{}x({})", t.count, amounts.join(","));
                name.map_or(group.clone(), |n| format!("{n}:{group}"))
            })
            .collect::<Vec<_>>()
            .join("+");
        (Machine::from_spec(&text).ok().as_ref() == Some(self)).then_some(text)
    }

    /// The partition each node type's group is named after in `--nodes`
    /// form: none when the machine is one partition `all` of every node,
    /// else the one partition that holds all the type's nodes.
    fn node_type_partitions(&self) -> Option<Vec<Option<&str>>> {
        if let [only] = self.partitions.as_slice() {
            if only.name == "all" && only.nodes.len() == self.nodes() {
                return Some(vec![None; self.node_types.len()]);
            }
        }
        let mut first = 0u32;
        let mut names = Vec::with_capacity(self.node_types.len());
        for t in &self.node_types {
            let nodes = first..first + t.count;
            let p = self.partitions.iter().find(|p| p.nodes.binary_search(&nodes.start).is_ok())?;
            names.push(Some(p.name.as_str()));
            first = nodes.end;
        }
        Some(names)
    }

    /// The machine in one line for people: its nodes and resource totals,
    /// its node types and its partitions, e.g. "6 nodes (128 cores,
    /// 8 gpu): 4 × (cpu 16) + 2 × (cpu 32, gpu 4); partitions cpu (nodes
    /// 0-3), gpu (nodes 4-5, exclusive)".
    pub fn summary(&self) -> String {
        let d = self.description();
        let amount = |name: &str, unit: Option<&str>, n: u64| match unit {
            _ if name == MEM => memory_text(n),
            Some(u) => format!("{n} {u}"),
            None => format!("{n} {name}"),
        };
        let totals: Vec<String> = d.resources.iter().map(|r| amount(&r.name, r.unit, r.total)).collect();
        let types: Vec<String> = d
            .node_types
            .iter()
            .map(|t| {
                let each: Vec<String> =
                    d.resources.iter().zip(&t.capacity).map(|(r, &n)| per_node_text(&r.name, n)).collect();
                format!("{} × ({})", t.count, each.join(", "))
            })
            .collect();
        let partitions: Vec<String> = d.partitions.iter().map(partition_text).collect();
        let nodes = if d.nodes == 1 { "1 node".to_owned() } else { format!("{} nodes", d.nodes) };
        format!("{nodes} ({}): {}; partitions {}", totals.join(", "), types.join(" + "), partitions.join(", "))
    }
}

/// One node type's amount of a resource in `--nodes` form: memory in the
/// largest unit that states it exactly ("mem=256G", "mem=1536"), as a
/// user would type it; anything else as its count.
fn amount_spec(name: &str, n: u64) -> String {
    if name != MEM || n == 0 {
        return format!("{name}={n}");
    }
    let unit = [(1u64 << 20, "T"), (1 << 10, "G")].into_iter().find(|&(scale, _)| n.is_multiple_of(scale));
    match unit {
        Some((scale, suffix)) => format!("{name}={}{suffix}", n / scale),
        None => format!("{name}={n}"),
    }
}

/// One node type's amount of a resource: "cpu 8", "mem 256 GiB", "gpu 4".
fn per_node_text(name: &str, n: u64) -> String {
    if name == MEM && n > 0 {
        return format!("{name} {}", memory_text(n));
    }
    format!("{name} {n}")
}

/// An amount of MiB in the largest binary unit it reaches, with at most two
/// decimals: "512 MiB", "31.25 GiB", "≈ 78.24 TiB" (the sign when the two
/// decimals round it). The exact MiB are in the description and the spec.
fn memory_text(mib: u64) -> String {
    let (mut value, mut unit) = (mib as f64, "MiB");
    for next in ["GiB", "TiB", "PiB"] {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = next;
    }
    let hundredths = (value * 100.0).round();
    let rounded = if hundredths / 100.0 == value { "" } else { "≈ " };
    let text = format!("{:.2}", hundredths / 100.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{rounded}{text} {unit}")
}

/// "gpu (nodes 4-5, at most 1 h, tier 2, exclusive)".
fn partition_text(p: &PartitionDescription) -> String {
    let mut notes = vec![format!("nodes {}", p.node_ranges)];
    if let Some(t) = p.max_time {
        notes.push(format!("at most {}", crate::clock::duration_text(t as f64)));
    }
    // Slurm's default tier is 1; only another is worth a word.
    if p.priority_tier != 1 {
        notes.push(format!("tier {}", p.priority_tier));
    }
    if p.exclusive {
        notes.push("exclusive".to_owned());
    }
    format!("{} ({})", p.name, notes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Partition;

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

    /// The `--nodes` form of a machine reads back as the same machine;
    /// memory in the largest unit that states it exactly (1,536 MiB has no
    /// whole G; 2,048 K is 2 MiB; 1,048,576 MiB is 1 T), every resource on
    /// every group (a GPU count of 0 where a type has none).
    #[test]
    fn a_machine_of_groups_is_written_in_nodes_form() {
        let m = Machine::from_spec("a:2x(cpu=4,mem=1G)+b:1x(cpu=8,gpu=2)").unwrap();
        assert_eq!(m.spec().unwrap(), "a:2x(cpu=4,mem=1G,gpu=0)+b:1x(cpu=8,mem=0,gpu=2)");
        let units = Machine::from_spec(
            "a:1x(cpu=1,mem=1536)+b:1x(cpu=2,mem=2048K)+c:1x(cpu=3,mem=1048576)+d:1x(cpu=4,mem=3072G)",
        )
        .unwrap();
        assert_eq!(
            units.spec().unwrap(),
            "a:1x(cpu=1,mem=1536)+b:1x(cpu=2,mem=2)+c:1x(cpu=3,mem=1T)+d:1x(cpu=4,mem=3T)"
        );
        let one = Machine::from_spec("128x(cores=64)").unwrap();
        assert_eq!(one.spec().unwrap(), "128x(cpu=64)");
    }

    /// A limit, a tier or an exclusive partition has no `--nodes` form, nor
    /// has a partition that splits a node type: the machine has no spec.
    #[test]
    fn a_machine_the_nodes_form_cannot_say_has_no_spec() {
        let mut limited = Machine::from_spec("a:2x(cpu=4)+b:1x(cpu=8)").unwrap();
        limited.partitions[1].max_time = Some(3600);
        assert_eq!(limited.spec(), None);
        let mut exclusive = Machine::from_spec("2x(cpu=4)").unwrap();
        exclusive.partitions[0].exclusive = true;
        assert_eq!(exclusive.spec(), None);
        let mut split = Machine::from_spec("a:2x(cpu=4)").unwrap();
        split.partitions[0].nodes = vec![0];
        split.partitions.push(Partition {
            name: "b".into(),
            nodes: vec![1],
            max_time: None,
            priority_tier: 0,
            exclusive: false,
        });
        assert_eq!(split.spec(), None);
    }

    /// By hand: 3 nodes, 4 + 4 + 8 = 16 cores, 1,024 MiB on each of the
    /// first two, 2 GPUs on the third.
    #[test]
    fn a_machine_is_summarised_in_one_line() {
        let mut m = Machine::from_spec("a:2x(cpu=4,mem=1G)+b:1x(cpu=8,gpu=2)").unwrap();
        m.partitions[1].exclusive = true;
        m.partitions[1].max_time = Some(3600);
        assert_eq!(
            m.summary(),
            "3 nodes (16 cores, 2 GiB, 2 gpu): 2 × (cpu 4, mem 1 GiB, gpu 0) + 1 × (cpu 8, mem 0, gpu 2); \
             partitions a (nodes 0-1), b (nodes 2, at most 1 h, exclusive)"
        );
    }

    /// By hand: 512 MiB stays in MiB; 32,000 MiB is 31.25 GiB exactly;
    /// 84,017,152 MiB is 82,048 GiB, 80.125 TiB, shown rounded as 80.13;
    /// 1,048,576 MiB is 1 TiB.
    #[test]
    fn memory_is_shown_in_its_largest_unit() {
        assert_eq!(memory_text(512), "512 MiB");
        assert_eq!(memory_text(32_000), "31.25 GiB");
        assert_eq!(memory_text(84_017_152), "≈ 80.13 TiB");
        assert_eq!(memory_text(1_048_576), "1 TiB");
        assert_eq!(memory_text(1023), "1023 MiB");
    }
}
