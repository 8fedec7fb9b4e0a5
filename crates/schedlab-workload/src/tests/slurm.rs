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

/// `--parsable` ends every line, the header's too, with a `|`; the job
/// line reads as with `--parsable2`, times in epoch seconds (`%s`) too.
#[test]
fn parsable_with_a_trailing_bar_and_epoch_seconds() {
    let text = "JobIDRaw|Submit|Start|End|ReqCPUS|TimelimitRaw|\n7|1709287200|1709287260|1709287320|2|5|\n";
    let l = read(text.as_bytes(), &ReadOptions::default()).expect("parsable");
    let j = l.trace.jobs[0];
    assert_eq!((j.id, j.submit, j.runtime, j.size, j.estimate), (7, 0, 60, 2, 300));
    assert_eq!(l.trace.extras[0].wait, 60);
    assert!(!l.report.warnings.iter().any(|w| w.contains("time zone")), "epoch seconds name their instant");
}

const HEAD: &str = "JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|ReqCPUS|User|State\n";

/// One array record of 20 million tasks, started and ended so that every
/// task would be kept: the job limit stops the reading at that line,
/// before a task is made (it took 4.7 GB).
#[test]
fn array_tasks_count_against_the_job_limit_before_they_are_made() {
    let line =
        "100|100_[0-19999999]|2024-03-01T10:00:00|2024-03-01T10:00:05|2024-03-01T10:10:05|600|4|alice|COMPLETED\n";
    let opts = ReadOptions { max_jobs: 1000, ..ReadOptions::default() };
    let err = read(format!("{HEAD}{line}").as_bytes(), &opts).expect_err("20 M tasks");
    assert_eq!(err.to_string(), "the input holds more than 1000 jobs, the job limit (refused at line 2)");
    // The default limit refuses one task more than it allows.
    let line = line.replace("19999999", "20000000");
    let err = read(format!("{HEAD}{line}").as_bytes(), &ReadOptions::default()).expect_err("20 M + 1 tasks");
    assert!(matches!(err, SwfError::TooManyJobs { limit: 20_000_000, line: 2 }), "{err}");
    // 2^64 tasks do not wrap to none: the count saturates and is refused.
    let line = line.replace("0-20000000", "0-18446744073709551615");
    let err = read(format!("{HEAD}{line}").as_bytes(), &ReadOptions::default()).expect_err("2^64 tasks");
    assert!(matches!(err, SwfError::TooManyJobs { line: 2, .. }), "{err}");
    // Pending tasks cancelled before they started are counted, not kept:
    // two records of 2^64 tasks saturate the counts rather than wrap them.
    let cancelled =
        "104|104_[0-18446744073709551615]|2024-03-01T10:03:00|None|2024-03-01T10:21:00|1|carol|CANCELLED by 1\n";
    let kept = "8|8|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60|1|alice|COMPLETED\n";
    let l = read(format!("{HEAD}{cancelled}{cancelled}{kept}").as_bytes(), &ReadOptions::default()).expect("one job");
    let slurm = l.report.slurm.as_ref().expect("slurm");
    assert_eq!((slurm.cancelled_before_start, slurm.array_tasks, l.report.job_lines), (u64::MAX, u64::MAX, u64::MAX));
}

/// A difference of times past i64 is out of range, not unknown.
#[test]
fn a_run_time_past_i64_is_out_of_range() {
    let line = "7|7|2024-03-01T10:00:00|0000-01-01T00:00:00|9223372036854775807||1|alice|COMPLETED\n";
    let keep = "8|8|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00||1|alice|COMPLETED\n";
    let l = read(format!("{HEAD}{line}{keep}").as_bytes(), &ReadOptions::default()).expect("one job kept");
    assert_eq!((count(&l.report, "time_out_of_range"), count(&l.report, "unknown_runtime")), (1, 0));
}

/// A job still running when the dump was taken has no run time, whether
/// the dump has ElapsedRaw (its time so far) or not (docs/formats.md).
#[test]
fn a_running_job_is_unknown_runtime_whatever_the_columns() {
    let running = "7|7|2024-03-01T10:00:00|2024-03-01T10:00:05|Unknown|3600|1|alice|RUNNING\n";
    let done = "8|8|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60|1|alice|COMPLETED\n";
    let l = read(format!("{HEAD}{running}{done}").as_bytes(), &ReadOptions::default()).expect("dump");
    assert_eq!(ids(&l), [8]);
    assert_eq!(count(&l.report, "unknown_runtime"), 1);
    // Without End, the State says it.
    let head = "JobIDRaw|Submit|Start|ElapsedRaw|ReqCPUS|State\n";
    let text = format!("{head}7|2024-03-01T10:00:00|2024-03-01T10:00:05|3600|1|RUNNING\n8|2024-03-01T10:00:00|2024-03-01T10:00:00|60|1|COMPLETED\n");
    let l = read(text.as_bytes(), &ReadOptions::default()).expect("dump without End");
    assert_eq!((ids(&l), count(&l.report, "unknown_runtime")), (vec![8], 1));
}

/// Latin-1 user names stay distinct users, with a warning counting the
/// lines (a lossy decoding made `müller`, `möller` and `mäller` one user).
#[test]
fn latin1_names_stay_distinct_and_are_counted() {
    let mut text = HEAD.as_bytes().to_vec();
    for (id, name) in [(1, &b"m\xfcller"[..]), (2, b"m\xf6ller"), (3, b"m\xe4ller"), (4, "müller".as_bytes())] {
        text.extend_from_slice(
            format!("{id}|{id}|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|60|1|").as_bytes(),
        );
        text.extend_from_slice(name);
        text.extend_from_slice(b"|COMPLETED\n");
    }
    let l = read(&text, &ReadOptions::default()).expect("dump");
    let users = &l.report.slurm.as_ref().expect("slurm report").users;
    assert_eq!(users, &["müller", "möller", "mäller"], "Latin-1 ü is UTF-8 ü: one user");
    let users: Vec<i32> = l.trace.jobs.iter().map(|j| j.user).collect();
    assert_eq!(users, [1, 2, 3, 1]);
    let warning = l.report.warnings.iter().find(|w| w.contains("Latin-1")).expect("a warning");
    assert!(warning.starts_with("3 lines (the first is line 2) hold text that is not UTF-8"), "{warning}");
}

/// A header longer than the longest line is named as the header, not
/// taken for a bad line before a header on line 2.
#[test]
fn a_header_over_the_line_limit_is_named() {
    let text = format!("JobIDRaw|Submit|Start|End|ReqCPUS|{}\n1|2|3|4|5|x\n", "x".repeat(70_000));
    let err = read(text.as_bytes(), &ReadOptions::default()).expect_err("header too long");
    assert_eq!(err.to_string(), "line 1 (the sacct header): the header line is longer than 65536 bytes");
}
