//! Hand-computed schedules of the `slurm` policy on a machine of 4 nodes
//! of 4 cores: partition `a` holds nodes 0 and 1, partition `b` nodes 2
//! and 3. Loops run every second, reservations to the second, and the
//! backfill cycle sees ends at once (`bf_end_lag=0`), so each instant is
//! the main pass, then the cycle. Limits are estimates rounded up to
//! minutes; every job here has runtime = estimate unless said otherwise.

use schedlab_engine::params::Params;
use schedlab_engine::{check_on, run_on, Control, Overrun, RunConfig, RuntimeSource, Time};
use schedlab_workload::{Cluster, Job, Machine, NodeType, Partition, Request, Spread};

use super::*;
use crate::Categories;

/// A job: submit, runtime, estimate, partition (0: `a`, 1: `b`), and its
/// request: `nodes` nodes of `cores` cores each.
struct Row {
    submit: Time,
    runtime: Time,
    estimate: Time,
    partition: u32,
    nodes: u32,
    cores: u64,
}

const fn row(submit: Time, runtime: Time, estimate: Time, partition: u32, nodes: u32, cores: u64) -> Row {
    Row { submit, runtime, estimate, partition, nodes, cores }
}

fn machine() -> Machine {
    let part = |name: &str, nodes: Vec<u32>| Partition {
        name: name.to_string(),
        nodes,
        max_time: None,
        priority_tier: 0,
        exclusive: false,
    };
    Machine {
        resources: vec!["cpu".to_string()],
        node_types: vec![NodeType { capacity: vec![4], count: 4 }],
        partitions: vec![part("a", vec![0, 1]), part("b", vec![2, 3])],
        default_partition: 0,
    }
}

fn policy(params: &[(&str, &str)]) -> Slurm {
    let given: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let values = Params::resolve(INFO.params, &given).unwrap_or_else(|e| panic!("{e}"));
    let settings = PolicySettings {
        source: RuntimeSource::Estimate,
        seed: 0,
        calibration: None,
        categories: Categories::default(),
    };
    Slurm::new(&SlurmParams::read(&values), &settings)
}

const EVERY_SECOND: [(&str, &str); 4] =
    [("bf_interval", "1"), ("bf_resolution", "1"), ("sched_interval", "1"), ("bf_end_lag", "0")];

/// Each job's start and the nodes it ran on, the run checked node by node.
fn starts(rows: &[Row], params: &[(&str, &str)]) -> Vec<(Time, Vec<u32>)> {
    let jobs: Vec<Job> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Job {
            id: i as u64 + 1,
            submit: r.submit,
            runtime: r.runtime,
            size: r.nodes * r.cores as u32,
            estimate: r.estimate,
            user: 1,
            group: 1,
            queue: -1,
            partition: r.partition as i32,
            status: 1,
        })
        .collect();
    let requests: Vec<Request> = rows
        .iter()
        .map(|r| Request {
            partition: r.partition,
            spread: Spread::Nodes,
            count: r.nodes,
            each: vec![r.cores],
            exclusive: false,
        })
        .collect();
    let cluster = Cluster { machine: machine(), requests, of_job: (0..rows.len() as u32).collect() };
    let config = RunConfig {
        procs: 16,
        source: RuntimeSource::Estimate,
        overrun: Overrun::Estimate,
        seed: 0,
        progress_every: 0,
    };
    let mut p = policy(params);
    let record =
        run_on(&jobs, Some(&cluster), &config, &mut p, &mut |_| Control::Continue).unwrap_or_else(|e| panic!("{e}"));
    check_on(&jobs, Some(&cluster), &record, &p.guarantees()).unwrap_or_else(|e| panic!("{e}"));
    let placements = record.placements.as_ref().unwrap_or_else(|| panic!("a run on nodes records placements"));
    (0..rows.len())
        .map(|j| (record.jobs[j].first_start, placements.of(j as JobIdx).iter().map(|s| s.node).collect()))
        .collect()
}

/// Partition `a`. J1 (3 cores, until 300) takes node 0 and J2 (3 cores,
/// until 600) node 1, one core idle on each. J3 (a whole node, 1 minute)
/// waits: `_will_run_test` frees node 0 at J1's end, so the cycle at 5
/// reserves node 0, whole, for [300, 360). J4 (1 core, 10 minutes, from
/// 10) would end at 610, past 300: node 0 is not free of reservations
/// through its limit, node 1 is, and has an idle core, so J4 starts at 10
/// on node 1. J5 (1 core, 10 minutes, from 20) finds node 1 full and
/// node 0's idle core reserved: on node 1 it could start only at 610 (J2
/// and J4 end in one batch of `_will_run_test`), which is after node 0
/// is free of reservations again (360, the later start), so it is tried
/// again from 360, where node 0 will do: reserved from 360. The main
/// scheduler never starts it earlier: J3, before it, fails partition `a`
/// in every pass until J1 ends at 300, when J3 starts on node 0; J5
/// starts when J3 ends, at 360. Node 0's idle core stays idle from 20 to
/// 300 while J5 waits.
#[test]
fn a_reservation_blocks_a_whole_node_while_its_core_idles() {
    let rows = [
        row(0, 300, 300, 0, 1, 3),
        row(0, 600, 600, 0, 1, 3),
        row(5, 60, 60, 0, 1, 4),
        row(10, 600, 600, 0, 1, 1),
        row(20, 600, 600, 0, 1, 1),
    ];
    let got = starts(&rows, &EVERY_SECOND);
    assert_eq!(got, vec![(0, vec![0]), (0, vec![1]), (300, vec![0]), (10, vec![1]), (360, vec![0])]);
}

/// The same jobs with `bf_window=1` (a minute): J3's start at 300 is past
/// the window at 5, so it reserves nothing, and J4 (10) and J5 (20) start
/// first fit on the idle cores of nodes 0 and 1. J3 then needs a node
/// whole: node 0 is free when J4 ends at 610 (node 1 at 620, J5's end);
/// the cycle at 300 puts its start at 620 (J2, J4 and J5 end in one
/// batch), past the window again, and the main scheduler starts it at
/// 610.
#[test]
fn bf_window_cuts_a_reservation_off_on_nodes() {
    let rows = [
        row(0, 300, 300, 0, 1, 3),
        row(0, 600, 600, 0, 1, 3),
        row(5, 60, 60, 0, 1, 4),
        row(10, 600, 600, 0, 1, 1),
        row(20, 600, 600, 0, 1, 1),
    ];
    let params = [
        ("bf_interval", "1"),
        ("bf_resolution", "1"),
        ("sched_interval", "1"),
        ("bf_end_lag", "0"),
        ("bf_window", "1"),
    ];
    let got = starts(&rows, &params);
    assert_eq!(got, vec![(0, vec![0]), (0, vec![1]), (610, vec![0]), (10, vec![0]), (20, vec![1])]);
}

/// The backfill cycle runs every 60 s (at 0 and then at 60), so what
/// starts at 1 is the main scheduler's. J1 (a whole node) and J2 (3
/// cores) fill partition `a` until 100 (2-minute limits). At 1, J3 (2
/// cores, `a`) does not fit: it fails partition `a` for the pass, so J4
/// (1 core, `a`), which would fit on node 1's idle core, is not looked
/// at; J5 (a whole node of `b`) is, and starts at 1 on node 2. The cycle
/// at 60 reserves node 0 for J3 from 120 (J1's and J2's limits end in one
/// batch) and starts J4 on node 1 (its minute ends at 120, on the
/// reservation's first second of node 0, so node 1 only). J1 and J2 end
/// at 100 and the main scheduler starts J3 on node 1: cons_tres gives a
/// job of one node the node with the fewest free cores that hold it
/// (node 1's 3 against node 0's 4).
#[test]
fn a_failed_partition_blocks_only_its_own_jobs() {
    let rows = [
        row(0, 100, 100, 0, 1, 4),
        row(0, 100, 100, 0, 1, 3),
        row(1, 60, 60, 0, 1, 2),
        row(1, 60, 60, 0, 1, 1),
        row(1, 60, 60, 1, 1, 4),
    ];
    let params = [("bf_interval", "60"), ("bf_resolution", "1"), ("sched_interval", "1"), ("bf_end_lag", "0")];
    let got = starts(&rows, &params);
    assert_eq!(got, vec![(0, vec![0]), (0, vec![1]), (100, vec![1]), (60, vec![1]), (1, vec![2])]);
}

/// J1 (node 0, until 100, limit 120) and J2 (node 1, until 200, limit
/// 240) fill partition `a`. J3 asks 2 nodes of 1 core: `_will_run_test`
/// frees node 0 in the first batch (J1, at 120) and node 1 in the next
/// (J2, at 240), so J3 is reserved nodes 0 and 1 from 240. At 100 J1
/// ends: 4 cores are idle, but on one node, and J3 fails partition `a` in
/// the main scheduler. The cycle at 100 starts J4 (a whole node, 1
/// minute, ending by 160, before 240) on node 0. J2 ends at 200 and J3
/// starts on both nodes (J4 ended at 160).
#[test]
fn a_job_of_two_nodes_waits_for_both() {
    let rows =
        [row(0, 100, 100, 0, 1, 4), row(0, 200, 200, 0, 1, 4), row(10, 60, 60, 0, 2, 1), row(20, 60, 60, 0, 1, 4)];
    let got = starts(&rows, &EVERY_SECOND);
    assert_eq!(got, vec![(0, vec![0]), (0, vec![1]), (200, vec![0, 1]), (100, vec![0])]);
}
