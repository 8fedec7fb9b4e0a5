//! The Gantt by node (crates/schedlab-schedule, `node_rows.rs` and
//! `layout.rs`): a run on a machine of nodes is drawn on the rows of the
//! nodes its placement names, node after node. Hand-computed layouts, and
//! the layout's invariants checked by brute force on random runs: every
//! run's bands cover exactly the cores its placement holds on each node,
//! inside that node's rows, and no row holds two runs at once; the window
//! drawn from the record (`--gantt`) has the view's bands.

use schedlab::engine::{Control, RunRecord};
use schedlab::experiment;
use schedlab::schedule::{Band, Grid, NodeRows, ScheduleError, ScheduleView, WindowSchedule};
use schedlab::workload::{parse_slurm_conf, read_swf, Machine, ReadOptions, Trace};

use crate::support::request;

/// A Slurm dump of `rows` (JobIDRaw, submit offset s, ElapsedRaw, Partition,
/// ReqTRES), all with a 10-minute limit and completed; `ReqCPUS` (what the
/// reader takes the job's cores from) is the `cpu=` of its ReqTRES.
fn dump(rows: &[(u64, i64, i64, &str, String)]) -> String {
    let mut text = String::from("JobIDRaw|Submit|Start|ElapsedRaw|TimelimitRaw|ReqCPUS|User|Partition|State|ReqTRES\n");
    for (id, submit, elapsed, partition, tres) in rows {
        let at = format!("2024-03-01T{:02}:{:02}:{:02}", 10 + submit / 3600, submit / 60 % 60, submit % 60);
        let cpus = tres.split(',').find_map(|kv| kv.strip_prefix("cpu=")).unwrap_or("1");
        text += &format!("{id}|{at}|{at}|{elapsed}|10|{cpus}|u|{partition}|COMPLETED|{tres}\n");
    }
    text
}

fn read_on(text: &str, machine: Machine) -> Trace {
    let opts = ReadOptions { machine: Some(machine), ..ReadOptions::default() };
    read_swf(text.as_bytes(), &opts).unwrap_or_else(|e| panic!("{e}")).trace
}

fn run(trace: &Trace, spec: &str) -> RunRecord {
    let settings = experiment::resolve(&request(spec)).unwrap();
    experiment::run(trace, &settings, &mut |_| Control::Continue).unwrap_or_else(|e| panic!("{spec}: {e}")).record
}

fn view(trace: &Trace, record: RunRecord) -> ScheduleView {
    ScheduleView::new(&trace.jobs, trace.cluster.as_deref(), record, 10).expect("a checked run lays out")
}

fn band(lo: u32, hi: u32) -> Band {
    Band { lo, hi }
}

/// Job `j`'s bands in the view.
fn bands(v: &ScheduleView, j: u32) -> Vec<Band> {
    v.layout().bands(j).to_vec()
}

/// Partition `a` is node 0 (rows 0–3), `b` node 1 (rows 4–7). Job 1 takes
/// 2 cores of node 0 at 0, job 2 the 3 cores after them at 0 (the only
/// free interval, 2–7, from its low end), job 3 all of node 1 at 2; job 4
/// (4 cores of `a`) waits for jobs 1 and 2 and then has node 0 whole.
#[test]
fn runs_sit_on_the_rows_of_their_nodes() {
    let text = dump(&[
        (1, 0, 100, "a", "cpu=2,node=1".into()),
        (2, 0, 50, "a", "cpu=2,node=1".into()),
        (3, 2, 10, "b", "cpu=4,node=1".into()),
        (4, 3, 10, "a", "cpu=4,node=1".into()),
    ]);
    let trace = read_on(&text, Machine::from_spec("a:1x(cpu=4)+b:1x(cpu=4)").unwrap());
    let v = view(&trace, run(&trace, "fcfs"));
    assert_eq!(v.node_rows().expect("by node").first, [0, 4, 8]);
    assert_eq!(bands(&v, 0), [band(0, 2)]);
    assert_eq!(bands(&v, 1), [band(2, 4)]);
    assert_eq!(bands(&v, 2), [band(4, 8)]);
    assert_eq!(bands(&v, 3), [band(0, 4)]);
    assert_eq!(v.record().jobs[3].start, 100);
}

/// A job of two nodes in an exclusive partition holds both nodes whole
/// (rows 0–7 as two bands, one per node), though it asks for one core on
/// each; the next job has node 2.
#[test]
fn an_exclusive_job_covers_its_nodes_whole() {
    let conf = "NodeName=n[1-3] CPUs=4\nPartitionName=x Nodes=n[1-3] Default=YES OverSubscribe=EXCLUSIVE\n";
    let machine = Machine::from_slurm_conf(&parse_slurm_conf(conf).unwrap()).unwrap();
    let text = dump(&[(1, 0, 100, "x", "cpu=2,node=2".into()), (2, 0, 100, "x", "cpu=1,node=1".into())]);
    let trace = read_on(&text, machine);
    let v = view(&trace, run(&trace, "fcfs"));
    assert_eq!(bands(&v, 0), [band(0, 4), band(4, 8)]);
    assert_eq!(bands(&v, 1), [band(8, 12)]);
}

/// A run on nodes needs its machine to be drawn, and a run on processors
/// cannot be drawn by node: each is a typed error, not a wrong picture.
#[test]
fn a_run_and_a_machine_that_do_not_match_are_refused() {
    let text = dump(&[(1, 0, 100, "a", "cpu=2,node=1".into())]);
    let trace = read_on(&text, Machine::from_spec("a:1x(cpu=4)").unwrap());
    let record = run(&trace, "fcfs");
    let e = ScheduleView::new(&trace.jobs, None, record.clone(), 10).unwrap_err();
    assert_eq!(e, ScheduleError::MachineMissing);
    let mut on_processors = record;
    on_processors.placements = None;
    let e = ScheduleView::new(&trace.jobs, trace.cluster.as_deref(), on_processors, 10).unwrap_err();
    assert_eq!(e, ScheduleError::PlacementsMissing);
}

/// Random traces on three node types in two partitions, one exclusive,
/// under FCFS and EASY. By brute force over every pair of runs and every
/// slot: each run's bands lie in the rows of its placement's nodes and
/// cover on each exactly what its slot holds there; no row is held by two
/// runs at once (a run ending at a second frees its rows for runs
/// starting at it); the window drawn from the record gives the same bands.
#[test]
fn random_runs_by_node_keep_the_layouts_invariants() {
    let conf = "GresTypes=gpu\nNodeName=c[1-3] CPUs=8 RealMemory=32000\nNodeName=g[1-2] CPUs=16 RealMemory=64000 Gres=gpu:4\n\
                NodeName=w[1-2] CPUs=6 RealMemory=8000\n\
                PartitionName=batch Nodes=c[1-3],g[1-2] Default=YES\nPartitionName=whole Nodes=w[1-2] OverSubscribe=EXCLUSIVE\n";
    let machine = Machine::from_slurm_conf(&parse_slurm_conf(conf).unwrap()).unwrap();
    let mut rng = schedlab::engine::SplitMix64::new(11);
    for round in 0..30 {
        let mut rows = Vec::new();
        let mut submit = 0;
        for id in 1..=50 {
            submit += (rng.next_u64() % 15) as i64;
            let nodes = 1 + rng.next_u64() % 2;
            let cpus = nodes * (1 + rng.next_u64() % 6);
            let gpus = if rng.next_u64().is_multiple_of(4) { nodes * (rng.next_u64() % 3) } else { 0 };
            let tres = format!("cpu={cpus},mem={}G,node={nodes},gres/gpu={gpus}", 1 + rng.next_u64() % 6);
            let partition = if rng.next_u64().is_multiple_of(4) { "whole" } else { "batch" };
            let tres = if partition == "whole" { format!("cpu={cpus},node={nodes}") } else { tres };
            rows.push((id, submit, (rng.next_u64() % 400) as i64, partition, tres));
        }
        let trace = read_on(&dump(&rows), machine.clone());
        for policy in ["fcfs", "easy"] {
            let record = run(&trace, policy);
            let v = view(&trace, record.clone());
            check_layout(&trace, &v, &format!("round {round}, {policy}"));
            check_window(&trace, &v, &record);
        }
    }
}

fn check_layout(trace: &Trace, v: &ScheduleView, what: &str) {
    let cluster = trace.cluster.as_deref().unwrap();
    let rows = NodeRows::new(&cluster.machine);
    let record = v.record();
    let placements = record.placements.as_ref().unwrap();
    for j in 0..trace.jobs.len() as u32 {
        let request = cluster.request(j as usize);
        let mine = bands(v, j);
        assert!(mine.iter().all(|b| b.hi > b.lo), "{what}: job {j} has an empty band");
        for slot in placements.of(j) {
            let node = rows.rows(slot.node);
            let want = if request.exclusive { node.width() } else { (request.each[0] * u64::from(slot.units)) as u32 };
            let covered: u32 = mine.iter().filter(|b| b.lo >= node.lo && b.hi <= node.hi).map(|b| b.hi - b.lo).sum();
            assert_eq!(covered, want, "{what}: job {j} on node {}", slot.node);
        }
        let inside =
            |b: &Band| placements.of(j).iter().any(|s| b.lo >= rows.rows(s.node).lo && b.hi <= rows.rows(s.node).hi);
        assert!(mine.iter().all(inside), "{what}: job {j} drawn outside its nodes");
        let (s, e) = (record.jobs[j as usize].start, record.jobs[j as usize].end);
        for k in 0..j {
            let (s2, e2) = (record.jobs[k as usize].start, record.jobs[k as usize].end);
            if s < e2 && s2 < e && e > s && e2 > s2 {
                let theirs = bands(v, k);
                let overlap = mine.iter().any(|a| theirs.iter().any(|b| a.lo < b.hi && b.lo < a.hi));
                assert!(!overlap, "{what}: jobs {k} and {j} share a row while both run");
            }
        }
    }
}

/// `WindowSchedule` (`--gantt`) lays out the same bands as the view on a
/// few windows of the run.
fn check_window(trace: &Trace, v: &ScheduleView, record: &RunRecord) {
    let (first, last) = v.span().unwrap();
    let cluster = trace.cluster.as_deref();
    for k in 0..4 {
        let from = first + (last - first) * k / 4;
        let grid = Grid { from, to: from + (last - first) / 3 + 1, buckets: 7 };
        let w = WindowSchedule::new(&trace.jobs, cluster, record, &grid, usize::MAX, from).unwrap();
        let want = v.window(&trace.jobs, grid.from, grid.to, usize::MAX).unwrap();
        assert_eq!(w.window, want);
    }
}

/// A stress case for the node layout: 30,000 jobs of one to four nodes on
/// 1,000 nodes under FCFS lay out (each node's free cores are made only
/// when a job first lands on it, and a release finds its node by binary
/// search), every run covering exactly the cores its placement holds.
#[test]
fn thirty_thousand_jobs_on_a_thousand_nodes_lay_out() {
    let mut rng = schedlab::engine::SplitMix64::new(3);
    let mut rows = Vec::with_capacity(30_000);
    for id in 1..=30_000u64 {
        let nodes = 1 + rng.next_u64() % 4;
        let tres = format!("cpu={},node={nodes}", nodes * (1 + rng.next_u64() % 8));
        rows.push((id, (id as i64) * 7 / 10, (rng.next_u64() % 2000) as i64, "batch", tres));
    }
    let trace = read_on(&dump(&rows), Machine::from_spec("batch:1000x(cpu=8)").unwrap());
    assert_eq!(trace.jobs.len(), 30_000);
    let record = run(&trace, "fcfs");
    let v = view(&trace, record);
    let cluster = trace.cluster.as_deref().unwrap();
    let placements = v.record().placements.as_ref().unwrap();
    for j in 0..trace.jobs.len() as u32 {
        let held: u64 = placements.of(j).iter().map(|s| cluster.request(j as usize).each[0] * u64::from(s.units)).sum();
        let drawn: u64 = bands(&v, j).iter().map(|b| u64::from(b.hi - b.lo)).sum();
        assert_eq!(drawn, held, "job {j}");
    }
}
