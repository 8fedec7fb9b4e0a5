//! Composable backfilling against EASY: at depth 1 in FCFS order it is the
//! same policy, so every per-job output byte must agree, under every
//! runtime source and overrun rule, on the bundled sample and on every
//! shared trace (`$SCHEDLAB_TRACES`); and where its SJF order differs from
//! SJF-EASY's, a hand-computed schedule shows why.

use schedlab::experiment::write_jobs_csv;
use schedlab::workload::{ReadOptions, Trace};

use crate::full_traces::{machine_size, trace_files};
use crate::identity::read;
use crate::support::{run_seeded, starts, trace};

/// Runtime sources and overrun rules, as `@SOURCE` suffixes and extra
/// parameters of a spec.
const SOURCES: &[(&str, &str)] = &[
    ("", "@estimate"),
    ("", "@exact"),
    ("", "@last"),
    ("", "@tsafrir"),
    ("error=30", "@virtual"),
    ("overrun=stale", "@last"),
    ("overrun=double", "@tsafrir"),
];

fn jobs_csv(trace: &Trace, spec: &str) -> Vec<u8> {
    let out = run_seeded(trace, spec, 1);
    let mut csv = Vec::new();
    write_jobs_csv(&mut csv, trace, &out.record, 10).expect("in memory");
    csv
}

fn spec(policy: &str, params: &[&str], source: &str) -> String {
    let params: Vec<&str> = params.iter().copied().filter(|p| !p.is_empty()).collect();
    if params.is_empty() {
        format!("{policy}{source}")
    } else {
        format!("{policy}:{}{source}", params.join(","))
    }
}

/// `backfill` at depth 1 in FCFS order and `easy` give the same per-job
/// CSV under every source of `sources`.
fn same_as_easy(name: &str, trace: &Trace, sources: &[(&str, &str)]) {
    for &(extra, source) in sources {
        let easy = spec("easy", &[extra], source);
        let ours = spec("backfill", &["depth=1", "order=fcfs", extra], source);
        assert!(jobs_csv(trace, &easy) == jobs_csv(trace, &ours), "{name}: {ours} differs from {easy}");
    }
}

#[test]
fn depth_one_in_fcfs_order_is_easy_on_the_sample() {
    same_as_easy("sample", &crate::golden_sample(), SOURCES);
}

#[test]
fn depth_one_in_fcfs_order_is_easy_on_every_shared_trace() {
    let Some(files) = trace_files() else {
        eprintln!("SCHEDLAB_TRACES is not set: full-trace test skipped");
        return;
    };
    for path in files {
        let opts = ReadOptions { machine_size: machine_size(&path), ..ReadOptions::default() };
        same_as_easy(&path.display().to_string(), &read(&path, &opts), &SOURCES[..3]);
    }
}

/// SJF-EASY (`easy:order=shortest`) keeps the reservation for the oldest
/// blocked job and only tries the others shortest first; the SJF order at
/// depth 1 sorts the whole queue, so the reservation goes to the shortest
/// blocked job. The two agree only where the oldest blocked job is also
/// the shortest. Ten processors: J1 (6, 100 s) runs; J2 (8, 500 s) and
/// J3 (8, 50 s) are blocked. SJF-EASY reserves for J2 at 100 and J3 waits
/// until J2 ends at 600; the SJF order reserves for J3 at 100, and J2
/// starts when J3 ends, at 150.
#[test]
fn sjf_at_depth_one_reserves_for_the_shortest_blocked_job_where_sjf_easy_keeps_the_oldest() {
    let t = trace(10, &[(0, 100, 6, 100, 1), (1, 500, 8, 500, 1), (2, 50, 8, 50, 1)]);
    assert_eq!(starts(&run_seeded(&t, "easy:order=shortest", 0).record), vec![0, 100, 600]);
    assert_eq!(starts(&run_seeded(&t, "backfill:order=sjf", 0).record), vec![0, 150, 100]);
}

/// In strict order (`fill=none`) by FCFS no job passes the oldest waiting
/// one: the schedule of `fcfs`, job by job, on the sample and on every
/// shared trace.
#[test]
fn strict_fcfs_order_is_fcfs() {
    let mut traces = vec![("sample".to_string(), crate::golden_sample())];
    for path in trace_files().unwrap_or_default() {
        let opts = ReadOptions { machine_size: machine_size(&path), ..ReadOptions::default() };
        traces.push((path.display().to_string(), read(&path, &opts)));
    }
    for (name, trace) in &traces {
        let strict = run_seeded(trace, "backfill:fill=none,order=fcfs", 1);
        let fcfs = run_seeded(trace, "fcfs", 1);
        assert!(starts(&strict.record) == starts(&fcfs.record), "{name}: strict FCFS order differs from fcfs");
    }
}
