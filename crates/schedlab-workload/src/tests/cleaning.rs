//! Each cleaning rule, counted, on tiny traces; headers and line endings.

use super::*;
use crate::*;

// ---------------------------------------------------------------- cleaning

struct Case {
    name: &'static str,
    lines: Vec<String>,
    opts: ReadOptions,
    reason: &'static str,
    count: u64,
    kept: Vec<u64>,
}

#[rustfmt::skip]
fn cases() -> Vec<Case> {
    let d = ReadOptions::default;
    let with_queue = |id: u64, q: i32| format!("{id} 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 {q} 1 -1 -1");
    let with_part = |id: u64, p: i32| format!("{id} 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 {p} -1 -1");
    let with_status = |id: u64, s: i32| format!("{id} 0 0 10 1 -1 -1 1 10 -1 {s} 1 1 -1 1 1 -1 -1");
    vec![
        Case { name: "blank lines skipped", lines: vec![jl(1, 0, 1, 1, 1), String::new(), " \t".into(), jl(2, 0, 1, 1, 1)], opts: d(), reason: "blank_lines", count: 2, kept: vec![1, 2] },
        Case { name: "bad line skipped", lines: vec![jl(1, 0, 1, 1, 1), "1 2 3".into()], opts: d(), reason: "bad_lines", count: 1, kept: vec![1] },
        Case { name: "fractional rounded", lines: vec!["1 0.4 0 9.5 1 2.5 -1 1 10 -1 1 1 1 -1 1 1 -1 -1".into()], opts: d(), reason: "fractional_rounded", count: 1, kept: vec![1] },
        Case { name: "unknown submit", lines: vec![jl(1, -1, 1, 1, 1), jl(2, 0, 1, 1, 1)], opts: d(), reason: "unknown_submit", count: 1, kept: vec![2] },
        Case { name: "unknown runtime", lines: vec![jl(1, 0, -1, 1, 1), jl(2, 0, 0, 1, 1)], opts: d(), reason: "unknown_runtime", count: 1, kept: vec![2] },
        Case { name: "unknown size", lines: vec![jl(1, 0, 1, -1, 1), jl(2, 0, 1, 0, 1), jl(3, 0, 1, 1, 1)], opts: d(), reason: "unknown_size", count: 2, kept: vec![3] },
        Case { name: "submit past 2^40 s", lines: vec![jl(1, MAX_TIME + 1, 1, 1, 1), jl(2, MAX_TIME, 1, 1, 1)], opts: d(), reason: "time_out_of_range", count: 1, kept: vec![2] },
        Case { name: "runtime past 2^40 s", lines: vec![jl(1, 0, MAX_TIME + 1, 1, MAX_TIME + 1), jl(2, 0, MAX_TIME, 1, MAX_TIME)], opts: d(), reason: "time_out_of_range", count: 1, kept: vec![2] },
        Case { name: "estimate near 2^63", lines: vec![jl(1, 0, 1, 1, i64::MAX - 5), jl(2, 0, 1, 1, 1)], opts: d(), reason: "time_out_of_range", count: 1, kept: vec![2] },
        Case { name: "size past 2^31", lines: vec![jl(1, 0, 1, i64::from(MAX_PROCS) + 1, 1), jl(2, 0, 1, 1, 1)], opts: ReadOptions { oversize: Oversize::Clamp, ..d() }, reason: "size_out_of_range", count: 1, kept: vec![2] },
        Case { name: "duplicate job numbers", lines: vec![jl(1, 0, 1, 1, 1), jl(1, 5, 1, 1, 1), jl(2, 6, 1, 1, 1)], opts: d(), reason: "duplicate_ids", count: 1, kept: vec![1, 1, 2] },
        Case { name: "status filter", lines: vec![with_status(1, 0), with_status(2, 1), with_status(3, 5)], opts: ReadOptions { drop_status: vec![0, 5], ..d() }, reason: "status_filtered", count: 2, kept: vec![2] },
        Case { name: "queue filter", lines: vec![with_queue(1, 0), with_queue(2, 1), with_queue(3, 2)], opts: ReadOptions { queues: Some(vec![1, 2]), ..d() }, reason: "queue_filtered", count: 1, kept: vec![2, 3] },
        Case { name: "partition filter", lines: vec![with_part(1, 0), with_part(2, 1)], opts: ReadOptions { partitions: Some(vec![0]), ..d() }, reason: "partition_filtered", count: 1, kept: vec![1] },
        Case { name: "oversize dropped", lines: vec![jl(1, 0, 1, 9, 1), jl(2, 0, 1, 8, 1)], opts: d(), reason: "oversized_dropped", count: 1, kept: vec![2] },
        Case { name: "oversize override", lines: vec![jl(1, 0, 1, 9, 1), jl(2, 0, 1, 8, 1)], opts: ReadOptions { machine_size: Some(4), ..d() }, reason: "oversized_dropped", count: 2, kept: vec![] },
        Case { name: "oversize clamped", lines: vec![jl(1, 0, 1, 9, 1), jl(2, 0, 1, 8, 1)], opts: ReadOptions { oversize: Oversize::Clamp, ..d() }, reason: "oversized_clamped", count: 1, kept: vec![1, 2] },
        Case { name: "unsorted", lines: vec![jl(3, 5, 1, 1, 1), jl(1, 9, 1, 1, 1), jl(2, 5, 1, 1, 1), jl(4, 0, 1, 1, 1)], opts: d(), reason: "unsorted", count: 2, kept: vec![4, 2, 3, 1] },
        Case { name: "first jobs", lines: vec![jl(1, 0, 1, 1, 1), jl(2, 5, 1, 1, 1), jl(3, 5, 1, 1, 1)], opts: ReadOptions { window: Window::FirstJobs(2), ..d() }, reason: "window_filtered", count: 1, kept: vec![1, 2] },
        Case { name: "time range", lines: vec![jl(1, 100, 1, 1, 1), jl(2, 110, 1, 1, 1), jl(3, 120, 1, 1, 1)], opts: ReadOptions { window: Window::TimeRange { from: 10, to: 20 }, ..d() }, reason: "window_filtered", count: 2, kept: vec![2] },
        Case { name: "no estimate", lines: vec![jl(1, 0, 30, 1, -1), jl(2, 0, 0, 1, 0), jl(3, 0, 5, 1, 5)], opts: d(), reason: "no_estimate", count: 2, kept: vec![1, 2, 3] },
        Case { name: "runtime capped", lines: vec![jl(1, 0, 30, 1, 20), jl(2, 0, 20, 1, 20)], opts: d(), reason: "runtime_capped", count: 1, kept: vec![1, 2] },
    ]
}

#[test]
fn each_cleaning_rule_is_counted() {
    for c in cases() {
        let input = text(&c.lines);
        match read(input.as_bytes(), &c.opts) {
            Ok(l) => {
                assert_eq!(count(&l.report, c.reason), c.count, "{}", c.name);
                assert_eq!(ids(&l), c.kept, "{}", c.name);
                let others: u64 = l.report.counts().iter().filter(|x| x.0 != c.reason).map(|x| x.1).sum();
                assert_eq!(others, 0, "{}: {:?}", c.name, l.report.counts());
            }
            Err(SwfError::AllJobsDropped { summary, .. }) => {
                assert!(c.kept.is_empty(), "{}: {summary}", c.name);
                assert!(summary.contains(&format!("{} {}", c.reason, c.count)), "{}: {summary}", c.name);
            }
            Err(e) => panic!("{}: {e}", c.name),
        }
    }
}

#[test]
fn cleaned_values() {
    let l = read_ok(&text(&[jl(1, 0, 30, 1, -1), jl(2, 1, 0, 1, 0), jl(3, 2, 50, 1, 20)]));
    let got: Vec<(i64, i64)> = l.trace.jobs.iter().map(|j| (j.runtime, j.estimate)).collect();
    assert_eq!(got, vec![(30, 30), (0, 1), (20, 20)]);
    let clamped =
        read(text(&[jl(1, 0, 1, 9, 1)]).as_bytes(), &ReadOptions { oversize: Oversize::Clamp, ..Default::default() })
            .expect("clamp");
    assert_eq!(clamped.trace.jobs[0].size, 8);
    assert_eq!(clamped.trace.extras[0].allocated, 9, "the original fields are kept");
}

#[test]
fn size_prefers_requested_then_allocated() {
    let l = read_ok(&text(&[
        "1 0 0 10 4 -1 -1 -1 10 -1 1 1 1 -1 1 1 -1 -1".into(),
        "2 0 0 10 4 -1 -1 2 10 -1 1 1 1 -1 1 1 -1 -1".into(),
    ]));
    let sizes: Vec<u32> = l.trace.jobs.iter().map(|j| j.size).collect();
    assert_eq!(sizes, vec![4, 2]);
}

#[test]
fn a_job_dropped_by_one_rule_is_counted_once() {
    let l = read_ok(&text(&[jl(1, -1, -1, -1, -1), jl(2, 0, 1, 1, 1)]));
    assert_eq!(l.report.summary(), "unknown_submit 1");
}

#[test]
fn load_factor_divides_interarrival_times() {
    let lines = [jl(1, 1000, 1, 1, 1), jl(2, 1100, 1, 1, 1), jl(3, 1301, 1, 1, 1)];
    let opts = ReadOptions { load_factor: 2.0, ..Default::default() };
    let l = read(text(&lines).as_bytes(), &opts).expect("read");
    let submits: Vec<i64> = l.trace.jobs.iter().map(|j| j.submit).collect();
    assert_eq!(submits, vec![1000, 1050, 1151]);
}

#[test]
fn window_is_taken_before_the_load_factor() {
    let lines = [jl(1, 0, 1, 1, 1), jl(2, 100, 1, 1, 1), jl(3, 200, 1, 1, 1)];
    let opts = ReadOptions { load_factor: 4.0, window: Window::TimeRange { from: 0, to: 150 }, ..Default::default() };
    let l = read(text(&lines).as_bytes(), &opts).expect("read");
    assert_eq!(ids(&l), vec![1, 2]);
    assert_eq!(l.trace.jobs[1].submit, 25);
}

#[test]
fn machine_size_sources() {
    let jobs = format!("{}\n{}\n", jl(1, 0, 1, 3, 1), jl(2, 0, 1, 5, 1));
    let cases: [(&str, Option<u32>, u32, bool); 5] = [
        ("; MaxProcs: 64\n; MaxNodes: 16\n", None, 64, false),
        ("; MaxNodes: 16\n", None, 16, false),
        ("", None, 5, true),
        ("; MaxProcs: 64\n", Some(430), 430, false),
        ("; MaxProcs: zero\n", None, 5, true),
    ];
    for (header, over, want, warned) in cases {
        let opts = ReadOptions { machine_size: over, ..Default::default() };
        let l = read(format!("{header}{jobs}").as_bytes(), &opts).expect(header);
        assert_eq!(l.trace.procs, want, "{header}");
        let has = l.report.warnings.iter().any(|w| w.contains("largest job, 5 processors"));
        assert_eq!(has, warned, "{header}: {:?}", l.report.warnings);
    }
}

#[test]
fn header_variants_end_to_end() {
    let input = format!(
        ";MaxProcs: 338 (batch partition; 512 total)\n;MaxNodes:512\n;Computer:IBM SP2\n{}\n",
        jl(1, 0, 1, 300, 1)
    );
    let l = read_ok(&input);
    assert_eq!((l.header.max_procs, l.header.max_nodes, l.trace.procs), (Some(338), Some(512), 338));
    assert_eq!(l.header.computer.as_deref(), Some("IBM SP2"));
}

#[test]
fn late_comments_are_reported() {
    let l = read_ok(&format!("{}\n; MaxProcs: 2\n{}\n", jl(1, 0, 1, 4, 1), jl(2, 0, 1, 4, 1)));
    assert_eq!(l.header.max_procs, None);
    assert_eq!(l.trace.procs, 4);
    assert!(l.report.warnings.iter().any(|w| w.starts_with("1 comment lines after the first job")));
}

#[test]
fn bad_lines_keep_the_first_ten() {
    let mut lines: Vec<String> = (0..15).map(|i| format!("{i} x")).collect();
    lines.push(jl(1, 0, 1, 1, 1));
    let l = read_ok(&text(&lines));
    assert_eq!(l.report.bad_lines_total, 15);
    assert_eq!(l.report.bad_lines.len(), MAX_BAD_LINES_KEPT);
    assert_eq!(l.report.bad_lines[0].line, 2);
    assert_eq!(l.report.bad_lines[0].to_string(), "line 2: has 2 fields, expected 18");
}

#[test]
fn long_lines_are_skipped_without_being_held() {
    let mut input = text(&[jl(1, 0, 1, 1, 1)]).into_bytes();
    input.extend(std::iter::repeat_n(b'7', 200_000));
    input.extend(format!("\n{}\n", jl(2, 0, 1, 1, 1)).bytes());
    let l = read(&input, &ReadOptions::default()).expect("read");
    assert_eq!(ids(&l), vec![1, 2]);
    assert_eq!(l.report.bad_lines[0].to_string(), "line 3: is longer than 65536 bytes");
    assert_eq!(l.lines, 4);
}

#[test]
fn cr_only_and_mixed_line_endings() {
    let jobs = [jl(1, 0, 1, 1, 1), jl(2, 0, 1, 1, 1), jl(3, 0, 1, 1, 1)];
    let cr = format!("; MaxProcs: 8\r{}\r{}\r\r{}\r", jobs[0], jobs[1], jobs[2]);
    let l = read_ok(&cr);
    assert_eq!((ids(&l), l.lines, l.header.max_procs, l.report.blank_lines), (vec![1, 2, 3], 5, Some(8), 1));
    let mixed = format!("; MaxProcs: 8\r\n{}\r{}\n{}", jobs[0], jobs[1], jobs[2]);
    let l = read_ok(&mixed);
    assert_eq!((ids(&l), l.lines), (vec![1, 2, 3], 4));
    // A CR-only file longer than a read buffer, and a `\r\n` split across
    // two reads (one byte a read), still end every line once.
    let long: String = (0..5000).map(|i| format!("{}\r", jl(i, i as i64, 1, 1, 1))).collect();
    assert_eq!(read_ok(&long).trace.jobs.len(), 5000);
    let crlf = format!("{}\r\n{}\r\n", jobs[0], jobs[1]);
    let l = read_swf(OneByte(crlf.into_bytes()), &ReadOptions::default()).expect("one byte a read");
    assert_eq!((ids(&l), l.lines, l.report.blank_lines), (vec![1, 2], 2, 0));
}

#[test]
fn crlf_and_no_final_newline() {
    let l = read_ok(&format!("; MaxProcs: 8\r\n{}\r\n{}", jl(1, 0, 1, 1, 1), jl(2, 0, 1, 1, 1)));
    assert_eq!((ids(&l), l.lines, l.header.max_procs), (vec![1, 2], 3, Some(8)));
}

#[test]
fn byte_order_mark_is_ignored() {
    let l = read_ok(&format!("\u{feff}; MaxProcs: 8\n{}\n", jl(1, 0, 1, 1, 1)));
    assert_eq!((l.header.max_procs, ids(&l)), (Some(8), vec![1]));
    let l = read_ok(&format!("\u{feff}{}\n", jl(1, 0, 1, 1, 1)));
    assert_eq!(ids(&l), vec![1]);
}

#[test]
fn loaded_shape() {
    let input = text(&[jl(2, 5, 1, 1, 1), jl(1, 0, 1, 1, 1)]);
    let l = read_ok(&input);
    assert_eq!(l.bytes, input.len() as u64);
    assert_eq!(l.lines, 3);
    assert_eq!(l.trace.jobs.len(), l.trace.extras.len());
    assert_eq!(l.trace.jobs.capacity(), l.trace.jobs.len());
    assert_eq!((l.report.job_lines, l.report.comment_lines, l.report.jobs_kept), (2, 1, 2));
    let json = serde_json::to_value(&l.report).expect("json");
    assert_eq!(json["unsorted"], 1);
    let counts: serde_json::Map<String, serde_json::Value> =
        l.report.counts().into_iter().map(|(k, v)| (k.to_owned(), v.into())).collect();
    assert_eq!(counts.len(), 18);
}
