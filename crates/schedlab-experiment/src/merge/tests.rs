use super::*;
use crate::{Experiment, MetricValue, RunSpec, Sweep};
use schedlab_metrics::{Metric, MetricKey};
// Shard files are JSON: the tests edit them as such.
use serde_json::{json, Value};

fn plan() -> Plan {
    let e = Experiment {
        repeat: 2,
        seed: 7,
        sweep: Some(Sweep::parse("error=0,50").unwrap()),
        ..Experiment::of(vec![RunSpec::parse("easy@virtual").unwrap()])
    };
    Plan::new(e).unwrap()
}

fn shard(plan: &Plan, s: Shard) -> ExperimentResult {
    let points = plan
        .points(Some(s))
        .map(|p| PointResult {
            metrics: serde_json::from_value(
                json!({ "mbs": p.index as f64, "categories": [{ "name": "SN", "mbs": 1.0 }] }),
            )
            .unwrap(),
            point: p,
            events: 10,
            elapsed_ms: Some(1.0),
            wait_ecdf: None,
        })
        .collect();
    let trace = serde_json::from_value(json!({ "sha256": "ab", "jobs": 3, "procs": 4, "options": {} })).unwrap();
    ExperimentResult::new(plan, trace, Some(s), points)
}

fn text(r: &ExperimentResult) -> String {
    serde_json::to_string(r).unwrap()
}

/// The files `texts` merged as `schedlab merge` streams them.
fn merged(texts: &[String]) -> Result<ExperimentResult, MergeError> {
    let mut m = Merger::new(MAX_MERGE_MEMORY);
    for t in texts {
        m.add_reader(t.as_bytes())?;
    }
    Ok(m.finish()?.into_result())
}

fn tampered(edit: impl Fn(&mut Value)) -> Result<ExperimentResult, MergeError> {
    let p = plan();
    let (a, b) = (shard(&p, Shard { index: 1, count: 2 }), shard(&p, Shard { index: 2, count: 2 }));
    let mut v: Value = serde_json::to_value(&b).unwrap();
    edit(&mut v);
    merged(&[text(&a), v.to_string()])
}

#[test]
fn shards_merge_into_the_whole_result() {
    let p = plan();
    let whole = ExperimentResult::new(&p, TraceDocument::none(), None, Vec::new());
    let merged = tampered(|_| {}).unwrap();
    assert_eq!(merged.points.len(), 4);
    assert_eq!(merged.summary.len(), 2);
    assert_eq!(merged.summary[1].mean.value(MetricKey::Fixed(Metric::Mbs)), MetricValue::Number(2.5));
    assert_eq!(merged.labels, whole.labels);
}

#[test]
fn tampered_shards_are_refused_with_the_field() {
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|v| v["points"][0]["metrics"]["mbs"] = json!("12")),
            "shard 2: `points[0].metrics`: metric `mbs` is text, not a number",
        ),
        (Box::new(|v| v["points"][0]["seed"] = json!(99)), "shard 2, point 1: `seed` is 99, the plan says 8"),
        (Box::new(|v| v["points"][0]["value"] = json!(1)), "shard 2, point 1: `value` is 1"),
        (Box::new(|v| v["points"][0]["index"] = json!(2)), "shard 2, point 2: not a point of shard 2/2"),
        (Box::new(|v| v["points"][0]["index"] = json!(1_000_000)), "the experiment has 4 points"),
        (
            Box::new(|v| v["points"][1]["metrics"]["extra"] = json!(1)),
            "shard 2: `points[1].metrics`: `extra` is not a metric of the catalogue",
        ),
        (
            Box::new(|v| _ = v["points"][1]["metrics"].as_object_mut().map(|m| m.remove("mbs"))),
            "shard 2, point 3: metric `mbs` is in one point of this run and not in another",
        ),
        (Box::new(|v| v["points"][0]["seed"] = json!("x")), "shard 2: `points[0]"),
        (
            Box::new(|v| v["experiment"]["workload"] = json!({"machine_size": 50})),
            "`experiment.workload.machine_size` differs from shard 1's (50 vs null)",
        ),
        (
            Box::new(|v| v["experiment"]["metrics"]["bsd_threshold"] = json!(60)),
            "`experiment.metrics.bsd_threshold` differs",
        ),
        (Box::new(|v| v["trace"]["options"] = json!({"first": 500})), "`trace.options.first` differs"),
        (Box::new(|v| v["trace"]["sha256"] = json!("cd")), "`trace.sha256` differs"),
        (Box::new(|v| v["schema"] = json!("schedlab-experiment/1")), "`schema`: `schedlab-experiment/1`"),
        (Box::new(|v| v["extra"] = json!(1)), "unknown field `extra`"),
        (
            Box::new(|v| v["shard"]["count"] = json!(4_294_967_296u64)),
            "shard 2: `shard.count`: invalid value: integer `4294967296`, expected u32",
        ),
        (
            Box::new(|v| v["shard"] = json!({"index": 0, "count": 0})),
            "shard 2: `shard`: shard 0/0: the count N must be 1 or more",
        ),
        (Box::new(|v| v["experiment"]["repeat"] = json!(3)), "`experiment.repeat` differs"),
        (
            Box::new(|v| v["points"][0]["metrics"]["categories"][0]["mbs"] = json!(1.7e308)),
            "run `easy@virtual` at error=0: the mean or 95 % interval of metric `categories.0.mbs` is beyond",
        ),
    ];
    for (edit, message) in cases {
        let e = tampered(edit).unwrap_err().to_string();
        assert!(e.contains(message), "{e}\n  expected: {message}");
    }
}

#[test]
fn missing_and_duplicate_points_are_named() {
    let p = plan();
    let a = shard(&p, Shard { index: 1, count: 2 });
    let e = merge(vec![a.clone()]).unwrap_err();
    assert_eq!(e, MergeError::Missing { missing: 2, total: 4, first: 1 });
    assert_eq!(merge(vec![a.clone(), a]).unwrap_err(), MergeError::Duplicate(0));
    assert_eq!(merge(Vec::new()).unwrap_err(), MergeError::Empty);
}

#[test]
fn a_huge_claimed_grid_costs_nothing_to_refuse() {
    // 10^4 repetitions × 10^4 values claimed by a tiny file: counted,
    // not allocated; the merge fails on the missing points.
    let e = Experiment {
        repeat: 10_000,
        sweep: Some(Sweep::parse("error=0:99.99:0.01").unwrap()),
        ..Experiment::of(vec![RunSpec::parse("easy@virtual").unwrap()])
    };
    let r = ExperimentResult::new(&Plan::new(e).unwrap(), TraceDocument::none(), None, Vec::new());
    let e = merged(&[text(&r)]).unwrap_err();
    assert_eq!(e, MergeError::Missing { missing: 100_000_000, total: 100_000_000, first: 0 });
}

/// The streamed merge writes the bytes of the result made in memory
/// from every point.
#[test]
fn a_streamed_merge_writes_the_result_of_all_points() {
    let p = plan();
    let shards = [Shard { index: 1, count: 2 }, Shard { index: 2, count: 2 }].map(|s| shard(&p, s));
    let mut m = Merger::new(MAX_MERGE_MEMORY);
    for s in &shards {
        m.add_reader(crate::document_text(s, "shard").unwrap().as_bytes()).unwrap();
    }
    let merged = m.finish().unwrap();
    let mut streamed = Vec::new();
    crate::write_document(&mut streamed, &merged.document(), "result").unwrap();
    let points = shards.iter().flat_map(|s| s.points.clone()).collect();
    let whole = ExperimentResult::new(&p, shards[0].trace.clone(), None, points);
    assert_eq!(String::from_utf8(streamed).unwrap(), crate::document_text(&whole, "result").unwrap());
    assert_eq!(merged.summary().summary, whole.summary);
}

#[test]
fn a_metric_null_in_some_repetitions_only_is_refused() {
    let e = tampered(|v| v["points"][0]["metrics"]["mbs"] = Value::Null).unwrap_err();
    // Point 1 (error=0, seed 8) is null; point 0 of its cell is not.
    assert!(matches!(&e, MergeError::PartlyNull { field, nulls: 1, points: 2, first: 1, .. } if field == "mbs"), "{e}");
    assert!(e.to_string().contains("metric `mbs` is null in 1 of its 2 repetitions"), "{e}");
    // Null in every repetition of a cell is a mean over no jobs: kept.
    let p = plan();
    let nulled = |s: Shard| {
        let mut v = serde_json::to_value(shard(&p, s)).unwrap();
        for point in v["points"].as_array_mut().unwrap() {
            point["metrics"]["mbs"] = Value::Null;
        }
        v.to_string()
    };
    let r = merged(&[nulled(Shard { index: 1, count: 2 }), nulled(Shard { index: 2, count: 2 })]).unwrap();
    assert_eq!(r.summary[0].mean.value(MetricKey::Fixed(Metric::Mbs)), MetricValue::Undefined);
}

#[test]
fn the_memory_budget_counts_what_is_held() {
    let p = plan();
    let text = text(&shard(&p, Shard { index: 1, count: 2 }));
    let mut m = Merger::new(1000);
    let e = m.add_reader(text.as_bytes()).unwrap_err();
    assert!(matches!(e, MergeError::Memory { file: 1, limit: 1000, points: 1 }), "{e}");
}

/// A file whose keys were sorted (points before the experiment) merges
/// as the file `sweep --json` wrote; a file cut short is not JSON.
#[test]
fn files_with_sorted_keys_merge_and_cut_files_are_refused() {
    let p = plan();
    let shards = [Shard { index: 1, count: 2 }, Shard { index: 2, count: 2 }].map(|s| shard(&p, s));
    let sorted: Vec<String> = shards.iter().map(|s| serde_json::to_value(s).unwrap().to_string()).collect();
    assert!(sorted[0].find("\"points\"") < sorted[0].find("\"schema\""), "keys sorted");
    let written: Vec<String> = shards.iter().map(text).collect();
    assert_eq!(merged(&sorted).unwrap(), merged(&written).unwrap());
    let e = merged(&["{\"schema\": \"x\"".to_owned()]).unwrap_err();
    assert!(matches!(e, MergeError::NotJson { file: 1, .. }), "{e}");
    let e = merged(&["{\"points\": []}".to_owned()]).unwrap_err().to_string();
    assert!(e.contains("shard 1: `(document)`: a shard file has `schema`, `experiment` and `trace`"), "{e}");
}
