//! Slurm accounting dumps: every rule on the hand-written fixture, against
//! its hand-converted SWF, and the errors that name a line and a column.

use super::*;
use crate::*;

fn sixteen() -> ReadOptions {
    ReadOptions { machine_size: Some(16), ..ReadOptions::default() }
}

fn dump() -> Loaded {
    read(&fixture("slurm/sacct-rules.txt"), &sixteen()).expect("sacct dump")
}

#[test]
fn a_dump_gives_the_jobs_of_its_hand_converted_swf() {
    let l = dump();
    let swf = read(&fixture("slurm/sacct-rules.swf"), &sixteen()).expect("swf");
    assert_eq!((l.format, swf.format), (TraceFormat::Sacct, TraceFormat::Swf));
    assert_eq!(l.trace.jobs, swf.trace.jobs);
    assert_eq!(l.trace.extras, swf.trace.extras);
    assert_eq!(l.header.unix_start_time, Some(1_709_287_200), "2024-03-01T10:00:00 UTC");
}

/// Counted by hand from the fixture (tests/fixtures/README.md): 15 job
/// lines make 14 jobs' worth of records (the array record 104_[3-5] stands
/// for 3, 110_[1-2] for 2; line 16 is bad), 7 of which are kept.
#[test]
fn the_report_counts_each_rule() {
    let r = dump().report;
    let slurm = r.slurm.as_ref().expect("slurm counts");
    assert_eq!(slurm.steps_folded, 3, "100.batch, 100.0, 105.batch");
    assert_eq!(slurm.array_tasks, 5, "104_[3-5] and 110_[1-2]");
    assert_eq!(slurm.cancelled_before_start, 5, "102, 103 and 104_[3-5]");
    assert_eq!(slurm.no_time_limit, 1, "101");
    assert_eq!((r.job_lines, r.jobs_kept), (14, 7));
    assert_eq!(r.unknown_runtime, 2, "110_[1-2] never started");
    assert_eq!((r.no_estimate, r.runtime_capped), (1, 1), "101 has no limit; 109 ran 130 s of 120");
    assert_eq!(r.bad_lines_total, 1);
    assert_eq!(
        r.bad_lines[0].to_string(),
        "line 16, column Submit: `2024-02-30T10:00:00` is not a date of the calendar"
    );
    assert_eq!(count(&r, "steps_folded"), 3, "the counts list the Slurm rules");
    assert_eq!(slurm.users, ["alice", "bob", "carol", "dave"]);
    assert_eq!(slurm.groups, ["staff", "physics"]);
    assert_eq!(slurm.partitions, ["batch", "debug"]);
    assert_eq!(slurm.qos, ["normal", "high"]);
}

/// 23 zone-less times: three on each of the eight lines whose submit,
/// start and end are all known, two on 102 and 104_[3-5] (no start), one
/// on 110_[1-2]; 107 (+01:00) and 108 (Z) have zones.
#[test]
fn zone_less_times_are_read_as_utc_with_a_warning() {
    let r = dump().report;
    let warning = r.warnings.iter().find(|w| w.contains("time zone")).expect("warned");
    assert!(warning.starts_with("23 times in the dump carry no time zone and were read as UTC"), "{warning}");
    let zoned = "JobIDRaw|Submit|Start|End|NCPUS\n1|2024-03-01T10:00:00Z|2024-03-01T10:00:00Z|2024-03-01T10:01:00Z|1\n";
    let l = read(zoned.as_bytes(), &ReadOptions::default()).expect("zoned");
    assert!(!l.report.warnings.iter().any(|w| w.contains("time zone")), "{:?}", l.report.warnings);
    assert_eq!(l.trace.jobs[0].runtime, 60, "End - Start when there is no ElapsedRaw");
}

#[test]
fn an_swf_report_lists_no_slurm_rule() {
    let l = read(text(&[jl(1, 0, 1, 1, 1)]).as_bytes(), &ReadOptions::default()).expect("swf");
    assert!(l.report.slurm.is_none());
    assert!(!l.report.counts().iter().any(|(k, _)| *k == "steps_folded"));
    assert!(!serde_json::to_string(&l.report).expect("json").contains("slurm"));
}

#[test]
fn errors_name_the_line_and_the_column() {
    let head = "JobIDRaw|Submit|Start|End|ElapsedRaw|TimelimitRaw|NCPUS\n";
    let cases = [
        (
            "x1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60|1|1",
            "line 2, column JobIDRaw: `x1` is not a job number",
        ),
        ("1|2024-03-01T10:00:00|2024-03-01T10:00:00|soon|60|1|1", "line 2, column End: `soon` is not a time"),
        (
            "1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|-5|1|1",
            "line 2, column ElapsedRaw: `-5` is not a number of seconds",
        ),
        (
            "1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60|1h|1",
            "line 2, column TimelimitRaw: `1h` is not a number of minutes",
        ),
        (
            "1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60|1|four",
            "line 2, column NCPUS: `four` is not a number of processors",
        ),
        ("1|2024-03-01T10:00:00|2024-03-01T10:00:00", "line 2: has 3 fields, the header has 7"),
        (
            "1.batch|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60||1",
            "line 2, column JobIDRaw: step `1.batch` does not follow the line of its job 1",
        ),
    ];
    for (line, want) in cases {
        let err = read(format!("{head}{line}\n").as_bytes(), &ReadOptions::default()).expect_err(want);
        assert!(err.to_string().contains(want), "got `{err}`, want `{want}`");
    }
    let err = read(b"JobIDRaw|Start|End|NCPUS\n1|a|b|1\n", &ReadOptions::default()).expect_err("no submit");
    assert!(err.to_string().starts_with("line 1 (the sacct header): no Submit column"), "{err}");
}

#[test]
fn a_dump_without_a_machine_size_takes_its_largest_job_and_says_why() {
    let l = read(&fixture("slurm/sacct-rules.txt"), &ReadOptions::default()).expect("dump");
    assert_eq!(l.trace.procs, 16);
    assert!(l.report.warnings.iter().any(|w| w.starts_with("a sacct dump does not say how many processors")));
}

#[test]
fn a_compressed_dump_is_sniffed_after_decompression() {
    let plain = fixture("slurm/sacct-rules.txt");
    let l = read(&gzip(&plain), &sixteen()).expect("gzip dump");
    assert_eq!(l.format, TraceFormat::Sacct);
    assert_eq!(l.trace.jobs, dump().trace.jobs);
}
