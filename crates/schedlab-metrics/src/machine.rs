//! Metrics of a run on a machine of nodes (docs/semantics.md, "Machines of
//! nodes"), from the trace, its machine and the run record alone:
//! utilisation of each resource over the run, and per partition its jobs,
//! mean wait, MBS and core utilisation.
//!
//! A resource's utilisation is Σ over jobs of (amount held × time held) /
//! (machine total × (last end − first submit)), the processor utilisation's
//! definition per resource; a job holds what its placement takes (a whole
//! node of an exclusive partition). A partition's core utilisation divides
//! its jobs' core-seconds by its nodes' cores over the same span.

use schedlab_engine::RunRecord;
use schedlab_workload::{Cluster, Job};
use serde::Serialize;

use crate::summary::{measured, MetricsOptions};

/// Utilisation of one resource.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResourceUse {
    pub resource: String,
    pub utilization: f64,
}

/// One partition's figures over its measured jobs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PartitionMetrics {
    pub partition: String,
    pub jobs: usize,
    pub mean_wait: f64,
    pub mbs: f64,
    /// Core-seconds of its jobs over its nodes' cores × the run's span.
    pub utilization: f64,
}

/// The machine section of a run's metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MachineMetrics {
    pub resources: Vec<ResourceUse>,
    pub partitions: Vec<PartitionMetrics>,
}

/// The machine metrics of `run` on `cluster`.
pub fn machine_metrics(jobs: &[Job], cluster: &Cluster, run: &RunRecord, opts: &MetricsOptions) -> MachineMetrics {
    let m = &cluster.machine;
    let r = m.resources.len();
    let types = m.node_type_of();
    let capacity = |n: u32| &m.node_types[types[n as usize] as usize].capacity;
    let first_submit = jobs.iter().map(|j| j.submit).min().unwrap_or(0);
    let last_end = run.jobs.iter().map(|j| j.end).max().unwrap_or(0);
    let span = (last_end - first_submit).max(1) as f64;
    let mut held = vec![0f64; r];
    let parts = m.partitions.len();
    let (mut count, mut wait, mut bsd, mut cores) =
        (vec![0usize; parts], vec![0f64; parts], vec![0f64; parts], vec![0f64; parts]);
    let tau = opts.bsd_threshold as f64;
    let range = measured(jobs.len(), opts.skip_percent);
    for (j, (job, rec)) in jobs.iter().zip(&run.jobs).enumerate() {
        let request = cluster.request(j);
        let p = request.partition as usize;
        let time = (rec.end - rec.start) as f64;
        for slot in run.placements.as_ref().map_or(&[][..], |pl| pl.of(j as u32)) {
            for (k, h) in held.iter_mut().enumerate() {
                let amount =
                    if request.exclusive { capacity(slot.node)[k] } else { request.amount(k, u64::from(slot.units)) };
                *h += amount as f64 * time;
                if k == 0 {
                    cores[p] += amount as f64 * time;
                }
            }
        }
        if range.contains(&j) {
            let w = (rec.end - job.submit - job.runtime) as f64;
            let run_time = (job.runtime as f64).max(tau);
            count[p] += 1;
            wait[p] += w;
            bsd[p] += (w + run_time) / run_time;
        }
    }
    let resources = m
        .resources
        .iter()
        .enumerate()
        .map(|(k, name)| ResourceUse { resource: name.clone(), utilization: ratio(held[k], m.total(k) as f64 * span) })
        .collect();
    let partitions = m
        .partitions
        .iter()
        .enumerate()
        .map(|(p, part)| {
            let part_cores: f64 = part.nodes.iter().map(|&n| capacity(n)[0] as f64).sum();
            PartitionMetrics {
                partition: part.name.clone(),
                jobs: count[p],
                mean_wait: ratio(wait[p], count[p] as f64),
                mbs: ratio(bsd[p], count[p] as f64),
                utilization: ratio(cores[p], part_cores * span),
            }
        })
        .collect();
    MachineMetrics { resources, partitions }
}

/// `a / b`, or 0 when `b` is 0 (a partition without measured jobs, a
/// resource no node has).
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}
