//! Fuzzes the SWF reader: any bytes, plain or gzip, must give a trace or an
//! error, never a panic, and a trace must satisfy the cleaning guarantees and
//! survive a write/read round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_workload::{read_swf, stats_with_cleaning, write_swf, Loaded, Oversize, ReadOptions, SwfRow, Window};

fuzz_target!(|data: &[u8]| {
    if let Ok(loaded) = read_swf(data, &ReadOptions::default()) {
        check(&loaded);
        round_trip(&loaded);
    }
    // A tiny size limit exercises the refusal path at every offset.
    let tiny = ReadOptions { max_bytes: 64, ..ReadOptions::default() };
    if let Ok(loaded) = read_swf(data, &tiny) {
        check(&loaded);
        assert!(loaded.bytes <= 64);
    }
    // Options chosen by the first byte exercise the other cleaning paths.
    if let Some(&b) = data.first() {
        let opts = ReadOptions {
            machine_size: (b & 1 == 1).then_some(u32::from(b >> 4) + 1),
            oversize: if b & 2 == 2 { Oversize::Clamp } else { Oversize::Drop },
            window: match b & 12 {
                0 => Window::All,
                4 => Window::FirstJobs(usize::from(b >> 4) + 1),
                _ => Window::TimeRange { from: i64::from(b >> 4), to: i64::from(b) * 1000 + 20 },
            },
            load_factor: f64::from(b % 7 + 1) / 3.0,
            ..ReadOptions::default()
        };
        if let Ok(loaded) = read_swf(data, &opts) {
            check(&loaded);
        }
    }
});

/// The guarantees of a cleaned trace.
fn check(l: &Loaded) {
    let t = &l.trace;
    assert!(!t.jobs.is_empty() && t.jobs.len() == t.extras.len() && t.procs >= 1);
    for w in t.jobs.windows(2) {
        assert!((w[0].submit, w[0].id) <= (w[1].submit, w[1].id), "sorted");
    }
    for j in &t.jobs {
        assert!(j.runtime >= 0 && j.estimate >= 1 && j.runtime <= j.estimate, "{j:?}");
        assert!(j.size >= 1 && j.size <= t.procs, "{j:?}");
    }
    let s = stats_with_cleaning(t, &l.report);
    for f in [&s.recorded, &s.simulated.figures] {
        assert!(f.offered_load.is_none_or(|x| x.is_finite() && x >= 0.0));
    }
    // Cleaning only ever cuts runtimes.
    assert!(s.recorded.mean_runtime >= s.simulated.figures.mean_runtime);
    assert_eq!(l.report.jobs_kept, t.jobs.len() as u64);
    assert!(l.report.bad_lines.len() as u64 <= l.report.bad_lines_total);
}

/// Writing a cleaned trace and reading it back gives the same jobs.
fn round_trip(l: &Loaded) {
    let rows = l.trace.jobs.iter().zip(&l.trace.extras).map(|(j, e)| SwfRow::from_trace(*j, *e));
    let mut out = Vec::new();
    let comments = [format!("MaxProcs: {}", l.trace.procs)];
    write_swf(&mut out, &comments, rows).expect("writing to a Vec cannot fail");
    let big = ReadOptions { max_bytes: u64::MAX, ..ReadOptions::default() };
    let again = read_swf(&out[..], &big).expect("a written trace reads back");
    assert_eq!(l.trace.jobs, again.trace.jobs);
}
