//! Reading a trace: from a file (the binding is a host, so it may open
//! one), from bytes, from the page's bundled sample or from the
//! Lublin–Feitelson generator. Plain or compressed; the core sniffs which.
//! A read runs without the GIL and takes it back for a moment every
//! mebibyte to run Python's signal handlers, so Ctrl-C stops it.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyIsADirectoryError, PyOSError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use schedlab::experiment::WorkloadOptions;
use schedlab::workload::TraceClock;
use schedlab_outputs::Input;
use schedlab_session::Session;

use crate::{core_error, decode, error, session_error, ErrorKind};

/// A trace read and cleaned by the core, with its identity (name, SHA-256,
/// jobs, machine size, options, cleaning report, statistics, warnings):
/// the session every run and experiment on it goes through.
#[pyclass(module = "schedlab._core", frozen)]
pub struct Trace {
    pub(crate) session: Session,
    /// The file it was read from, by the identity of the file opened, so
    /// that no output replaces or writes into it through any path.
    pub(crate) input: Option<Input>,
}

#[pymethods]
impl Trace {
    /// The identity as JSON text, exactly as result documents record it.
    fn identity_json(&self) -> PyResult<String> {
        serde_json::to_string(self.session.identity()).map_err(core_error)
    }

    /// The workload options it was read with, as JSON text.
    fn workload_json(&self) -> PyResult<String> {
        serde_json::to_string(self.session.workload()).map_err(core_error)
    }

    /// The header's key/value pairs as JSON text.
    fn header_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.session.loaded().header).map_err(core_error)
    }

    /// What the header says of the trace's clock (`UnixStartTime`, the
    /// `TimeZone` offset and the `TimeZoneString` name, each as the core
    /// reads it for the page's dates), as JSON text.
    fn clock_json(&self) -> PyResult<String> {
        serde_json::to_string(&TraceClock::of(&self.session.loaded().header)).map_err(core_error)
    }

    fn __len__(&self) -> usize {
        self.session.trace().jobs.len()
    }
}

/// Where the bytes of a trace come from.
enum Source {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

/// `open_trace(source, name, workload_json)`: reads `source` (bytes, or a
/// path as `str` or `os.PathLike`) with the workload options of
/// `workload_json`. `name` defaults to the file's name (`trace.swf` for
/// bytes); it is part of the identity, as on the command line.
#[pyfunction]
#[pyo3(signature = (source, name, workload_json))]
pub fn open_trace(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<String>,
    workload_json: &str,
) -> PyResult<Trace> {
    let source = if let Ok(b) = source.cast::<PyBytes>() {
        Source::Bytes(b.as_bytes().to_vec())
    } else if let Ok(b) = source.cast::<PyByteArray>() {
        Source::Bytes(b.to_vec())
    } else if let Ok(path) = source.extract::<PathBuf>() {
        Source::Path(path)
    } else {
        let kind = source.get_type().name()?;
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "load(): the trace must be a path (str or os.PathLike) or bytes, not {kind}"
        )));
    };
    let workload: WorkloadOptions = decode(workload_json, "load() options")?;
    let name = name.unwrap_or_else(|| match &source {
        Source::Bytes(_) => "trace.swf".to_owned(),
        Source::Path(p) => p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()),
    });
    let mut interrupt = None;
    let mut input = None;
    let session = py.detach(|| match &source {
        Source::Bytes(b) => {
            Session::load(Interruptible::new(b.as_slice(), &mut interrupt), name, workload).map_err(Err)
        }
        Source::Path(p) => {
            let file = File::open(p).map_err(|e| Ok((p.clone(), e)))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(Ok((p.clone(), std::io::Error::other("is a directory, not a trace file"))));
            }
            input = Input::open_file(&p.display().to_string(), &file).ok();
            let file = Interruptible::new(file, &mut interrupt);
            Session::load(BufReader::with_capacity(1 << 16, file), name, workload)
                .map_err(|e| Err(e.context(p.display())))
        }
    });
    // A Ctrl-C during the read wins over what the read made of it; one that
    // came after the last check (a short or failing read) is raised too,
    // rather than left pending past the error.
    if let Some(e) = interrupt {
        return Err(e);
    }
    if session.is_err() {
        py.check_signals()?;
    }
    let session = session.map_err(|e| match e {
        Err(e) => session_error(e),
        Ok((path, io)) => {
            let message = format!("cannot open {}: {io}", path.display());
            match io.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                _ if path.is_dir() => PyIsADirectoryError::new_err(message),
                _ => PyOSError::new_err(message),
            }
        }
    })?;
    Ok(Trace { session, input })
}

/// Bytes read between two looks at Python's signals.
const CHECK_EVERY: usize = 1 << 20;

/// A reader that runs Python's signal handlers every [`CHECK_EVERY`] bytes
/// (taking the GIL for a moment) and fails with "interrupted" once one
/// raises, keeping that exception for the caller to raise instead of the
/// reader's error.
struct Interruptible<'a, R> {
    inner: R,
    unchecked: usize,
    raised: &'a mut Option<PyErr>,
}

impl<'a, R> Interruptible<'a, R> {
    fn new(inner: R, raised: &'a mut Option<PyErr>) -> Self {
        Interruptible { inner, unchecked: 0, raised }
    }
}

impl<R: Read> Read for Interruptible<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.unchecked >= CHECK_EVERY {
            self.unchecked = 0;
            if let Err(e) = Python::attach(|py| py.check_signals()) {
                *self.raised = Some(e);
            }
        }
        if self.raised.is_some() {
            // Not `ErrorKind::Interrupted`, which readers retry.
            return Err(std::io::Error::other("interrupted"));
        }
        let n = self.inner.read(buf)?;
        self.unchecked += n;
        Ok(n)
    }
}

/// The page's bundled samples, by the ids share links use, with the file
/// names the page gives them (the name is part of a result's identity).
const SAMPLES: &[(&str, &str, &[u8])] = &[
    ("kth-sp2-first3000", "kth-sp2-first3000.swf", include_bytes!("../../samples/kth-sp2-first3000.swf")),
    (
        "kth-sp2-first3000-gz",
        "kth-sp2-first3000.swf.gz",
        include_bytes!("../../www/public/samples/kth-sp2-first3000.swf.gz"),
    ),
];

/// `sample(id) -> (name, bytes)`: a sample the page bundles.
#[pyfunction]
pub fn sample<'py>(py: Python<'py>, id: &str) -> PyResult<(&'static str, Bound<'py, PyBytes>)> {
    let (_, name, bytes) = SAMPLES.iter().find(|(i, _, _)| *i == id).ok_or_else(|| {
        let known: Vec<&str> = SAMPLES.iter().map(|s| s.0).collect();
        error(ErrorKind::Link, format!("there is no sample `{id}` (known: {})", known.join(", ")))
    })?;
    Ok((name, PyBytes::new(py, bytes)))
}

/// `generate_lublin(procs, jobs, load, seed, estimate_factor) -> bytes`: a
/// Lublin–Feitelson trace as SWF text, as the page's generator makes it
/// (every setting not given at the generator's default).
#[pyfunction]
#[pyo3(signature = (procs=None, jobs=None, load=None, seed=None, estimate_factor=None))]
pub fn generate_lublin<'py>(
    py: Python<'py>,
    procs: Option<u32>,
    jobs: Option<u32>,
    load: Option<f64>,
    seed: Option<u64>,
    estimate_factor: Option<f64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let params = lublin_params(procs, jobs, load, seed, estimate_factor);
    let bytes = py.detach(|| schedlab_synth::generate_swf(&params)).map_err(session_error)?;
    Ok(PyBytes::new(py, &bytes))
}

/// The generator's settings, each not given at its default.
pub fn lublin_params(
    procs: Option<u32>,
    jobs: Option<u32>,
    load: Option<f64>,
    seed: Option<u64>,
    estimate_factor: Option<f64>,
) -> schedlab_synth::LublinParams {
    let d = schedlab_synth::LublinParams::default();
    schedlab_synth::LublinParams {
        procs: procs.unwrap_or(d.procs),
        jobs: jobs.unwrap_or(d.jobs),
        load: load.unwrap_or(d.load),
        seed: seed.unwrap_or(d.seed),
        estimate_factor: estimate_factor.unwrap_or(d.estimate_factor),
    }
}

/// The machine of nodes of `load(nodes=…)`: its description
/// (`128x(cpu=64,mem=256G,gpu=4)`, docs/cli.md `--nodes`) read by the same
/// function as the command line's, returned as the workload options' JSON.
#[pyfunction]
pub fn nodes_machine(spec: &str) -> PyResult<String> {
    let machine = schedlab_session::machine_from_nodes(spec, "load(nodes=…)").map_err(session_error)?;
    serde_json::to_string(&machine).map_err(core_error)
}

/// The machine of nodes of `load(slurm_conf=…)`: the `NodeName`,
/// `PartitionName` and `GresTypes` lines of a slurm.conf's `text`, read by
/// the same function as `--slurm-conf`, as the workload options' JSON, with
/// its notes (lines no reader used, `Include`s not followed), each starting
/// with `what` (the file's name).
#[pyfunction]
pub fn slurm_conf_machine(text: &str, what: &str) -> PyResult<(String, Vec<String>)> {
    let read = schedlab_session::machine_from_slurm_conf(text, what).map_err(session_error)?;
    Ok((serde_json::to_string(&read.machine).map_err(core_error)?, read.notes))
}
