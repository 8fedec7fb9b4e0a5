//! Experiments (SPEC §6): several runs side by side, repeated seeds and at
//! most one swept parameter, expanded into a grid of points that can be run
//! in any order, on any number of machines, and merged.
//!
//! A point is (run, sweep value, repetition); points are numbered run-major,
//! then by sweep value, then by repetition. A shard `I/N` (1-based) takes
//! the points whose number is I−1 modulo N, which spreads the expensive runs
//! over the shards. Merging shards sorts their points back by number and
//! recomputes every summary, so a merged result equals the unsharded one
//! except for host-measured times.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use crate::{resolve, PolicySpec, RunRequest, RunSettings, SpecError};

/// Version of the experiment result layout.
pub const EXPERIMENT_SCHEMA: &str = "schedlab-experiment/1";

/// What to run: every run (a policy spec) at every sweep value, `repeat`
/// times with seeds `seed`, `seed + 1`, ….
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// Policy specs, `ID[:KEY=VALUE,...][@PREDICTOR]`.
    pub runs: Vec<String>,
    /// Parameters given to every run that knows them.
    #[serde(default)]
    pub params: Vec<(String, String)>,
    #[serde(default = "one")]
    pub repeat: u32,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub sweep: Option<Sweep>,
}

fn one() -> u32 {
    1
}

/// A parameter and the values it takes, as text (as typed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    pub param: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GridError {
    #[error("--sweep `{0}`: expected PARAM=FROM:TO:STEP (or PARAM=V1,V2,...)")]
    SweepSyntax(String),
    #[error("--sweep `{0}`: FROM, TO and STEP must be numbers, STEP > 0 and FROM <= TO")]
    SweepRange(String),
    #[error("--sweep `{0}` has more than 10,000 values")]
    SweepTooLong(String),
    #[error("--shard `{0}`: expected I/N with 1 <= I <= N")]
    Shard(String),
    #[error("an experiment needs at least one run")]
    NoRun,
    #[error("--repeat must be between 1 and 10,000, got {0}")]
    Repeat(u32),
    #[error("{0}")]
    Spec(#[from] SpecError),
    #[error("run `{label}`{at}: {message}")]
    Run { label: String, at: String, message: String },
    #[error("sweep parameter `{0}` is not a parameter of any run")]
    SweepUnknown(String),
    #[error("parameter `{0}` is not a parameter of any run")]
    ParamUnknown(String),
}

impl Sweep {
    /// Parses `PARAM=FROM:TO:STEP` (inclusive, like the seeds' sweeps) or
    /// `PARAM=V1,V2,...`.
    pub fn parse(text: &str) -> Result<Self, GridError> {
        let (param, range) = text.split_once('=').ok_or_else(|| GridError::SweepSyntax(text.into()))?;
        if param.trim().is_empty() || range.trim().is_empty() {
            return Err(GridError::SweepSyntax(text.into()));
        }
        let values = if range.contains(':') { numeric_range(text, range)? } else { list(range) };
        if values.is_empty() {
            return Err(GridError::SweepSyntax(text.into()));
        }
        Ok(Sweep { param: param.trim().to_string(), values })
    }
}

fn list(range: &str) -> Vec<String> {
    range.split(',').map(str::trim).filter(|v| !v.is_empty()).map(str::to_string).collect()
}

fn numeric_range(text: &str, range: &str) -> Result<Vec<String>, GridError> {
    let parts: Vec<&str> = range.split(':').collect();
    let [from, to, step] = parts[..] else { return Err(GridError::SweepSyntax(text.into())) };
    let num = |s: &str| s.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    let (Some(from), Some(to), Some(step)) = (num(from), num(to), num(step)) else {
        return Err(GridError::SweepRange(text.into()));
    };
    if step <= 0.0 || from > to {
        return Err(GridError::SweepRange(text.into()));
    }
    let count = ((to - from) / step + 1e-9).floor() as usize + 1;
    if count > 10_000 {
        return Err(GridError::SweepTooLong(text.into()));
    }
    // Multiply rather than accumulate, so 0.1 steps do not drift.
    Ok((0..count).map(|k| format_number(from + step * k as f64)).collect())
}

/// Shortest text of a number: integers without a decimal point, others with
/// at most 9 decimals and no trailing zeros.
fn format_number(x: f64) -> String {
    let rounded = (x * 1e9).round() / 1e9;
    if rounded.fract() == 0.0 && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else {
        let s = format!("{rounded:.9}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Which slice of the grid to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Self, GridError> {
        let bad = || GridError::Shard(text.into());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u32>().map_err(|_| bad())?, n.trim().parse::<u32>().map_err(|_| bad())?);
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn contains(&self, point: usize) -> bool {
        point % self.count as usize == (self.index - 1) as usize
    }
}

/// One cell of the grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub index: usize,
    pub run: usize,
    /// Index into the sweep's values.
    pub value: Option<usize>,
    pub seed: u64,
}

/// A checked experiment: every point's settings resolved before anything
/// runs, so a typo fails at once and not after an hour of computing.
#[derive(Clone, Debug)]
pub struct Plan {
    pub experiment: Experiment,
    pub points: Vec<(Point, RunSettings)>,
    /// The request each point resolves from, for hosts that send runs
    /// elsewhere (the web page's workers) as requests.
    pub requests: Vec<RunRequest>,
    labels: Vec<String>,
}

impl Plan {
    pub fn new(experiment: Experiment) -> Result<Self, GridError> {
        if experiment.runs.is_empty() {
            return Err(GridError::NoRun);
        }
        if !(1..=10_000).contains(&experiment.repeat) {
            return Err(GridError::Repeat(experiment.repeat));
        }
        let specs: Vec<PolicySpec> = experiment.runs.iter().map(|r| PolicySpec::parse(r)).collect::<Result<_, _>>()?;
        check_known(&experiment, &specs)?;
        let values: Vec<Option<usize>> = match &experiment.sweep {
            Some(s) => (0..s.values.len()).map(Some).collect(),
            None => vec![None],
        };
        let (mut points, mut requests) = (Vec::new(), Vec::new());
        for (run, spec) in specs.iter().enumerate() {
            for &value in &values {
                for rep in 0..experiment.repeat {
                    let seed = experiment.seed.wrapping_add(u64::from(rep));
                    let point = Point { index: points.len(), run, value, seed };
                    let (request, at) = request_for(&experiment, spec, &point);
                    let settings = resolve(&request).map_err(|e| GridError::Run {
                        label: spec.label.clone(),
                        at,
                        message: e.to_string(),
                    })?;
                    points.push((point, settings));
                    requests.push(request);
                }
            }
        }
        let labels = specs.into_iter().map(|s| s.label).collect();
        Ok(Plan { experiment, points, requests, labels })
    }

    pub fn label(&self, run: usize) -> &str {
        &self.labels[run]
    }

    /// The points of one shard (all of them without a shard).
    pub fn shard(&self, shard: Option<Shard>) -> impl Iterator<Item = &(Point, RunSettings)> {
        self.points.iter().filter(move |(p, _)| shard.is_none_or(|s| s.contains(p.index)))
    }
}

/// Whether a run's policy or runtime source has parameter `key`.
fn knows(spec: &PolicySpec, key: &str) -> bool {
    let Some(policy) = schedlab_policies::find(&spec.id) else { return true };
    let source = spec.predictor.as_deref().unwrap_or(policy.default_source);
    let by_source = schedlab_engine::SOURCES.iter().any(|s| s.id == source && s.params.iter().any(|p| p.key == key));
    policy.params.iter().any(|p| p.key == key) || by_source
}

fn check_known(e: &Experiment, specs: &[PolicySpec]) -> Result<(), GridError> {
    if let Some(s) = &e.sweep {
        if !specs.iter().any(|spec| knows(spec, &s.param)) {
            return Err(GridError::SweepUnknown(s.param.clone()));
        }
    }
    for (key, _) in &e.params {
        if !specs.iter().any(|spec| knows(spec, key)) {
            return Err(GridError::ParamUnknown(key.clone()));
        }
    }
    Ok(())
}

/// The request of one point: the spec's own parameters, then the shared
/// ones it knows and does not set itself, then the swept value (for the
/// runs that know the swept parameter; the others run unchanged). Also
/// returns " at PARAM=VALUE" for error messages.
fn request_for(e: &Experiment, spec: &PolicySpec, point: &Point) -> (RunRequest, String) {
    let mut params = spec.params.clone();
    for (k, v) in &e.params {
        if knows(spec, k) && !params.iter().any(|(pk, _)| pk == k) {
            params.push((k.clone(), v.clone()));
        }
    }
    let mut at = String::new();
    if let (Some(s), Some(i)) = (&e.sweep, point.value) {
        if knows(spec, &s.param) {
            params.retain(|(k, _)| k != &s.param);
            params.push((s.param.clone(), s.values[i].clone()));
            at = format!(" at {}={}", s.param, s.values[i]);
        }
    }
    let request = RunRequest {
        policy: spec.id.clone(),
        params,
        predictor: spec.predictor.clone(),
        seed: point.seed,
        ..RunRequest::default()
    };
    (request, at)
}

/// The result of one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    #[serde(flatten)]
    pub point: Point,
    pub events: u64,
    /// Host-measured; ignored when comparing results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    pub metrics: Value,
}

/// Mean and 95 % interval of every metric for one (run, sweep value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub run: usize,
    pub label: String,
    pub value: Option<String>,
    pub seeds: Vec<u64>,
    pub mean: Value,
    pub ci95: Value,
}

/// An experiment's result: its definition, the trace it ran on, the points
/// (of one shard, or all), and the summaries of complete (run, value) cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentResult {
    pub schema: String,
    pub experiment: Experiment,
    pub labels: Vec<String>,
    /// The trace's identity (name, sha256, jobs, procs, options…).
    pub trace: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub points: Vec<PointResult>,
    pub summary: Vec<SummaryRow>,
}

impl ExperimentResult {
    pub fn new(plan: &Plan, trace: Value, shard: Option<Shard>, mut points: Vec<PointResult>) -> Self {
        points.sort_by_key(|p| p.point.index);
        let labels = (0..plan.experiment.runs.len()).map(|r| plan.label(r).to_string()).collect();
        let mut result = ExperimentResult {
            schema: EXPERIMENT_SCHEMA.to_string(),
            experiment: plan.experiment.clone(),
            labels,
            trace,
            shard,
            points,
            summary: Vec::new(),
        };
        result.summary = summarise_cells(&result);
        result
    }
}

/// Summaries of every (run, value) cell whose repetitions are all present.
fn summarise_cells(r: &ExperimentResult) -> Vec<SummaryRow> {
    let values: Vec<Option<usize>> = match &r.experiment.sweep {
        Some(s) => (0..s.values.len()).map(Some).collect(),
        None => vec![None],
    };
    let mut rows = Vec::new();
    for run in 0..r.experiment.runs.len() {
        for &value in &values {
            let cell: Vec<&PointResult> =
                r.points.iter().filter(|p| p.point.run == run && p.point.value == value).collect();
            if cell.is_empty() || cell.len() != r.experiment.repeat as usize {
                continue;
            }
            let seeds: Vec<u64> = cell.iter().map(|p| p.point.seed).collect();
            let metrics: Vec<Value> = cell.iter().map(|p| p.metrics.clone()).collect();
            let s = crate::summarise(seeds.clone(), &metrics);
            let value_text = value.and_then(|v| r.experiment.sweep.as_ref().map(|s| s.values[v].clone()));
            rows.push(SummaryRow {
                run,
                label: r.labels[run].clone(),
                value: value_text,
                seeds,
                mean: s.mean,
                ci95: s.ci95,
            });
        }
    }
    rows
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("nothing to merge")]
    Empty,
    #[error("shard {file}: {what} differs from the first file's")]
    Mismatch { file: usize, what: &'static str },
    #[error("point {0} appears in more than one shard")]
    Duplicate(usize),
    #[error("{missing} of {total} points are missing (first missing: point {first})")]
    Missing { missing: usize, total: usize, first: usize },
}

/// Joins shard results into the result of the whole experiment. Every shard
/// must come from the same experiment on the same trace, and together they
/// must hold every point exactly once.
pub fn merge(parts: Vec<ExperimentResult>) -> Result<ExperimentResult, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?.clone();
    let plan = Plan::new(first.experiment.clone()).map_err(|_| MergeError::Mismatch { file: 1, what: "experiment" })?;
    let total = plan.points.len();
    let mut seen = vec![false; total];
    let mut points = Vec::with_capacity(total);
    for (i, part) in parts.into_iter().enumerate() {
        if part.experiment != first.experiment {
            return Err(MergeError::Mismatch { file: i + 1, what: "experiment" });
        }
        if part.trace.get("sha256") != first.trace.get("sha256") {
            return Err(MergeError::Mismatch { file: i + 1, what: "trace" });
        }
        for p in part.points {
            let slot =
                seen.get_mut(p.point.index).ok_or(MergeError::Mismatch { file: i + 1, what: "point numbering" })?;
            if *slot {
                return Err(MergeError::Duplicate(p.point.index));
            }
            *slot = true;
            points.push(p);
        }
    }
    if let Some(first_missing) = seen.iter().position(|s| !s) {
        let missing = seen.iter().filter(|s| !**s).count();
        return Err(MergeError::Missing { missing, total, first: first_missing });
    }
    Ok(ExperimentResult::new(&plan, first.trace, None, points))
}

/// Runs one point of a plan (no host time: the caller may add it).
pub fn run_point(
    trace: &schedlab_workload::Trace,
    point: &Point,
    settings: &RunSettings,
    observer: &mut dyn FnMut(schedlab_engine::Progress) -> schedlab_engine::Control,
) -> Result<PointResult, crate::RunError> {
    let outcome = crate::run(trace, settings, observer)?;
    Ok(PointResult {
        point: point.clone(),
        events: outcome.record.events,
        elapsed_ms: None,
        metrics: serde_json::to_value(&outcome.metrics).unwrap_or(Value::Null),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_parse_ranges_and_lists() {
        assert_eq!(Sweep::parse("error=0:100:10").unwrap().values.len(), 11);
        assert_eq!(Sweep::parse("error=0:0.3:0.1").unwrap().values, vec!["0", "0.1", "0.2", "0.3"]);
        assert_eq!(Sweep::parse("cost=60,120,180").unwrap().values, vec!["60", "120", "180"]);
        for bad in ["error", "=1:2:1", "error=", "error=1:2", "error=5:1:1", "error=0:1:0", "error=a:b:c"] {
            assert!(Sweep::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_partition_the_points() {
        let shards: Vec<Shard> = (1..=3).map(|i| Shard::parse(&format!("{i}/3")).unwrap()).collect();
        for p in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.contains(p)).count(), 1);
        }
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_plan_resolves_every_point_up_front() {
        let e = Experiment {
            runs: vec!["easy@virtual".into(), "pv-easy@virtual".into()],
            params: vec![],
            repeat: 3,
            seed: 5,
            sweep: Some(Sweep::parse("error=0:20:10").unwrap()),
        };
        let plan = Plan::new(e.clone()).unwrap();
        assert_eq!(plan.points.len(), 2 * 3 * 3);
        assert_eq!(plan.points[4].0, Point { index: 4, run: 0, value: Some(1), seed: 6 });
        let bad = Experiment { sweep: Some(Sweep::parse("error=0:200:100").unwrap()), ..e };
        let err = Plan::new(bad).unwrap_err().to_string();
        assert!(err.contains("at error=200") && err.contains("outside"), "{err}");
    }
}
