//! What a job asks of a machine of nodes, and whether it can ever get it
//! (docs/semantics.md, "Machines of nodes").
//!
//! A job's request is its partition and either a number of nodes each
//! with the same amounts (a Slurm job with a node count: `NNodes`,
//! `ReqTRES`) or a number of tasks of one core each (an SWF job, or a Slurm
//! job without a node count) packed onto as few nodes as the allocator
//! finds. Requests are kept once per distinct shape in the trace's
//! [`Cluster`]; each job names its shape by index (`SwfExtra::request`), so
//! a job costs four bytes more on a machine of nodes and nothing otherwise.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::job::{Job, SwfExtra};
use crate::machine::{Machine, CPU, MEM};

/// How a request's units are laid out on nodes.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    /// `count` distinct nodes, each giving `each`.
    Nodes,
    /// `count` units of `each`, as many on one node as fit, lowest node first.
    Tasks,
}

/// One distinct request shape.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Request {
    /// Index of the partition in the machine.
    pub partition: u32,
    pub spread: Spread,
    /// Nodes (`Spread::Nodes`) or tasks (`Spread::Tasks`).
    pub count: u32,
    /// Amount of each machine resource per node or per task.
    pub each: Vec<u64>,
    /// Whether the job takes its nodes whole (an exclusive partition).
    pub exclusive: bool,
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
    /// one core with the job's memory per core.
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
    for &(t, count) in types {
        let capacity = &machine.node_types[t].capacity;
        let on_node = units_on(capacity, &request.each);
        if on_node == 0 {
            short = short.or_else(|| request.each.iter().zip(capacity).position(|(e, c)| e > c));
        }
        let per_node = match request.spread {
            Spread::Nodes => u64::from(on_node > 0),
            Spread::Tasks => on_node,
        };
        units = units.saturating_add(per_node.saturating_mul(count));
    }
    if units >= u64::from(request.count) {
        return Ok(());
    }
    match (request.spread, short) {
        (Spread::Nodes, _) if units > 0 || short.is_none() => Err(NoFit::TooFewNodes(p.name.clone())),
        (_, Some(r)) => Err(NoFit::Resource(p.name.clone(), machine.resources[r].clone())),
        _ => Err(NoFit::Resource(p.name.clone(), CPU.to_string())),
    }
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
