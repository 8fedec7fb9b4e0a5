//! Every trace in `$SCHEDLAB_TRACES` (the shared PWA traces in CI) under
//! every policy of the registry, with the run checker on. Skipped, with a
//! note, when the variable is unset, so a fresh clone's tests still pass.

use std::path::PathBuf;

use schedlab::workload::{read_swf, ReadOptions};

use crate::support::run;

fn trace_files() -> Option<Vec<PathBuf>> {
    let dir = std::env::var_os("SCHEDLAB_TRACES")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("SCHEDLAB_TRACES={}: {e}", PathBuf::from(&dir).display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".swf.gz") || p.to_string_lossy().ends_with(".swf"))
        .collect();
    files.sort();
    Some(files)
}

/// The machine size the seeds simulate, where it differs from the header.
fn machine_size(path: &std::path::Path) -> Option<u32> {
    let name = path.file_name()?.to_string_lossy();
    name.starts_with("CTC-SP2").then_some(430)
}

/// Every policy configuration run on every shared trace.
const SPECS: &[&str] = &[
    "fcfs",
    "easy",
    "easy:order=shortest@tsafrir",
    "easy@last",
    "cbf",
    "cbf@last",
    "pv-easy",
    "pv-easy:mode=checkpoint,cost=120",
    "pv-easy:mode=suspend,cost=120",
    "slack",
    "selective",
    "selective:variant=sel-d",
    "dbf",
];

#[test]
fn every_shared_trace_under_every_policy_passes_the_checker() {
    let Some(files) = trace_files() else {
        eprintln!("SCHEDLAB_TRACES is not set: full-trace test skipped");
        return;
    };
    assert!(!files.is_empty(), "SCHEDLAB_TRACES holds no .swf or .swf.gz file");
    for path in files {
        let opts = ReadOptions { machine_size: machine_size(&path), ..ReadOptions::default() };
        let file = std::fs::File::open(&path).expect("readable trace");
        let trace = read_swf(file, &opts).unwrap_or_else(|e| panic!("{}: {e}", path.display())).trace;
        for spec in SPECS {
            let out = run(&trace, spec);
            assert_eq!(out.metrics.jobs, trace.jobs.len(), "{} {spec}", path.display());
            if spec.starts_with("pv-easy") {
                // Strict fairness is also a checker guarantee; the audit and
                // the violation count must agree with it on real traces.
                assert_eq!(out.metrics.fairness.delayed, 0, "{} {spec}", path.display());
                assert_eq!(out.metrics.reservation_violations.count, 0, "{} {spec}", path.display());
            }
        }
    }
}
