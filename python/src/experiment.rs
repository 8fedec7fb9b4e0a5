//! Experiments (several runs, repetitions, a sweep) through the core's
//! pipeline, as `schedlab compare`/`sweep` and the page run them; share
//! links; the column catalogue.

use pyo3::prelude::*;
use schedlab::experiment::{link, Merger, Shard};
use schedlab::experiment::{Experiment, ExperimentResult, MetricValue, RunSpec, Sweep};
use schedlab::metrics::columns as catalogue;

use crate::observer::Observer;
use crate::trace::Trace;
use crate::{core_error, decode, error, pretty, session_error, ErrorKind};

/// An experiment's result, as the core summarised it.
#[pyclass(module = "schedlab._core", frozen)]
pub struct ExperimentRun {
    result: ExperimentResult,
}

/// `run_experiment(trace, experiment_json, progress, shard)`: every point
/// of the experiment (or of its shard `"I/N"`, as `--shard`), in order,
/// summarised by `ExperimentResult` (mean and 95 % interval of each run
/// and sweep value).
#[pyfunction]
#[pyo3(signature = (trace, experiment_json, progress=None, shard=None))]
pub fn run_experiment(
    py: Python<'_>,
    trace: &Bound<'_, Trace>,
    experiment_json: &str,
    progress: Option<Py<PyAny>>,
    shard: Option<&str>,
) -> PyResult<ExperimentRun> {
    let experiment: Experiment = decode(experiment_json, "experiment")?;
    let session = &trace.get().session;
    let plan = session.plan(experiment).map_err(session_error)?;
    let shard = shard.map(Shard::parse).transpose().map_err(session_error)?;
    let mut observer = Observer::new(progress, plan.shard_len(shard));
    let result = py.detach(|| {
        session.run_experiment(&plan, shard, &mut |index, report| {
            observer.point = index;
            match report {
                Some((phase, p)) => observer.report(phase, p),
                None => observer.between_points(),
            }
        })
    });
    if let Some(e) = observer.take_error() {
        return Err(e);
    }
    Ok(ExperimentRun { result: result.map_err(session_error)? })
}

/// `merge_shards(texts)`: the result of the whole experiment from the
/// results of its shards (their `to_json()` texts, in any order), as
/// `schedlab merge` joins shard files, through the same streamed merger.
#[pyfunction]
pub fn merge_shards(py: Python<'_>, texts: Vec<String>) -> PyResult<ExperimentRun> {
    let result = py.detach(|| {
        let mut merger = Merger::new(u64::MAX);
        texts.iter().try_for_each(|t| merger.add_reader(t.as_bytes()))?;
        Ok::<_, schedlab::experiment::MergeError>(merger.finish()?.into_result())
    });
    Ok(ExperimentRun { result: result.map_err(|e| error(ErrorKind::Merge, e))? })
}

/// `count_points(experiment_json) -> int`: how many points the experiment
/// has, once the core has checked that it can plan it.
#[pyfunction]
pub fn count_points(experiment_json: &str) -> PyResult<u64> {
    let experiment: Experiment = decode(experiment_json, "experiment")?;
    Ok(schedlab_session::plan(experiment).map_err(session_error)?.len())
}

/// One row of a tidy summary: run index, label, sweep value, metric key,
/// mean, 95 % half-width (`None` for one repetition), repetitions.
type TidyRow = (usize, String, Option<String>, String, Option<f64>, Option<f64>, usize);

#[pymethods]
impl ExperimentRun {
    /// The result as the page exports it and `schedlab sweep --json`
    /// writes it (pretty JSON and a newline; no host-measured times).
    fn to_json(&self) -> PyResult<String> {
        pretty(&self.result)
    }

    /// One row per (run, sweep value) and metric of the column catalogue
    /// the runs reported, in the catalogue's order.
    fn tidy(&self) -> Vec<TidyRow> {
        let columns = catalogue();
        let mut rows = Vec::new();
        for s in &self.result.summary {
            for c in &columns {
                let mean = match s.mean.value(c.metric) {
                    MetricValue::Absent => continue,
                    m => m.number(),
                };
                let ci95 = s.ci95.value(c.metric).number();
                rows.push((s.run, s.label.clone(), s.value.clone(), c.key.clone(), mean, ci95, s.seeds.len()));
            }
        }
        rows
    }
}

/// `decode_link(url_or_fragment) -> str`: the share link's JSON (trace,
/// experiment, preset, view), checked by the core.
#[pyfunction]
pub fn decode_link(url: &str) -> PyResult<String> {
    // A whole URL or just its fragment.
    let fragment = url.rsplit_once('#').map_or(url, |(_, f)| f);
    let l = link::decode(fragment).map_err(|e| error(ErrorKind::Link, e))?;
    serde_json::to_string(&l).map_err(core_error)
}

/// `columns() -> str`: the column catalogue (key, label, unit, digits,
/// description, shown) as JSON text.
#[pyfunction]
pub fn columns() -> PyResult<String> {
    serde_json::to_string(&catalogue()).map_err(core_error)
}

/// `run_spec(text, predictor) -> str`: the command line's run spec
/// `ID[:KEY=VALUE,...][@PREDICTOR]` as the experiment's JSON of a run,
/// with `predictor` given to a run that names none and reads runtimes
/// (what `--predictor` does on the command line).
#[pyfunction]
#[pyo3(signature = (text, predictor=None))]
pub fn run_spec(text: &str, predictor: Option<&str>) -> PyResult<String> {
    let spec = RunSpec::parse(text).map_err(session_error)?.with_default_predictor(predictor);
    serde_json::to_string(&spec).map_err(core_error)
}

/// `parse_sweep(text) -> str`: `PARAM=FROM:TO:STEP` or `PARAM=V1,V2,...`
/// as the experiment's JSON of a sweep.
#[pyfunction]
pub fn parse_sweep(text: &str) -> PyResult<String> {
    serde_json::to_string(&Sweep::parse(text).map_err(session_error)?).map_err(core_error)
}
