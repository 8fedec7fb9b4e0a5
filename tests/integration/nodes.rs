//! Machines of nodes (docs/semantics.md, "Machines of nodes"): schedules
//! computed by hand where memory, GPUs or a partition, not cores, decide
//! when a job starts; the jobs that fit no partition; the run checker on
//! every node; the Slurm dump with TRES columns in tests/fixtures.

use schedlab::engine::{Control, RunRecord, Slot, Time};
use schedlab::experiment;
use schedlab::workload::{read_swf, Machine, ReadOptions, Trace};

use crate::support::{request, starts};

/// A Slurm dump of `rows` (JobIDRaw|Submit offset s|ElapsedRaw|TimelimitRaw
/// minutes|ReqCPUS|Partition|ReqTRES), all submitted on 2024-03-01 from
/// 10:00:00 and completed.
pub(crate) fn dump(rows: &[(u64, i64, i64, i64, u32, &str, &str)]) -> String {
    let mut text = String::from("JobIDRaw|Submit|Start|ElapsedRaw|TimelimitRaw|ReqCPUS|User|Partition|State|ReqTRES\n");
    for &(id, submit, elapsed, limit, cpus, partition, tres) in rows {
        let at = |s: i64| format!("2024-03-01T10:{:02}:{:02}", s / 60, s % 60);
        let (submitted, started) = (at(submit), at(submit));
        text += &format!("{id}|{submitted}|{started}|{elapsed}|{limit}|{cpus}|u|{partition}|COMPLETED|{tres}\n");
    }
    text
}

pub(crate) fn read_on(text: &str, machine: &str) -> Trace {
    let opts = ReadOptions { machine: Some(Machine::from_spec(machine).unwrap()), ..ReadOptions::default() };
    read_swf(text.as_bytes(), &opts).unwrap_or_else(|e| panic!("{e}")).trace
}

fn run(trace: &Trace, spec: &str) -> RunRecord {
    let settings = experiment::resolve(&request(spec)).unwrap();
    experiment::run(trace, &settings, &mut |_| Control::Continue).unwrap_or_else(|e| panic!("{spec}: {e}")).record
}

pub(crate) fn nodes_of(record: &RunRecord, j: u32) -> Vec<u32> {
    record.placements.as_ref().unwrap().of(j).iter().map(|s: &Slot| s.node).collect()
}

/// One node of 8 cores and 16 GiB. Job 1 takes 2 cores and 12 GiB for
/// 100 s; job 2 (2 cores, 8 GiB) finds 6 cores idle but 4 GiB free, so it
/// starts only at 100. On processors it would start at once.
#[test]
fn memory_not_cores_blocks_a_job() {
    let text =
        dump(&[(1, 0, 100, 10, 2, "all", "cpu=2,mem=12G,node=1"), (2, 0, 50, 10, 2, "all", "cpu=2,mem=8G,node=1")]);
    let trace = read_on(&text, "1x(cpu=8,mem=16G)");
    for policy in ["fcfs", "easy"] {
        assert_eq!(starts(&run(&trace, policy)), [0, 100], "{policy}");
    }
    let procs = read_swf(text.as_bytes(), &ReadOptions { machine_size: Some(8), ..ReadOptions::default() }).unwrap();
    assert_eq!(starts(&run(&procs.trace, "fcfs")), [0, 0], "on 8 processors memory is not modelled");
}

/// One node of 8 cores and 4 GPUs. Job 1 holds every GPU for 100 s; job 2
/// (1 core, 1 GPU) waits for them; job 3 (2 cores, no GPU, 500 s, past the
/// reservation at 100) is backfilled by EASY at 1 since the reservation
/// leaves 7 cores and 3 GPUs; FCFS keeps it behind job 2.
#[test]
fn gpus_not_cores_block_a_job_and_easy_backfills_around_them() {
    let text = dump(&[
        (1, 0, 100, 10, 1, "all", "cpu=1,gres/gpu=4,node=1"),
        (2, 0, 10, 10, 1, "all", "cpu=1,gres/gpu=1,node=1"),
        (3, 1, 500, 10, 2, "all", "cpu=2,node=1"),
    ]);
    let trace = read_on(&text, "1x(cpu=8,gpu=4)");
    assert_eq!(starts(&run(&trace, "easy")), [0, 100, 1]);
    assert_eq!(starts(&run(&trace, "fcfs")), [0, 100, 100]);
}

/// Partition `a` is node 0, `b` node 1, 4 cores each. Job 2 waits for
/// job 1 in `a` while node 1 idles; job 3 in `b` starts at once.
#[test]
fn a_full_partition_waits_while_another_idles() {
    let text = dump(&[
        (1, 0, 100, 10, 4, "a", "cpu=4,node=1"),
        (2, 0, 10, 10, 4, "a", "cpu=4,node=1"),
        (3, 2, 10, 10, 4, "b", "cpu=4,node=1"),
    ]);
    let trace = read_on(&text, "a:1x(cpu=4)+b:1x(cpu=4)");
    let r = run(&trace, "easy");
    assert_eq!(starts(&r), [0, 100, 2]);
    assert_eq!((nodes_of(&r, 0), nodes_of(&r, 1), nodes_of(&r, 2)), (vec![0], vec![0], vec![1]));
}

/// Two nodes of 4 cores. Job 2 needs both (its reservation is 120, when
/// job 1 is expected to end at its limit); job 3 (one node, a 240 s limit)
/// fits now on node 1 but would hold it past 120, so EASY does not start
/// it; job 4 (one node, a 60 s limit) ends by then and is backfilled on
/// node 1. Job 1 ends at 100, job 2 runs 100–110, then job 3.
#[test]
fn easy_keeps_the_nodes_the_reservation_needs() {
    let text = dump(&[
        (1, 0, 100, 2, 4, "all", "cpu=4,node=1"),
        (2, 0, 10, 1, 8, "all", "cpu=8,node=2"),
        (3, 0, 200, 4, 4, "all", "cpu=4,node=1"),
        (4, 0, 50, 1, 4, "all", "cpu=4,node=1"),
    ]);
    let trace = read_on(&text, "2x(cpu=4)");
    let r = run(&trace, "easy");
    assert_eq!(starts(&r), [0, 100, 110, 0]);
    assert_eq!(nodes_of(&r, 1), [0, 1]);
    assert_eq!(nodes_of(&r, 3), [1]);
    assert_eq!(r.jobs[1].first_reservation, Some(120), "job 1 is expected to end at its 2-minute limit");
}

/// Jobs that can never run are dropped and counted by reason.
#[test]
fn jobs_that_fit_no_partition_are_counted_by_reason() {
    let text = dump(&[
        (1, 0, 10, 1, 4, "cpu", "cpu=4,node=1"),
        (2, 0, 10, 1, 1, "cpu", "cpu=1,gres/gpu=1,node=1"),
        (3, 0, 10, 1, 4, "cpu", "cpu=8,node=2"),
        (4, 0, 10, 1, 1, "debug", "cpu=1,node=1"),
        (5, 0, 10, 1, 1, "gpu", "cpu=1,mem=64G,gres/gpu=1,node=1"),
    ]);
    let loaded = read_swf(
        text.as_bytes(),
        &ReadOptions {
            machine: Some(Machine::from_spec("cpu:1x(cpu=4,mem=8G)+gpu:1x(cpu=4,mem=32G,gpu=2)").unwrap()),
            ..ReadOptions::default()
        },
    )
    .unwrap();
    let m = loaded.report.machine.clone().expect("a machine section");
    let reasons: Vec<(String, u64)> = m.no_fit.iter().map(|n| (n.reason.clone(), n.jobs)).collect();
    assert_eq!(
        reasons,
        [
            ("partition `debug` is not in the machine".to_string(), 1),
            ("asks for more nodes than partition `cpu` has big enough".to_string(), 1),
            ("asks for more gpu than partition `cpu`'s nodes have".to_string(), 1),
            ("asks for more mem than partition `gpu`'s nodes have".to_string(), 1),
        ]
    );
    assert_eq!((loaded.trace.jobs.len(), loaded.report.jobs_kept), (1, 1));
    assert_eq!(loaded.report.summary(), "no_fit 4");
}

/// Policies that count processors only refuse a machine of nodes, saying why.
#[test]
fn processor_policies_refuse_a_machine_of_nodes() {
    let trace = read_on(&dump(&[(1, 0, 10, 1, 1, "all", "cpu=1,node=1")]), "2x(cpu=4)");
    for policy in ["pv-easy", "selective", "dbf", "slack"] {
        let settings = experiment::resolve(&request(policy)).unwrap();
        let e = experiment::run(&trace, &settings, &mut |_| Control::Continue).unwrap_err().to_string();
        assert!(e.starts_with(&format!("policy `{policy}` refuses a machine of nodes: ")), "{e}");
    }
}

/// Random traces on a machine of three node types and two partitions:
/// every run of FCFS, EASY and Slurm passes the run checker (every
/// resource of every node at every instant), and EASY with estimates keeps
/// its reservations.
#[test]
fn random_runs_on_nodes_pass_the_checker() {
    let mut rng = schedlab::engine::SplitMix64::new(7);
    for round in 0..40 {
        let trace = random_trace(&mut rng);
        for policy in [
            "fcfs",
            "easy",
            "easy:order=shortest",
            "easy@exact",
            "slurm",
            "slurm:bf_interval=1,bf_resolution=1,bf_end_lag=0",
        ] {
            run(&trace, policy);
        }
        assert!(!trace.jobs.is_empty(), "round {round}");
    }
}

/// 60 random jobs of one to three nodes, some with GPUs, on a machine of
/// three node types in two partitions.
pub(crate) fn random_trace(rng: &mut schedlab::engine::SplitMix64) -> Trace {
    let mut rows = Vec::new();
    let mut submit = 0;
    for id in 1..=60 {
        submit += (rng.next_u64() % 20) as i64;
        let nodes = 1 + rng.next_u64() % 3;
        let cpus = nodes * (1 + rng.next_u64() % 8);
        let gpus = if rng.next_u64().is_multiple_of(3) { nodes * (rng.next_u64() % 3) } else { 0 };
        let mem = 1 + rng.next_u64() % 24;
        let elapsed = (rng.next_u64() % 600) as i64;
        let partition = if rng.next_u64().is_multiple_of(4) { "gpu" } else { "batch" };
        let tres = format!("cpu={cpus},mem={mem}G,node={nodes},gres/gpu={gpus}");
        rows.push((id, submit, elapsed, 10 + (rng.next_u64() % 10) as i64, cpus as u32, partition, tres));
    }
    let rows: Vec<_> = rows.iter().map(|r| (r.0, r.1, r.2, r.3, r.4, r.5, r.6.as_str())).collect();
    read_on(&dump(&rows), "batch:3x(cpu=8,mem=32G)+gpu:2x(cpu=16,mem=64G,gpu=4)")
}

/// The dump with TRES columns in tests/fixtures and its slurm.conf: the
/// cleaning report (hand-counted in tests/fixtures/README.md) and the
/// replay by node.
#[test]
fn the_tres_fixture_replays_by_node() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/slurm/");
    let conf = std::fs::read_to_string(format!("{dir}cluster.conf")).unwrap();
    let machine = Machine::from_slurm_conf(&schedlab::workload::parse_slurm_conf(&conf).unwrap()).unwrap();
    assert_eq!(machine.resources, ["cpu", "mem", "gpu"]);
    let text = std::fs::read(format!("{dir}sacct-tres.txt")).unwrap();
    let loaded = read_swf(&text[..], &ReadOptions { machine: Some(machine), ..ReadOptions::default() }).unwrap();
    let m = loaded.report.machine.clone().unwrap();
    assert_eq!(m.dropped(), 2);
    let r = run(&loaded.trace, "easy");
    let expected: Vec<Time> = EXPECTED_TRES_STARTS.to_vec();
    assert_eq!(starts(&r), expected);
}

/// Computed by hand in tests/fixtures/README.md ("sacct-tres.txt").
const EXPECTED_TRES_STARTS: [Time; 7] = [0, 10, 310, 600, 40, 600, 310];

/// The checker on nodes is not a formality: a record moved onto a node
/// that is already full, or outside the job's partition, fails it.
#[test]
fn the_checker_finds_overfull_nodes_and_foreign_partitions() {
    let text = dump(&[(1, 0, 100, 10, 4, "a", "cpu=4,node=1"), (2, 0, 100, 10, 4, "b", "cpu=4,node=1")]);
    let trace = read_on(&text, "a:1x(cpu=4)+b:1x(cpu=4)");
    let cluster = trace.cluster.as_deref();
    let good = run(&trace, "fcfs");
    assert_eq!(starts(&good), [0, 0]);
    schedlab::engine::check_on(&trace.jobs, cluster, &good, &[]).unwrap();
    let mut moved = good.clone();
    moved.placements.as_mut().unwrap().set(1, &[Slot { node: 0, units: 1 }]);
    let e = schedlab::engine::check_on(&trace.jobs, cluster, &moved, &[]).unwrap_err();
    let messages: Vec<&str> = e.violations.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(messages, ["placed on node 0, outside its partition", "8 cpu in use on node 0 at t=0, which has 4"]);
}

/// The machine metrics of the full-partition case, by hand: the run spans
/// 0–110; cores held 4 × 100 + 4 × 10 in `a`, 4 × 10 in `b`, of 8 cores;
/// `a`'s waits are 0 and 100 (BSD 1 and 110 / 10), `b`'s 0.
#[test]
fn machine_metrics_per_resource_and_partition() {
    let text = dump(&[
        (1, 0, 100, 10, 4, "a", "cpu=4,node=1"),
        (2, 0, 10, 10, 4, "a", "cpu=4,node=1"),
        (3, 2, 10, 10, 4, "b", "cpu=4,node=1"),
    ]);
    let trace = read_on(&text, "a:1x(cpu=4)+b:1x(cpu=4)");
    let settings = experiment::resolve(&request("easy")).unwrap();
    let outcome = experiment::run(&trace, &settings, &mut |_| Control::Continue).unwrap();
    let m = outcome.metrics.machine.expect("machine metrics");
    assert_eq!(m.resources.len(), 1);
    assert_eq!((m.resources[0].resource.as_str(), m.resources[0].utilization), ("cpu", 480.0 / 880.0));
    let a = &m.partitions[0];
    assert_eq!((a.partition.as_str(), a.jobs, a.mean_wait, a.mbs, a.utilization), ("a", 2, 50.0, 6.0, 1.0));
    let b = &m.partitions[1];
    assert_eq!((b.jobs, b.mean_wait, b.mbs, b.utilization), (1, 0.0, 1.0, 40.0 / 440.0));
}

/// A Batsim job's `res` is a count of cores, as SWF's processors; on a
/// machine of one-core nodes (Batsim's own platforms, where a resource is
/// a host) that is a count of hosts. Four one-core nodes: job 1 holds two
/// for 100 s from 0; job 2 asks three at 1 and waits for job 1's end (100);
/// job 3 asks one at 2 for 50 s: EASY backfills it on node 2 (it ends at
/// 52, before the reservation at 100), so job 2 takes nodes 0–2 at 100;
/// FCFS keeps job 3 behind job 2, which at 100 takes nodes 0–2 and leaves
/// the fourth to job 3 at the same second.
#[test]
fn a_batsim_job_asks_cores_which_are_hosts_on_one_core_nodes() {
    let text = r#"{"nb_res": 4, "jobs": [
        {"id": 1, "subtime": 0, "res": 2, "profile": "p100"},
        {"id": 2, "subtime": 1, "res": 3, "profile": "p10"},
        {"id": 3, "subtime": 2, "res": 1, "profile": "p50"}],
      "profiles": {"p100": {"type": "delay", "delay": 100}, "p10": {"type": "delay", "delay": 10},
                   "p50": {"type": "delay", "delay": 50}}}"#;
    let trace = read_on(text, "4x(cpu=1)");
    let easy = run(&trace, "easy");
    assert_eq!(starts(&easy), [0, 100, 2]);
    assert_eq!((nodes_of(&easy, 0), nodes_of(&easy, 1), nodes_of(&easy, 2)), (vec![0, 1], vec![0, 1, 2], vec![2]));
    let fcfs = run(&trace, "fcfs");
    assert_eq!(starts(&fcfs), [0, 100, 100]);
    assert_eq!((nodes_of(&fcfs, 1), nodes_of(&fcfs, 2)), (vec![0, 1, 2], vec![3]));
}
