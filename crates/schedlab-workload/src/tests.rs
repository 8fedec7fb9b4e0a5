//! Tests of the whole reader: cleaning rules on tiny traces, errors, gzip,
//! limits, fixtures, the writer's round trip, and property tests.

use std::io::{self, Read, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use proptest::prelude::*;

use crate::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kth-sp2-first3000.swf");
const SAMPLE_SHA256: &str = "ebb7dc7da59da0f41d7a64c9aebdb46ed6207a3adf6f6fb326d37000264a47b4";

/// A job line: id submit wait runtime alloc cpu mem req_procs req_time req_mem
/// status user group exe queue partition preceding think.
fn jl(id: u64, submit: i64, runtime: i64, size: i64, estimate: i64) -> String {
    format!("{id} {submit} 0 {runtime} {size} -1 -1 {size} {estimate} -1 1 1 1 -1 1 1 -1 -1")
}

fn text(lines: &[String]) -> String {
    let mut s = String::from("; MaxProcs: 8\n");
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

fn read(input: &[u8], opts: &ReadOptions) -> Result<Loaded, SwfError> {
    read_swf(input, opts)
}

fn read_ok(input: &str) -> Loaded {
    read(input.as_bytes(), &ReadOptions::default()).expect("read")
}

fn ids(l: &Loaded) -> Vec<u64> {
    l.trace.jobs.iter().map(|j| j.id).collect()
}

fn count(report: &CleaningReport, reason: &str) -> u64 {
    report.counts().into_iter().find(|c| c.0 == reason).map(|c| c.1).expect(reason)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}{name}")).expect(name)
}

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

// ---------------------------------------------------------------- errors

#[rustfmt::skip]
#[test]
fn error_messages_name_what_and_where() {
    let too_small = ReadOptions { max_bytes: 10, ..Default::default() };
    let only_bad = "; MaxProcs: 4\n1 2 3 abc 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n";
    let filtered = ReadOptions { queues: Some(vec![9]), ..Default::default() };
    let cases: Vec<(Vec<u8>, ReadOptions, &str)> = vec![
        (vec![], ReadOptions::default(), "the input is empty (0 bytes)"),
        (gzip(b""), ReadOptions::default(), "the input is empty (0 bytes after gzip decompression)"),
        (b"; only a comment\n\n".to_vec(), ReadOptions::default(), "no valid job in 2 lines (0 bad lines); the input holds only comments"),
        (only_bad.into(), ReadOptions::default(), "no valid job in 2 lines (1 bad lines); first bad line: line 2, field 4 (run time): `abc` is not a number"),
        (text(&[jl(1, 0, 1, 1, 1)]).into(), filtered, "all 1 valid jobs were dropped by cleaning and filters (queue_filtered 1)"),
        (text(&[jl(1, 0, 1, 1, 1)]).into(), too_small.clone(), "larger than the limit of 10 bytes (refused at line 1)"),
        (gzip(text(&[jl(1, 0, 1, 1, 1)]).as_bytes()), too_small, "larger than the limit of 10 bytes once decompressed"),
        (vec![0x1f, 0x8b, 8, 0, 0, 0], ReadOptions::default(), "corrupt gzip stream at or before compressed byte 6"),
        (b"1".to_vec(), ReadOptions { load_factor: 0.0, ..Default::default() }, "invalid option: load_factor must be a finite number above 0, not 0"),
    ];
    for (input, opts, want) in cases {
        let err = read(&input, &opts).expect_err(want);
        assert!(err.to_string().contains(want), "got `{err}`, want `{want}`");
    }
}

/// The first 60 lines of the bundled sample (8 header lines, 52 jobs),
/// which the compressed fixtures `kth-head60.swf.*` hold.
fn sample_head60() -> Vec<u8> {
    let sample =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kth-sp2-first3000.swf")).expect("sample");
    let end = sample.iter().enumerate().filter(|(_, &b)| b == b'\n').nth(59).expect("60 lines").0;
    sample[..=end].to_vec()
}

#[test]
fn every_supported_compression_reads_like_the_plain_text() {
    let plain = read(&sample_head60(), &ReadOptions::default()).expect("plain");
    assert_eq!(plain.trace.jobs.len(), 52);
    for (file, format) in [
        ("kth-head60.swf.bz2", "bzip2"),
        ("kth-head60.swf.xz", "xz"),
        ("kth-head60.swf.zst", "zstd"),
        ("kth-head60.swf.zz", "zlib"),
    ] {
        let data = fixture(file);
        let l = read(&data, &ReadOptions::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!((l.sha256.as_str(), l.bytes, l.lines), (plain.sha256.as_str(), plain.bytes, plain.lines), "{file}");
        assert_eq!(l.trace.jobs, plain.trace.jobs, "{file}");
        // Cut short, each is a corrupt stream of its format, not text.
        let err = read(&data[..data.len() / 2], &ReadOptions::default()).expect_err(file);
        assert!(err.to_string().contains(&format!("corrupt {format} stream")), "{file}: {err}");
    }
}

#[test]
fn concatenated_streams_are_read_whole() {
    // pbzip2, `xz` and `zstd` on concatenated files write several streams or
    // frames; a decoder that stopped after the first would drop jobs silently.
    let plain = read(&sample_head60(), &ReadOptions::default()).expect("plain");
    for file in ["kth-head60.swf.bz2", "kth-head60.swf.xz", "kth-head60.swf.zst"] {
        let twice = [fixture(file), fixture(file)].concat();
        let l = read(&twice, &ReadOptions::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!((l.bytes, l.trace.jobs.len()), (2 * plain.bytes, 104), "{file}");
    }
}

#[test]
fn decompression_bombs_stop_at_the_size_limit() {
    let opts = ReadOptions { max_bytes: 1 << 20, ..ReadOptions::default() };
    for (file, format) in [("newlines-4mib.bz2", "bzip2"), ("newlines-4mib.xz", "xz"), ("newlines-4mib.zst", "zstd")] {
        let err = read(&fixture(file), &opts).expect_err(file);
        assert!(
            matches!(err, SwfError::TooLarge { compression: Some(f), limit: 1_048_576, .. } if f == format),
            "{file}: {err}"
        );
        // Under the default limit the 4 MiB of blank lines hold no job.
        let err = read(&fixture(file), &ReadOptions::default()).expect_err(file);
        assert!(err.to_string().starts_with("no valid job in 4194304 lines"), "{file}: {err}");
    }
}

#[test]
fn job_limit_is_checked_while_reading() {
    let input = text(&(0..1000).map(|i| jl(i, i as i64, 1, 1, 1)).collect::<Vec<_>>());
    let opts = ReadOptions { max_jobs: 100, ..ReadOptions::default() };
    let err = read(input.as_bytes(), &opts).expect_err("101 jobs");
    // Line 1 is the header; line 102 holds the 101st job.
    assert!(matches!(err, SwfError::TooManyJobs { limit: 100, line: 102 }), "{err}");
    assert_eq!(err.to_string(), "the input holds more than 100 jobs, the job limit (refused at line 102)");
    let gz = gzip(input.as_bytes());
    assert!(matches!(read(&gz, &opts), Err(SwfError::TooManyJobs { .. })));
    // Jobs dropped per line do not count: the limit bounds what is held.
    let opts = ReadOptions { max_jobs: 100, queues: Some(vec![7]), ..ReadOptions::default() };
    assert!(matches!(read(input.as_bytes(), &opts), Err(SwfError::AllJobsDropped { .. })));
    let exact = ReadOptions { max_jobs: 1000, ..ReadOptions::default() };
    assert_eq!(read(input.as_bytes(), &exact).expect("1000 jobs").trace.jobs.len(), 1000);
}

#[test]
fn gzip_with_zero_padding_is_accepted_and_garbage_refused() {
    let plain = text(&[jl(1, 0, 1, 1, 1), jl(2, 0, 1, 1, 1)]);
    let mut padded = gzip(plain.as_bytes());
    padded.extend([0u8; 10240]);
    let l = read(&padded, &ReadOptions::default()).expect("zero padding");
    assert_eq!((ids(&l), l.bytes), (vec![1, 2], plain.len() as u64));
    let mut two = gzip(plain.as_bytes());
    two.extend([0u8; 512]);
    two.extend(gzip(text(&[jl(3, 0, 1, 1, 1)]).as_bytes()));
    assert_eq!(ids(&read(&two, &ReadOptions::default()).expect("padding between members")), vec![1, 2, 3]);
    let mut garbage = gzip(plain.as_bytes());
    garbage.extend(b"\0\0junk");
    let err = read(&garbage, &ReadOptions::default()).expect_err("garbage");
    assert!(matches!(err, SwfError::Corrupt { format: "gzip", .. }), "{err}");
}

#[test]
fn unreadable_formats_are_named() {
    let mut damaged = gzip(text(&[jl(1, 0, 1, 1, 1)]).as_bytes());
    damaged[0] = 0x00;
    let cases: [(Vec<u8>, &str); 3] = [
        (
            damaged,
            "the input looks like gzip with a damaged header: it starts with bytes 0x00 0x8b, where gzip has 0x1f 0x8b",
        ),
        (
            b"PK\x03\x04\x14\x00rest".to_vec(),
            "the input is compressed with zip, which Schedlab does not read: decompress it first",
        ),
        (vec![0x04, 0x22, 0x4d, 0x18, 0x64, 0x40], "the input is compressed with lz4"),
    ];
    for (input, want) in cases {
        let err = read(&input, &ReadOptions::default()).expect_err(want);
        assert!(err.to_string().starts_with(want), "got `{err}`, want `{want}`");
    }
}

#[test]
fn header_machine_size_warnings_say_why() {
    let jobs = [jl(1, 0, 1, 3, 1), jl(2, 0, 1, 5, 1)];
    let cases = [
        ("; MaxProcs: 0\n", "`0` is 0, not a machine size", "the header's MaxProcs and MaxNodes are unusable"),
        ("; MaxProcs: -64\n", "is negative, not a machine size", "the header's MaxProcs and MaxNodes are unusable"),
        ("; MaxProcs: 1099511627776\n", "is above the limit of 2147483648 processors (2^31)", "unusable"),
        ("; MaxProcs: 4294967295\n", "is above the limit of 2147483648 processors (2^31)", "unusable"),
        ("", "the header gives neither MaxProcs nor MaxNodes", "the header gives neither"),
    ];
    for (header, first, last) in cases {
        let l = read_ok(&format!("{header}{}\n{}\n", jobs[0], jobs[1]));
        assert_eq!(l.trace.procs, 5, "{header}: the largest job's size");
        let w = &l.report.warnings;
        assert!(w[0].contains(first), "{header}: {w:?}");
        assert!(
            w.last()
                .is_some_and(|x| x.contains(last) && x.ends_with("machine size set to the largest job, 5 processors")),
            "{header}: {w:?}"
        );
    }
}

#[test]
fn duplicate_job_numbers_warn() {
    let l = read_ok(&text(&[jl(7, 0, 1, 1, 1), jl(7, 1, 1, 1, 1), jl(8, 2, 1, 1, 1), jl(8, 3, 1, 1, 1)]));
    assert_eq!(l.report.duplicate_ids, 2);
    assert!(
        l.report
            .warnings
            .iter()
            .any(|w| w
                == "2 jobs have the job number of an earlier job (e.g. job 7); all are kept and run as distinct jobs"),
        "{:?}",
        l.report.warnings
    );
}

#[test]
fn limits_apply_to_load_factor_and_time_range() {
    let input = text(&[jl(1, 0, 1, 1, 1), jl(2, 100_000, 1, 1, 1)]);
    let tiny = ReadOptions { load_factor: 1e-12, ..ReadOptions::default() };
    let err = read(input.as_bytes(), &tiny).expect_err("1e-12");
    assert!(matches!(err, SwfError::LoadFactorTooSmall { .. }), "{err}");
    let wide = ReadOptions { window: Window::TimeRange { from: 0, to: i64::MAX }, ..ReadOptions::default() };
    let err = read(input.as_bytes(), &wide).expect_err("to = 2^63 - 1");
    assert!(err.to_string().contains("2^40"), "{err}");
}

#[test]
fn corrupt_and_truncated_gzip() {
    let mut data = gzip(text(&(0..200).map(|i| jl(i, i as i64, 1, 1, 1)).collect::<Vec<_>>()).as_bytes());
    let truncated = &data[..data.len() / 2];
    let err = read(truncated, &ReadOptions::default()).expect_err("truncated");
    assert!(matches!(err, SwfError::Corrupt { format: "gzip", .. }), "{err}");
    let n = data.len();
    data[n - 6] ^= 0xff; // the CRC
    let err = read(&data, &ReadOptions::default()).expect_err("crc");
    assert!(matches!(err, SwfError::Corrupt { format: "gzip", .. }), "{err}");
    assert!(err.to_string().contains("corrupt gzip stream"), "{err}");
}

/// A reader that yields some bytes and then fails.
struct Failing(Vec<u8>, usize);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.1 >= self.0.len() {
            return Err(io::Error::new(io::ErrorKind::ConnectionReset, "network gone"));
        }
        buf[0] = self.0[self.1];
        self.1 += 1;
        Ok(1)
    }
}

#[test]
fn reader_errors_are_io_errors() {
    let plain = text(&[jl(1, 0, 1, 1, 1), jl(2, 0, 1, 1, 1)]).into_bytes();
    let cut = plain.len() - 5;
    let err = read_swf(Failing(plain[..cut].to_vec(), 0), &ReadOptions::default()).expect_err("plain");
    assert!(matches!(err, SwfError::Io { .. }), "{err}");
    assert!(err.to_string().contains(&format!("I/O error after {cut} input bytes (line 3): network gone")), "{err}");
    let gz = gzip(&plain);
    let err = read_swf(Failing(gz[..20].to_vec(), 0), &ReadOptions::default()).expect_err("gz");
    assert!(matches!(err, SwfError::Io { .. }), "{err}");
    let err = read_swf(Failing(vec![], 0), &ReadOptions::default()).expect_err("first read");
    assert!(err.to_string().contains("after 0 input bytes (line 1)"), "{err}");
}

#[test]
fn one_byte_reads_work() {
    let plain = text(&[jl(1, 0, 1, 1, 1)]).into_bytes();
    for input in [plain.clone(), gzip(&plain)] {
        let l = read_swf(OneByte(input), &ReadOptions::default()).expect("one byte");
        assert_eq!(ids(&l), vec![1]);
    }
}

struct OneByte(Vec<u8>);

impl Read for OneByte {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        buf[0] = self.0.remove(0);
        Ok(1)
    }
}

#[test]
fn size_limit_is_exact() {
    let input = text(&[jl(1, 0, 1, 1, 1)]).into_bytes();
    let n = input.len() as u64;
    for (limit, ok) in [(n, true), (n - 1, false)] {
        let opts = ReadOptions { max_bytes: limit, ..Default::default() };
        assert_eq!(read(&input, &opts).is_ok(), ok, "plain limit {limit}");
        assert_eq!(read(&gzip(&input), &opts).is_ok(), ok, "gzip limit {limit}");
    }
}

#[test]
fn gzip_bomb_stops_at_the_limit() {
    // 64 MiB of newlines compress to about 64 KiB.
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    let block = vec![b'\n'; 1 << 20];
    for _ in 0..64 {
        enc.write_all(&block).expect("gzip");
    }
    let bomb = enc.finish().expect("gzip");
    let opts = ReadOptions { max_bytes: 1 << 20, ..Default::default() };
    let err = read(&bomb, &opts).expect_err("bomb");
    assert!(matches!(err, SwfError::TooLarge { compression: Some("gzip"), limit: 1_048_576, .. }), "{err}");
}

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

fn rows_of(l: &Loaded) -> Vec<SwfRow> {
    l.trace.jobs.iter().zip(&l.trace.extras).map(|(j, e)| SwfRow::from_trace(*j, *e)).collect()
}

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

// ---------------------------------------------------------------- properties

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..100_000).prop_map(|v| v.to_string()),
        (-10.0f64..1e6).prop_map(|v| format!("{v:.2}")),
        any::<i64>().prop_map(|v| v.to_string()),
        Just("-1".to_owned()),
        "[0-9a-z.+-]{1,4}",
    ]
}

fn swf_line() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(number(), 18).prop_map(|f| f.join(" ")),
        1 => prop::collection::vec(number(), 0..22).prop_map(|f| f.join("\t")),
        1 => "; ?[A-Za-z]{1,9}: ?[ -~]{0,20}",
        1 => Just(String::new()),
    ]
}

fn any_options() -> impl Strategy<Value = ReadOptions> {
    (1u64..4096, prop::option::of(1u32..64), any::<bool>(), 0usize..5, 0.1f64..5.0).prop_map(
        |(max, m, clamp, first, lf)| ReadOptions {
            max_bytes: max * 4,
            machine_size: m,
            oversize: if clamp { Oversize::Clamp } else { Oversize::Drop },
            window: if first == 0 { Window::All } else { Window::FirstJobs(first) },
            load_factor: lf,
            ..Default::default()
        },
    )
}

fn check_invariants(l: &Loaded) {
    let t = &l.trace;
    assert!(!t.jobs.is_empty());
    assert_eq!(t.jobs.len(), t.extras.len());
    assert!(t.procs >= 1);
    for w in t.jobs.windows(2) {
        assert!((w[0].submit, w[0].id) <= (w[1].submit, w[1].id));
    }
    for j in &t.jobs {
        assert!(j.runtime >= 0 && j.estimate >= 1 && j.runtime <= j.estimate && j.size >= 1, "{j:?}");
    }
    assert_eq!(l.sha256.len(), 64);
    let _ = stats(t);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_bytes(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        for input in [data.clone(), gzip(&data), [&[0x1f, 0x8b][..], &data].concat()] {
            if let Ok(l) = read_swf(&input[..], &ReadOptions::default()) {
                check_invariants(&l);
            }
        }
    }

    #[test]
    fn never_panics_on_lines(lines in prop::collection::vec(swf_line(), 0..40), opts in any_options()) {
        let input = lines.join("\n");
        if let Ok(l) = read_swf(input.as_bytes(), &opts) {
            check_invariants(&l);
            prop_assert!(l.trace.procs <= opts.machine_size.unwrap_or(u32::MAX));
        }
        let gz = gzip(input.as_bytes());
        let plain = read_swf(input.as_bytes(), &opts).map(|l| (l.trace.jobs, l.sha256));
        let packed = read_swf(&gz[..], &opts).map(|l| (l.trace.jobs, l.sha256));
        match (plain, packed) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(std::mem::discriminant(&a), std::mem::discriminant(&b)),
            (a, b) => prop_assert!(false, "plain {:?} vs gzip {:?}", a.map(|x| x.1), b.map(|x| x.1)),
        }
    }

    #[test]
    fn written_traces_read_back(lines in prop::collection::vec(prop::collection::vec(number(), 18).prop_map(|f| f.join(" ")), 1..30)) {
        if let Ok(a) = read_swf(lines.join("\n").as_bytes(), &ReadOptions::default()) {
            let mut out = Vec::new();
            write_swf(&mut out, &[format!("MaxProcs: {}", a.trace.procs)], rows_of(&a)).expect("write");
            let b = read_swf(&out[..], &ReadOptions::default()).expect("read back");
            prop_assert_eq!(&a.trace.jobs, &b.trace.jobs);
            // Field 5 is written as a processor count: an unknown one (-1)
            // comes back as the job's size.
            let want: Vec<SwfExtra> = a.trace.extras.iter().zip(&a.trace.jobs).map(|(e, j)| {
                let allocated = if u32::try_from(e.allocated).is_ok() { e.allocated } else { i64::from(j.size) };
                SwfExtra { allocated, ..*e }
            }).collect();
            prop_assert_eq!(want, b.trace.extras);
        }
    }
}
