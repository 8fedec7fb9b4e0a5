//! Batsim workloads, versions 4 and 5, against the SWF they were
//! converted from, and the errors that name what Schedlab cannot replay.

use super::*;
use crate::*;

#[test]
fn v4_and_v5_give_the_jobs_of_their_swf() {
    let swf = read(&fixture("batsim/source.swf"), &ReadOptions::default()).expect("swf");
    for name in ["batsim/workload-v4.json", "batsim/workload-v5.json"] {
        let l = read(&fixture(name), &ReadOptions::default()).expect(name);
        assert_eq!(l.format, TraceFormat::Batsim, "{name}");
        assert_eq!(l.trace.procs, 8, "{name}: nb_res");
        assert_eq!(l.trace.jobs, swf.trace.jobs, "{name}");
        assert_eq!(l.trace.extras, swf.trace.extras, "{name}");
        assert_eq!((l.report.no_estimate, l.report.jobs_kept), (1, 6), "{name}");
    }
    let v5 = read(&fixture("batsim/workload-v5.json"), &ReadOptions::default()).expect("v5");
    assert_eq!(v5.report.fractional_rounded, 2, "subtime 15.2 and delay 9.7");
}

fn workload(jobs: &str, profiles: &str) -> String {
    format!("{{\"nb_res\": 4, \"jobs\": [{jobs}], \"profiles\": {{{profiles}}}}}")
}

#[test]
fn what_cannot_be_replayed_is_refused_by_name() {
    let job = r#"{"id": 7, "subtime": 0, "res": 1, "profile": "p"}"#;
    let cases = [
        (
            workload(job, r#""p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}"#),
            "Batsim workload, job 7 (jobs[0]): its profile `p` has type `parallel_homogeneous`: Schedlab replays only delay profiles",
        ),
        (workload(job, r#""q": {"type": "delay", "delay": 5}"#), "its profile `p` is not among the workload's profiles"),
        (workload(job, r#""p": {"type": "DelayProfile"}"#), "its profile `p` has no delay"),
        (
            workload(r#"{"id": "a!b", "subtime": 0, "res": 1, "profile": "p"}"#, r#""p": {"type": "delay", "delay": 5}"#),
            "job \"a!b\" (jobs[0]): the id is not a number",
        ),
        (
            workload(r#"{"id": 1, "subtime": -3, "res": 1, "profile": "p"}"#, r#""p": {"type": "delay", "delay": 5}"#),
            "subtime -3 is not a time in seconds",
        ),
        (workload("", r#""p": {"type": "delay", "delay": 5}"#), "Batsim workload, jobs: the workload has no job"),
        ("{\"nb_res\": 4,\n \"jobs\": [}".to_owned(), "Batsim workload, line 2, column 11: expected value"),
        (workload(r#"{"id": 1, "res": 1, "profile": "p"}"#, ""), "missing field `subtime`"),
    ];
    for (text, want) in cases {
        let err = read(text.as_bytes(), &ReadOptions::default()).expect_err(want);
        assert!(err.to_string().contains(want), "got `{err}`, want `{want}`");
    }
}

#[test]
fn the_options_still_apply() {
    let opts = ReadOptions { machine_size: Some(4), ..ReadOptions::default() };
    let l = read(&fixture("batsim/workload-v4.json"), &opts).expect("v4 on 4");
    assert_eq!((l.trace.procs, l.report.oversized_dropped), (4, 2), "jobs 2 (8) and 6 (6) do not fit");
}
