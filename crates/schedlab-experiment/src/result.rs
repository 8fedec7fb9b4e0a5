//! An experiment's result: its points and the summary (mean, 95 % interval)
//! of every complete (run, sweep value) cell. The one place that averages
//! repeated runs; the command line's `sweep`, `run --repeat`, `reproduce`
//! and `merge` and the page all print what [`ExperimentResult::new`] makes.

use schedlab_engine::{Control, Progress, Time};
use schedlab_metrics::{downsample_ecdf, measured_waits, wait_ecdf};
use serde::{Deserialize, Serialize};

use crate::{DocumentError, MetricsDocument, Phase, Plan, Point, RunError, Shard, TraceDocument};

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
    pub metrics: MetricsDocument,
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
    pub mean: MetricsDocument,
    /// The same shape, each number the half-width of its 95 % interval;
    /// `null` everywhere for a single repetition.
    #[cfg_attr(feature = "ts", ts(type = "MetricsIntervals"))]
    pub ci95: MetricsDocument,
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
    pub trace: TraceDocument,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub shard: Option<Shard>,
    pub points: Vec<PointResult>,
    pub summary: Vec<SummaryRow>,
    /// Which runs ran once although the experiment asked for repetitions,
    /// because they use no randomness (`Plan::once_note`); absent
    /// otherwise. Their rows have one seed and no interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub note: Option<String>,
}

impl PointResult {
    /// The result of `point` from the document of its run, for a host that
    /// made the document first (`run --repeat` prints every run's).
    pub fn of_document(point: Point, doc: &crate::RunDocument) -> Result<Self, DocumentError> {
        Ok(PointResult {
            point,
            events: doc.events,
            elapsed_ms: doc.elapsed_ms,
            metrics: MetricsDocument::of(&doc.metrics)?,
            wait_ecdf: None,
        })
    }
}

impl ExperimentResult {
    /// Sorts the points and summarises every cell whose repetitions are all
    /// there.
    pub fn new(plan: &Plan, trace: TraceDocument, shard: Option<Shard>, mut points: Vec<PointResult>) -> Self {
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
            note: plan.once_note(),
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
        let metrics: Vec<&MetricsDocument> = cell.iter().map(|p| &p.metrics).collect();
        rows.push(summary_row(plan, run, value, seeds, &metrics));
    }
    rows
}

/// The summary row of the cell (`run`, `value`) from its repetitions'
/// seeds and metrics.
pub(crate) fn summary_row(
    plan: &Plan,
    run: usize,
    value: Option<usize>,
    seeds: Vec<u64>,
    metrics: &[&MetricsDocument],
) -> SummaryRow {
    let s = crate::summarise(seeds.clone(), metrics);
    SummaryRow {
        run,
        label: plan.label(run),
        title: plan.title(run, value),
        value: plan.value_text(value),
        seeds,
        mean: s.mean,
        ci95: s.ci95,
    }
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
    Ok(point_result(trace, plan, point, &settings, &outcome)?)
}

/// The result of point `point`, which ran with `settings` to `outcome`
/// (for a host that keeps the outcome, e.g. for the run's per-job table).
pub fn point_result(
    trace: &schedlab_workload::Trace,
    plan: &Plan,
    point: &Point,
    settings: &crate::RunSettings,
    outcome: &crate::RunOutcome,
) -> Result<PointResult, DocumentError> {
    let e = plan.experiment();
    let wait_ecdf = (e.wait_ecdf && point.seed == e.seed).then(|| {
        let waits = measured_waits(&trace.jobs, &outcome.record, &settings.metrics);
        downsample_ecdf(&wait_ecdf(&waits), ECDF_PIXELS)
    });
    Ok(PointResult {
        point: point.clone(),
        events: outcome.record.events,
        elapsed_ms: None,
        metrics: MetricsDocument::of(&outcome.metrics)?,
        wait_ecdf,
    })
}

/// Why a point did not give a result.
#[derive(Debug, thiserror::Error)]
pub enum PointError {
    #[error(transparent)]
    Plan(#[from] crate::GridError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Document(#[from] DocumentError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Experiment, MetricValue, RunSpec, Sweep};
    use schedlab_metrics::{Metric, MetricKey};

    fn point(plan: &Plan, index: u64, mbs: f64) -> PointResult {
        PointResult {
            point: plan.point(index).unwrap(),
            events: 1,
            elapsed_ms: None,
            metrics: serde_json::from_str(&format!(r#"{{"mbs": {mbs:?}}}"#)).unwrap(),
            wait_ecdf: None,
        }
    }

    #[test]
    fn complete_cells_are_summarised_in_order() {
        let e = Experiment {
            repeat: 2,
            sweep: Some(Sweep::parse("error=0,50").unwrap()),
            // DBF takes no `error` but draws from its seed: one cell, run twice.
            ..Experiment::of(vec![RunSpec::parse("easy@virtual").unwrap(), RunSpec::parse("dbf").unwrap()])
        };
        let plan = Plan::new(e).unwrap();
        assert_eq!(plan.len(), 6);
        // Point 3 (easy, error=50, second seed) is missing: that cell has no row.
        let pts = vec![point(&plan, 5, 4.0), point(&plan, 0, 1.0), point(&plan, 1, 3.0), point(&plan, 2, 7.0)];
        let pts = [pts, vec![point(&plan, 4, 2.0)]].concat();
        let r = ExperimentResult::new(&plan, TraceDocument::none(), None, pts);
        let rows: Vec<(usize, Option<&str>)> = r.summary.iter().map(|s| (s.run, s.value.as_deref())).collect();
        assert_eq!(rows, [(0, Some("0")), (1, None)]);
        let mbs = MetricKey::Fixed(Metric::Mbs);
        assert_eq!(r.summary[0].mean.value(mbs), MetricValue::Number(2.0));
        assert_eq!(r.summary[1].mean.value(mbs), MetricValue::Number(3.0));
        assert_eq!(r.summary[1].label, "dbf");
        assert_eq!(r.row(1, None).unwrap().seeds, [0, 1]);
        let one = Plan::new(Experiment::of(vec![RunSpec::parse("fcfs").unwrap()])).unwrap();
        let r = ExperimentResult::new(&one, TraceDocument::none(), None, vec![point(&one, 0, 5.0)]);
        assert_eq!(r.summary[0].ci95.value(mbs), MetricValue::Undefined, "one repetition has no interval");
    }
}
