//! An experiment as structured data: the runs (policy, parameters,
//! predictor), the options they share (how the trace is read, how metrics
//! are computed), repetitions, the first seed and at most one swept
//! parameter. The command line's spec strings (`easy:order=shortest@last`)
//! parse into it; share links serialise it ([`crate::link`]); [`crate::Plan`]
//! checks and expands it.

use std::fmt;

use schedlab_metrics::{CategoryLimits, MetricsOptions};
use schedlab_workload::{short_text, Oversize, ReadOptions, Window};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use schedlab_engine::params::ParamSpec;

use crate::{split_param, RunRequest, SpecError, RUN_PARAMS};

/// Most runs an experiment may hold.
pub const MAX_RUNS: usize = 100;
/// Most repetitions of one (run, sweep value).
pub const MAX_REPEAT: u32 = 10_000;
/// Most values a sweep may take.
pub const MAX_SWEEP_VALUES: usize = 10_000;

/// `KEY=VALUE` parameters in the order given. Serialised as a JSON object
/// (`{"order": "shortest"}`) that keeps its order, so a run's label stays
/// the way it was typed; a key given twice is refused when read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamList(pub Vec<(String, String)>);

impl ParamList {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    pub fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sets `key` (replacing an earlier value) at the end of the list.
    pub fn set(&mut self, key: &str, value: &str) {
        self.0.retain(|(k, _)| k != key);
        self.0.push((key.to_owned(), value.to_owned()));
    }
}

impl Serialize for ParamList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de> Deserialize<'de> for ParamList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = ParamList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of parameter values (text)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamList, A::Error> {
                let mut out: Vec<(String, String)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, String>()? {
                    if out.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!("parameter `{key}` is given twice")));
                    }
                    out.push((key, value));
                }
                Ok(ParamList(out))
            }
        }
        d.deserialize_map(Ordered)
    }
}

/// One run of an experiment: a policy, its parameters and runtime source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// A policy id of the registry.
    pub policy: String,
    /// Policy and predictor parameters, as text.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "Record<string, string>"))]
    pub params: ParamList,
    /// A runtime source id; the policy's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub predictor: Option<String>,
}

/// The longest parameter value a run's label shows whole.
pub const LABEL_VALUE_CHARS: usize = 32;

/// `value`, or its first characters and `…` when it is longer than
/// [`LABEL_VALUE_CHARS`].
pub(crate) fn shortened(value: &str) -> String {
    if value.chars().count() <= LABEL_VALUE_CHARS {
        return value.to_owned();
    }
    let head: String = value.chars().take(LABEL_VALUE_CHARS - 1).collect();
    format!("{}…", head.trim_end())
}

/// The `KEY=VALUE` parts of a spec's parameter list: split at the commas
/// outside parentheses, so that a formula's `min(a, b)` stays one value.
fn top_level_parts(params: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in params.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                parts.push(&params[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&params[start..]);
    parts.into_iter()
}

impl RunSpec {
    /// Parses the command line's spec `ID[:KEY=VALUE,...][@PREDICTOR]`.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let (head, predictor) = match text.split_once('@') {
            Some((_, "")) => return Err(SpecError::NoPredictor(text.to_owned())),
            Some((head, p)) => (head, Some(p.to_owned())),
            None => (text, None),
        };
        let (id, params) = head.split_once(':').unwrap_or((head, ""));
        if id.is_empty() {
            return Err(SpecError::NoId(text.to_owned()));
        }
        let mut list = ParamList::default();
        for part in top_level_parts(params).filter(|p| !p.is_empty()) {
            let (k, v) =
                split_param(part).map_err(|e| SpecError::InSpec { spec: text.to_owned(), source: Box::new(e) })?;
            if list.contains(&k) {
                return Err(SpecError::InSpec { spec: text.to_owned(), source: Box::new(SpecError::Twice(k.clone())) });
            }
            list.0.push((k, v));
        }
        Ok(RunSpec { policy: id.to_owned(), params: list, predictor })
    }

    /// The run's label: its spec text, `ID[:KEY=VALUE,...][@PREDICTOR]`,
    /// with a value longer than [`LABEL_VALUE_CHARS`] (a formula) cut
    /// short and ended with `…`.
    pub fn label(&self) -> String {
        let mut s = self.policy.clone();
        if !self.params.is_empty() {
            let parts: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={}", shortened(v))).collect();
            s.push(':');
            s.push_str(&parts.join(","));
        }
        if let Some(p) = &self.predictor {
            s.push('@');
            s.push_str(p);
        }
        s
    }

    /// The runtime source this run reads runtimes from (its own, or the
    /// policy's default); `None` for an unknown policy.
    pub fn source(&self) -> Option<&str> {
        let policy = schedlab_policies::find(&self.policy)?;
        Some(self.predictor.as_deref().unwrap_or(policy.default_source))
    }

    /// Whether the run draws from its seed, through its policy or its
    /// runtime source, as their registry entries declare. A run that does
    /// not gives the same result under every seed, so the plan runs it once
    /// however many repetitions the experiment asks for. An unknown policy
    /// counts as using it: the plan refuses it before asking.
    pub fn uses_seed(&self) -> bool {
        let Some(policy) = schedlab_policies::find(&self.policy) else { return true };
        let source = self.predictor.as_deref().unwrap_or(policy.default_source);
        let source_draws = schedlab_engine::SOURCES.iter().any(|s| s.id == source && s.uses_seed);
        policy.uses_seed || (policy.uses_runtime_source && source_draws)
    }

    /// Every parameter this run takes: its policy's, its runtime source's,
    /// and the run parameters every policy takes (`fair_slowdown`). The
    /// one answer the command line, the plan and the page's forms share to
    /// "does this run take parameter X".
    pub fn params_taken(&self) -> Vec<&'static ParamSpec> {
        let Some(policy) = schedlab_policies::find(&self.policy) else { return Vec::new() };
        let source = self.predictor.as_deref().unwrap_or(policy.default_source);
        let by_source = schedlab_engine::SOURCES.iter().filter(|s| s.id == source).flat_map(|s| s.params);
        policy.params.iter().chain(by_source).chain(RUN_PARAMS).collect()
    }

    /// Whether this run takes parameter `key` ([`RunSpec::params_taken`]).
    pub fn uses(&self, key: &str) -> bool {
        self.params_taken().iter().any(|p| p.key == key)
    }

    /// Gives `predictor` to a run that names none and whose policy reads
    /// runtimes (the command line's `--predictor` for every run).
    pub fn with_default_predictor(mut self, predictor: Option<&str>) -> Self {
        let uses = schedlab_policies::find(&self.policy).is_some_and(|p| p.uses_runtime_source);
        if let (None, Some(p), true) = (&self.predictor, predictor, uses) {
            self.predictor = Some(p.to_owned());
        }
        self
    }
}

/// The values a sweep takes: an inclusive range `from, from + step, …, to`
/// or a list, as text. Read by hand (`SweepValuesVisitor`), so that a bound
/// that is no finite number (NaN from the page, `null` in JSON) is named
/// rather than reported as "did not match any variant".
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum SweepValues {
    Range { from: f64, to: f64, step: f64 },
    List(Vec<String>),
}

impl SweepValues {
    /// The values of a sweep of `param` as a user types them: `FROM:TO:STEP`
    /// (inclusive) or `V1,V2,...`, as `--sweep` takes them after `PARAM=`.
    pub fn parse(param: &str, text: &str) -> Result<Self, SweepError> {
        Ok(Sweep::parse(&format!("{param}={text}"))?.values)
    }

    /// The values as [`SweepValues::parse`] reads them: `0:8:2`, `0,1,2,4,8,all`.
    pub fn text(&self) -> String {
        match self {
            SweepValues::List(v) => v.join(","),
            &SweepValues::Range { from, to, step } => {
                format!("{}:{}:{}", format_value(from), format_value(to), format_value(step))
            }
        }
    }
}

/// A swept parameter. It applies to every run that takes the parameter,
/// or only to the runs listed in `runs` (indices into the experiment's
/// runs); the other runs run once per repetition, unchanged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    pub param: String,
    pub values: SweepValues,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub runs: Option<Vec<usize>>,
}

/// A sweep that cannot be used; the message names what is wrong.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SweepError {
    #[error("--sweep `{}`: expected PARAM=FROM:TO:STEP (or PARAM=V1,V2,...)", short_text(.0))]
    Syntax(String),
    #[error("sweep of `{}`: FROM, TO and STEP must be finite numbers with STEP > 0 and FROM <= TO", short_text(.0))]
    Range(String),
    #[error("sweep of `{}` has {count} values; at most {MAX_SWEEP_VALUES}", short_text(.param))]
    TooLong { param: String, count: String },
    #[error("sweep of `{}` has no value", short_text(.0))]
    Empty(String),
    #[error(
        "sweep of `{}`: the values {first} and {second} are both run as `{text}` (a swept number is \
         written with at most 9 decimals), so their rows would be the same run; take a step of at least 1e-9",
        short_text(.param)
    )]
    Collapse { param: String, first: String, second: String, text: String },
    #[error("sweep of `{}`: the value `{value}` is given twice (as `{first}` and `{second}`)", short_text(.param))]
    Repeated { param: String, value: String, first: String, second: String },
}

impl Sweep {
    /// Parses `PARAM=FROM:TO:STEP` (inclusive) or `PARAM=V1,V2,...`.
    pub fn parse(text: &str) -> Result<Self, SweepError> {
        let syntax = || SweepError::Syntax(text.into());
        let (param, range) = text.split_once('=').ok_or_else(syntax)?;
        let param = param.trim();
        if param.is_empty() || range.trim().is_empty() {
            return Err(syntax());
        }
        let values = if range.contains(':') {
            let parts: Vec<&str> = range.split(':').collect();
            let [from, to, step] = parts[..] else { return Err(syntax()) };
            let num = |s: &str| s.trim().parse::<f64>().map_err(|_| SweepError::Range(param.to_owned()));
            SweepValues::Range { from: num(from)?, to: num(to)?, step: num(step)? }
        } else {
            SweepValues::List(range.split(',').map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned).collect())
        };
        let sweep = Sweep { param: param.to_owned(), values, runs: None };
        sweep.count()?;
        Ok(sweep)
    }

    /// How many values the sweep takes (checked: at least one, at most
    /// [`MAX_SWEEP_VALUES`]), computed without listing them.
    pub fn count(&self) -> Result<usize, SweepError> {
        let count = match &self.values {
            SweepValues::List(v) => v.len(),
            &SweepValues::Range { from, to, step } => {
                let ok = from.is_finite() && to.is_finite() && step.is_finite() && step > 0.0 && from <= to;
                if !ok {
                    return Err(SweepError::Range(self.param.clone()));
                }
                // The small tolerance keeps `to` when (to − from) / step is a
                // whole number that floating point lands just below.
                let steps = ((to - from) / step + 1e-9).floor();
                if steps >= MAX_SWEEP_VALUES as f64 {
                    return Err(SweepError::TooLong { param: self.param.clone(), count: crate::short(steps + 1.0) });
                }
                steps as usize + 1
            }
        };
        match count {
            0 => Err(SweepError::Empty(self.param.clone())),
            n if n > MAX_SWEEP_VALUES => Err(SweepError::TooLong { param: self.param.clone(), count: n.to_string() }),
            n => self.distinct(n).map(|()| n),
        }
    }

    /// Every value reaches its run as a different text: a range whose step
    /// is below the 9 decimals a swept number is written with, or a list
    /// naming one number twice (`0.1,0.10`), would give rows labelled
    /// apart with the same run (or labelled alike). The values are at most
    /// [`MAX_SWEEP_VALUES`], so this is cheap.
    fn distinct(&self, n: usize) -> Result<(), SweepError> {
        let param = || self.param.clone();
        match &self.values {
            &SweepValues::Range { from, step, .. } => {
                for i in 1..n {
                    let (a, b) = (from + step * (i - 1) as f64, from + step * i as f64);
                    let text = format_value(b);
                    if format_value(a) == text {
                        let (first, second) = (schedlab_workload::short_number(a), schedlab_workload::short_number(b));
                        return Err(SweepError::Collapse { param: param(), first, second, text });
                    }
                }
            }
            SweepValues::List(values) => {
                let mut seen = std::collections::BTreeMap::new();
                for v in values {
                    // A number is known by its value (shortest round-trip
                    // text): `0.1` and `0.10` are one run, `1e-10` and
                    // `2e-10` two, since a list's values reach the run as
                    // written.
                    let key = v.parse::<f64>().map_or_else(|_| v.clone(), |x| x.to_string());
                    if let Some(first) = seen.insert(key.clone(), v) {
                        let short = schedlab_workload::short_text;
                        let (first, second, value) = (short(first), short(v), short(&key));
                        return Err(SweepError::Repeated { param: param(), value, first, second });
                    }
                }
            }
        }
        Ok(())
    }

    /// The `i`-th value as text (a range's values in [`format_value`]'s
    /// form, computed as from + i × step so that 0.1 steps do not drift).
    pub fn value(&self, i: usize) -> String {
        match &self.values {
            SweepValues::List(v) => v.get(i).cloned().unwrap_or_default(),
            &SweepValues::Range { from, step, .. } => format_value(from + step * i as f64),
        }
    }

    /// Value `i` of a range as the number its text ([`Sweep::value`])
    /// shows, computed rather than read back from that text; `None` for a
    /// list, whose values are text.
    pub fn number(&self, i: usize) -> Option<f64> {
        match &self.values {
            SweepValues::List(_) => None,
            &SweepValues::Range { from, step, .. } => shown_number(from + step * i as f64),
        }
    }

    /// Whether the sweep applies to run `run` (which takes the parameter
    /// when `uses` says so).
    pub fn applies_to(&self, run: usize, uses: bool) -> bool {
        uses && self.runs.as_ref().is_none_or(|r| r.contains(&run))
    }
}

/// The one text form of a swept number: integers without a decimal point,
/// others rounded to 9 decimals with trailing zeros removed.
pub fn format_value(x: f64) -> String {
    let rounded = (x * 1e9).round() / 1e9;
    if rounded.fract() == 0.0 && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else if rounded.abs() >= 1e15 {
        // `1e155`, not 156 digits: as exact, and as short as the number.
        format!("{x:e}")
    } else {
        let s = format!("{rounded:.9}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The number [`format_value`] shows for `x`: reading its text back gives
/// this number, bit for bit (a test checks it on random values). `None`
/// from 10^15 up, where the text is `x` in exponent form.
pub(crate) fn shown_number(x: f64) -> Option<f64> {
    let rounded = (x * 1e9).round() / 1e9;
    if rounded.abs() >= 1e15 {
        None
    } else if rounded.fract() == 0.0 {
        // As the text shows it: `0`, never `-0`.
        Some(rounded as i64 as f64)
    } else {
        Some(rounded)
    }
}

/// How the trace is read: the fields of the reader's `ReadOptions`, each
/// optional (absent: the reader's default). Part of the experiment, so two
/// shards read differently never merge and a share link restores them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadOptions {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub max_bytes: Option<u64>,
    /// The host's job limit (default: the reader's; the browser's is
    /// lower). Read, never written: it never changes a result, so no
    /// experiment, share link or result document records it.
    #[serde(skip_serializing)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub max_jobs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub machine_size: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "\"drop\" | \"clamp\""))]
    pub oversize: Option<Oversize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub queues: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub partitions: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub drop_status: Option<Vec<i32>>,
    /// `"all"`, `{ "first_jobs": N }` or `{ "time_range": { "from": S, "to": S } }`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "ts",
        ts(optional, type = "\"all\" | { first_jobs: number } | { time_range: { from: number, to: number } }")
    )]
    pub window: Option<Window>,
    /// Divides inter-arrival times (1: the trace as recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub load_factor: Option<f64>,
    /// A machine of nodes to read the trace for (docs/semantics.md,
    /// "Machines of nodes"); absent: the archive's processors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub machine: Option<schedlab_workload::Machine>,
}

impl WorkloadOptions {
    /// The reader's options, defaults filled in (checked by the reader).
    pub fn read_options(&self) -> ReadOptions {
        let d = ReadOptions::default();
        ReadOptions {
            max_bytes: self.max_bytes.unwrap_or(d.max_bytes),
            machine_size: self.machine_size.or(d.machine_size),
            oversize: self.oversize.unwrap_or(d.oversize),
            queues: self.queues.clone().or(d.queues),
            partitions: self.partitions.clone().or(d.partitions),
            drop_status: self.drop_status.clone().unwrap_or(d.drop_status),
            window: self.window.unwrap_or(d.window),
            load_factor: self.load_factor.unwrap_or(d.load_factor),
            max_jobs: self.max_jobs.unwrap_or(d.max_jobs),
            machine: self.machine.clone(),
        }
    }

    /// The options that differ from the reader's defaults (what a user
    /// gave), so that an experiment records only those.
    pub fn given(o: &ReadOptions) -> Self {
        let d = ReadOptions::default();
        WorkloadOptions {
            max_bytes: (o.max_bytes != d.max_bytes).then_some(o.max_bytes),
            max_jobs: None,
            machine_size: o.machine_size,
            oversize: (o.oversize != d.oversize).then_some(o.oversize),
            queues: o.queues.clone(),
            partitions: o.partitions.clone(),
            drop_status: (!o.drop_status.is_empty()).then(|| o.drop_status.clone()),
            window: (o.window != d.window).then_some(o.window),
            load_factor: (o.load_factor != d.load_factor).then_some(o.load_factor),
            machine: o.machine.clone(),
        }
    }

    /// The load factor in force: the given one, or 1.
    pub fn load(&self) -> f64 {
        self.load_factor.unwrap_or(1.0)
    }
}

/// How metrics are computed and whether runs are checked; every field has
/// the command line's default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct MetricSettings {
    /// τ of the bounded slowdown, seconds (10).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub bsd_threshold: i64,
    /// Leave the first and last X % of jobs out of per-job averages (0).
    pub skip_percent: f64,
    /// Jobs running at most this many seconds are short (3600).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub short_runtime: i64,
    /// Jobs of at most this many processors are narrow (8).
    pub narrow_size: u32,
    /// Run the run checker (true).
    pub check: bool,
}

impl Default for MetricSettings {
    fn default() -> Self {
        let d = MetricsOptions::default();
        MetricSettings {
            bsd_threshold: d.bsd_threshold,
            skip_percent: d.skip_percent,
            short_runtime: d.categories.runtime,
            narrow_size: d.categories.size,
            check: true,
        }
    }
}

impl MetricSettings {
    pub fn options(&self) -> MetricsOptions {
        MetricsOptions {
            bsd_threshold: self.bsd_threshold,
            skip_percent: self.skip_percent,
            categories: CategoryLimits { runtime: self.short_runtime, size: self.narrow_size },
        }
    }
}

/// What to run: every run at every sweep value it takes, `repeat` times
/// with seeds `seed`, `seed + 1`, …, on a trace read with `workload`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub runs: Vec<RunSpec>,
    /// Parameters given to every run that takes them (and does not set
    /// them itself).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "Record<string, string>"))]
    pub params: ParamList,
    #[serde(default = "one")]
    pub repeat: u32,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub sweep: Option<Sweep>,
    #[serde(default)]
    pub workload: WorkloadOptions,
    #[serde(default)]
    pub metrics: MetricSettings,
    /// Keep the wait-time ECDF of the first repetition of every (run,
    /// value), for the ECDF figure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub wait_ecdf: bool,
}

fn one() -> u32 {
    1
}

impl Default for Experiment {
    fn default() -> Self {
        Experiment {
            runs: Vec::new(),
            params: ParamList::default(),
            repeat: 1,
            seed: 0,
            sweep: None,
            workload: WorkloadOptions::default(),
            metrics: MetricSettings::default(),
            wait_ecdf: false,
        }
    }
}

impl Experiment {
    /// An experiment of the given runs with every default.
    pub fn of(runs: Vec<RunSpec>) -> Self {
        Experiment { runs, ..Experiment::default() }
    }

    /// The request of run `run` with sweep value `value` (text) and seed
    /// `seed`: the run's own parameters, then the shared ones it takes, then
    /// the swept value.
    pub fn request(&self, run: usize, value: Option<&str>, seed: u64) -> RunRequest {
        let spec = &self.runs[run];
        let mut params = spec.params.clone();
        for (k, v) in self.params.iter() {
            if spec.uses(k) && !params.contains(k) {
                params.0.push((k.to_owned(), v.to_owned()));
            }
        }
        if let (Some(s), Some(v)) = (&self.sweep, value) {
            params.set(&s.param, v);
        }
        RunRequest {
            policy: spec.policy.clone(),
            params: crate::given_texts(params.0),
            predictor: spec.predictor.clone(),
            seed,
            metrics: self.metrics.options(),
            skip_check: !self.metrics.check,
        }
    }
}

#[cfg(test)]
mod tests;
