//! The one module of the experiment pipeline that knows JSON: the metrics
//! and trace documents that results carry, and the text of every result
//! document the command line, the page and the Python package print.
//!
//! Everything else reads a metrics document by catalogue key
//! ([`MetricsDocument::value`] with a [`MetricKey`]), never by a path in
//! text, and gets a clear error, not a `null`, when a value cannot be
//! written. The documents keep the layout of the metrics (keys in sorted
//! order, labels such as category names), so the bytes of a result do not
//! depend on which front end made it.

use schedlab_metrics::{MetricKey, Metrics};
use schedlab_workload::ReadOptions;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::TraceIdentity;

/// A value that could not be written as JSON (a map with keys that are
/// not text, a failing `Serialize`): the name of what was written and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write the {what} as JSON: {message}")]
pub struct DocumentError {
    pub what: &'static str,
    pub message: String,
}

fn tree<T: Serialize + ?Sized>(value: &T, what: &'static str) -> Result<Value, DocumentError> {
    serde_json::to_value(value).map_err(|e| DocumentError { what, message: e.to_string() })
}

/// The text of a result document as every front end prints it: indented
/// JSON and a final newline.
pub fn document_text<T: Serialize + ?Sized>(value: &T, what: &'static str) -> Result<String, DocumentError> {
    let mut text = serde_json::to_string_pretty(value).map_err(|e| DocumentError { what, message: e.to_string() })?;
    text.push('\n');
    Ok(text)
}

/// A metric as a document holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MetricValue {
    /// The document has no such metric (a policy without deadlines has no
    /// deadline metrics).
    Absent,
    /// The metric is there but has no value: a mean over no jobs, or the
    /// interval of a single repetition.
    Undefined,
    Number(f64),
}

impl MetricValue {
    pub fn number(self) -> Option<f64> {
        match self {
            MetricValue::Number(x) => Some(x),
            _ => None,
        }
    }
}

/// A metrics document: one run's metrics, or a summary of several runs of
/// the same shape (each number their mean, or the half-width of their 95 %
/// interval).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MetricsDocument(Value);

impl MetricsDocument {
    /// The document of a run's metrics.
    pub fn of(metrics: &Metrics) -> Result<Self, DocumentError> {
        tree(metrics, "metrics").map(MetricsDocument)
    }

    /// The metric `key` of the document.
    pub fn value(&self, key: MetricKey) -> MetricValue {
        let path = key.path();
        let found = path.split('.').try_fold(&self.0, |v, part| match part.parse::<usize>() {
            Ok(i) => v.get(i),
            Err(_) => v.get(part),
        });
        match found {
            None => MetricValue::Absent,
            Some(v) => v.as_f64().map_or(MetricValue::Undefined, MetricValue::Number),
        }
    }

    /// The names of the blocked-job groups, in the document's order: big,
    /// small, then the size bins ("1", "2", "3-4", …).
    pub fn blocked_group_names(&self) -> Vec<String> {
        let groups = self.0.get("blocked_groups").and_then(Value::as_array);
        groups.into_iter().flatten().filter_map(|g| Some(g.get("group")?.as_str()?.to_owned())).collect()
    }

    /// Documents of one shape combined leaf by leaf: `f` of each numeric
    /// leaf's values (`null` where it gives NaN, and the path of the first
    /// infinite result in `overflow`), labels taken from the first.
    pub(crate) fn combine(docs: &[&MetricsDocument], f: &dyn Fn(&[f64]) -> f64, overflow: &mut Option<String>) -> Self {
        let trees: Vec<&Value> = docs.iter().map(|d| &d.0).collect();
        MetricsDocument(combine(&trees, f, "", overflow))
    }

    /// Numbers everywhere, except text where the document has labels.
    pub(crate) fn check_kinds(&self) -> Result<(), String> {
        metric_kinds(&self.0, "metrics")
    }

    /// The same keys, arrays of the same length and numbers where `other`
    /// has numbers.
    pub(crate) fn check_same_shape(&self, other: &MetricsDocument) -> Result<(), String> {
        same_shape(&self.0, &other.0, "metrics".into())
    }
}

/// See [`MetricsDocument::combine`].
fn combine(docs: &[&Value], f: &dyn Fn(&[f64]) -> f64, path: &str, overflow: &mut Option<String>) -> Value {
    match docs.first() {
        Some(Value::Number(_)) => {
            let xs: Vec<f64> = docs.iter().filter_map(|d| d.as_f64()).collect();
            let y = f(&xs);
            if y.is_infinite() && overflow.is_none() {
                *overflow = Some(path.to_owned());
            }
            serde_json::Number::from_f64(y).map_or(Value::Null, Value::Number)
        }
        Some(Value::Object(first)) => {
            let mut out = Map::new();
            for key in first.keys() {
                let column: Vec<&Value> = docs.iter().map(|d| d.get(key).unwrap_or(&Value::Null)).collect();
                let inner = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                out.insert(key.clone(), combine(&column, f, &inner, overflow));
            }
            Value::Object(out)
        }
        Some(Value::Array(first)) => {
            let rows = (0..first.len())
                .map(|i| {
                    let column: Vec<&Value> = docs.iter().map(|d| d.get(i).unwrap_or(&Value::Null)).collect();
                    combine(&column, f, &format!("{path}[{i}]"), overflow)
                })
                .collect();
            Value::Array(rows)
        }
        // Labels (category names, group names) are the same in every run.
        Some(other) => (*other).clone(),
        None => Value::Null,
    }
}

/// Text is allowed only where the metrics document has labels (a
/// category's name, a group, a reference policy, a range, the runtime
/// source of the prediction figures).
const LABEL_KEYS: [&str; 5] = ["name", "group", "reference", "range", "source"];

fn metric_kinds(v: &Value, path: &str) -> Result<(), String> {
    match v {
        Value::Object(m) => m.iter().try_for_each(|(k, x)| {
            if LABEL_KEYS.contains(&k.as_str()) && x.is_string() {
                Ok(())
            } else {
                metric_kinds(x, &format!("{path}.{k}"))
            }
        }),
        Value::Array(a) => a.iter().enumerate().try_for_each(|(i, x)| metric_kinds(x, &format!("{path}[{i}]"))),
        Value::Number(_) | Value::Null => Ok(()),
        Value::String(_) => Err(format!("metric `{path}` is text, not a number")),
        Value::Bool(_) => Err(format!("metric `{path}` is true/false, not a number")),
    }
}

fn same_shape(a: &Value, b: &Value, path: String) -> Result<(), String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            if let Some(k) = x.keys().find(|k| !y.contains_key(*k)).or_else(|| y.keys().find(|k| !x.contains_key(*k))) {
                return Err(format!("metric `{path}.{k}` is in one point of this run and not in another"));
            }
            x.iter().try_for_each(|(k, v)| same_shape(v, &y[k], format!("{path}.{k}")))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().try_for_each(|(i, (u, v))| same_shape(u, v, format!("{path}[{i}]")))
        }
        (Value::Array(_), Value::Array(_)) => {
            Err(format!("metric `{path}` has another length than in the run's other points"))
        }
        (Value::Number(_) | Value::Null, Value::Number(_) | Value::Null) => Ok(()),
        (Value::String(_), Value::String(_)) => Ok(()),
        _ => Err(format!("metric `{path}` has another type than in the run's other points")),
    }
}

/// The trace an experiment ran on, as its result document holds it
/// ([`TraceIdentity`]'s fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TraceDocument(Value);

impl TraceDocument {
    pub fn of(identity: &TraceIdentity) -> Result<Self, DocumentError> {
        tree(identity, "trace identity").map(TraceDocument)
    }

    /// The document of a result tied to no trace (`{}`), for tests and
    /// hand-built results.
    pub fn none() -> Self {
        TraceDocument(Value::Object(Map::new()))
    }

    /// The trace's name, jobs, machine size and read options; `None` when a
    /// field is missing.
    pub fn context_fields(&self) -> Option<(&str, usize, u32, ReadOptions)> {
        let name = self.0.get("name")?.as_str()?;
        let jobs = usize::try_from(self.0.get("jobs")?.as_u64()?).ok()?;
        let procs = u32::try_from(self.0.get("procs")?.as_u64()?).ok()?;
        let options: ReadOptions = serde_json::from_value(self.0.get("options")?.clone()).ok()?;
        Some((name, jobs, procs, options))
    }
}

/// The first setting two results differ in (their experiments, and their
/// traces' content, size and read options), as (path, this, first), both
/// values in short.
pub(crate) fn settings_difference(
    this: (&crate::Experiment, &TraceDocument),
    first: (&crate::Experiment, &TraceDocument),
) -> Option<(String, String, String)> {
    let settings = |(e, t): (&crate::Experiment, &TraceDocument)| {
        let pick = |key: &str| t.0.get(key);
        serde_json::json!({
            "experiment": e,
            "trace": { "sha256": pick("sha256"), "jobs": pick("jobs"), "procs": pick("procs"), "options": pick("options") },
        })
    };
    first_difference(&settings(this), &settings(first), String::new())
}

fn first_difference(a: &Value, b: &Value, path: String) -> Option<(String, String, String)> {
    let join = |k: &str| if path.is_empty() { k.to_owned() } else { format!("{path}.{k}") };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (va, vb) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                first_difference(va, vb, join(k))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (va, vb))| first_difference(va, vb, format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some((path, brief(a), brief(b))),
    }
}

fn brief(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        s.chars().take(57).chain("...".chars()).collect()
    } else {
        s
    }
}

/// One element of a list in a file, kept as read so that it is decoded
/// alone and an error names its place.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub(crate) struct Element(Value);

impl Element {
    pub(crate) fn decode<T: serde::de::DeserializeOwned>(self) -> Result<T, String> {
        serde_json::from_value(self.0).map_err(|e| e.to_string())
    }
}

/// A parameter value (or any scalar) as text: a string as itself, a number
/// in short form; `None` when it cannot be written.
pub(crate) fn scalar_text<T: Serialize>(value: &T) -> Option<String> {
    match serde_json::to_value(value).ok()? {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.as_f64().map_or_else(|| n.to_string(), crate::format_value)),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_metrics::{CategoryField, Metric};

    fn doc(text: &str) -> MetricsDocument {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn metrics_are_read_by_key() {
        let m = doc(r#"{"mbs": 2.5, "categories": [{"name": "SN", "mbs": 1.0}], "fairness": {"delayed": 3},
                        "deadline": {"regular_mean_wait": null}}"#);
        assert_eq!(m.value(MetricKey::Fixed(Metric::Mbs)), MetricValue::Number(2.5));
        assert_eq!(m.value(MetricKey::Category(0, CategoryField::Mbs)), MetricValue::Number(1.0));
        assert_eq!(m.value(MetricKey::Fixed(Metric::FairnessDelayed)), MetricValue::Number(3.0));
        assert_eq!(m.value(MetricKey::Fixed(Metric::DeadlineRegularMeanWait)), MetricValue::Undefined);
        assert_eq!(m.value(MetricKey::Category(1, CategoryField::Mbs)), MetricValue::Absent);
        assert_eq!(m.value(MetricKey::Fixed(Metric::Mwbs)), MetricValue::Absent);
    }

    #[test]
    fn documents_are_indented_with_a_final_newline() {
        assert_eq!(document_text(&[1, 2], "list").unwrap(), "[\n  1,\n  2\n]\n");
        let bad = std::collections::BTreeMap::from([((1, 2), 3)]);
        let e = document_text(&bad, "table").unwrap_err();
        assert!(e.to_string().starts_with("cannot write the table as JSON: "), "{e}");
    }
}

/// Every numeric metric a run can report has a column in the catalogue:
/// a metric added without one fails here (docs/metrics.md is generated
/// from the catalogue).
#[cfg(test)]
mod catalogue {
    use crate::{run_point, Experiment, Plan, RunSpec};
    use schedlab_workload::{read_swf, ReadOptions};

    use super::Value;

    const KTH: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");

    fn leaves(v: &Value, path: String, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => m
                .iter()
                .for_each(|(k, x)| leaves(x, if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, out)),
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| leaves(x, format!("{path}.{i}"), out)),
            Value::Number(_) | Value::Null => out.push(path),
            _ => {}
        }
    }

    #[test]
    fn every_numeric_metric_has_a_column() {
        let trace =
            read_swf(KTH, &ReadOptions { window: schedlab_workload::Window::FirstJobs(600), ..ReadOptions::default() })
                .unwrap()
                .trace;
        // Runs that fill every optional part: preemption, deadlines, the
        // fair-slowdown table, reservation violations.
        let specs = ["easy@last", "pv-easy:mode=checkpoint", "dbf", "easy:fair_slowdown=on"];
        let plan = Plan::new(Experiment::of(specs.iter().map(|s| RunSpec::parse(s).unwrap()).collect())).unwrap();
        let mut paths = Vec::new();
        for p in plan.points(None) {
            let r = run_point(&trace, &plan, &p, &mut |_, _| schedlab_engine::Control::Continue).unwrap();
            leaves(&r.metrics.0, String::new(), &mut paths);
        }
        for sample in ["deadline.jobs", "fair_slowdown.rows.4.percent", "blocked_groups.2.mbs", "mkt"] {
            assert!(paths.iter().any(|p| p == sample), "{sample} was not reported");
        }
        let missing: Vec<&String> = paths.iter().filter(|p| schedlab_metrics::MetricKey::parse(p).is_none()).collect();
        assert!(missing.is_empty(), "metrics without a column in the catalogue: {missing:?}");
    }
}
