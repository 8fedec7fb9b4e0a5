//! Errors that name what and where; compressed input; size, job and time limits.

use std::io::{self, Read, Write};

use flate2::write::GzEncoder;
use flate2::Compression;

use super::*;
use crate::*;

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
    assert!(matches!(err, SwfError::TrailingData { format: "gzip", line: 3, .. }), "{err}");
}

/// Text after a gzip trace is named as what it is, not as a corrupt
/// stream: the stream itself is whole.
#[test]
fn text_after_a_compressed_trace_is_named() {
    let plain = text(&[jl(1, 0, 1, 1, 1), jl(2, 0, 1, 1, 1)]);
    let mut appended = gzip(plain.as_bytes());
    appended.extend(b"3 0 0 1 1 -1 -1 1 1 -1 1 1 1 -1 1 1 -1 -1\n");
    let err = read(&appended, &ReadOptions::default()).expect_err("text after gzip");
    assert_eq!(
        err.to_string(),
        "the gzip stream ends after line 3 of the text, and the file goes on with bytes that are not gzip \
         (`3 0 0 1 1 -1 -1 1 1 -1 1`): the trace was written with other data after it; cut that off, or \
         decompress the trace alone"
    );
    // A broken second member is still a corrupt stream.
    let mut broken = gzip(plain.as_bytes());
    broken.extend([0x1f, 0x8b, 8, 0, 0, 0]);
    let err = read(&broken, &ReadOptions::default()).expect_err("broken member");
    assert!(matches!(err, SwfError::Corrupt { format: "gzip", .. }), "{err}");
}

/// A trace compressed twice says so, whichever the inner compression.
#[test]
fn a_trace_compressed_twice_is_named() {
    let plain = text(&[jl(1, 0, 1, 1, 1)]);
    let twice = gzip(&gzip(plain.as_bytes()));
    let err = read(&twice, &ReadOptions::default()).expect_err("gzip of gzip");
    assert_eq!(
        err.to_string(),
        "the input is gzip, and what it holds is still compressed (gzip): it was compressed twice; \
         decompress it once, and read the result"
    );
    let mut zip_inside = b"PK\x03\x04".to_vec();
    zip_inside.extend([0u8; 40]);
    let err = read(&gzip(&zip_inside), &ReadOptions::default()).expect_err("zip in gzip");
    assert!(matches!(err, SwfError::StillCompressed { outer: "gzip", inner: "zip" }), "{err}");
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
