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
//! of its subclasses, one for each kind of the core's errors (`error`
//! below is the one place that chooses), carrying the core's message; Ctrl-C and an exception raised by the
//! progress callback stop a run at its next progress report, and a read at
//! its next mebibyte.

mod experiment;
mod gym;
mod observer;
mod run;
mod trace;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use schedlab::experiment::{ConfigError, GridError};
use serde::de::DeserializeOwned;

// The classes live in the module `schedlab` (their `__module__`), where the
// package re-exports them, so that pickle finds them by name: an error
// raised in a worker process reaches its parent as itself.
create_exception!(
    schedlab,
    SchedlabError,
    PyValueError,
    "An error of the Schedlab core (a bad trace, option, policy, experiment, link, shard, run or output), with its \
     message. Each kind is a subclass."
);
create_exception!(
    schedlab,
    TraceError,
    SchedlabError,
    "A trace that cannot be read, or the wrong trace for a request."
);
create_exception!(
    schedlab,
    OptionError,
    SchedlabError,
    "An option or parameter whose value the core refuses (unknown key, value out of range, malformed request)."
);
create_exception!(
    schedlab,
    PolicyError,
    SchedlabError,
    "An unknown policy or predictor, or a run spec (`ID[:KEY=VALUE,...][@PREDICTOR]`) that cannot be read."
);
create_exception!(
    schedlab,
    ExperimentError,
    SchedlabError,
    "An experiment that cannot be planned (runs, repetitions, seeds, sweep)."
);
create_exception!(schedlab, LinkError, SchedlabError, "A share link that cannot be opened.");
create_exception!(schedlab, MergeError, SchedlabError, "Shard results that cannot be merged.");
create_exception!(schedlab, RunError, SchedlabError, "A run that failed (the engine or the run checker refused it).");
create_exception!(
    schedlab,
    OutputError,
    SchedlabError,
    "An output that cannot be written (nothing was changed on disk)."
);

/// What went wrong, as far as the Python caller is concerned: each kind is
/// one exception class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Trace,
    Option,
    Policy,
    Experiment,
    Link,
    Merge,
    Run,
    Output,
}

/// The one place that turns a core error into a Python exception.
pub fn error(kind: Kind, message: impl std::fmt::Display) -> PyErr {
    let message = message.to_string();
    match kind {
        Kind::Trace => TraceError::new_err(message),
        Kind::Option => OptionError::new_err(message),
        Kind::Policy => PolicyError::new_err(message),
        Kind::Experiment => ExperimentError::new_err(message),
        Kind::Link => LinkError::new_err(message),
        Kind::Merge => MergeError::new_err(message),
        Kind::Run => RunError::new_err(message),
        Kind::Output => OutputError::new_err(message),
    }
}

/// An error with no more specific kind (a document that cannot be
/// serialised, which no input should cause).
pub fn core_error(message: impl std::fmt::Display) -> PyErr {
    SchedlabError::new_err(message.to_string())
}

/// The kind of an experiment's planning error: what the user got wrong.
pub fn plan_error(e: GridError) -> PyErr {
    let kind = match &e {
        GridError::Spec(_)
        | GridError::Config(
            ConfigError::UnknownPolicy { .. }
            | ConfigError::UnknownPredictor { .. }
            | ConfigError::PredictorNotUsed { .. },
        ) => Kind::Policy,
        GridError::Config(_) | GridError::ParamUnknown(_) => Kind::Option,
        _ => Kind::Experiment,
    };
    error(kind, e)
}

/// Adds the exception classes to the module.
fn register_errors(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SchedlabError", py.get_type::<SchedlabError>())?;
    m.add("TraceError", py.get_type::<TraceError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("PolicyError", py.get_type::<PolicyError>())?;
    m.add("ExperimentError", py.get_type::<ExperimentError>())?;
    m.add("LinkError", py.get_type::<LinkError>())?;
    m.add("MergeError", py.get_type::<MergeError>())?;
    m.add("RunError", py.get_type::<RunError>())?;
    m.add("OutputError", py.get_type::<OutputError>())?;
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
            "." => error(Kind::Option, format!("{what}: {message}")),
            path => error(Kind::Option, format!("{what}.{path}: {message}")),
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
    Ok(())
}
