//! Small files that stand for huge traces, refused at the job limit in
//! bounded memory: the reader counts jobs (and array tasks) while it reads,
//! whatever the format. Peak memory is the child's maximum resident set,
//! as `/usr/bin/time` reports it (a count, not a timing).

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use flate2::write::GzEncoder;
use flate2::Compression;

use crate::{stderr, temp_dir};

/// The most memory a refused bomb may take, in KiB (50 MB).
const BOUND_KIB: u64 = 50 * 1000 * 1000 / 1024;

fn gzip_member(text: &str) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(text.as_bytes()).expect("gzip");
    enc.finish().expect("gzip")
}

/// Runs `schedlab ARGS` under `/usr/bin/time` and returns its stderr and
/// its peak resident memory in KiB; `None` where there is no such tool.
fn peak_memory(args: &[&str]) -> Option<(String, u64)> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        eprintln!("note: no /usr/bin/time here; the memory bound is not measured");
        return None;
    }
    let o = Command::new(time)
        .args(["-f", "peak-kib %M"])
        .arg(env!("CARGO_BIN_EXE_schedlab"))
        .args(args)
        .env_remove("SCHEDLAB_TRACES")
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2), "refused with exit 2: {}", stderr(&o));
    let err = stderr(&o);
    let peak = err.lines().find_map(|l| l.strip_prefix("peak-kib ")).expect("time's line").trim().parse().expect("KiB");
    Some((err, peak))
}

/// The bomb: 44 million Batsim jobs, 2.2 GB of JSON, in 7 MB of
/// gzip of concatenated members (one per 10,000 jobs, written once),
/// refused at `--max-jobs 10` (the whole document was parsed first, and
/// the allocation of 5.9 GB aborted the process).
#[test]
fn a_batsim_bomb_is_refused_in_bounded_memory() {
    let dir = temp_dir("batsim-bomb");
    let bomb = dir.join("bomb.json.gz");
    let block = "{\"id\": 1, \"subtime\": 0, \"res\": 1, \"profile\": \"p\"},\n".repeat(10_000);
    let block = gzip_member(&block);
    let mut file = std::io::BufWriter::new(fs::File::create(&bomb).expect("bomb"));
    file.write_all(&gzip_member("{\"nb_res\": 4, \"jobs\": [\n")).expect("write");
    for _ in 0..4_400 {
        file.write_all(&block).expect("write");
    }
    let tail = "{\"id\": 0, \"subtime\": 0, \"res\": 1, \"profile\": \"p\"}\n], \"profiles\": {\"p\": {\"type\": \"delay\", \"delay\": 1}}}\n";
    file.write_all(&gzip_member(tail)).expect("write");
    drop(file);
    let path = bomb.display().to_string();
    if let Some((err, peak)) = peak_memory(&["stats", &path, "--max-jobs", "10"]) {
        assert!(err.contains("more than 10 jobs, the job limit (refused at line 12)"), "{err}");
        assert!(peak < BOUND_KIB, "peak {peak} KiB");
    }
    fs::remove_dir_all(&dir).ok();
}

/// One sacct line standing for 20 million tasks that would all be kept.
#[test]
fn a_sacct_array_bomb_is_refused_in_bounded_memory() {
    let dir = temp_dir("sacct-bomb");
    let dump = dir.join("bomb.sacct");
    let text = "JobIDRaw|JobID|Submit|Start|End|ReqCPUS|State\n\
                100|100_[0-19999999]|2024-03-01T10:00:00|2024-03-01T10:00:05|2024-03-01T10:10:05|4|COMPLETED\n";
    fs::write(&dump, text).expect("dump");
    let path = dump.display().to_string();
    if let Some((err, peak)) = peak_memory(&["stats", &path, "--max-jobs", "1000"]) {
        assert!(err.contains("more than 1000 jobs, the job limit (refused at line 2)"), "{err}");
        assert!(peak < BOUND_KIB, "peak {peak} KiB");
    }
    fs::remove_dir_all(&dir).ok();
}
