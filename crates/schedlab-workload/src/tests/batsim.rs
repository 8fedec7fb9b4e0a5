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

const DELAY: &str = r#""p": {"type": "delay", "delay": 5}"#;

fn job(id: u64) -> String {
    format!(r#"{{"id": {id}, "subtime": {id}, "res": 1, "profile": "p"}}"#)
}

/// The profiles may come first: each job's profile is looked up once
/// both are read, with the same result.
#[test]
fn profiles_before_the_jobs_read_the_same() {
    let after = read(workload(&job(1), DELAY).as_bytes(), &ReadOptions::default()).expect("after");
    let before = format!("{{\"profiles\": {{{DELAY}}}, \"nb_res\": 4, \"jobs\": [{}]}}", job(1));
    let before = read(before.as_bytes(), &ReadOptions::default()).expect("before");
    assert_eq!((before.trace.jobs, before.trace.procs), (after.trace.jobs, after.trace.procs));
}

/// The job limit stops the stream at the first job past it, whatever
/// follows (the whole document was parsed first: 484 MB for 3 M jobs).
#[test]
fn the_job_limit_stops_the_stream_at_the_first_job_past_it() {
    let jobs: Vec<String> = (1..=50).map(job).collect();
    let text = format!("{{\"nb_res\": 4, \"jobs\": [\n{}\n], \"profiles\": {{{DELAY}}}}}", jobs.join(",\n"));
    let opts = ReadOptions { max_jobs: 10, ..ReadOptions::default() };
    let err = read(text.as_bytes(), &opts).expect_err("50 jobs, limit 10");
    assert_eq!(err.to_string(), "the input holds more than 10 jobs, the job limit (refused at line 12)");
    // The text after the limit is never parsed: garbage there changes nothing.
    let cut = text.find(&job(12)).expect("job 12");
    let broken = format!("{}!!! not JSON", &text[..cut]);
    let err = read(broken.as_bytes(), &opts).expect_err("limit before the garbage");
    assert!(matches!(err, SwfError::TooManyJobs { limit: 10, .. }), "{err}");
    // Profiles are bounded by the same limit, wherever they come.
    let profiles: Vec<String> = (0..20).map(|i| format!(r#""p{i}": {{"type": "delay", "delay": 1}}"#)).collect();
    let text = format!("{{\"profiles\": {{{}}}, \"jobs\": [{}]}}", profiles.join(","), job(1));
    let err = read(text.as_bytes(), &opts).expect_err("20 profiles, limit 10");
    assert!(err.to_string().contains("more than 10 profiles, the job limit"), "{err}");
}

#[test]
fn a_profile_defined_twice_is_refused_with_its_place() {
    let text =
        workload(&job(1), "\"p\": {\"type\": \"delay\", \"delay\": 5},\n \"p\": {\"type\": \"delay\", \"delay\": 9}");
    let err = read(text.as_bytes(), &ReadOptions::default()).expect_err("twice");
    assert_eq!(err.to_string(), "Batsim workload, line 2, column 36: the profile `p` is defined twice");
}

#[test]
fn a_byte_order_mark_is_read_past() {
    let text = format!("\u{feff}{}", workload(&job(1), DELAY));
    let l = read(text.as_bytes(), &ReadOptions::default()).expect("BOM");
    assert_eq!((l.format, l.trace.jobs.len()), (TraceFormat::Batsim, 1));
}

/// `nb_res` of 0 or beyond the processor limit is warned and ignored, as
/// an SWF header's MaxProcs is (2^40 became 2^31 processors silently; 0
/// dropped every job as oversized).
#[test]
fn an_unusable_nb_res_is_warned_as_a_header_is() {
    for (nb_res, reason) in [("0", "is 0, not a machine size"), ("1099511627776", "is above the limit of 2147483648")] {
        let text = workload(&job(1), DELAY).replacen("\"nb_res\": 4", &format!("\"nb_res\": {nb_res}"), 1);
        let l = read(text.as_bytes(), &ReadOptions::default()).expect(nb_res);
        assert_eq!((l.trace.procs, l.report.jobs_kept), (1, 1), "{nb_res}: the largest job sets the machine");
        let warned = l.report.warnings.iter().any(|w| w.starts_with(&format!("nb_res `{nb_res}` {reason}")));
        assert!(warned, "{nb_res}: {:?}", l.report.warnings);
        assert!(l.report.warnings.iter().any(|w| w.starts_with("the workload's nb_res is unusable")));
    }
}

#[test]
fn a_top_level_array_is_named_as_json() {
    let err = read(format!("[{}]\n", job(1)).as_bytes(), &ReadOptions::default()).expect_err("array");
    assert!(err.to_string().contains("the document is a JSON array; a Batsim workload is a JSON object"), "{err}");
}

/// Text the document holds is quoted short, with its length: a 50 MB id
/// made a 52 MB error line.
#[test]
fn long_text_in_messages_is_cut_with_its_length() {
    let long = "x".repeat(100_000);
    let text = workload(&format!(r#"{{"id": "{long}", "subtime": 0, "res": 1, "profile": "p"}}"#), DELAY);
    let err = read(text.as_bytes(), &ReadOptions::default()).expect_err("long id").to_string();
    assert!(err.contains("… (100000 characters)") && err.len() < 300, "{err}");
    let text = workload(&format!(r#"{{"id": 1, "subtime": "{long}", "res": 1, "profile": "p"}}"#), DELAY);
    let err = read(text.as_bytes(), &ReadOptions::default()).expect_err("long subtime").to_string();
    assert!(err.contains("… (100000 characters)") && err.len() < 300, "{err}");
}

/// serde quotes a string it did not expect whole, escaping the quotes in
/// it; the message cuts it short at its real end, not at the first
/// escaped quote, so it stays short whatever the document holds (found
/// by the batsim_reader fuzz target: a 1,041-byte message).
#[test]
fn a_string_with_escaped_quotes_is_quoted_short() {
    let long = format!("{{\"jobs\": [\"{{\\\"a\\\":{}\\\"b\\\":{}\"]}}", "-".repeat(1000), "-".repeat(1000));
    let err = read_swf(long.as_bytes(), &ReadOptions::default()).expect_err("a job that is a string");
    let message = err.to_string();
    assert!(message.len() < 200, "{} bytes: {message}", message.len());
    // The string is `{"a":`, 1,000 dashes, `"b":` and 1,000 dashes: 2,009
    // characters, and four more for the backslashes serde prints before
    // its quotes.
    assert!(message.contains("… (2013 characters)\", expected"), "{message}");
}
