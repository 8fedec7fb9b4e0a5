//! One run: the core's run document and per-job table.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use schedlab::experiment::{job_holdings, job_rows, Experiment, MetricValue, MetricsDocument, JOB_COLUMNS};
use schedlab::metrics::columns as catalogue;
use schedlab_outputs::{commit, Outputs};
use schedlab_session::Export;

use crate::observer::Observer;
use crate::trace::Trace;
use crate::{core_error, decode, error, pretty, session_error, ErrorKind};

/// A finished, checked run of a trace.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Run {
    trace: Py<Trace>,
    run: schedlab_session::Run,
}

/// `run(trace, experiment_json, progress)`: the one point of an experiment
/// of one run and one repetition (the Python side builds it from `policy`,
/// `predictor`, `params`, `seed` and the metric options), as `schedlab
/// run` runs it.
#[pyfunction]
#[pyo3(signature = (trace, experiment_json, progress=None))]
pub fn run(py: Python<'_>, trace: Py<Trace>, experiment_json: &str, progress: Option<Py<PyAny>>) -> PyResult<Run> {
    let experiment: Experiment = decode(experiment_json, "run()")?;
    let session = &trace.get().session;
    let plan = session.plan(experiment).map_err(session_error)?;
    if plan.len() != 1 {
        return Err(error(
            ErrorKind::Experiment,
            format!("run() runs one point, and this experiment has {}", plan.len()),
        ));
    }
    let point = session.point(&plan, 0).map_err(session_error)?;
    let mut observer = Observer::new(progress, 1);
    let run = py.detach(|| session.run_point(&plan, &point, &mut |phase, p| observer.report(phase, p)));
    if let Some(e) = observer.take_error() {
        return Err(e);
    }
    Ok(Run { run: run.map_err(session_error)?, trace })
}

/// A per-job column: its name, its type (`u8`, `i8`, `f8`, `bool` or `Int64`,
/// nullable, with a mask of missing values) and its little-endian bytes.
type Column<'py> = (String, &'static str, Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>);

/// A column before it becomes Python bytes: type, values, mask.
type RawColumn = (&'static str, Vec<u8>, Option<Vec<u8>>);

fn le_bytes<T: Copy, const N: usize>(values: &[T], bytes: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| bytes(v)).collect()
}

impl Run {
    /// The per-job table's columns of what each job held on a machine of
    /// nodes (`job_holdings`, the CSV's last columns): `partition` as
    /// `u32` codes into `partition_names`, `nodes` and each resource as
    /// `u64`; none on processors.
    fn holdings_columns(&self) -> Vec<(String, RawColumn)> {
        let trace = self.trace.get().session.trace();
        let Some(h) = job_holdings(trace, &self.run.outcome().record) else { return Vec::new() };
        let codes: Vec<u32> = h.placed.iter().map(|p| p.0).collect();
        let nodes: Vec<u64> = h.placed.iter().map(|p| u64::from(p.1)).collect();
        let mut out = vec![
            (h.columns[0].clone(), ("category", le_bytes(&codes, u32::to_le_bytes), None)),
            (h.columns[1].clone(), ("u8", le_bytes(&nodes, u64::to_le_bytes), None)),
        ];
        for k in 0..h.resources {
            let amounts: Vec<u64> = h.amounts.iter().skip(k).step_by(h.resources).copied().collect();
            out.push((h.columns[2 + k].clone(), ("u8", le_bytes(&amounts, u64::to_le_bytes), None)));
        }
        out
    }
}

#[pymethods]
impl Run {
    /// The result document as `schedlab run --json` prints it, without the
    /// host-measured `elapsed_ms` (so that two runs give the same bytes).
    fn document_json(&self) -> PyResult<String> {
        pretty(&self.trace.get().session.document(&self.run, None))
    }

    /// Every metric of the column catalogue that the run reported, in the
    /// catalogue's order: `(key, value)`, `None` for a metric without a
    /// value (a mean over no job).
    fn catalogue_metrics(&self) -> PyResult<Vec<(String, Option<f64>)>> {
        let metrics = MetricsDocument::of(&self.run.outcome().metrics).map_err(core_error)?;
        Ok(catalogue()
            .into_iter()
            .filter_map(|c| match metrics.value(c.metric) {
                MetricValue::Absent => None,
                v => Some((c.key, v.number())),
            })
            .collect())
    }

    /// The per-job table (`run --jobs-csv`'s rows) as columns.
    fn jobs_columns<'py>(&self, py: Python<'py>) -> Vec<Column<'py>> {
        let trace = self.trace.get().session.trace();
        let threshold = self.run.settings().metrics.bsd_threshold;
        let rows: Vec<_> = job_rows(trace, &self.run.outcome().record, threshold).collect();
        let ints = |f: &dyn Fn(&schedlab::experiment::JobRow) -> i64| {
            le_bytes(&rows.iter().map(f).collect::<Vec<i64>>(), i64::to_le_bytes)
        };
        let flags = |f: &dyn Fn(&schedlab::experiment::JobRow) -> bool| rows.iter().map(|r| u8::from(f(r))).collect();
        let optional = |f: &dyn Fn(&schedlab::experiment::JobRow) -> Option<i64>| {
            let values: Vec<Option<i64>> = rows.iter().map(f).collect();
            let data = le_bytes(&values.iter().map(|v| v.unwrap_or(0)).collect::<Vec<i64>>(), i64::to_le_bytes);
            let mask: Vec<u8> = values.iter().map(|v| u8::from(v.is_none())).collect();
            (data, mask)
        };
        let bsd = le_bytes(&rows.iter().map(|r| r.bsd).collect::<Vec<f64>>(), f64::to_le_bytes);
        let (fair, fair_mask) = optional(&|r| r.fair_start);
        let (reservation, reservation_mask) = optional(&|r| r.reservation);
        let data: [RawColumn; 16] = [
            ("u8", le_bytes(&rows.iter().map(|r| r.job).collect::<Vec<u64>>(), u64::to_le_bytes), None),
            ("i8", ints(&|r| i64::from(r.user)), None),
            ("i8", ints(&|r| i64::from(r.size)), None),
            ("i8", ints(&|r| r.submit), None),
            ("i8", ints(&|r| r.start), None),
            ("i8", ints(&|r| r.end), None),
            ("i8", ints(&|r| r.wait), None),
            ("i8", ints(&|r| r.runtime), None),
            ("i8", ints(&|r| r.estimate), None),
            ("i8", ints(&|r| r.prediction), None),
            ("f8", bsd, None),
            ("i8", ints(&|r| i64::from(r.preempted)), None),
            ("bool", flags(&|r| r.backfilled), None),
            ("bool", flags(&|r| r.blocked), None),
            ("Int64", fair, Some(fair_mask)),
            ("Int64", reservation, Some(reservation_mask)),
        ];
        let named = JOB_COLUMNS.iter().map(|n| (*n).to_owned()).zip(data);
        named
            .chain(self.holdings_columns())
            .map(|(name, (kind, bytes, mask))| {
                (name, kind, PyBytes::new(py, &bytes), mask.map(|m| PyBytes::new(py, &m)))
            })
            .collect()
    }

    /// On a machine of nodes, the names of its partitions, which the
    /// `partition` column of `jobs_columns` (kind `category`) indexes;
    /// empty on processors.
    fn partition_names(&self) -> Vec<String> {
        let trace = self.trace.get().session.trace();
        trace
            .cluster
            .as_deref()
            .map_or_else(Vec::new, |c| c.machine.partitions.iter().map(|p| p.name.clone()).collect())
    }

    /// The per-job table as CSV, as `schedlab run --jobs-csv` writes it.
    fn jobs_csv(&self, py: Python<'_>) -> PyResult<String> {
        self.export(py, Export::JobsCsv)
    }

    /// The run as Batsim's `jobs.csv`, as `schedlab run --batsim-jobs`
    /// writes it (processor sets from the schedule view's layout).
    fn batsim_jobs_csv(&self, py: Python<'_>) -> PyResult<String> {
        self.export(py, Export::BatsimJobs)
    }

    /// Writes one of the texts above (`what`: `jobs_csv`, `batsim_jobs_csv`
    /// or `schedule_swf`) to `path`, all or nothing, through the command
    /// line's writer: the file is replaced only once the whole text is on
    /// disk (with its mode kept), and never if it is the trace's own file,
    /// by whatever path. `label` names the call in messages.
    fn write(&self, py: Python<'_>, what: &str, path: PathBuf, label: &str) -> PyResult<()> {
        let text = match what {
            "jobs_csv" => self.jobs_csv(py)?,
            "batsim_jobs_csv" => self.batsim_jobs_csv(py)?,
            "schedule_swf" => self.schedule_swf(py)?,
            other => return Err(core_error(format!("there is no output {other:?}"))),
        };
        let mut outputs = Outputs::new(self.trace.get().input.clone());
        let written = py.detach(|| {
            let output = outputs.declare(label, &path)?;
            let staged = outputs.stage(output, |w| w.write_all(text.as_bytes()))?;
            commit(vec![staged])
        });
        written.map_err(|e| error(ErrorKind::Export, e))
    }

    /// The simulated schedule as SWF, as `schedlab run --swf-out` writes it.
    fn schedule_swf(&self, py: Python<'_>) -> PyResult<String> {
        self.export(py, Export::ScheduleSwf)
    }
}

impl Run {
    fn export(&self, py: Python<'_>, export: Export) -> PyResult<String> {
        let session = &self.trace.get().session;
        py.detach(|| session.export_text(&self.run, export)).map_err(session_error)
    }
}
