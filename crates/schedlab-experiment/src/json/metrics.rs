//! The metrics document: a run's metrics (or a summary's means or 95 %
//! half-widths) as a map from catalogue key ([`MetricKey`]) to value, with
//! the few labels a document carries beside its numbers. This module is
//! where that map meets JSON: it writes the document with the layout the
//! metrics have always had (keys in sorted order, category and group rows
//! named), and reads one back, refusing a metric the catalogue does not
//! know. Nothing else walks a metrics document by path.

use schedlab_metrics::{MetricKey, Metrics, CATEGORY_NAMES, FAIR_SLOWDOWN_RANGES};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};

use super::{tree, DocumentError};

/// A metric's value as a document writes it. The kind of number is kept so
/// that a document read from a file is written back byte for byte: a count
/// `3` stays `3` and a mean `3.0` stays `3.0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Leaf {
    /// A mean over no jobs, or the interval of a single repetition.
    Null,
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

impl Leaf {
    pub(crate) fn number(self) -> Option<f64> {
        match self {
            Leaf::Null => None,
            Leaf::Unsigned(u) => Some(u as f64),
            Leaf::Signed(i) => Some(i as f64),
            Leaf::Float(x) => Some(x),
        }
    }

    /// A computed value: JSON has no NaN or infinity, so those are `null`.
    fn of_float(x: f64) -> Leaf {
        if x.is_finite() {
            Leaf::Float(x)
        } else {
            Leaf::Null
        }
    }

    fn of_json(n: &Number) -> Leaf {
        match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Leaf::Unsigned(u),
            (None, Some(i)) => Leaf::Signed(i),
            _ => n.as_f64().map_or(Leaf::Null, Leaf::of_float),
        }
    }

    fn json(self) -> Value {
        match self {
            Leaf::Null => Value::Null,
            Leaf::Unsigned(u) => Value::Number(u.into()),
            Leaf::Signed(i) => Value::Number(i.into()),
            Leaf::Float(x) => Number::from_f64(x).map_or(Value::Null, Value::Number),
        }
    }
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

/// The text a metrics document carries beside its numbers, where it
/// depends on the run: category and fair-slowdown rows are named by the
/// catalogue, these are not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetricLabels {
    /// The blocked-job groups' names in row order (big, small, then the size
    /// bins "1", "2", "3-4", …), when the document has that table.
    pub groups: Option<Vec<String>>,
    /// On a machine of nodes, its resources' names in row order (`cores`
    /// first).
    pub resources: Option<Vec<String>>,
    /// On a machine of nodes, its partitions' names in row order.
    pub partitions: Option<Vec<String>>,
    /// The policy the fair-slowdown table compares with.
    pub fair_slowdown_reference: Option<String>,
    /// The runtime source the prediction metrics are about.
    pub prediction_source: Option<String>,
}

/// A table whose rows the run names: where it is in the document and the
/// field that holds each row's name.
#[derive(Clone, Copy)]
enum Named {
    Groups,
    Resources,
    Partitions,
}

impl Named {
    const ALL: [Named; 3] = [Named::Groups, Named::Resources, Named::Partitions];

    /// The table's place: the objects above it, its key, its rows' name field.
    fn place(self) -> (&'static [&'static str], &'static str, &'static str) {
        match self {
            Named::Groups => (&[], "blocked_groups", "group"),
            Named::Resources => (&["machine"], "resources", "resource"),
            Named::Partitions => (&["machine"], "partitions", "partition"),
        }
    }

    /// The table's path in the document (`machine.resources`).
    fn path(self) -> String {
        let (above, key, _) = self.place();
        above.iter().chain([&key]).copied().collect::<Vec<_>>().join(".")
    }

    fn names(self, labels: &MetricLabels) -> &Option<Vec<String>> {
        match self {
            Named::Groups => &labels.groups,
            Named::Resources => &labels.resources,
            Named::Partitions => &labels.partitions,
        }
    }

    fn names_mut(self, labels: &mut MetricLabels) -> &mut Option<Vec<String>> {
        match self {
            Named::Groups => &mut labels.groups,
            Named::Resources => &mut labels.resources,
            Named::Partitions => &mut labels.partitions,
        }
    }

    /// Row `i` of the table in `root`, made with its name if missing.
    fn row(self, root: &mut Map<String, Value>, i: usize) -> &mut Map<String, Value> {
        let (above, key, label) = self.place();
        row(above.iter().fold(root, |m, k| object(m, k)), key, i, label, &[])
    }
}

/// A metrics document: one run's metrics, or a summary of several runs of
/// the same shape (each number their mean, or the half-width of their 95 %
/// interval). Its values are kept sorted by key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsDocument {
    values: Vec<(MetricKey, Leaf)>,
    labels: MetricLabels,
}

impl MetricsDocument {
    /// The document of a run's metrics. A metric without a line in the
    /// catalogue is an error here, so it cannot reach a result unnamed.
    pub fn of(metrics: &Metrics) -> Result<Self, DocumentError> {
        let json = tree(metrics, "metrics")?;
        read(&json).map_err(|message| DocumentError { what: "metrics", message })
    }

    pub(crate) fn from_parts(values: Vec<(MetricKey, Leaf)>, labels: MetricLabels) -> Self {
        MetricsDocument { values, labels }
    }

    /// The metric `key` of the document.
    pub fn value(&self, key: MetricKey) -> MetricValue {
        match self.leaf(key) {
            None => MetricValue::Absent,
            Some(leaf) => leaf.number().map_or(MetricValue::Undefined, MetricValue::Number),
        }
    }

    fn leaf(&self, key: MetricKey) -> Option<Leaf> {
        self.values.binary_search_by(|(k, _)| k.cmp(&key)).ok().map(|i| self.values[i].1)
    }

    /// The document's metrics, in key order.
    pub fn keys(&self) -> impl Iterator<Item = MetricKey> + '_ {
        self.values.iter().map(|(k, _)| *k)
    }

    pub(crate) fn leaves(&self) -> &[(MetricKey, Leaf)] {
        &self.values
    }

    pub fn labels(&self) -> &MetricLabels {
        &self.labels
    }

    /// The names of the blocked-job groups, in the document's order: big,
    /// small, then the size bins ("1", "2", "3-4", …).
    pub fn blocked_group_names(&self) -> Vec<String> {
        self.labels.groups.clone().unwrap_or_default()
    }

    /// Documents of one shape combined metric by metric: `f` of each
    /// metric's values (`null` where it gives NaN, and the first metric with
    /// an infinite result in `overflow`), labels taken from the first. A
    /// metric undefined in the first document stays undefined.
    pub(crate) fn combine(docs: &[&MetricsDocument], f: &dyn Fn(&[f64]) -> f64, overflow: &mut Option<String>) -> Self {
        let Some(first) = docs.first() else { return MetricsDocument::default() };
        let values = first
            .values
            .iter()
            .enumerate()
            .map(|(i, &(key, leaf))| {
                if leaf == Leaf::Null {
                    return (key, Leaf::Null);
                }
                // Documents of one shape have the key at the same place.
                let at = |d: &MetricsDocument| match d.values.get(i) {
                    Some(&(k, l)) if k == key => Some(l),
                    _ => d.leaf(key),
                };
                let xs: Vec<f64> = docs.iter().filter_map(|d| at(d)?.number()).collect();
                let y = f(&xs);
                if y.is_infinite() && overflow.is_none() {
                    *overflow = Some(key.path());
                }
                (key, Leaf::of_float(y))
            })
            .collect();
        MetricsDocument { values, labels: first.labels.clone() }
    }

    /// The JSON tree of the document, in the metrics' layout.
    fn json(&self) -> Value {
        let mut root = Map::new();
        for table in Named::ALL {
            if let Some(names) = table.names(&self.labels) {
                let (above, key, label) = table.place();
                let rows = names.iter().map(|n| Value::Object(Map::from_iter([(label.to_owned(), n.clone().into())])));
                above.iter().fold(&mut root, |m, k| object(m, k)).insert(key.to_owned(), Value::Array(rows.collect()));
            }
        }
        if let Some(r) = &self.labels.fair_slowdown_reference {
            object(&mut root, "fair_slowdown").insert("reference".into(), r.clone().into());
        }
        if let Some(s) = &self.labels.prediction_source {
            object(&mut root, "predictions").insert("source".into(), s.clone().into());
        }
        for &(key, leaf) in &self.values {
            let (slot, field) = match key {
                MetricKey::Fixed(m) => {
                    let mut parts: Vec<&str> = m.name().split('.').collect();
                    let field = parts.pop().unwrap_or_default();
                    (parts.into_iter().fold(&mut root, object), field)
                }
                MetricKey::Category(i, f) => (row(&mut root, "categories", i, "name", &CATEGORY_NAMES), f.name()),
                MetricKey::BlockedGroup(i, f) => (Named::Groups.row(&mut root, i), f.name()),
                MetricKey::FairSlowdown(i, f) => {
                    let table = object(&mut root, "fair_slowdown");
                    (row(table, "rows", i, "range", &FAIR_SLOWDOWN_RANGES), f.name())
                }
                MetricKey::Resource(i, f) => (Named::Resources.row(&mut root, i), f.name()),
                MetricKey::Partition(i, f) => (Named::Partitions.row(&mut root, i), f.name()),
            };
            slot.insert(field.to_owned(), leaf.json());
        }
        Value::Object(root)
    }
}

/// The object at `key` of `map`, made if missing.
fn object<'a>(map: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    let slot = map.entry(key.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    match slot {
        Value::Object(m) => m,
        _ => unreachable!("made an object just above"),
    }
}

/// Row `i` of the table at `key` of `map`, rows made up to it, each named
/// (`label` = `names[j]`) when the catalogue names the table's rows.
fn row<'a>(
    map: &'a mut Map<String, Value>,
    key: &str,
    i: usize,
    label: &str,
    names: &[&str],
) -> &'a mut Map<String, Value> {
    let slot = map.entry(key.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    let Value::Array(rows) = slot else { unreachable!("made an array just above") };
    while rows.len() <= i {
        let mut new = Map::new();
        if let Some(name) = names.get(rows.len()) {
            new.insert(label.to_owned(), (*name).into());
        }
        rows.push(Value::Object(new));
    }
    if !rows[i].is_object() {
        rows[i] = Value::Object(Map::new());
    }
    match &mut rows[i] {
        Value::Object(m) => m,
        _ => unreachable!("made an object just above"),
    }
}

/// A metrics document from its JSON tree: every number at a catalogue
/// key, text only where the metrics have labels.
fn read(json: &Value) -> Result<MetricsDocument, String> {
    if !json.is_object() {
        return Err("the metrics are not an object".into());
    }
    let mut doc = MetricsDocument::default();
    walk(json, String::new(), &mut doc)?;
    doc.values.sort_by_key(|(k, _)| *k);
    Ok(doc)
}

fn walk(v: &Value, path: String, doc: &mut MetricsDocument) -> Result<(), String> {
    let join = |k: &dyn std::fmt::Display| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match v {
        Value::Object(m) => m.iter().try_for_each(|(k, x)| walk(x, join(k), doc)),
        Value::Array(a) => {
            if let Some(table) = Named::ALL.into_iter().find(|t| t.path() == path) {
                *table.names_mut(&mut doc.labels) = Some(vec![String::new(); a.len()]);
            }
            a.iter().enumerate().try_for_each(|(i, x)| walk(x, join(&i), doc))
        }
        Value::String(s) => label(&path, s, &mut doc.labels),
        Value::Number(n) => leaf(path, Leaf::of_json(n), doc),
        Value::Null => leaf(path, Leaf::Null, doc),
        Value::Bool(_) => Err(format!("metric `{path}` is true/false, not a number")),
    }
}

fn leaf(path: String, leaf: Leaf, doc: &mut MetricsDocument) -> Result<(), String> {
    let key = MetricKey::parse(&path).ok_or_else(|| format!("`{path}` is not a metric of the catalogue"))?;
    doc.values.push((key, leaf));
    Ok(())
}

/// Text at `path`: a label of the metrics (checked against the catalogue
/// where the catalogue names the row), or an error.
fn label(path: &str, text: &str, labels: &mut MetricLabels) -> Result<(), String> {
    let row = |table: &str, field: &str| {
        let rest = path.strip_prefix(table)?.strip_prefix('.')?;
        let (i, f) = rest.split_once('.')?;
        (f == field).then(|| i.parse::<usize>().ok()).flatten()
    };
    let named = |names: &[&str], i: usize| names.get(i) == Some(&text);
    match path {
        "fair_slowdown.reference" => labels.fair_slowdown_reference = Some(text.to_owned()),
        "predictions.source" => labels.prediction_source = Some(text.to_owned()),
        _ => {
            let by_run = Named::ALL.into_iter().find_map(|t| Some((t, row(&t.path(), t.place().2)?)));
            match (by_run, row("categories", "name"), row("fair_slowdown.rows", "range")) {
                (Some((table, i)), _, _) => match table.names_mut(labels).as_mut().and_then(|g| g.get_mut(i)) {
                    Some(slot) => *slot = text.to_owned(),
                    None => return Err(format!("metric `{path}` names a row outside its table")),
                },
                (_, Some(i), _) if named(&CATEGORY_NAMES, i) => {}
                (_, _, Some(i)) if named(&FAIR_SLOWDOWN_RANGES, i) => {}
                _ => return Err(format!("metric `{path}` is text, not a number")),
            }
        }
    }
    Ok(())
}

impl Serialize for MetricsDocument {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for MetricsDocument {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = Value::deserialize(d)?;
        read(&json).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_metrics::{CategoryField, Metric, PartitionField, ResourceField};

    fn doc(text: &str) -> Result<MetricsDocument, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn metrics_are_read_by_key() {
        let m = doc(r#"{"mbs": 2.5, "categories": [{"name": "SN", "mbs": 1.0}], "fairness": {"delayed": 3},
                        "deadline": {"regular_mean_wait": null}}"#)
        .unwrap();
        assert_eq!(m.value(MetricKey::Fixed(Metric::Mbs)), MetricValue::Number(2.5));
        assert_eq!(m.value(MetricKey::Category(0, CategoryField::Mbs)), MetricValue::Number(1.0));
        assert_eq!(m.value(MetricKey::Fixed(Metric::FairnessDelayed)), MetricValue::Number(3.0));
        assert_eq!(m.value(MetricKey::Fixed(Metric::DeadlineRegularMeanWait)), MetricValue::Undefined);
        assert_eq!(m.value(MetricKey::Category(1, CategoryField::Mbs)), MetricValue::Absent);
        assert_eq!(m.value(MetricKey::Fixed(Metric::Mwbs)), MetricValue::Absent);
    }

    /// Written back as read: the kind of each number, the labels, the
    /// catalogue's row names, an empty group table.
    #[test]
    fn a_document_is_written_back_byte_for_byte() {
        let text = r#"{"blocked_groups":[{"group":"big","mbs":1e+300},{"group":"3-4","jobs":2}],"categories":[{"jobs":3,"name":"SN"},{"mbs":-0.0,"name":"SW"}],"fair_slowdown":{"jobs":4,"reference":"cbf","rows":[{"percent":50.0,"range":"<=1"}]},"max_wait":-5,"mbs":3.0,"predictions":{"source":"virtual","underpredicted":null}}"#;
        assert_eq!(serde_json::to_string(&doc(text).unwrap()).unwrap(), text);
        let empty = r#"{"blocked_groups":[],"mbs":1}"#;
        assert_eq!(serde_json::to_string(&doc(empty).unwrap()).unwrap(), empty);
        let labels = doc(text).unwrap().labels().clone();
        assert_eq!(labels.groups, Some(vec!["big".to_owned(), "3-4".to_owned()]));
        assert_eq!(labels.fair_slowdown_reference.as_deref(), Some("cbf"));
    }

    /// A machine of nodes: its resources' and partitions' names are labels,
    /// their figures metrics, read by key and written back as they were.
    #[test]
    fn machine_metrics_are_keyed_and_their_names_kept() {
        let text = r#"{"machine":{"partitions":[{"jobs":3,"mbs":1.5,"mean_wait":2.0,"partition":"gpu","utilization":0.0},{"jobs":0,"mbs":0.0,"mean_wait":0.0,"partition":"cpu","utilization":0.75}],"resources":[{"resource":"cores","utilization":0.5},{"resource":"gpu","utilization":0.25}]},"mbs":1.0}"#;
        let m = doc(text).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
        assert_eq!(m.value(MetricKey::Resource(1, ResourceField::Utilization)), MetricValue::Number(0.25));
        assert_eq!(m.value(MetricKey::Partition(1, PartitionField::Utilization)), MetricValue::Number(0.75));
        assert_eq!(m.value(MetricKey::Partition(0, PartitionField::Jobs)), MetricValue::Number(3.0));
        assert_eq!(m.value(MetricKey::Partition(2, PartitionField::Jobs)), MetricValue::Absent);
        assert_eq!(m.labels().resources, Some(vec!["cores".to_owned(), "gpu".to_owned()]));
        assert_eq!(m.labels().partitions, Some(vec!["gpu".to_owned(), "cpu".to_owned()]));
        let e = doc(r#"{"machine":{"resources":[{"resource":"cores","jobs":1}]}}"#).unwrap_err();
        assert!(e.contains("`machine.resources.0.jobs` is not a metric of the catalogue"), "{e}");
    }

    /// What is not a metric of the catalogue is named, never kept or
    /// dropped in silence.
    #[test]
    fn what_the_catalogue_does_not_know_is_refused_by_name() {
        let cases = [
            (r#"{"mbs": "fast"}"#, "metric `mbs` is text, not a number"),
            (r#"{"mbs": true}"#, "metric `mbs` is true/false, not a number"),
            (r#"{"nope": 1}"#, "`nope` is not a metric of the catalogue"),
            (r#"{"categories": [{"name": "LW", "mbs": 1}]}"#, "metric `categories.0.name` is text"),
            (r#"{"blocked_groups": {"group": "big"}}"#, "metric `blocked_groups.group` is text"),
            ("[1]", "the metrics are not an object"),
        ];
        for (text, want) in cases {
            let e = doc(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
