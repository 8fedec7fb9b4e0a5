//! An experiment's result: its points and the summary (mean, 95 % interval)
//! of every complete (run, sweep value) cell. The one place that averages
//! repeated runs; the command line's `sweep`, `run --repeat`, `reproduce`
//! and `merge` and the page all print what [`ExperimentResult::new`] makes.

use schedlab_engine::{Control, Progress, Time};
use schedlab_metrics::{downsample_ecdf, measured_waits, wait_ecdf};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Phase, Plan, Point, RunError, Shard};

/// Version of the experiment result layout.
pub const EXPERIMENT_SCHEMA: &str = "schedlab-experiment/2";

/// Points a wait ECDF is thinned to (`downsample_ecdf`), about one per
/// pixel of a wide chart.
pub const ECDF_PIXELS: u32 = 1000;

/// The result of one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PointResult {
    #[serde(flatten)]
    pub point: Point,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub events: u64,
    /// Host-measured; ignored when comparing results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub elapsed_ms: Option<f64>,
    /// The metrics document of the run (`schedlab run --json`'s `metrics`).
    #[cfg_attr(feature = "ts", ts(type = "Metrics"))]
    pub metrics: Value,
    /// `[wait, fraction]` pairs thinned to about [`ECDF_PIXELS`] points: the
    /// first repetition of each cell of an experiment with `wait_ecdf`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "Array<[number, number]>"))]
    pub wait_ecdf: Option<Vec<(Time, f64)>>,
}

/// Mean and 95 % interval of every metric for one (run, sweep value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SummaryRow {
    pub run: usize,
    pub label: String,
    /// The run's title for people, with the sweep value (`Plan::title`).
    #[serde(default)]
    pub title: String,
    /// The sweep value (text); `null` for a run the sweep does not apply to.
    pub value: Option<String>,
    #[cfg_attr(feature = "ts", ts(type = "Array<number>"))]
    pub seeds: Vec<u64>,
    /// The metrics document, each number replaced by its mean.
    #[cfg_attr(feature = "ts", ts(type = "Metrics"))]
    pub mean: Value,
    /// The same shape, each number the half-width of its 95 % interval;
    /// `null` everywhere for a single repetition.
    #[cfg_attr(feature = "ts", ts(type = "MetricsIntervals"))]
    pub ci95: Value,
}

/// An experiment's result: its definition, the trace it ran on, the points
/// (of one shard, or all), and the summaries of complete cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExperimentResult {
    pub schema: String,
    pub experiment: crate::Experiment,
    pub labels: Vec<String>,
    /// The runs' titles for people (`Plan::titles`), in the order of `labels`.
    #[serde(default)]
    pub titles: Vec<String>,
    /// The trace's identity (name, sha256, jobs, procs, options, cleaning,
    /// statistics): `TraceIdentity` as the run document has it.
    #[cfg_attr(feature = "ts", ts(type = "TraceIdentity"))]
    pub trace: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub shard: Option<Shard>,
    pub points: Vec<PointResult>,
    pub summary: Vec<SummaryRow>,
}

impl ExperimentResult {
    /// Sorts the points and summarises every cell whose repetitions are all
    /// there.
    pub fn new(plan: &Plan, trace: Value, shard: Option<Shard>, mut points: Vec<PointResult>) -> Self {
        points.sort_by_key(|p| p.point.index);
        let summary = summarise_cells(plan, &points);
        ExperimentResult {
            schema: EXPERIMENT_SCHEMA.to_string(),
            experiment: plan.experiment().clone(),
            labels: plan.labels(),
            titles: plan.titles(),
            trace,
            shard,
            points,
            summary,
        }
    }

    /// The summary row of run `run` at sweep value `value`.
    pub fn row(&self, run: usize, value: Option<&str>) -> Option<&SummaryRow> {
        self.summary.iter().find(|r| r.run == run && r.value.as_deref() == value)
    }
}

/// Summaries of every (run, value) cell whose repetitions are all present
/// (`points` sorted by index; a cell's points have consecutive numbers).
fn summarise_cells(plan: &Plan, points: &[PointResult]) -> Vec<SummaryRow> {
    let mut rows = Vec::new();
    for (run, value) in plan.cells() {
        let range = plan.cell_range(run, value);
        let lo = points.partition_point(|p| p.point.index < range.start);
        let hi = points.partition_point(|p| p.point.index < range.end);
        let cell = &points[lo..hi];
        if cell.len() as u64 != range.end - range.start {
            continue;
        }
        let seeds: Vec<u64> = cell.iter().map(|p| p.point.seed).collect();
        let metrics: Vec<Value> = cell.iter().map(|p| p.metrics.clone()).collect();
        let s = crate::summarise(seeds.clone(), &metrics);
        rows.push(SummaryRow {
            run,
            label: plan.label(run),
            title: plan.title(run, value),
            value: plan.value_text(value),
            seeds,
            mean: s.mean,
            ci95: s.ci95,
        });
    }
    rows
}

/// Runs one point of a plan (no host time: the caller may add it).
/// `observer` sees the phase (a reference run first, for some policies) and
/// the progress, and may cancel.
pub fn run_point(
    trace: &schedlab_workload::Trace,
    plan: &Plan,
    point: &Point,
    observer: &mut dyn FnMut(Phase, Progress) -> Control,
) -> Result<PointResult, PointError> {
    let settings = plan.settings(point)?;
    let outcome = crate::run_phased(trace, &settings, observer)?;
    Ok(point_result(trace, plan, point, &settings, &outcome))
}

/// The result of point `point`, which ran with `settings` to `outcome`
/// (for a host that keeps the outcome, e.g. for the run's per-job table).
pub fn point_result(
    trace: &schedlab_workload::Trace,
    plan: &Plan,
    point: &Point,
    settings: &crate::RunSettings,
    outcome: &crate::RunOutcome,
) -> PointResult {
    let e = plan.experiment();
    let wait_ecdf = (e.wait_ecdf && point.seed == e.seed).then(|| {
        let waits = measured_waits(&trace.jobs, &outcome.record, &settings.metrics);
        downsample_ecdf(&wait_ecdf(&waits), ECDF_PIXELS)
    });
    PointResult {
        point: point.clone(),
        events: outcome.record.events,
        elapsed_ms: None,
        metrics: serde_json::to_value(&outcome.metrics).unwrap_or(Value::Null),
        wait_ecdf,
    }
}

/// Why a point did not give a result.
#[derive(Debug, thiserror::Error)]
pub enum PointError {
    #[error(transparent)]
    Plan(#[from] crate::GridError),
    #[error(transparent)]
    Run(#[from] RunError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Experiment, RunSpec, Sweep};
    use serde_json::json;

    fn point(plan: &Plan, index: u64, mbs: f64) -> PointResult {
        PointResult {
            point: plan.point(index).unwrap(),
            events: 1,
            elapsed_ms: None,
            metrics: json!({ "mbs": mbs }),
            wait_ecdf: None,
        }
    }

    #[test]
    fn complete_cells_are_summarised_in_order() {
        let e = Experiment {
            repeat: 2,
            sweep: Some(Sweep::parse("error=0,50").unwrap()),
            ..Experiment::of(vec![RunSpec::parse("easy@virtual").unwrap(), RunSpec::parse("fcfs").unwrap()])
        };
        let plan = Plan::new(e).unwrap();
        assert_eq!(plan.len(), 6);
        // Point 3 (easy, error=50, second seed) is missing: that cell has no row.
        let pts = vec![point(&plan, 5, 4.0), point(&plan, 0, 1.0), point(&plan, 1, 3.0), point(&plan, 2, 7.0)];
        let pts = [pts, vec![point(&plan, 4, 2.0)]].concat();
        let r = ExperimentResult::new(&plan, json!({}), None, pts);
        let rows: Vec<(usize, Option<&str>)> = r.summary.iter().map(|s| (s.run, s.value.as_deref())).collect();
        assert_eq!(rows, [(0, Some("0")), (1, None)]);
        assert_eq!(r.summary[0].mean["mbs"], json!(2.0));
        assert_eq!(r.summary[1].mean["mbs"], json!(3.0));
        assert_eq!(r.summary[1].label, "fcfs");
        assert_eq!(r.row(1, None).unwrap().seeds, [0, 1]);
        let one = Plan::new(Experiment::of(vec![RunSpec::parse("fcfs").unwrap()])).unwrap();
        let r = ExperimentResult::new(&one, json!({}), None, vec![point(&one, 0, 5.0)]);
        assert_eq!(r.summary[0].ci95["mbs"], Value::Null, "one repetition has no interval");
    }
}

/// Every numeric metric a run can report has a column in the catalogue:
/// a metric added without one fails here (docs/metrics.md is generated
/// from the catalogue).
#[cfg(test)]
mod catalogue {
    use crate::{run_point, Experiment, Plan, RunSpec};
    use schedlab_workload::{read_swf, ReadOptions};
    use serde_json::Value;

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
            leaves(&r.metrics, String::new(), &mut paths);
        }
        for sample in ["deadline.jobs", "fair_slowdown.rows.4.percent", "blocked_groups.2.mbs", "mkt"] {
            assert!(paths.iter().any(|p| p == sample), "{sample} was not reported");
        }
        let missing: Vec<&String> = paths.iter().filter(|p| schedlab_metrics::column(p).is_none()).collect();
        assert!(missing.is_empty(), "metrics without a column in the catalogue: {missing:?}");
    }
}
