//! Conservative (`cbf`) and composable (`backfill`) backfilling on a
//! machine of nodes (docs/semantics.md, "Machines of nodes"): schedules
//! computed by hand, runs that pass the checker on every node, and the
//! equalities that hold by construction (one node equals processors;
//! depth 1 in FCFS order equals EASY).

use schedlab::engine::SplitMix64;
use schedlab::workload::{read_swf, Machine, ReadOptions, Trace};

use crate::nodes::{dump, nodes_of, random_trace, read_on};
use crate::support::{run, starts};

/// Three nodes of 8 cores and 16 GiB; every job runs its whole limit.
/// Job 1 (2 cores, 12 GiB, 600 s) takes node 0 and job 2 (the same,
/// 1200 s) node 1, which leave 6 cores but 4 GiB each. Job 3 asks for two
/// nodes of 2 cores and 8 GiB for 60 s: cores would let it start at 0,
/// memory holds it until node 0 frees at 600 (nodes 0 and 2). Job 4 (8
/// cores, 300 s) arrives at 1 and fits on node 2 before job 3's window;
/// job 5 (1 core, 1 GiB, 600 s) arrives at 2 and fits on node 0 beside
/// job 1 and then job 3 (6 cores and 8 GiB left over 600–660).
#[test]
fn memory_not_cores_delays_a_reservation() {
    let text = dump(&[
        (1, 0, 600, 10, 2, "all", "cpu=2,mem=12G,node=1"),
        (2, 0, 1200, 20, 2, "all", "cpu=2,mem=12G,node=1"),
        (3, 0, 60, 1, 4, "all", "cpu=4,mem=16G,node=2"),
        (4, 1, 300, 5, 8, "all", "cpu=8,mem=1G,node=1"),
        (5, 2, 600, 10, 1, "all", "cpu=1,mem=1G,node=1"),
    ]);
    let trace = read_on(&text, "3x(cpu=8,mem=16G)");
    for policy in ["cbf", "backfill:depth=3"] {
        let r = run(&trace, policy).record;
        assert_eq!(starts(&r), [0, 0, 600, 1, 2], "{policy}");
        assert_eq!(r.jobs[2].first_reservation, Some(600), "{policy}");
        let placed: Vec<Vec<u32>> = (0..5).map(|j| nodes_of(&r, j)).collect();
        assert_eq!(placed, [vec![0], vec![1], vec![0, 2], vec![2], vec![0]], "{policy}");
    }
}

/// Three nodes of 4 cores; every job runs its whole limit. Jobs 1 (4
/// cores, 1200 s), 2 (3 cores, 1200 s) and 3 (2 cores, 300 s) take nodes
/// 0, 1 and 2. Job 4 (4 cores, 600 s) is reserved on node 2 at 300. Job 5
/// (1 core, 600 s, at 1) would cross that reservation on node 2, so it
/// starts on node 1's last core; job 6 (2 cores, 240 s, at 2) ends before
/// 300 and starts beside job 3 on node 2.
#[test]
fn a_later_job_backfills_around_a_reservation_on_another_node() {
    let text = dump(&[
        (1, 0, 1200, 20, 4, "all", "cpu=4,node=1"),
        (2, 0, 1200, 20, 3, "all", "cpu=3,node=1"),
        (3, 0, 300, 5, 2, "all", "cpu=2,node=1"),
        (4, 0, 600, 10, 4, "all", "cpu=4,node=1"),
        (5, 1, 600, 10, 1, "all", "cpu=1,node=1"),
        (6, 2, 240, 4, 2, "all", "cpu=2,node=1"),
    ]);
    let trace = read_on(&text, "3x(cpu=4)");
    for policy in ["cbf", "backfill", "backfill:depth=2", "easy"] {
        let r = run(&trace, policy).record;
        assert_eq!(starts(&r), [0, 0, 0, 300, 1, 2], "{policy}");
        assert_eq!(r.jobs[3].first_reservation, Some(300), "{policy}");
        let placed: Vec<Vec<u32>> = (0..6).map(|j| nodes_of(&r, j)).collect();
        assert_eq!(placed, [vec![0], vec![1], vec![2], vec![2], vec![1], vec![2]], "{policy}");
    }
}

/// Partition `a` is node 0, `b` node 1, 4 cores each. Job 1 holds `a`
/// until its limit of 120 s but ends at 100; job 2, reserved in `a` at
/// 120, moves to 100 when the schedule is compressed, while job 3 in `b`
/// starts at once at 2.
#[test]
fn a_full_partition_waits_while_another_idles_and_compresses() {
    let text = dump(&[
        (1, 0, 100, 2, 4, "a", "cpu=4,node=1"),
        (2, 0, 10, 1, 4, "a", "cpu=4,node=1"),
        (3, 2, 10, 1, 4, "b", "cpu=4,node=1"),
    ]);
    let trace = read_on(&text, "a:1x(cpu=4)+b:1x(cpu=4)");
    for policy in ["cbf", "backfill:depth=4"] {
        let r = run(&trace, policy).record;
        assert_eq!(starts(&r), [0, 100, 2], "{policy}");
        assert_eq!(r.jobs[1].first_reservation, Some(120), "{policy}");
        assert_eq!((nodes_of(&r, 1), nodes_of(&r, 2)), (vec![0], vec![1]), "{policy}");
    }
}

/// An archive trace read as `procs` processors and as one node of `procs`
/// cores (its jobs become tasks of one core).
fn both_models(text: &str, procs: u32) -> (Trace, Trace) {
    let on_procs = ReadOptions { machine_size: Some(procs), ..ReadOptions::default() };
    let machine = Machine::from_spec(&format!("1x(cpu={procs})")).unwrap();
    let on_node = ReadOptions { machine: Some(machine), ..ReadOptions::default() };
    let read = |o: &ReadOptions| read_swf(text.as_bytes(), o).unwrap_or_else(|e| panic!("{e}")).trace;
    (read(&on_procs), read(&on_node))
}

/// A random SWF trace of 150 jobs on 32 processors, runtimes often well
/// short of their estimates (so that schedules compress).
fn random_swf(rng: &mut SplitMix64) -> String {
    let mut text = String::from("; MaxProcs: 32\n");
    let mut submit = 0;
    for id in 1..=150 {
        submit += rng.next_u64() % 40;
        let size = 1 + rng.next_u64() % 32;
        let estimate = 10 + rng.next_u64() % 900;
        let runtime = rng.next_u64() % (estimate + 1);
        text += &format!("{id} {submit} -1 {runtime} {size} -1 -1 {size} {estimate} -1 1 {} 1 1 1 -1 -1 -1\n", id % 5);
    }
    text
}

/// On a machine of one node the node profile is the processor profile, so
/// `cbf` (and `backfill` at depths 2 and `all`, in orders fixed at arrival
/// and in orders scored again at every pass) give the same starts and
/// reservations on both models: random traces and the KTH sample.
#[test]
fn one_node_equals_processors() {
    let mut rng = SplitMix64::new(31);
    let mut cases: Vec<(String, u32)> = (0..6).map(|_| (random_swf(&mut rng), 32)).collect();
    let kth = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/kth-sp2-first3000.swf")).unwrap();
    cases.push((kth, 100));
    for (i, (text, procs)) in cases.iter().enumerate() {
        let (p, n) = both_models(text, *procs);
        for policy in [
            "cbf",
            "cbf@exact",
            "cbf@last",
            "backfill:depth=2",
            "backfill:depth=all,order=sjf",
            "backfill:depth=2,order=wfp3",
            "backfill:fill=hold,order=unicep",
            "backfill:fill=none,order=wfp3",
            "backfill:depth=3,order=sjf@last",
        ] {
            let (a, b) = (run(&p, policy).record, run(&n, policy).record);
            assert_eq!(starts(&a), starts(&b), "case {i}, {policy}");
            let reservations =
                |r: &schedlab::engine::RunRecord| -> Vec<_> { r.jobs.iter().map(|j| j.first_reservation).collect() };
            assert_eq!(reservations(&a), reservations(&b), "case {i}, {policy}");
        }
    }
}

/// Random traces on nodes: every run of `cbf` and `backfill` passes the
/// run checker (every resource of every node at every instant); at depth
/// 1 in FCFS order, `backfill` is EASY (same reservation, same first-fit
/// nodes for jobs that end by it, the same nodes left to the others), so
/// the two give the same schedule, node for node.
#[test]
fn random_runs_on_nodes_pass_the_checker_and_depth_one_is_easy() {
    let mut rng = SplitMix64::new(11);
    for round in 0..30 {
        let trace = random_trace(&mut rng);
        let policies = ["cbf", "cbf@exact", "backfill:depth=3", "backfill:depth=all,order=sjf", "backfill:fill=hold"];
        let rescored = ["backfill:depth=3,order=wfp3", "backfill:fill=hold,order=unicep", "backfill:order=sjf@last"];
        for policy in policies.into_iter().chain(rescored) {
            run(&trace, policy);
        }
        for source in ["", "@exact"] {
            let easy = run(&trace, &format!("easy{source}")).record;
            let depth1 = run(&trace, &format!("backfill{source}")).record;
            assert_eq!(starts(&easy), starts(&depth1), "round {round}{source}");
            let all = |r| (0..trace.jobs.len() as u32).map(|j| nodes_of(r, j)).collect::<Vec<_>>();
            assert_eq!(all(&easy), all(&depth1), "round {round}{source}");
        }
    }
}
