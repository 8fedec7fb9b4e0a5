//! The one module of the experiment pipeline that knows JSON: the metrics
//! and trace documents that results carry, and the text of every result
//! document the command line, the page and the Python package print, and
//! the reading of share links (the first format is migrated from its JSON
//! tree).
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

pub(crate) mod compact;

use crate::link::{bad, clip, is_default, Link, LinkError, TraceRef, MAX_SAFE_INTEGER};
use crate::{Experiment, ParamList, RunSpec, Sweep, SweepValues, TraceIdentity, WorkloadOptions};

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
    let mut bytes = Vec::new();
    write_document(&mut bytes, value, what)?;
    String::from_utf8(bytes).map_err(|e| DocumentError { what, message: e.to_string() })
}

/// [`document_text`] written as it is made, the same bytes: a merged sweep
/// of three 1 GiB shards is a document of 3.3 GB, which need not be held
/// in memory beside the results it is made from. A failure of `out` is a
/// `DocumentError` too, with the writer's message.
pub fn write_document<T: Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
    what: &'static str,
) -> Result<(), DocumentError> {
    let error = |message: String| DocumentError { what, message };
    serde_json::to_writer_pretty(&mut *out, value).map_err(|e| error(e.to_string()))?;
    out.write_all(b"\n").map_err(|e| error(e.to_string()))
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

/// A parameter value (or any scalar) as text: a string as itself, a number
/// in short form; `None` when it cannot be written.
pub(crate) fn scalar_text<T: Serialize>(value: &T) -> Option<String> {
    match serde_json::to_value(value).ok()? {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.as_f64().map_or_else(|| n.to_string(), crate::format_value)),
        other => Some(other.to_string()),
    }
}

// ---- share links ----

/// The [`Link`] in a share link's decoded data: a `#v2=` link read straight
/// from the text, a `#v1=` link migrated from its JSON tree. The text must be
/// JSON in either format, so that a syntax error reads the same in both.
pub(crate) fn link_data(text: &str, version: u8) -> Result<Link, LinkError> {
    let json: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("the link's data is not valid JSON ({e})")))?;
    // Read from the text, not the parsed value, whose objects forget the
    // order of a run's parameters (and so its label).
    if version == 2 {
        serde_json::from_str(text).map_err(|e| bad(format!("the link: {e}")))
    } else {
        migrate_v1(&json)
    }
}

/// Reads a `#v1=` link (the page's compact JSON, validated as the page
/// did) into a [`Link`]. Per policy card: its parameters, with the global
/// knobs over them, parameters at their default left out; its runtime
/// source unless it is the policy's default; its sweep. Cards that sweep
/// share one sweep (the same parameter and range), restricted to them.
fn migrate_v1(v: &Value) -> Result<Link, LinkError> {
    let o = v.as_object().ok_or_else(|| bad("the link's data is malformed (expected an object)"))?;
    if let Some(k) = o.keys().find(|k| !["t", "w", "g", "p", "r", "s", "x"].contains(&k.as_str())) {
        return Err(bad(format!("field `{}`: unknown in a v1 link", clip(k))));
    }
    let trace = o.get("t").map(v1_trace).transpose()?;
    let workload = o.get("w").map(v1_workload).transpose()?.unwrap_or_default();
    let globals = v1_globals(o.get("g"))?;
    let cards = o.get("p").and_then(Value::as_array).filter(|p| !p.is_empty() && p.len() <= 50);
    let cards = cards.ok_or_else(|| bad("field `p`: the link names no policy (or more than 50)"))?;
    let mut runs = Vec::new();
    let mut sweeps: Vec<(usize, (String, f64, f64, f64))> = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        let (run, sweep) = v1_card(card, i, &globals)?;
        if let Some(s) = sweep {
            sweeps.push((i, s));
        }
        runs.push(run);
    }
    let sweep = match sweeps.first() {
        None => None,
        Some((_, first)) => {
            if let Some((i, other)) = sweeps.iter().find(|(_, s)| s != first) {
                return Err(bad(format!(
                    "field `p[{i}]`: policy {} sweeps {} from {} to {} by {}, another policy {} from {} to {} by {}; an experiment sweeps one parameter over one range",
                    i + 1, other.0, other.1, other.2, other.3, first.0, first.1, first.2, first.3
                )));
            }
            Some(Sweep {
                param: first.0.clone(),
                values: SweepValues::Range { from: first.1, to: first.2, step: first.3 },
                runs: Some(sweeps.iter().map(|(i, _)| *i).collect()),
            })
        }
    };
    let int = |key: &str, max: u64| -> Result<Option<u64>, LinkError> {
        match o.get(key) {
            None => Ok(None),
            Some(x) => x
                .as_u64()
                .filter(|n| *n <= max)
                .map(Some)
                .ok_or_else(|| bad(format!("field `{key}`: a whole number from 0 to {max}"))),
        }
    };
    let repeat = int("r", 100)?.unwrap_or(1) as u32;
    if repeat == 0 {
        return Err(bad("field `r`: repetitions from 1 to 100"));
    }
    let seed = int("s", MAX_SAFE_INTEGER)?.unwrap_or(0);
    let preset = match o.get("x") {
        None => None,
        Some(Value::String(p)) => Some(p.clone()),
        Some(_) => return Err(bad("field `x`: a preset id")),
    };
    let experiment = Experiment { runs, repeat, seed, sweep, workload, wait_ecdf: true, ..Experiment::default() };
    Ok(Link { trace, experiment, preset, view: None })
}

fn v1_trace(t: &Value) -> Result<TraceRef, LinkError> {
    let a = t.as_array().filter(|a| a.len() >= 2).ok_or_else(|| bad("field `t`: the trace reference is malformed"))?;
    let text = |i: usize| a.get(i).and_then(Value::as_str).map(str::to_owned);
    let num = |i: usize| a.get(i).and_then(Value::as_f64);
    let whole = |i: usize| a.get(i).and_then(Value::as_u64);
    let r = match a[0].as_str() {
        Some("s") => text(1).map(|id| TraceRef::Sample { id }),
        Some("g") => match (whole(1), whole(2), num(3), whole(4)) {
            (Some(p), Some(j), Some(load), Some(seed)) if p <= u64::from(u32::MAX) && j <= u64::from(u32::MAX) => {
                Some(TraceRef::Generated { procs: p as u32, jobs: j as u32, load, seed })
            }
            _ => None,
        },
        Some("u") => text(1).map(|url| TraceRef::Url { url }),
        Some("f") => match (text(1), text(2)) {
            (Some(name), Some(sha256)) => Some(TraceRef::File { name, sha256 }),
            _ => None,
        },
        _ => return Err(bad("field `t`: the trace reference has an unknown kind")),
    };
    r.ok_or_else(|| bad("field `t`: the trace reference is malformed"))
}

fn v1_workload(w: &Value) -> Result<WorkloadOptions, LinkError> {
    let a =
        w.as_array().filter(|a| a.len() == 5).ok_or_else(|| bad("field `w`: the workload options are malformed"))?;
    let machine =
        a[0].as_u64().filter(|m| *m <= 100_000_000).ok_or_else(|| bad("field `w[0]`: machine size out of range"))?;
    let load = a[1]
        .as_f64()
        .filter(|l| (0.0..=1000.0).contains(l))
        .ok_or_else(|| bad("field `w[1]`: load factor out of range"))?;
    let first = a[2].as_u64().filter(|f| *f <= 100_000_000).ok_or_else(|| bad("field `w[2]`: window out of range"))?;
    let queues = a[3]
        .as_array()
        .filter(|q| q.len() <= 100)
        .and_then(|q| {
            q.iter()
                .map(|x| x.as_i64().filter(|n| (-1..=1_000_000_000).contains(n)).map(|n| n as i32))
                .collect::<Option<Vec<i32>>>()
        })
        .ok_or_else(|| bad("field `w[3]`: the queue filter is malformed"))?;
    let clamp = match a[4].as_u64() {
        Some(0) => false,
        Some(1) => true,
        _ => return Err(bad("field `w[4]`: the oversize option is malformed")),
    };
    Ok(WorkloadOptions {
        machine_size: (machine > 0).then_some(machine as u32),
        load_factor: (load > 0.0).then_some(load),
        window: (first > 0).then_some(schedlab_workload::Window::FirstJobs(first as usize)),
        queues: (!queues.is_empty()).then_some(queues),
        oversize: clamp.then_some(schedlab_workload::Oversize::Clamp),
        ..WorkloadOptions::default()
    })
}

/// The v1 global knobs: `sf`, `error`, `cost` as numbers in text.
fn v1_globals(g: Option<&Value>) -> Result<Vec<(String, String)>, LinkError> {
    let Some(g) = g else { return Ok(Vec::new()) };
    let g = g.as_object().ok_or_else(|| bad("field `g`: the global knobs are malformed"))?;
    g.iter()
        .map(|(k, v)| {
            if !crate::KNOBS.contains(&k.as_str()) {
                return Err(bad(format!("field `g.{}`: not a global knob", clip(k))));
            }
            match v.as_str() {
                Some(t) if t.len() <= 50 && t.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
                    Ok((k.clone(), t.to_owned()))
                }
                _ => Err(bad(format!("field `g.{k}`: not a number"))),
            }
        })
        .collect()
}

type V1Sweep = (String, f64, f64, f64);

fn v1_card(card: &Value, i: usize, globals: &[(String, String)]) -> Result<(RunSpec, Option<V1Sweep>), LinkError> {
    let at = |what: &str| bad(format!("field `p[{i}]` (policy {}): {what}", i + 1));
    let a = card.as_array().filter(|a| (3..=4).contains(&a.len())).ok_or_else(|| at("malformed"))?;
    let id = a[0].as_str().filter(|s| s.len() <= 100).ok_or_else(|| at("malformed"))?;
    let policy = schedlab_policies::find(id).ok_or_else(|| at("the link names a policy this page does not know"))?;
    let source = a[2].as_str().ok_or_else(|| at("the runtime source is malformed"))?;
    let predictor = match (policy.uses_runtime_source, source) {
        (false, "") => None,
        (false, _) => return Err(at(&format!("{} takes no runtime source", policy.name))),
        (true, s) if s == policy.default_source => None,
        (true, s) if schedlab_engine::SOURCES.iter().any(|x| x.id == s) => Some(s.to_owned()),
        (true, _) => return Err(at("unknown runtime source")),
    };
    let mut run = RunSpec { policy: id.to_owned(), params: ParamList::default(), predictor };
    let specs = run.params_taken();
    let given = a[1].as_object().ok_or_else(|| at("parameters are malformed"))?;
    let sweep = a.get(3).map(|s| v1_sweep(s).ok_or_else(|| at("the sweep is malformed"))).transpose()?;
    let mut params = ParamList::default();
    for spec in &specs {
        let own = match given.get(spec.key) {
            Some(Value::String(s)) if s.len() <= 50 => Some(s.clone()),
            Some(_) => return Err(at(&format!("parameter `{}` is malformed", spec.key))),
            None => None,
        };
        let global = globals.iter().find(|(k, _)| k == spec.key).map(|(_, v)| v.clone());
        let Some(value) = global.or(own) else { continue };
        let swept = sweep.as_ref().is_some_and(|s| s.0 == spec.key);
        if !swept && !is_default(spec, &value) {
            params.0.push((spec.key.to_owned(), value));
        }
    }
    if let Some(k) = given.keys().find(|k| !specs.iter().any(|s| s.key == k.as_str())) {
        return Err(at(&format!("unknown parameter `{}`", clip(k))));
    }
    run.params = params;
    Ok((run, sweep))
}

fn v1_sweep(s: &Value) -> Option<V1Sweep> {
    let a = s.as_array().filter(|a| a.len() == 4)?;
    Some((a[0].as_str()?.to_owned(), a[1].as_f64()?, a[2].as_f64()?, a[3].as_f64()?))
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
