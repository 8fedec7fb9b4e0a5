//! What a job asks of a machine of nodes, and whether it can ever get it
//! (docs/semantics.md, "Machines of nodes").
//!
//! A job's request is its partition and either a number of nodes each
//! with the same amounts (a Slurm job with a node count: `NNodes`,
//! `ReqTRES`), a number of tasks of one core each spread over exactly a
//! number of nodes (a Slurm job with more CPUs than nodes, `-N n -n t`),
//! or a number of tasks of one core each (an SWF job, or a Slurm job
//! without a node count) packed onto as few nodes as the allocator finds.
//! Requests are kept once per distinct shape in the trace's [`Cluster`];
//! each job names its shape by index (`SwfExtra::request`), so a job
//! costs four bytes more on a machine of nodes and nothing otherwise.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::job::{Job, SwfExtra};
use crate::machine::{Machine, CPU, MEM};

/// How a request's units are laid out on nodes.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    /// `count` distinct nodes, each giving `each`.
    Nodes,
    /// `count` units of `each`, as many on one node as fit, lowest node first.
    Tasks,
    /// `count` units of `each` over exactly `nodes` distinct nodes, at
    /// least one on each, every one of which also gives `per_node` (one
    /// amount per machine resource: memory and GPUs asked per node). This
    /// is Slurm's `-N nodes -n count` (cons_tres `_eval_nodes`).
    Over { nodes: u32, per_node: Vec<u64> },
}

/// One distinct request shape.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Request {
    /// Index of the partition in the machine.
    pub partition: u32,
    pub spread: Spread,
    /// Nodes (`Spread::Nodes`) or tasks (`Spread::Tasks`, `Spread::Over`).
    pub count: u32,
    /// Amount of each machine resource per node or per task.
    pub each: Vec<u64>,
    /// Whether the job takes its nodes whole (an exclusive partition).
    pub exclusive: bool,
}

impl Request {
    /// `count` one-core tasks over exactly `nodes` nodes of the first
    /// partition, on a machine whose only resource is cores: the smallest
    /// request spread over nodes, which the placement rules' hand-computed
    /// cases write.
    pub fn cores_over(count: u32, nodes: u32) -> Request {
        Request {
            partition: 0,
            spread: Spread::Over { nodes, per_node: vec![0] },
            count,
            each: vec![1],
            exclusive: false,
        }
    }

    /// The distinct nodes the request needs at least: its node count, or
    /// one for tasks packed onto nodes.
    pub fn min_nodes(&self) -> u32 {
        match self.spread {
            Spread::Nodes => self.count,
            Spread::Tasks => 1,
            Spread::Over { nodes, .. } => nodes,
        }
    }

    /// What each node holding units of the request gives beyond its units,
    /// of resource `k` (zero unless the request is spread over nodes).
    pub fn per_node(&self, k: usize) -> u64 {
        match &self.spread {
            Spread::Over { per_node, .. } => per_node.get(k).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// What `units` of the request on one node take of resource `k` (not
    /// counting an exclusive partition's whole node).
    pub fn amount(&self, k: usize, units: u64) -> u64 {
        let extra = if units > 0 { self.per_node(k) } else { 0 };
        self.each[k].saturating_mul(units).saturating_add(extra)
    }

    /// How many units of the request fit in a node's `free` amounts: the
    /// per-node amounts first, then as many units of `each` as the rest holds.
    pub fn units_in(&self, free: &[u64]) -> u64 {
        let Spread::Over { per_node, .. } = &self.spread else { return units_on(free, &self.each) };
        let mut units = u64::MAX;
        for ((&f, &e), &p) in free.iter().zip(&self.each).zip(per_node) {
            let Some(rest) = f.checked_sub(p) else { return 0 };
            if let Some(u) = rest.checked_div(e) {
                units = units.min(u);
            }
        }
        units
    }

    /// Whether `free` holds at least one unit of the request (and its
    /// per-node amounts): [`Request::units_in`] > 0 without a division.
    pub fn holds_unit(&self, free: &[u64]) -> bool {
        free.iter().enumerate().all(|(k, &f)| f >= self.amount(k, 1))
    }

    /// What a node holding `units` counts towards the request's `count`:
    /// one node, its units, or for a request spread over nodes its units
    /// up to the most one node may take (every other node takes one).
    pub fn worth(&self, units: u64) -> u64 {
        match self.spread {
            Spread::Nodes => units.min(1),
            Spread::Tasks => units,
            Spread::Over { nodes, .. } => units.min(u64::from(self.count.saturating_sub(nodes.saturating_sub(1)))),
        }
    }
}

/// A trace's machine of nodes and its jobs' distinct requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    pub machine: Machine,
    /// Distinct request shapes, in order of first appearance.
    pub requests: Vec<Request>,
    /// For each job of the trace, in priority order, its request's index.
    pub of_job: Vec<u32>,
}

impl Cluster {
    /// The request of job `j` (in priority order).
    pub fn request(&self, j: usize) -> &Request {
        &self.requests[self.of_job[j] as usize]
    }
}

/// Why a job can never run on a machine, each counted in the cleaning
/// report's `machine` section under its text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoFit {
    /// The job's partition is not one of the machine's.
    UnknownPartition(String),
    /// It asks for more time than its partition's `MaxTime`.
    OverTimeLimit(String),
    /// It asks for more nodes than its partition has nodes big enough.
    TooFewNodes(String),
    /// Its units of a resource do not fit on the partition's nodes.
    Resource(String, String),
}

impl NoFit {
    /// The reason as the report states it.
    pub fn text(&self) -> String {
        match self {
            NoFit::UnknownPartition(p) => format!("partition `{p}` is not in the machine"),
            NoFit::OverTimeLimit(p) => format!("asks for more time than partition `{p}`'s MaxTime"),
            NoFit::TooFewNodes(p) => format!("asks for more nodes than partition `{p}` has big enough"),
            NoFit::Resource(p, r) => format!("asks for more {r} than partition `{p}`'s nodes have"),
        }
    }
}

/// Builds each job's request and checks that it can ever run: once per
/// distinct shape, in O(node types) each.
pub(crate) struct Requests<'a> {
    machine: &'a Machine,
    /// Partition names by the trace's partition numbers (a Slurm dump's),
    /// when the trace names them.
    names: &'a [String],
    shapes: BTreeMap<Request, u32>,
    /// Each partition's nodes by type, for the O(types) check.
    types: Vec<Vec<(usize, u64)>>,
    pub list: Vec<Request>,
}

impl<'a> Requests<'a> {
    pub fn new(machine: &'a Machine, names: &'a [String]) -> Self {
        let types = (0..machine.partitions.len()).map(|p| partition_types(machine, p)).collect();
        Requests { machine, names, shapes: BTreeMap::new(), types, list: Vec::new() }
    }

    /// The index of the job's request, or why it can never run.
    pub fn of(&mut self, job: &Job, extra: &SwfExtra) -> Result<u32, NoFit> {
        let partition = self.partition(job.partition)?;
        let p = &self.machine.partitions[partition];
        if p.max_time.is_some_and(|t| job.estimate > t) {
            return Err(NoFit::OverTimeLimit(p.name.clone()));
        }
        let request = self.shape(job, extra, partition as u32);
        if let Some(&i) = self.shapes.get(&request) {
            return Ok(i);
        }
        fits_types(self.machine, &request, &self.types[partition])?;
        let i = self.list.len() as u32;
        self.shapes.insert(request.clone(), i);
        self.list.push(request);
        Ok(i)
    }

    /// The machine partition of the trace's partition number: by name when
    /// the trace names its partitions (or the number is a partition's
    /// name), the default partition when the job names none.
    fn partition(&self, number: i32) -> Result<usize, NoFit> {
        if number < 0 {
            return Ok(self.machine.default_partition as usize);
        }
        let name = usize::try_from(number - 1)
            .ok()
            .and_then(|i| self.names.get(i))
            .cloned()
            .unwrap_or_else(|| number.to_string());
        match self.machine.partition(&name) {
            Some(p) => Ok(p),
            None if self.names.is_empty() => Ok(self.machine.default_partition as usize),
            None => Err(NoFit::UnknownPartition(name)),
        }
    }

    /// The request of a job: per node when the trace gives a node count
    /// (cores, memory and GPUs split evenly, rounded up), else tasks of
    /// one core with the job's memory per core. A job on more than one
    /// node with more cores than nodes is its cores as tasks spread over
    /// exactly that many nodes, memory and GPUs split evenly per node
    /// (docs/decisions.md, "A Slurm job's cores over its node count").
    fn shape(&self, job: &Job, extra: &SwfExtra, partition: u32) -> Request {
        let m = self.machine;
        let mut each = vec![0u64; m.resources.len()];
        let exclusive = m.partitions[partition as usize].exclusive;
        // SWF field 10 is KB per processor; Slurm's dump is converted to it.
        let mem_per_cpu = (extra.requested_memory > 0.0).then(|| (extra.requested_memory / 1024.0).ceil() as u64);
        let gpus = u64::try_from(extra.gpus).ok().filter(|&g| g > 0);
        let nodes = u32::try_from(extra.nodes).ok().filter(|&n| n > 0).or_else(|| gpus.map(|_| 1));
        let Some(nodes) = nodes else {
            each[0] = 1;
            if let (Some(r), Some(mem)) = (m.resource(MEM), mem_per_cpu) {
                each[r] = mem;
            }
            return Request { partition, spread: Spread::Tasks, count: job.size, each, exclusive };
        };
        let size = u64::from(job.size);
        each[0] = size.div_ceil(u64::from(nodes));
        if let (Some(r), Some(mem)) = (m.resource(MEM), mem_per_cpu) {
            each[r] = mem.saturating_mul(size).div_ceil(u64::from(nodes));
        }
        if let (Some(r), Some(g)) = (m.resource("gpu"), gpus) {
            each[r] = g.div_ceil(u64::from(nodes));
        }
        if nodes > 1 && size > u64::from(nodes) {
            let mut per_node = each;
            per_node[0] = 0;
            let mut task = vec![0u64; m.resources.len()];
            task[0] = 1;
            let spread = Spread::Over { nodes, per_node };
            return Request { partition, spread, count: job.size, each: task, exclusive };
        }
        Request { partition, spread: Spread::Nodes, count: nodes, each, exclusive }
    }
}

/// Whether `request` fits its partition when every node is idle.
pub fn fits(machine: &Machine, request: &Request) -> Result<(), NoFit> {
    fits_types(machine, request, &partition_types(machine, request.partition as usize))
}

/// Nodes of each type in partition `p`, as (type, count).
pub(crate) fn partition_types(machine: &Machine, p: usize) -> Vec<(usize, u64)> {
    let types = machine.node_type_of();
    let mut counts = vec![0u64; machine.node_types.len()];
    for &n in &machine.partitions[p].nodes {
        counts[types[n as usize] as usize] += 1;
    }
    counts.into_iter().enumerate().filter(|c| c.1 > 0).collect()
}

/// [`fits`] given the partition's nodes by type, in O(types).
fn fits_types(machine: &Machine, request: &Request, types: &[(usize, u64)]) -> Result<(), NoFit> {
    let p = &machine.partitions[request.partition as usize];
    let mut units: u64 = 0;
    let mut short: Option<usize> = None;
    // For a request spread over nodes: the node types that hold a unit,
    // largest first, so that the `nodes` largest nodes can be summed.
    let mut largest: Vec<(u64, u64)> = Vec::new();
    let mut holding: u64 = 0;
    for &(t, count) in types {
        let capacity = &machine.node_types[t].capacity;
        let on_node = request.units_in(capacity);
        if on_node == 0 {
            short = short.or_else(|| (0..capacity.len()).find(|&k| request.amount(k, 1) > capacity[k]));
        } else {
            largest.push((on_node, count));
            holding = holding.saturating_add(count);
        }
        units = units.saturating_add(request.worth(on_node).saturating_mul(count));
    }
    if let Spread::Over { nodes, .. } = request.spread {
        if holding < u64::from(nodes) {
            return Err(match short {
                Some(r) if holding == 0 => NoFit::Resource(p.name.clone(), machine.resources[r].clone()),
                _ => NoFit::TooFewNodes(p.name.clone()),
            });
        }
        if largest_sum(&mut largest, u64::from(nodes)) < u64::from(request.count) {
            return Err(NoFit::Resource(p.name.clone(), CPU.to_string()));
        }
        return Ok(());
    }
    if units >= u64::from(request.count) {
        return Ok(());
    }
    match (&request.spread, short) {
        (Spread::Nodes, _) if units > 0 || short.is_none() => Err(NoFit::TooFewNodes(p.name.clone())),
        (_, Some(r)) => Err(NoFit::Resource(p.name.clone(), machine.resources[r].clone())),
        _ => Err(NoFit::Resource(p.name.clone(), CPU.to_string())),
    }
}

/// The units the `k` largest nodes hold, given (units per node, nodes)
/// by node type.
fn largest_sum(types: &mut [(u64, u64)], k: u64) -> u64 {
    types.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    let (mut sum, mut left) = (0u64, k);
    for &(units, count) in types.iter() {
        let taken = count.min(left);
        sum = sum.saturating_add(units.saturating_mul(taken));
        left -= taken;
    }
    sum
}

/// How many units of `each` fit in `free` (u64::MAX when `each` is all
/// zero, which no request is: every request asks for a core).
///
/// A resource short of one unit answers 0 at once, before any division:
/// the node indexes ask this of every node they visit, and most that a
/// query rejects lack some resource outright.
pub fn units_on(free: &[u64], each: &[u64]) -> u64 {
    let mut units = u64::MAX;
    for (&f, &e) in free.iter().zip(each) {
        if e == 0 {
            continue;
        }
        if f < e {
            return 0;
        }
        units = units.min(f / e);
    }
    units
}

/// Whether `free` holds at least one unit of `each`: [`units_on`] > 0
/// without a division, which is all a per-node request asks of a node.
pub fn holds_unit(free: &[u64], each: &[u64]) -> bool {
    free.iter().zip(each).all(|(&f, &e)| f >= e)
}
