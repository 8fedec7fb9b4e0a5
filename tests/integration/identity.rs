//! Schedule identity: every policy configuration of [`SPECS`] on a set of
//! traces gives exactly the schedule it gave when the digests in
//! `tests/digests/` were recorded.
//!
//! The digests pin down behaviour across changes that must not alter it
//! (speed work on the profile, the queue indexes, the shadow time). They
//! were recorded from the code as it stood *before* such a change, so a
//! failure here means a schedule moved. A change that is meant to alter a
//! schedule regenerates the affected lines in a commit of its own that says
//! why (`SCHEDLAB_WRITE_DIGESTS=1 cargo test --release --test integration
//! identity`, with `SCHEDLAB_TRACES` set to include the shared traces).
//!
//! A digest is the SHA-256 of the per-job CSV restricted to its first
//! sixteen columns ([`COLUMNS`]), so that a column added later does not
//! invalidate the record while every column that describes the schedule is
//! still covered.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use schedlab::experiment::{write_jobs_csv, RunOutcome};
use schedlab::workload::{read_swf, ReadOptions, Trace};
use schedlab_synth::{generate_backlog, LublinParams};
use sha2::{Digest, Sha256};

use crate::support::run_seeded;

/// Every policy configuration whose schedules are pinned. The last three
/// orders read `wait` or `now`, and their digests were recorded from the
/// code that scored every waiting job at every pass: the merge by
/// submission second (`backfill/clock_order.rs`) must keep them.
pub const SPECS: &[&str] = &[
    "fcfs",
    "easy",
    "easy:order=shortest",
    "easy:order=shortest@tsafrir",
    "easy@last",
    "easy:error=30@virtual",
    "cbf",
    "cbf@last",
    "pv-easy",
    "pv-easy@estimate",
    "pv-easy:mode=checkpoint,cost=120",
    "pv-easy:mode=suspend,cost=120",
    "slack",
    "selective",
    "selective:variant=sel-d",
    "dbf",
    "backfill:depth=8,order=wfp3",
    "backfill:order=unicep,direction=highest",
    "backfill:depth=2,order=now/requested",
];

/// The seed of every pinned run (it matters for `virtual` and `dbf`).
const SEED: u64 = 1;

/// The per-job CSV columns a digest covers, in order.
const COLUMNS: &[&str] = &[
    "job",
    "user",
    "size",
    "submit",
    "start",
    "end",
    "wait",
    "runtime",
    "estimate",
    "prediction",
    "bsd",
    "preempted",
    "backfilled",
    "blocked",
    "fair_start",
    "reservation",
];

/// One file of digests per case.
fn digest_file(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/digests").join(format!("{case}.txt"))
}

/// SHA-256 (hex) of the schedule of a run on `trace`, over [`COLUMNS`].
pub fn schedule_digest(trace: &Trace, out: &RunOutcome) -> String {
    let mut csv = Vec::new();
    write_jobs_csv(&mut csv, trace, &out.record, 10).expect("in memory");
    let text = String::from_utf8(csv).expect("UTF-8");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let picks: Vec<usize> = COLUMNS
        .iter()
        .map(|c| header.iter().position(|h| h == c).unwrap_or_else(|| panic!("the CSV lost column {c}")))
        .collect();
    let mut hash = Sha256::new();
    hash.update(COLUMNS.join(",").as_bytes());
    hash.update(b"\n");
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let row: Vec<&str> = picks.iter().map(|&i| cells[i]).collect();
        hash.update(row.join(",").as_bytes());
        hash.update(b"\n");
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The recorded digests of a case, keyed by spec.
fn recorded(case: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(digest_file(case)).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (key, digest) = l.rsplit_once(' ').unwrap_or_else(|| panic!("bad digest line: {l}"));
            (key.to_owned(), digest.to_owned())
        })
        .collect()
}

/// The schedule digest of every spec of [`SPECS`] on `trace`, in the order
/// of [`SPECS`], after `also` has seen each outcome. The runs are
/// independent, so they share the machine's cores: on full traces this test
/// is the longest of the suite, and run one after another its last minutes
/// kept one core idle.
fn digests(trace: &Trace, also: &(impl Fn(&str, &RunOutcome) + Sync)) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<String>>> = Mutex::new(vec![None; SPECS.len()]);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(SPECS.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(spec) = SPECS.get(i) else { break };
                let out = run_seeded(trace, spec, SEED);
                also(spec, &out);
                let digest = schedule_digest(trace, &out);
                done.lock().expect("no worker panicked holding the lock")[i] = Some(digest);
            });
        }
    });
    done.into_inner().expect("no worker panicked").into_iter().map(|d| d.expect("every spec ran")).collect()
}

/// Runs every spec on `trace` (named `case`) with the run checker, hands
/// each outcome to `also` for further assertions, and compares its digest
/// with the record; with `SCHEDLAB_WRITE_DIGESTS=1`, records it instead.
pub fn check_case(case: &str, trace: &Trace, also: impl Fn(&str, &RunOutcome) + Sync) {
    let writing = std::env::var_os("SCHEDLAB_WRITE_DIGESTS").is_some();
    let mut record = recorded(case);
    let mut moved = Vec::new();
    for (spec, digest) in SPECS.iter().zip(digests(trace, &also)) {
        let key = (*spec).to_owned();
        if writing {
            record.insert(key, digest);
        } else {
            match record.get(&key) {
                Some(d) if *d == digest => {}
                Some(_) => moved.push(format!("{case} {key}: the schedule changed")),
                None => moved.push(format!("{case} {key}: no digest recorded")),
            }
        }
    }
    if writing {
        let mut text = format!(
            "# Schedule digests of case {case} (tests/integration/identity.rs): `spec sha256` of the per-job CSV's first 16 columns.\n"
        );
        for (k, d) in &record {
            text.push_str(&format!("{k} {d}\n"));
        }
        std::fs::write(digest_file(case), text).expect("writable digest file");
    }
    assert!(moved.is_empty(), "{} schedules differ from the record:\n{}", moved.len(), moved.join("\n"));
}

pub fn read(path: &Path, opts: &ReadOptions) -> Trace {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_swf(file, opts).unwrap_or_else(|e| panic!("{}: {e}", path.display())).trace
}

fn sample_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/kth-sp2-first3000.swf")
}

#[test]
fn the_sample_keeps_its_schedules() {
    check_case("sample", &read(&sample_path(), &ReadOptions::default()), |_, _| {});
}

#[test]
fn the_sample_at_twice_the_load_keeps_its_schedules() {
    let opts = ReadOptions { load_factor: 2.0, ..ReadOptions::default() };
    check_case("sample-load2", &read(&sample_path(), &opts), |_, _| {});
}

#[test]
fn a_backlog_of_2000_jobs_keeps_its_schedules() {
    let params = LublinParams { procs: 128, jobs: 2000, seed: 1, ..LublinParams::default() };
    check_case("backlog-2000", &generate_backlog(&params).expect("valid parameters"), |_, _| {});
}
