//! The check of a machine that did not come from this crate's readers: a
//! machine of nodes in JSON (a share link, the page's workload options, a
//! Python caller's `machine=`) is refused with the first thing wrong in it,
//! named by its place, before any code indexes its nodes.

use crate::machine::{Machine, CPU, MAX_NODES, MAX_RESOURCES};
use crate::MAX_PROCS;

impl Machine {
    /// What the readers guarantee of a machine: `cpu` first among at most
    /// [`MAX_RESOURCES`] distinct resources; every node type with an amount
    /// of each and at least one core; at most [`MAX_NODES`] nodes and 2^31
    /// cores, every total within 64 bits; partitions of distinct names,
    /// each of increasing existing nodes; a default partition that exists.
    pub fn check(&self) -> Result<(), String> {
        let r = self.resources.len();
        if self.resources.first().map(String::as_str) != Some(CPU) {
            return Err(format!("resources: the first resource must be `{CPU}`"));
        }
        if r > MAX_RESOURCES {
            return Err(format!("resources: {r} resources, more than {MAX_RESOURCES}"));
        }
        if let Some(k) = (1..r).find(|&k| self.resources[..k].contains(&self.resources[k])) {
            return Err(format!("resources[{k}]: `{}` is named twice", self.resources[k]));
        }
        for (i, t) in self.node_types.iter().enumerate() {
            if t.capacity.len() != r {
                return Err(format!("node_types[{i}]: {} amounts for {r} resources", t.capacity.len()));
            }
            if t.capacity[0] == 0 || t.count == 0 {
                return Err(format!("node_types[{i}]: a node type needs at least one node and one cpu"));
            }
        }
        let nodes: u64 = self.node_types.iter().map(|t| u64::from(t.count)).sum();
        if nodes == 0 || nodes > MAX_NODES as u64 {
            return Err(format!("node_types: {nodes} nodes; a machine has 1 to {MAX_NODES}"));
        }
        for k in 0..r {
            let total = self
                .node_types
                .iter()
                .try_fold(0u64, |s, t| t.capacity[k].checked_mul(u64::from(t.count))?.checked_add(s));
            if total.is_none() {
                return Err(format!("node_types: the machine's total {} does not fit in 64 bits", self.resources[k]));
            }
        }
        if self.total(0) > u64::from(MAX_PROCS) {
            return Err(format!("node_types: more than {MAX_PROCS} cores (2^31)"));
        }
        self.check_partitions(nodes)
    }

    fn check_partitions(&self, nodes: u64) -> Result<(), String> {
        if self.partitions.is_empty() {
            return Err("partitions: a machine needs at least one partition".into());
        }
        for (i, p) in self.partitions.iter().enumerate() {
            if p.name.is_empty() || self.partitions[..i].iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
                return Err(format!("partitions[{i}]: its name is empty or another partition's"));
            }
            if p.nodes.is_empty() || p.nodes.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("partitions[{i}] `{}`: its nodes must be increasing and not none", p.name));
            }
            if let Some(&n) = p.nodes.last().filter(|&&n| u64::from(n) >= nodes) {
                return Err(format!("partitions[{i}] `{}`: node {n}, but the machine has {nodes} nodes", p.name));
            }
            if p.max_time.is_some_and(|t| t <= 0) {
                return Err(format!("partitions[{i}] `{}`: max_time must be positive", p.name));
            }
        }
        if self.default_partition as usize >= self.partitions.len() {
            return Err(format!("default_partition: {} is not a partition", self.default_partition));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every machine the readers make passes; each way of breaking one in
    /// JSON is refused with its place.
    #[test]
    fn a_machine_from_elsewhere_is_checked_field_by_field() {
        let good = Machine::from_spec("a:2x(cpu=4,mem=1G)+b:1x(cpu=8,gpu=2)").unwrap();
        assert_eq!(good.check(), Ok(()));
        type Breaks = fn(&mut Machine);
        let broken: [(&str, Breaks); 8] = [
            ("resources: the first", |m| m.resources.swap(0, 1)),
            ("resources[2]: `mem` is named twice", |m| m.resources[2] = "mem".into()),
            ("node_types[0]: 2 amounts for 3 resources", |m| m.node_types[0].capacity.pop().map_or((), drop)),
            ("node_types[1]: a node type needs", |m| m.node_types[1].capacity[0] = 0),
            ("partitions[1] `b`: node 7, but the machine has 3 nodes", |m| m.partitions[1].nodes = vec![7]),
            ("partitions[0] `a`: its nodes must be increasing", |m| m.partitions[0].nodes = vec![1, 0]),
            ("partitions[1]: its name is empty or another", |m| m.partitions[1].name = "A".into()),
            ("default_partition: 2 is not", |m| m.default_partition = 2),
        ];
        for (want, breaks) in broken {
            let mut m = good.clone();
            breaks(&mut m);
            let e = m.check().unwrap_err();
            assert!(e.starts_with(want), "{e}");
        }
        let mut huge = good.clone();
        huge.node_types[0].count = u32::MAX;
        assert!(huge.check().unwrap_err().starts_with("node_types: "), "too many nodes");
    }
}
