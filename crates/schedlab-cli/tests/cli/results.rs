//! Results that were once silently wrong: seeds that wrapped around, a
//! machine size given twice, shard means past the largest float.

use serde_json::Value;

use crate::{json, ok, sample, schedlab, stderr, temp_dir};

/// `--seed 2^64 - 1 --repeat 3` used seeds 2^64 - 1, 0 and 1. DBF draws
/// from its seed, so it runs once per seed.
#[test]
fn seeds_that_would_wrap_around_are_refused_with_the_largest_allowed() {
    let o = schedlab(&["run", &sample(), "--policy", "easy", "--seed", "18446744073709551615", "--repeat", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the largest seed allowed is 18446744073709551613"), "{}", stderr(&o));
    let doc = json(&[
        "run",
        &sample(),
        "--policy",
        "dbf",
        "--seed",
        "18446744073709551613",
        "--repeat",
        "3",
        "--first",
        "50",
        "--json",
        "-q",
    ]);
    assert_eq!(
        doc["seeds"],
        serde_json::json!([18446744073709551613u64, 18446744073709551614u64, 18446744073709551615u64])
    );
}

/// A header that says `MaxProcs` twice: the last is used, and said so.
#[test]
fn a_machine_size_given_twice_is_warned_about() {
    let dir = temp_dir("maxprocs");
    let trace = dir.join("twice.swf");
    let jobs: String = std::fs::read_to_string(sample())
        .expect("sample")
        .lines()
        .filter(|l| !l.starts_with(';'))
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&trace, format!("; MaxProcs: 128\n; MaxProcs: 100\n{jobs}")).expect("trace");
    let t = trace.display().to_string();
    let warning = "line 2: header MaxProcs 100 differs from the 128 given earlier; 100 is used";
    let o = schedlab(&["run", &t, "--policy", "easy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("schedlab: warning: twice.swf: {warning}")), "{}", stderr(&o));
    let doc = json(&["stats", &t, "--json"]);
    assert_eq!(doc["procs"], 100, "{doc}");
    assert_eq!(doc["warnings"], serde_json::json!([warning]));
    std::fs::remove_dir_all(&dir).ok();
}

/// Shards whose means reach 1.7e308 merged into `null` with an interval
/// of 0: two such values now average to 1.7e308, and an interval beyond
/// the largest float is an error naming the metric.
#[test]
fn merged_means_near_the_largest_float_are_exact_or_refused() {
    let dir = temp_dir("overflow");
    let shard = dir.join("shard.json");
    let text = ok(&[
        "sweep",
        &sample(),
        "--policy",
        "easy@virtual",
        "--sweep",
        "order=priority,shortest",
        "--repeat",
        "2",
        "--first",
        "50",
        "--json",
        "-q",
    ]);
    let edited = |values: [f64; 2]| {
        let mut doc: Value = serde_json::from_str(&text).expect("JSON");
        for (point, value) in doc["points"].as_array_mut().expect("points").iter_mut().zip(values) {
            point["metrics"]["mbs"] = value.into();
        }
        std::fs::write(&shard, doc.to_string()).expect("shard");
        schedlab(&["merge", &shard.display().to_string(), "--json"])
    };
    let o = edited([1.7e308, 1.7e308]);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged: Value = serde_json::from_slice(&o.stdout).expect("merged");
    assert_eq!(
        (merged["summary"][0]["mean"]["mbs"].as_f64(), merged["summary"][0]["ci95"]["mbs"].as_f64()),
        (Some(1.7e308), Some(0.0))
    );
    let o = edited([1.7e308, 0.0]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("run `easy@virtual` at order=priority: the mean or 95 % interval of metric `mbs` is beyond"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}
