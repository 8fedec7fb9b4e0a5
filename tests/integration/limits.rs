//! Traces at the reader's limits (times of 2^40 s, machines of 2^31
//! processors) run under every policy configuration without overflow, and
//! values past the limits are dropped and counted by the reader, never
//! reported as a policy's fault.

use schedlab::workload::{read_swf, Loaded, ReadOptions, MAX_PROCS, MAX_TIME};

use crate::identity::SPECS;
use crate::support::run;

/// An SWF job line: number, submit, run time, size, requested time.
fn line(id: u64, submit: i64, runtime: i64, size: u64, estimate: i64) -> String {
    format!("{id} {submit} -1 {runtime} {size} -1 -1 {size} {estimate} -1 1 1 1 -1 1 1 -1 -1\n")
}

fn read(text: &str) -> Loaded {
    read_swf(text.as_bytes(), &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Jobs at the edges of every limit on a machine of 2^31 processors: the
/// whole machine for 2^40 s, a submit at 2^40 s, tiny jobs among them.
fn edge_trace() -> String {
    let p = u64::from(MAX_PROCS);
    let t = MAX_TIME;
    let mut text = format!("; MaxProcs: {p}\n");
    text += &line(1, 0, t, p, t);
    text += &line(2, 1, 1, 1, t);
    text += &line(3, 2, t / 2, p / 2, t);
    text += &line(4, t - 1, 1, p, 1);
    text += &line(5, t, t, 1, t);
    text += &line(6, t, 0, p, 1);
    text
}

#[test]
fn every_policy_runs_a_trace_at_the_limits() {
    let loaded = read(&edge_trace());
    assert_eq!((loaded.trace.procs, loaded.trace.jobs.len()), (MAX_PROCS, 6));
    assert_eq!(loaded.report.summary(), "nothing counted");
    let specs = SPECS.iter().copied().chain(["easy@exact", "cbf@tsafrir", "easy:error=100@virtual"]);
    for spec in specs {
        // `run` panics unless the engine and the run checker accept the run.
        let out = run(&loaded.trace, spec);
        let m = &out.metrics;
        assert!(m.utilization.is_finite() && m.utilization > 0.0 && m.utilization <= 1.0, "{spec}: {}", m.utilization);
        assert!(m.makespan >= 2 * MAX_TIME, "{spec}: makespan {}", m.makespan);
        assert!(m.mbs.is_finite() && m.mwbs.is_finite(), "{spec}");
    }
}

#[test]
fn values_past_the_limits_are_dropped_and_counted() {
    // The wrapping cases of the hostile-input report: a submit of 2^63 − 1,
    // 5e18 + 5e18, and a full-machine job whose request is near 2^63 (once
    // reported as "policy bug … needs 64 processors but only 60 are free").
    let mut text = String::from("; MaxProcs: 64\n");
    text += &line(1, 0, 100, 4, 100);
    text += &line(2, i64::MAX, 10, 4, 10);
    text += &line(3, 5_000_000_000_000_000_000, 5_000_000_000_000_000_000, 4, -1);
    text += &line(4, 10, 5, 64, i64::MAX - 7);
    text += &line(5, 15, 50, 64, 60);
    text += &line(6, 16, 1, u64::from(MAX_PROCS) + 1, 1);
    let loaded = read(&text);
    let counts: Vec<(&str, u64)> = loaded.report.counts().into_iter().filter(|c| c.1 > 0).collect();
    // Job 6 is larger than 2^31 and also than the 64-processor machine:
    // the limit applies first, as it is a per-line rule.
    assert_eq!(counts, vec![("time_out_of_range", 3), ("size_out_of_range", 1)]);
    let kept: Vec<u64> = loaded.trace.jobs.iter().map(|j| j.id).collect();
    assert_eq!(kept, vec![1, 5]);
    // The preemptive configurations (`mode=`) may suspend job 1 for job 5
    // and pay a cost; the others must give the hand-computed schedule.
    for spec in SPECS.iter().filter(|s| !s.contains("mode=")) {
        let out = run(&loaded.trace, spec);
        // Job 1 (4 processors, 100 s) and job 5 (the whole machine, 50 s,
        // submitted at 15) cannot overlap: job 5 starts at 100, ends at 150.
        assert_eq!(out.metrics.makespan, 150, "{spec}");
        let work = 4.0 * 100.0 + 64.0 * 50.0;
        assert!((out.metrics.utilization - work / (64.0 * 150.0)).abs() < 1e-12, "{spec}");
    }
}
