//! A Slurm job's CPUs spread over exactly its node count (`-N 3 -n 24`,
//! docs/semantics.md, "Machines of nodes"): schedules and refusals
//! computed by hand, and the run checker on a bad placement.

use schedlab::engine::{check_on, Slot};
use schedlab::workload::{read_swf, Machine, ReadOptions};

use crate::nodes::{dump, read_on};
use crate::support::{request, starts};

fn placed(record: &schedlab::engine::RunRecord, j: u32) -> Vec<(u32, u32)> {
    record.placements.as_ref().unwrap().of(j).iter().map(|s| (s.node, s.units)).collect()
}

/// Three nodes of 16 cores. J1 (9 cores, one node) takes node 0 and J2
/// (15 cores, one node) node 1, both for 100 s. J3 asks 24 CPUs on 3
/// nodes at 0: split evenly (8 each) it would wait for J1 and J2, since
/// nodes 0 and 1 have 7 and 1 cores free; spread as Slurm does it starts
/// at once, node 0 giving 7 (24 − 7 leaves 17 for two nodes), node 1 its
/// one core, node 2 the other 16.
#[test]
fn an_uneven_spread_starts_where_an_even_one_would_wait() {
    let text = dump(&[
        (1, 0, 100, 2, 9, "batch", "cpu=9,node=1"),
        (2, 0, 100, 2, 15, "batch", "cpu=15,node=1"),
        (3, 0, 50, 2, 24, "batch", "cpu=24,node=3"),
    ]);
    let trace = read_on(&text, "batch:3x(cpu=16)");
    for policy in ["fcfs", "easy", "cbf", "backfill:order=fcfs,depth=4"] {
        let settings = schedlab::experiment::resolve(&request(policy)).unwrap();
        let r = schedlab::experiment::run(&trace, &settings, &mut |_| schedlab::engine::Control::Continue)
            .unwrap_or_else(|e| panic!("{policy}: {e}"))
            .record;
        assert_eq!(starts(&r), [0, 0, 0], "{policy}");
        assert_eq!(placed(&r, 2), [(0, 7), (1, 1), (2, 16)], "{policy}");
    }
}

/// The same machine: 40 CPUs on 2 nodes can never fit (the two largest
/// nodes hold 32), nor 20 CPUs on 4 nodes (the partition has 3), while 40
/// CPUs on 3 nodes can (16 + 16 + 8).
#[test]
fn a_spread_that_fits_no_partition_is_counted_by_reason() {
    let text = dump(&[
        (1, 0, 10, 1, 40, "batch", "cpu=40,node=2"),
        (2, 0, 10, 1, 20, "batch", "cpu=20,node=4"),
        (3, 0, 10, 1, 40, "batch", "cpu=40,node=3"),
    ]);
    let opts = ReadOptions { machine: Some(Machine::from_spec("batch:3x(cpu=16)").unwrap()), ..ReadOptions::default() };
    let loaded = read_swf(text.as_bytes(), &opts).unwrap();
    let m = loaded.report.machine.clone().expect("a machine section");
    let reasons: Vec<(String, u64)> = m.no_fit.iter().map(|n| (n.reason.clone(), n.jobs)).collect();
    assert_eq!(
        reasons,
        [
            ("asks for more nodes than partition `batch` has big enough".to_string(), 1),
            ("asks for more cpu than partition `batch`'s nodes have".to_string(), 1),
        ]
    );
    assert_eq!(loaded.trace.jobs.len(), 1);
}

/// The checker on the first case's run: J3 moved to two nodes, or given
/// a node with no task, fails it (and node 2 holding 17 cores is over).
#[test]
fn the_checker_rejects_a_spread_on_the_wrong_nodes() {
    let text = dump(&[
        (1, 0, 100, 2, 9, "batch", "cpu=9,node=1"),
        (2, 0, 100, 2, 15, "batch", "cpu=15,node=1"),
        (3, 0, 50, 2, 24, "batch", "cpu=24,node=3"),
    ]);
    let trace = read_on(&text, "batch:3x(cpu=16)");
    let cluster = trace.cluster.as_deref();
    let settings = schedlab::experiment::resolve(&request("fcfs")).unwrap();
    let good =
        schedlab::experiment::run(&trace, &settings, &mut |_| schedlab::engine::Control::Continue).unwrap().record;
    check_on(&trace.jobs, cluster, &good, &[]).unwrap();
    let messages = |slots: &[Slot]| {
        let mut bad = good.clone();
        bad.placements.as_mut().unwrap().set(2, slots);
        let e = check_on(&trace.jobs, cluster, &bad, &[]).unwrap_err();
        e.violations.iter().map(|v| v.message.clone()).collect::<Vec<String>>()
    };
    let two = messages(&[Slot { node: 0, units: 7 }, Slot { node: 2, units: 17 }]);
    assert_eq!(two, ["placed on 2 nodes, not the 3 it asks", "17 cpu in use on node 2 at t=0, which has 16"]);
    let empty = messages(&[Slot { node: 0, units: 7 }, Slot { node: 1, units: 0 }, Slot { node: 2, units: 17 }]);
    assert_eq!(
        empty,
        ["holds no task of a request spread over nodes on node 1", "17 cpu in use on node 2 at t=0, which has 16"]
    );
}
