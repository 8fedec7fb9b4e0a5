//! gzip against plain text, the bundled fixtures, and the writer's round trip.

use super::*;
use crate::*;

// ---------------------------------------------------------------- gzip and fixtures

#[test]
fn gzip_and_plain_agree() {
    let plain = std::fs::read(SAMPLE).expect("sample");
    let a = read(&plain, &ReadOptions::default()).expect("plain");
    let b = read(&fixture("kth-sp2-first3000.swf.gz"), &ReadOptions::default()).expect("gz");
    assert_eq!(a.sha256, SAMPLE_SHA256);
    assert_eq!(b.sha256, SAMPLE_SHA256);
    assert_eq!((a.bytes, a.lines), (b.bytes, b.lines));
    assert_eq!(a.trace.jobs, b.trace.jobs);
    assert_eq!(a.trace.extras, b.trace.extras);
    assert_eq!(a.report, b.report);
    assert_eq!(a.header, b.header);
}

#[test]
fn concatenated_gzip_members_are_one_stream() {
    let first = text(&[jl(1, 0, 1, 1, 1)]);
    let second = format!("{}\n", jl(2, 0, 1, 1, 1));
    let mut gz = gzip(first.as_bytes());
    gz.extend(gzip(second.as_bytes()));
    let l = read(&gz, &ReadOptions::default()).expect("multi");
    assert_eq!(ids(&l), vec![1, 2]);
    let plain = read(format!("{first}{second}").as_bytes(), &ReadOptions::default()).expect("plain");
    assert_eq!(l.sha256, plain.sha256);
}

#[test]
fn sample_trace() {
    let l = read(&std::fs::read(SAMPLE).expect("sample"), &ReadOptions::default()).expect("sample");
    assert_eq!((l.trace.procs, l.report.job_lines, l.lines), (100, 3000, 3008));
    assert_eq!(l.header.version.as_deref(), Some("2.2"));
    assert_eq!(l.header.unix_start_time, Some(843480031));
    assert!(l.header.comments.is_empty());
    assert!(l.header.other.iter().any(|(k, v)| k == "Source" && v.contains("KTH-SP2-1996-2.1-cln.swf")));
    assert_eq!(l.report.bad_lines_total, 0);
    assert_eq!(l.report.jobs_kept as usize, l.trace.jobs.len());
    let s = stats(&l.trace);
    assert_eq!(s.jobs, l.report.jobs_kept);
    assert_eq!(s.recorded.first_submit, 599850);
    assert!(s.recorded.offered_load.is_some_and(|x| x > 0.0 && x < 2.0), "{s:?}");
    assert!(s.recorded.mean_estimate_accuracy > 0.0 && s.recorded.mean_estimate_accuracy <= 1.0);
}

#[test]
fn fixture_bad_field() {
    let l = read(&fixture("bad-field.swf"), &ReadOptions::default()).expect("bad-field");
    assert_eq!(ids(&l), vec![15, 16, 18, 19]);
    assert_eq!(l.report.bad_lines[0].to_string(), "line 7, field 4 (run time): `abc` is not a number");
}

#[test]
fn fixture_short_line() {
    let l = read(&fixture("short-line.swf"), &ReadOptions::default()).expect("short-line");
    assert_eq!(ids(&l), vec![15, 16, 18, 19]);
    assert_eq!(l.report.bad_lines[0].to_string(), "line 6: has 17 fields, expected 18");
}

#[test]
fn fixture_non_utf8() {
    let l = read(&fixture("non-utf8.swf"), &ReadOptions::default()).expect("non-utf8");
    assert_eq!(ids(&l), vec![15, 16, 18, 19]);
    let bad = l.report.bad_lines[0].to_string();
    assert!(bad.starts_with("line 6, field 12 (user id): byte 0xE9 at column "), "{bad}");
    assert!(l.report.warnings[0].starts_with("line 3: comment is not valid UTF-8"), "{:?}", l.report.warnings);
    assert_eq!(l.header.installation.as_deref(), Some("Universit\u{fffd} (Latin-1 comment)"));
}

#[test]
fn fixture_empty_and_no_valid_job() {
    let err = read(&fixture("empty.swf"), &ReadOptions::default()).expect_err("empty");
    assert!(matches!(err, SwfError::Empty { compression: None }), "{err}");
    let err = read(&fixture("no-valid-job.swf"), &ReadOptions::default()).expect_err("none");
    let msg = err.to_string();
    assert!(
        msg.starts_with("no valid job in 6 lines (2 bad lines); first bad line: line 4: has 1 field, expected 18"),
        "{msg}"
    );
}

// ---------------------------------------------------------------- writer

#[test]
fn write_then_read_round_trips() {
    let mut input = std::fs::read(SAMPLE).expect("sample");
    input.extend(b"99999 4300000 12 100 3 12.5 0.25 3 200 1024.75 1 7 7 3 2 1 17 60\n");
    let a = read(&input, &ReadOptions::default()).expect("first read");
    let mut out = Vec::new();
    let comments = vec!["Version: 2.2".to_owned(), "MaxProcs: 100".to_owned(), "Note: written\nby a test".to_owned()];
    write_swf(&mut out, &comments, rows_of(&a)).expect("write");
    let b = read(&out, &ReadOptions::default()).expect("second read");
    assert_eq!(a.trace.jobs, b.trace.jobs);
    assert_eq!(a.trace.extras, b.trace.extras);
    assert_eq!(b.header.notes, vec!["written".to_owned()]);
    assert_eq!(b.header.comments, vec!["by a test".to_owned()]);
    assert_eq!(b.report.summary(), "nothing counted");
    let mut again = Vec::new();
    write_swf(&mut again, &comments, rows_of(&b)).expect("write again");
    assert_eq!(out, again, "writing is a fixed point");
}

#[test]
fn written_schedule_fields() {
    let l = read_ok(&text(&["5 10 0 20 -1 -1 -1 4 30 -1 1 2 3 4 5 6 7 8".into()]));
    let row = SwfRow { job: l.trace.jobs[0], extra: l.trace.extras[0], wait: 42, runtime: 19, procs: 4 };
    let mut out = Vec::new();
    write_swf(&mut out, &[], [row]).expect("write");
    assert_eq!(String::from_utf8(out).expect("utf8"), "5 10 42 19 4 -1 -1 4 30 -1 1 2 3 4 5 6 7 8\n");
}
