//! Joining shard results (`schedlab sweep --shard I/N --json`) into the
//! result of the whole experiment, trusting nothing a file says: every file
//! must come from the same experiment (runs, shared parameters, sweep,
//! repetitions, seed, workload and metric options) on the same trace read
//! the same way, and every point must be the point the plan numbers so
//! (run, sweep value, seed), with a metrics document of the same shape as
//! the run's other points. A file is read field by field, so an error names
//! the field; its size is bounded before it is parsed, and what it claims
//! (how many points the experiment has) is arithmetic, never allocated.

use thiserror::Error;

use crate::json::{settings_difference, Element};
use crate::{ExperimentResult, MetricsDocument, Plan, PointResult, Shard, TraceDocument, EXPERIMENT_SCHEMA};

/// Largest shard file read, bytes (1 GiB).
pub const MAX_SHARD_BYTES: usize = 1 << 30;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("nothing to merge")]
    Empty,
    #[error("shard {file}: larger than {MAX_SHARD_BYTES} bytes")]
    TooLarge { file: usize },
    #[error("shard {file}: not JSON: {message}")]
    NotJson { file: usize, message: String },
    #[error("shard {file}: `{field}`: {message}")]
    Field { file: usize, field: String, message: String },
    #[error("shard {file}: `{field}` differs from shard 1's ({this} vs {first})")]
    Mismatch { file: usize, field: String, this: String, first: String },
    #[error("shard {file}: the experiment cannot be planned: {message}")]
    Plan { file: usize, message: String },
    #[error("shard {file}, point {index}: {message}")]
    Point { file: usize, index: u64, message: String },
    #[error("run `{label}`{at}: the mean or 95 % interval of metric `{field}` is beyond the largest number (1.8e308); a shard holds a value no run gives")]
    Overflow { label: String, at: String, field: String },
    #[error("point {0} appears in more than one shard")]
    Duplicate(u64),
    #[error("{missing} of {total} points are missing (first missing: point {first})")]
    Missing { missing: u64, total: u64, first: u64 },
}

/// A shard file as read: the points are checked one by one afterwards, so
/// an error names the point.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ShardFile {
    schema: String,
    experiment: crate::Experiment,
    labels: Vec<String>,
    /// Made again from the experiment, like the summary.
    #[serde(default)]
    #[allow(dead_code)]
    titles: serde::de::IgnoredAny,
    trace: TraceDocument,
    #[serde(default)]
    shard: Option<Shard>,
    points: Vec<Element>,
    /// Made again from the experiment, like the summary.
    #[serde(default)]
    #[allow(dead_code)]
    note: serde::de::IgnoredAny,
    #[serde(default)]
    #[allow(dead_code)]
    summary: serde::de::IgnoredAny,
}

/// Reads one shard file's text (`file` numbers it in messages, from 1).
/// Straight from the text, so that a run's parameters keep their order.
pub fn read_shard(text: &str, file: usize) -> Result<ExperimentResult, MergeError> {
    if text.len() > MAX_SHARD_BYTES {
        return Err(MergeError::TooLarge { file });
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let doc: ShardFile = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let path = e.path().to_string();
        let e = e.into_inner();
        if !e.is_data() {
            return MergeError::NotJson { file, message: e.to_string() };
        }
        // The field's path says where; the text's line and column do not
        // help in a one-line document.
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        field_error(file, if path == "." { "(document)" } else { &path }, message)
    })?;
    if doc.schema != EXPERIMENT_SCHEMA {
        return Err(field_error(file, "schema", format!("`{}`, expected `{EXPERIMENT_SCHEMA}`", doc.schema)));
    }
    let points = doc
        .points
        .into_iter()
        .enumerate()
        .map(|(i, p)| p.decode().map_err(|e| field_error(file, &format!("points[{i}]"), e)))
        .collect::<Result<Vec<PointResult>, _>>()?;
    Ok(ExperimentResult {
        schema: doc.schema,
        experiment: doc.experiment,
        labels: doc.labels,
        titles: Vec::new(),
        trace: doc.trace,
        shard: doc.shard,
        points,
        summary: Vec::new(),
        note: None,
    })
}

fn field_error(file: usize, field: &str, message: impl std::fmt::Display) -> MergeError {
    MergeError::Field { file, field: field.to_owned(), message: message.to_string() }
}

/// Joins shard results into the result of the whole experiment. Every
/// shard must come from the same experiment on the same trace, and
/// together they must hold every point exactly once.
pub fn merge(parts: Vec<ExperimentResult>) -> Result<ExperimentResult, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    let plan = Plan::new(first.experiment.clone()).map_err(|e| MergeError::Plan { file: 1, message: e.to_string() })?;
    let (experiment, trace) = (first.experiment.clone(), first.trace.clone());
    let mut shapes: Vec<Option<MetricsDocument>> = vec![None; plan.experiment().runs.len()];
    let mut points = Vec::new();
    for (i, part) in parts.into_iter().enumerate() {
        let file = i + 1;
        if let Some((field, this, first)) = settings_difference((&part.experiment, &part.trace), (&experiment, &trace))
        {
            return Err(MergeError::Mismatch { file, field, this, first });
        }
        if let Some(s) = part.shard {
            s.check().map_err(|e| field_error(file, "shard", e))?;
        }
        for p in part.points {
            check_point(&plan, part.shard, &p, &mut shapes).map_err(|message| MergeError::Point {
                file,
                index: p.point.index,
                message,
            })?;
            points.push(p);
        }
    }
    points.sort_by_key(|p| p.point.index);
    if let Some(w) = points.windows(2).find(|w| w[0].point.index == w[1].point.index) {
        return Err(MergeError::Duplicate(w[0].point.index));
    }
    let total = plan.len();
    if points.len() as u64 != total {
        let first = points
            .iter()
            .enumerate()
            .find(|(k, p)| p.point.index != *k as u64)
            .map_or(points.len() as u64, |(k, _)| k as u64);
        return Err(MergeError::Missing { missing: total - points.len() as u64, total, first });
    }
    check_summable(&plan, &points)?;
    Ok(ExperimentResult::new(&plan, trace, None, points))
}

/// Every cell's metrics can be averaged: no mean or interval passes the
/// largest float (`points` holds every point, in order).
fn check_summable(plan: &Plan, points: &[PointResult]) -> Result<(), MergeError> {
    for (run, value) in plan.cells() {
        let range = plan.cell_range(run, value);
        let metrics: Vec<&MetricsDocument> =
            points[range.start as usize..range.end as usize].iter().map(|p| &p.metrics).collect();
        if let Some(field) = crate::overflowing_metric(&metrics) {
            return Err(MergeError::Overflow { label: plan.label(run), at: plan.at(value), field });
        }
    }
    Ok(())
}

/// A point must be the plan's point of that number, belong to its file's
/// shard, and carry a metrics document shaped like the run's others.
fn check_point(
    plan: &Plan,
    shard: Option<Shard>,
    p: &PointResult,
    shapes: &mut [Option<MetricsDocument>],
) -> Result<(), String> {
    let expected = plan
        .point(p.point.index)
        .ok_or_else(|| format!("the experiment has {} points, numbered from 0", plan.len()))?;
    if let Some(s) = shard.filter(|s| !s.contains(p.point.index)) {
        return Err(format!("not a point of shard {}/{}", s.index, s.count));
    }
    if p.point.run != expected.run {
        return Err(format!("`run` is {}, the plan says {}", p.point.run, expected.run));
    }
    if p.point.value != expected.value {
        let index = |v: Option<usize>| v.map_or("null".into(), |v| v.to_string());
        let text = plan.value_text(expected.value).unwrap_or_else(|| "no value".into());
        return Err(format!("`value` is {}, the plan says {} ({text})", index(p.point.value), index(expected.value)));
    }
    if p.point.seed != expected.seed {
        return Err(format!("`seed` is {}, the plan says {}", p.point.seed, expected.seed));
    }
    p.metrics.check_kinds()?;
    match &shapes[p.point.run] {
        Some(shape) => shape.check_same_shape(&p.metrics),
        None => {
            shapes[p.point.run] = Some(p.metrics.clone());
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
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

    fn tampered(edit: impl Fn(&mut Value)) -> Result<ExperimentResult, MergeError> {
        let p = plan();
        let (a, b) = (shard(&p, Shard { index: 1, count: 2 }), shard(&p, Shard { index: 2, count: 2 }));
        let mut v: Value = serde_json::to_value(&b).unwrap();
        edit(&mut v);
        let b = read_shard(&v.to_string(), 2)?;
        merge(vec![read_shard(&text(&a), 1)?, b])
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
                "shard 2, point 1: metric `metrics.mbs` is text",
            ),
            (Box::new(|v| v["points"][0]["seed"] = json!(99)), "shard 2, point 1: `seed` is 99, the plan says 8"),
            (Box::new(|v| v["points"][0]["value"] = json!(1)), "shard 2, point 1: `value` is 1"),
            (Box::new(|v| v["points"][0]["index"] = json!(2)), "shard 2, point 2: not a point of shard 2/2"),
            (Box::new(|v| v["points"][0]["index"] = json!(1_000_000)), "the experiment has 4 points"),
            (Box::new(|v| v["points"][1]["metrics"]["extra"] = json!(1)), "metric `metrics.extra` is in one point"),
            (Box::new(|v| v["points"][0]["seed"] = json!("x")), "shard 2: `points[0]`: invalid type"),
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
                "run `easy@virtual` at error=0: the mean or 95 % interval of metric `categories[0].mbs` is beyond",
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
        let e = merge(vec![read_shard(&text(&r), 1).unwrap()]).unwrap_err();
        assert_eq!(e, MergeError::Missing { missing: 100_000_000, total: 100_000_000, first: 0 });
    }
}
