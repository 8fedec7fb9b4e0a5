//! A machine of nodes (docs/semantics.md, "Machines of nodes"): node types
//! with amounts of named resources (cores, memory, GPUs, any other), the
//! nodes, and partitions of them. Read from a slurm.conf subset
//! ([`Machine::from_slurm_conf`]) or from a short description
//! ([`Machine::from_spec`], the command line's `--nodes`).
//!
//! The archive's model, interchangeable processors, is no `Machine` at all:
//! a trace read without one keeps every byte of its results. A job's
//! request on a machine is [`crate::Request`] (`request.rs`).

use serde::{Deserialize, Serialize};

use crate::error::short_text;
use crate::slurm_conf::{expand_hostlist, SlurmConf};

/// The resource every machine has, at index 0: cores.
pub const CPU: &str = "cpu";
/// Memory, in MiB (slurm.conf's `RealMemory` unit), at index 1 when any
/// node type has memory.
pub const MEM: &str = "mem";

/// The slurm.conf keys the machine reader uses; a host adds the lines
/// whose first key is none of these (nor another reader's) to the
/// ignored lines it reports.
pub const MACHINE_KEYS: &[&str] = &["NodeName", "PartitionName", "GresTypes"];

/// Most resources a machine may name (cores, memory and gres types).
pub const MAX_RESOURCES: usize = 8;

/// Most nodes a machine may have.
pub const MAX_NODES: usize = 1 << 20;

/// A kind of node: how much of each resource one such node has.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeType {
    /// Amount of each of the machine's resources, in its order.
    pub capacity: Vec<u64>,
    /// Nodes of this type.
    pub count: u32,
}

/// A set of nodes jobs are submitted to.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    pub name: String,
    /// Its nodes as indices into the machine's nodes, increasing.
    pub nodes: Vec<u32>,
    /// Longest time limit a job may ask for, seconds (`None`: unlimited).
    pub max_time: Option<i64>,
    /// Slurm's `PriorityTier`: jobs of a higher tier are considered first
    /// by a policy that reads it.
    pub priority_tier: u32,
    /// Jobs of this partition take whole nodes (`OverSubscribe=EXCLUSIVE`).
    pub exclusive: bool,
}

/// A machine of nodes in partitions.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// Resource names: `cpu` first, then `mem` if any node has memory,
    /// then the generic resources (`gpu`, …) in the order declared.
    pub resources: Vec<String>,
    /// Node types, in order of first appearance; nodes are numbered type
    /// by type, so a type's nodes are a contiguous range.
    pub node_types: Vec<NodeType>,
    /// The partitions; jobs that name none go to `default_partition`.
    pub partitions: Vec<Partition>,
    pub default_partition: u32,
}

impl Machine {
    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.node_types.iter().map(|t| t.count as usize).sum()
    }

    /// The type of every node, in node order.
    pub fn node_type_of(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.nodes());
        for (i, t) in self.node_types.iter().enumerate() {
            out.extend(std::iter::repeat_n(i as u32, t.count as usize));
        }
        out
    }

    /// Σ of resource `r` over every node.
    pub fn total(&self, r: usize) -> u64 {
        self.node_types.iter().map(|t| t.capacity[r].saturating_mul(u64::from(t.count))).fold(0, u64::saturating_add)
    }

    /// Index of the resource named `name`.
    pub fn resource(&self, name: &str) -> Option<usize> {
        self.resources.iter().position(|r| r.eq_ignore_ascii_case(name))
    }

    /// Index of the partition named `name` (compared without case).
    pub fn partition(&self, name: &str) -> Option<usize> {
        self.partitions.iter().position(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// Whether this machine is the archive's model in disguise: one
    /// partition of one node with only cores.
    pub fn is_processors(&self) -> bool {
        self.resources.len() == 1 && self.nodes() == 1
    }

    /// The machine `--nodes` describes: `+`-separated groups
    /// `[PARTITION:]COUNTx(cpu=64,mem=256G,gpu=4)` (`cores` is `cpu`;
    /// memory takes K, M, G or T, MiB without). Named groups are partitions
    /// of their nodes; without names the machine is one partition `all`.
    pub fn from_spec(spec: &str) -> Result<Machine, String> {
        let mut b = Builder::default();
        let mut groups: Vec<(Option<String>, std::ops::Range<u32>)> = Vec::new();
        for group in spec.split('+').map(str::trim) {
            let (name, rest) = match group.split_once(':') {
                Some((n, r)) if !n.contains('(') => (Some(n.trim().to_string()), r.trim()),
                _ => (None, group),
            };
            let bad = || {
                format!("`{}` is not COUNTx(resource=amount,…), e.g. 128x(cpu=64,mem=256G,gpu=4)", short_text(group))
            };
            let (count, body) = rest.split_once(['x', 'X']).ok_or_else(bad)?;
            let count: u32 = count.trim().parse().ok().filter(|&c| c > 0).ok_or_else(bad)?;
            let body = body.trim().strip_prefix('(').and_then(|b| b.strip_suffix(')')).ok_or_else(bad)?;
            let mut amounts = Vec::new();
            for item in body.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (key, value) = item.split_once('=').ok_or_else(|| {
                    format!("`{}` in `{}` is not resource=amount", short_text(item), short_text(group))
                })?;
                amounts.push((key.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
            let first = b.add_nodes(count, &amounts).map_err(|e| format!("`{}`: {e}", short_text(group)))?;
            groups.push((name, first..first + count));
        }
        if groups.iter().any(|g| g.0.is_some()) {
            for (name, range) in groups {
                let name =
                    name.ok_or_else(|| format!("`{}` names some groups' partitions but not all", short_text(spec)))?;
                b.add_to_partition(&name, range.collect());
            }
        } else {
            let all = (0..b.node_count()).collect();
            b.add_to_partition("all", all);
        }
        b.finish()
    }

    /// The machine of a slurm.conf's `NodeName`, `PartitionName` and
    /// `GresTypes` lines (`DEFAULT` lines set later lines' defaults; a
    /// node's cores are `CPUs`, else Boards × Sockets × CoresPerSocket ×
    /// ThreadsPerCore; its memory `RealMemory`; its generic resources
    /// `Gres=gpu:4` or `gpu:a100:4`, counted under the gres name). Errors
    /// name the line.
    pub fn from_slurm_conf(conf: &SlurmConf) -> Result<Machine, String> {
        let mut b = Builder::default();
        if let Some(line) = conf.setting("GresTypes") {
            for name in line.value().split(',').map(str::trim).filter(|n| !n.is_empty()) {
                b.resource(&name.to_ascii_lowercase());
            }
        }
        let mut names: Vec<String> = Vec::new();
        for (line, all) in with_defaults(conf, "NodeName") {
            let at = |e: String| format!("slurm.conf line {}: {e}", line.line);
            let hosts = expand_hostlist(line.value()).map_err(at)?;
            let amounts = node_amounts(&all).map_err(at)?;
            b.add_nodes(u32::try_from(hosts.len()).unwrap_or(u32::MAX), &amounts).map_err(at)?;
            names.extend(hosts);
        }
        if names.is_empty() {
            return Err("slurm.conf has no NodeName line, so no machine".into());
        }
        partitions_from_conf(conf, &names, &mut b)?;
        b.finish()
    }
}

/// A node line's amounts as `(resource, amount text)`, from slurm.conf keys.
fn node_amounts(pairs: &[(String, String)]) -> Result<Vec<(String, String)>, String> {
    let get = |k: &str| pairs.iter().rev().find(|p| p.0 == k).map(|p| p.1.as_str());
    let number = |k: &str| -> Result<u64, String> {
        get(k).map_or(Ok(1), |v| v.parse().map_err(|_| format!("{k} `{v}` is not a whole number")))
    };
    let cpus = match get("cpus").or(get("procs")) {
        Some(v) => v.parse().map_err(|_| format!("CPUs `{v}` is not a whole number"))?,
        None => number("boards")? * number("sockets")? * number("corespersocket")? * number("threadspercore")?,
    };
    let mut out = vec![(CPU.to_string(), cpus.to_string())];
    if let Some(mem) = get("realmemory") {
        out.push((MEM.to_string(), mem.to_string()));
    }
    for gres in get("gres").into_iter().flat_map(|g| g.split(',')).map(str::trim).filter(|g| !g.is_empty()) {
        let parts: Vec<&str> = gres.split(':').collect();
        let (name, count) = match parts.as_slice() {
            [name] => (*name, "1"),
            [name, count] | [name, _, count] => (*name, *count),
            _ => return Err(format!("Gres `{gres}` is not name:count or name:type:count")),
        };
        // `gpu:a100:4(S:0-1)` names its sockets after the count.
        let count = count.split('(').next().unwrap_or(count);
        out.push((name.to_ascii_lowercase(), count.to_string()));
    }
    Ok(out)
}

/// The partitions of a slurm.conf; a machine without `PartitionName`
/// lines is one partition `all` of every node, as Slurm requires one.
fn partitions_from_conf(conf: &SlurmConf, names: &[String], b: &mut Builder) -> Result<(), String> {
    let index: std::collections::BTreeMap<&str, u32> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), i as u32)).collect();
    for (line, all) in with_defaults(conf, "PartitionName") {
        let at = |e: String| format!("slurm.conf line {}: {e}", line.line);
        let get = |k: &str| all.iter().rev().find(|p| p.0 == k).map(|p| p.1.as_str());
        let nodes = match get("nodes") {
            None => return Err(at(format!("partition `{}` has no Nodes=", line.value()))),
            Some(list) if list.eq_ignore_ascii_case("ALL") => (0..names.len() as u32).collect(),
            Some(list) => {
                let hosts = expand_hostlist(list).map_err(at)?;
                let find = |h: &String| {
                    index
                        .get(h.as_str())
                        .copied()
                        .ok_or_else(|| at(format!("node `{h}` of partition `{}` has no NodeName line", line.value())))
                };
                hosts.iter().map(find).collect::<Result<Vec<u32>, String>>()?
            }
        };
        let max_time = get("maxtime").map(|t| partition_time(t).map_err(at)).transpose()?.flatten();
        let tier = get("prioritytier")
            .map_or(Ok(1), |t| t.parse().map_err(|_| at(format!("PriorityTier `{t}` is not a whole number"))))?;
        let exclusive = get("oversubscribe").is_some_and(|o| o.eq_ignore_ascii_case("EXCLUSIVE"));
        let p = b.add_to_partition(line.value(), nodes);
        b.partitions[p].max_time = max_time;
        b.partitions[p].priority_tier = tier;
        b.partitions[p].exclusive = exclusive;
        if get("default").is_some_and(|d| d.eq_ignore_ascii_case("YES")) {
            b.default = Some(p as u32);
        }
    }
    if b.partitions.is_empty() {
        b.add_to_partition("all", (0..names.len() as u32).collect());
    }
    Ok(())
}

/// The lines named `key` other than `key=DEFAULT`, each with its pairs
/// after the ones the `DEFAULT` lines above it set (keys lowercased; a
/// later pair wins when read from the end).
fn with_defaults<'a>(conf: &'a SlurmConf, key: &'a str) -> Vec<(&'a crate::ConfLine, Vec<(String, String)>)> {
    let mut defaults: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    for line in conf.lines_named(key) {
        let pairs = line.pairs[1..].iter().map(|p| (p.key.to_ascii_lowercase(), p.value.clone()));
        if line.value().eq_ignore_ascii_case("DEFAULT") {
            defaults.extend(pairs);
        } else {
            out.push((line, defaults.iter().cloned().chain(pairs).collect()));
        }
    }
    out
}

/// A partition's `MaxTime` in seconds: minutes, `MM:SS`, `HH:MM:SS`,
/// `D-HH[:MM[:SS]]`, or `UNLIMITED`/`INFINITE` (`None`).
fn partition_time(text: &str) -> Result<Option<i64>, String> {
    if text.eq_ignore_ascii_case("UNLIMITED") || text.eq_ignore_ascii_case("INFINITE") {
        return Ok(None);
    }
    let bad = || format!("MaxTime `{text}` is not minutes, [D-]HH:MM:SS or UNLIMITED");
    let (days, rest) = match text.split_once('-') {
        Some((d, r)) => (d.parse::<i64>().map_err(|_| bad())?, r),
        None => (0, text),
    };
    let parts: Vec<i64> = rest.split(':').map(|p| p.parse::<i64>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    let seconds = match (text.contains('-'), parts.as_slice()) {
        (false, [m]) => m * 60,
        (false, [m, s]) => m * 60 + s,
        (_, [h, m, s]) => h * 3600 + m * 60 + s,
        (true, [h]) => h * 3600,
        (true, [h, m]) => h * 3600 + m * 60,
        _ => return Err(bad()),
    };
    Ok(Some(days * 86_400 + seconds))
}

/// An amount of resource `name`: memory with a K/M/G/T suffix in MiB,
/// anything else a whole number.
pub fn parse_amount(name: &str, text: &str) -> Result<u64, String> {
    let bad =
        || format!("{name} `{text}` is not a whole number{}", if name == MEM { " of MiB (or K, M, G, T)" } else { "" });
    let (digits, scale) = match text.char_indices().last() {
        Some((i, c)) if name == MEM && c.is_ascii_alphabetic() => {
            let scale = match c.to_ascii_uppercase() {
                'K' => return text[..i].parse::<u64>().map(|k| k.div_ceil(1024)).map_err(|_| bad()),
                'M' => 1u64,
                'G' => 1 << 10,
                'T' => 1 << 20,
                _ => return Err(bad()),
            };
            (&text[..i], scale)
        }
        _ => (text, 1),
    };
    digits.parse::<u64>().ok().and_then(|d| d.checked_mul(scale)).ok_or_else(bad)
}

/// Collects node types and partitions, merging identical types.
#[derive(Default)]
struct Builder {
    resources: Vec<String>,
    /// Each group of nodes as added: (capacity by resource name, count).
    groups: Vec<(Vec<(String, u64)>, u32)>,
    partitions: Vec<Partition>,
    default: Option<u32>,
}

impl Builder {
    fn resource(&mut self, name: &str) -> usize {
        let name = if name == "cores" || name == "cpus" { CPU } else { name };
        match self.resources.iter().position(|r| r == name) {
            Some(i) => i,
            None => {
                self.resources.push(name.to_string());
                self.resources.len() - 1
            }
        }
    }

    fn node_count(&self) -> u32 {
        self.groups.iter().map(|g| g.1).sum()
    }

    /// Adds `count` nodes with `amounts`; returns the first one's index.
    fn add_nodes(&mut self, count: u32, amounts: &[(String, String)]) -> Result<u32, String> {
        let first = self.node_count();
        if first as usize + count as usize > MAX_NODES {
            return Err(format!("the machine would have more than {MAX_NODES} nodes"));
        }
        let mut capacity = Vec::new();
        for (name, text) in amounts {
            let name = if name == "cores" || name == "cpus" { CPU } else { name.as_str() };
            self.resource(name);
            capacity.push((name.to_string(), parse_amount(name, text)?));
        }
        if !capacity.iter().any(|c| c.0 == CPU && c.1 > 0) {
            return Err("a node needs at least one cpu".into());
        }
        self.groups.push((capacity, count));
        Ok(first)
    }

    fn add_to_partition(&mut self, name: &str, nodes: Vec<u32>) -> usize {
        let mut nodes = nodes;
        nodes.sort_unstable();
        nodes.dedup();
        let p = Partition { name: name.to_string(), nodes, max_time: None, priority_tier: 1, exclusive: false };
        self.partitions.push(p);
        self.partitions.len() - 1
    }

    /// The machine, resources ordered `cpu`, `mem`, then the rest as named.
    fn finish(mut self) -> Result<Machine, String> {
        if self.resources.len() > MAX_RESOURCES {
            return Err(format!("the machine names {} resources, more than {MAX_RESOURCES}", self.resources.len()));
        }
        let mut order: Vec<String> = vec![CPU.to_string()];
        if self.resources.iter().any(|r| r == MEM) {
            order.push(MEM.to_string());
        }
        order.extend(self.resources.drain(..).filter(|r| r != CPU && r != MEM));
        let mut node_types: Vec<NodeType> = Vec::new();
        let mut remap = Vec::new();
        for (amounts, count) in &self.groups {
            let capacity: Vec<u64> =
                order.iter().map(|r| amounts.iter().rev().find(|a| &a.0 == r).map_or(0, |a| a.1)).collect();
            remap.push((capacity, *count));
        }
        // Nodes keep their order of declaration; consecutive groups of one
        // type merge so that a type's nodes stay one range.
        for (capacity, count) in remap {
            match node_types.last_mut() {
                Some(t) if t.capacity == capacity => t.count += count,
                _ => node_types.push(NodeType { capacity, count }),
            }
        }
        for p in &self.partitions {
            if p.nodes.is_empty() {
                return Err(format!("partition `{}` has no node", p.name));
            }
        }
        let default_partition = self.default.unwrap_or(0);
        let machine = Machine { resources: order, node_types, partitions: self.partitions, default_partition };
        // The engine keeps each resource's free total in 64 bits.
        for (k, name) in machine.resources.iter().enumerate() {
            let total = machine.node_types.iter().try_fold(0u64, |sum, t| {
                t.capacity[k].checked_mul(u64::from(t.count)).and_then(|a| sum.checked_add(a))
            });
            if total.is_none() {
                return Err(format!("the machine's total {name} does not fit in 64 bits"));
            }
        }
        // The engine counts idle cores in 32 bits, as it counts processors.
        if machine.total(0) > u64::from(crate::MAX_PROCS) {
            return Err(format!("the machine has more than {} cores (2^31)", crate::MAX_PROCS));
        }
        Ok(machine)
    }
}
