//! Measures how fast `read_swf` reads a trace: `cargo run --release -p
//! schedlab-workload --example parse_speed -- PATH [REPEATS]`.
//!
//! The file is read into memory first, so the figure is the reader's own
//! speed (gzip included if the file is compressed), in MB of uncompressed
//! text per second; the best of REPEATS runs (default 5) is reported.

use std::time::Instant;

use schedlab_workload::{read_swf, ReadOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: parse_speed PATH [REPEATS]")?;
    let repeats: u32 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(5);
    let data = std::fs::read(&path)?;
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        let loaded = read_swf(&data[..], &ReadOptions::default())?;
        best = best.min(start.elapsed().as_secs_f64());
        last = Some(loaded);
    }
    let loaded = last.ok_or("no run")?;
    let mb = loaded.bytes as f64 / 1e6;
    println!(
        "{path}: {mb:.1} MB uncompressed, {} lines, {} jobs kept, best of {repeats}: {:.3} s = {:.0} MB/s (sha256 {})",
        loaded.lines,
        loaded.trace.jobs.len(),
        best,
        mb / best,
        loaded.sha256
    );
    println!("  machine {} procs; cleaning: {}", loaded.trace.procs, loaded.report.summary());
    for w in &loaded.report.warnings {
        println!("  warning: {w}");
    }
    Ok(())
}
