//! The run checker on a machine of nodes: from the machine, the jobs'
//! requests and the recorded placements alone, every job ran on nodes of
//! its partition in the shape it asked for, and no resource of any node
//! was ever over its capacity (docs/semantics.md, "Machines of nodes").

use schedlab_workload::{Cluster, Job, Request, Spread};

use super::Findings;
use crate::{JobIdx, RunRecord, Slot, Time};

/// Checks placements against requests, then sweeps starts and ends in time
/// order (ends first within a second) keeping every node's use.
pub(super) fn check_nodes(jobs: &[Job], cluster: &Cluster, run: &RunRecord, f: &mut Findings) {
    let Some(placements) = &run.placements else {
        f.add(None, "the run on a machine of nodes records no placements".into());
        return;
    };
    let m = &cluster.machine;
    let r = m.resources.len();
    let capacity: Vec<u64> =
        m.node_type_of().iter().flat_map(|&t| m.node_types[t as usize].capacity.iter().copied()).collect();
    let mut changes: Vec<(Time, bool, JobIdx)> = Vec::with_capacity(2 * jobs.len());
    for (j, job) in jobs.iter().enumerate() {
        let j = j as JobIdx;
        let request = cluster.request(j as usize);
        if let Err(message) = shape(request, placements.of(j), &m.partitions[request.partition as usize].nodes) {
            f.add(Some(job.id), message);
        }
        let rec = &run.jobs[j as usize];
        if rec.end > rec.start {
            changes.push((rec.start, true, j));
            changes.push((rec.end, false, j));
        }
    }
    changes.sort_unstable();
    let mut used = vec![0u64; capacity.len()];
    for (t, starts, j) in changes {
        let request = cluster.request(j as usize);
        for &slot in placements.of(j) {
            let n = slot.node as usize * r;
            for k in 0..r {
                let amount = taken(request, slot, &capacity[n..n + r], k);
                if starts {
                    used[n + k] += amount;
                    if used[n + k] > capacity[n + k] {
                        let (what, node) = (&m.resources[k], slot.node);
                        let (u, c) = (used[n + k], capacity[n + k]);
                        f.add(
                            Some(jobs[j as usize].id),
                            format!("{u} {what} in use on node {node} at t={t}, which has {c}"),
                        );
                    }
                } else {
                    used[n + k] -= amount;
                }
            }
        }
    }
}

/// What a slot takes of resource `k`.
fn taken(request: &Request, slot: Slot, capacity: &[u64], k: usize) -> u64 {
    if request.exclusive {
        capacity[k]
    } else {
        request.amount(k, u64::from(slot.units))
    }
}

/// Whether a placement has the request's shape: distinct nodes of its
/// partition, one unit each for a node count, exactly its node count for
/// tasks spread over nodes, the units it asks in all.
fn shape(request: &Request, slots: &[Slot], partition: &[u32]) -> Result<(), String> {
    if slots.windows(2).any(|w| w[0].node >= w[1].node) {
        return Err("placed on nodes out of order or twice".into());
    }
    if let Some(s) = slots.iter().find(|s| partition.binary_search(&s.node).is_err()) {
        return Err(format!("placed on node {}, outside its partition", s.node));
    }
    if request.spread == Spread::Nodes && slots.iter().any(|s| s.units != 1) {
        return Err("holds several units of a per-node request on one node".into());
    }
    if let Spread::Over { nodes, .. } = request.spread {
        if let Some(s) = slots.iter().find(|s| s.units == 0) {
            return Err(format!("holds no task of a request spread over nodes on node {}", s.node));
        }
        if slots.len() != nodes as usize {
            return Err(format!("placed on {} nodes, not the {nodes} it asks", slots.len()));
        }
    }
    let units: u64 = slots.iter().map(|s| u64::from(s.units)).sum();
    if units != u64::from(request.count) {
        return Err(format!("placed {units} units of a request of {}", request.count));
    }
    Ok(())
}
