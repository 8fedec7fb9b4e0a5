//! The Schedlab core in Python (`schedlab._core`), under the pure-Python
//! package `schedlab` (python/schedlab/), which builds pandas DataFrames
//! from what these calls return.
//!
//! Thin on purpose, like the WebAssembly binding: every call decodes its
//! request (JSON text that the Python side built from keyword arguments
//! whose Python types it has checked; unknown keys refused, the bad field
//! named), calls the core with the GIL released, and returns the core's own
//! documents (as JSON text, through the same serialisers as the command
//! line and the page) or per-job columns (as little-endian bytes that numpy
//! reads without a copy). Errors are `SchedlabError` (a `ValueError`) or one
//! of its subclasses, one for each of the session's error kinds (`error`
//! below is the one place that chooses), carrying the core's message; Ctrl-C and an exception raised by the
//! progress callback stop a run at its next progress report, and a read at
//! its next mebibyte.

mod experiment;
mod gym;
mod names;
mod observer;
mod run;
mod trace;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
pub use schedlab_session::{ErrorKind, SessionError};
use serde::de::DeserializeOwned;

// The classes live in the module `schedlab` (their `__module__`), where the
// package re-exports them, so that pickle finds them by name: an error
// raised in a worker process reaches its parent as itself. One class for
// each of the session's error kinds, named after the kind.
create_exception!(
    schedlab,
    SchedlabError,
    PyValueError,
    "An error of the Schedlab core, with its message. Each kind of error (`ErrorKind` of the session) is a \
     subclass: TraceError, LimitError, OptionError, PolicyError, ExperimentError, LinkError, MergeError, RunError, \
     CancelledError, ExportError, StateError."
);
create_exception!(
    schedlab,
    TraceError,
    SchedlabError,
    "The trace cannot be read or cleaned: its format, content or compression, or a workload option that does not \
     fit it."
);
create_exception!(
    schedlab,
    LimitError,
    SchedlabError,
    "A limit refused the input or the work asked for: the job or byte limit, the size of a plan."
);
create_exception!(
    schedlab,
    OptionError,
    SchedlabError,
    "A run option is wrong: an unknown key, a value out of range, a formula that does not compile, a malformed \
     request."
);
create_exception!(
    schedlab,
    PolicyError,
    SchedlabError,
    "The policy or runtime predictor named does not exist, or the predictor does not apply to the policy."
);
create_exception!(
    schedlab,
    ExperimentError,
    SchedlabError,
    "The experiment cannot be planned: no run, a swept or shared parameter no run takes, conflicting settings, or \
     another trace reading."
);
create_exception!(schedlab, LinkError, SchedlabError, "A share link cannot be opened.");
create_exception!(schedlab, MergeError, SchedlabError, "Shard results cannot be merged.");
create_exception!(
    schedlab,
    RunError,
    SchedlabError,
    "A run failed: the engine stopped or the run checker found a broken rule."
);
create_exception!(schedlab, CancelledError, SchedlabError, "The run was cancelled.");
create_exception!(
    schedlab,
    ExportError,
    SchedlabError,
    "An output cannot be made or written (a file that would replace the trace, a full disk); nothing was changed \
     on disk."
);
create_exception!(
    schedlab,
    StateError,
    SchedlabError,
    "A call out of order: an episode's result before its end, or twice."
);

/// The one place that turns an error of the core into a Python exception:
/// the class of its kind, with its message.
pub fn error(kind: ErrorKind, message: impl std::fmt::Display) -> PyErr {
    let message = message.to_string();
    match kind {
        ErrorKind::Trace => TraceError::new_err(message),
        ErrorKind::Limit => LimitError::new_err(message),
        ErrorKind::Option => OptionError::new_err(message),
        ErrorKind::Policy => PolicyError::new_err(message),
        ErrorKind::Experiment => ExperimentError::new_err(message),
        ErrorKind::Link => LinkError::new_err(message),
        ErrorKind::Merge => MergeError::new_err(message),
        ErrorKind::Run => RunError::new_err(message),
        ErrorKind::Cancelled => CancelledError::new_err(message),
        ErrorKind::Export => ExportError::new_err(message),
        ErrorKind::State => StateError::new_err(message),
    }
}

/// A core error of a type the session knows the kind of.
pub fn session_error(e: impl Into<SessionError>) -> PyErr {
    let e = e.into();
    error(e.kind(), e.message())
}

/// An error with no more specific kind (a document that cannot be
/// serialised, which no input should cause).
pub fn core_error(message: impl std::fmt::Display) -> PyErr {
    SchedlabError::new_err(message.to_string())
}

/// Adds the exception classes to the module.
fn register_errors(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SchedlabError", py.get_type::<SchedlabError>())?;
    let classes = [
        py.get_type::<TraceError>(),
        py.get_type::<LimitError>(),
        py.get_type::<OptionError>(),
        py.get_type::<PolicyError>(),
        py.get_type::<ExperimentError>(),
        py.get_type::<LinkError>(),
        py.get_type::<MergeError>(),
        py.get_type::<RunError>(),
        py.get_type::<CancelledError>(),
        py.get_type::<ExportError>(),
        py.get_type::<StateError>(),
    ];
    // Each kind's class, by the kind's stable name, so that the package
    // can check that every kind has one.
    let by_kind = pyo3::types::PyDict::new(py);
    for (kind, class) in ErrorKind::ALL.into_iter().zip(classes) {
        m.add(class.name()?, &class)?;
        by_kind.set_item(kind.name(), class)?;
    }
    m.add("ERROR_KINDS", by_kind)?;
    Ok(())
}

/// Decodes the JSON text of a request, naming the field where it failed
/// ("experiment.runs.0.params: …") and leaving out the position in a text
/// the user never wrote. The Python side checks the types of what it puts
/// in a request, so a failure here is a malformed structure (an
/// `Experiment` definition written by hand), an `OptionError`.
fn decode<T: DeserializeOwned>(text: &str, what: &str) -> PyResult<T> {
    let mut reader = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let message = e.inner().to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        match e.path().to_string().as_str() {
            "." => error(ErrorKind::Option, format!("{what}: {message}")),
            path => error(ErrorKind::Option, format!("{what}.{path}: {message}")),
        }
    })
}

/// The document's text, from the core's one serialiser (the command line's too).
fn pretty<T: serde::Serialize>(value: &T) -> PyResult<String> {
    schedlab::experiment::document_text(value, "result").map_err(core_error)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_errors(m)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<trace::Trace>()?;
    m.add_class::<run::Run>()?;
    m.add_class::<experiment::ExperimentRun>()?;
    m.add_class::<gym::Episode>()?;
    m.add_class::<gym::Episodes>()?;
    m.add("FEATURES", gym::FEATURES)?;
    m.add("MAX_WINDOW", gym::MAX_WINDOW)?;
    m.add_function(wrap_pyfunction!(trace::open_trace, m)?)?;
    m.add_function(wrap_pyfunction!(trace::nodes_machine, m)?)?;
    m.add_function(wrap_pyfunction!(trace::slurm_conf_machine, m)?)?;
    m.add_function(wrap_pyfunction!(trace::sample, m)?)?;
    m.add_function(wrap_pyfunction!(trace::generate_lublin, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run_experiment, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::merge_shards, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::count_points, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::decode_link, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::columns, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run_spec, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::parse_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(names::facts, m)?)?;
    m.add_function(wrap_pyfunction!(names::cleaning, m)?)?;
    m.add_function(wrap_pyfunction!(names::count_text, m)?)?;
    m.add_function(wrap_pyfunction!(names::counted, m)?)?;
    m.add_function(wrap_pyfunction!(names::download_name, m)?)?;
    m.add_function(wrap_pyfunction!(names::generated_trace_name, m)?)?;
    Ok(())
}
