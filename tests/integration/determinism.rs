//! The same trace, options and seed give the same bytes out.

use schedlab::experiment::{write_jobs_csv, RunDocument, TraceIdentity};
use schedlab::workload::ReadOptions;

use crate::golden_sample;
use crate::support::run_seeded;

fn document_bytes(spec: &str, seed: u64) -> (Vec<u8>, Vec<u8>) {
    let t = golden_sample();
    let out = run_seeded(&t, spec, seed);
    let settings = schedlab::experiment::resolve(&{
        let mut r = crate::support::request(spec);
        r.seed = seed;
        r
    })
    .expect("valid spec");
    let loaded = crate::golden_loaded();
    let id = TraceIdentity::new("sample".into(), &loaded, &ReadOptions::default());
    let doc = serde_json::to_vec(&RunDocument::new(&settings, id, &out, None)).expect("serializable");
    let mut csv = Vec::new();
    write_jobs_csv(&mut csv, &t, &out.record, 10).expect("in memory");
    (doc, csv)
}

#[test]
fn two_runs_give_identical_bytes() {
    for spec in ["fcfs", "easy", "easy:order=shortest@tsafrir", "easy@last", "cbf@last", "easy@virtual"] {
        assert_eq!(document_bytes(spec, 7), document_bytes(spec, 7), "{spec}");
    }
}

#[test]
fn the_seed_matters_only_where_randomness_is_used() {
    assert_ne!(document_bytes("easy:error=50@virtual", 1).1, document_bytes("easy:error=50@virtual", 2).1);
    assert_eq!(document_bytes("easy@last", 1).1, document_bytes("easy@last", 2).1);
}
