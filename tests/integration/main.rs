//! Schedlab's integration tests: one binary, so the core links once.
//!
//! - `schedules`: hand-computed schedules of small traces for every policy;
//! - `checker`: the run checker catches broken runs;
//! - `properties`: random traces, every policy and runtime source;
//! - `golden`: the shipped real sample against an independent reference
//!   simulator;
//! - `determinism`: the same inputs give the same bytes;
//! - `full_traces`: every trace in `$SCHEDLAB_TRACES` under every policy;
//! - `limits`: traces at and past the reader's time and size limits;
//! - `schedule_view`: the schedule as data (layout, buckets, series,
//!   inspector, comparison, replay) on hand-computed schedules, invariants
//!   on random runs and a 250,000-job trace;
//! - `formats`: Slurm dumps and Batsim workloads replay as the SWF they
//!   were converted from; Batsim's jobs.csv of a hand-computed schedule.

mod backfill;
mod backfill_on_nodes;
mod checker;
mod dbf;
mod determinism;
mod directed;
mod fairness;
mod formats;
mod full_traces;
mod golden;
mod identity;
mod limits;
mod node_gantt;
mod nodes;
mod preemption;
mod properties;
mod reference;
mod schedule_view;
mod schedules;
mod selective;
mod slack;
mod spread_over;
mod support;

/// The shipped real sample (first 3000 jobs of KTH-SP2), cleaned with
/// default options.
pub fn golden_sample() -> schedlab::workload::Trace {
    golden_loaded().trace
}

pub fn golden_loaded() -> schedlab::workload::Loaded {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/kth-sp2-first3000.swf");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    schedlab::workload::read_swf(file, &Default::default()).expect("the sample is valid")
}
