//! The Schedlab core in Python (`schedlab._core`), under the pure-Python
//! package `schedlab` (python/schedlab/), which builds pandas DataFrames
//! from what these calls return.
//!
//! Thin on purpose, like the WebAssembly binding: every call decodes its
//! request (JSON text that the Python side built from keyword arguments;
//! unknown keys refused, the bad field named), calls the core with the GIL
//! released, and returns the core's own documents (as JSON text, through
//! the same serialisers as the command line and the page) or per-job
//! columns (as little-endian bytes that numpy reads without a copy).
//! Errors are `SchedlabError` (a `ValueError`) carrying the core's message;
//! Ctrl-C and an exception raised by the progress callback stop a run at
//! its next progress report.

mod experiment;
mod gym;
mod names;
mod observer;
mod run;
mod trace;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::de::DeserializeOwned;

create_exception!(
    _core,
    SchedlabError,
    PyValueError,
    "An error of the Schedlab core (a bad trace, parameter or experiment), with its message."
);

/// The core's message as a Python exception.
fn core_error(e: impl std::fmt::Display) -> PyErr {
    SchedlabError::new_err(e.to_string())
}

/// Decodes the JSON text of a request, naming the field where it failed
/// ("experiment.runs.0.params: …") and leaving out the position in a text
/// the user never wrote.
fn decode<T: DeserializeOwned>(text: &str, what: &str) -> PyResult<T> {
    let mut reader = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let message = e.inner().to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        match e.path().to_string().as_str() {
            "." => SchedlabError::new_err(format!("{what}: {message}")),
            path => SchedlabError::new_err(format!("{what}.{path}: {message}")),
        }
    })
}

/// The document's text, from the core's one serialiser (the command line's too).
fn pretty<T: serde::Serialize>(value: &T) -> PyResult<String> {
    schedlab::experiment::document_text(value, "result").map_err(core_error)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SchedlabError", m.py().get_type::<SchedlabError>())?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<trace::Trace>()?;
    m.add_class::<run::Run>()?;
    m.add_class::<experiment::ExperimentRun>()?;
    m.add_class::<gym::Episode>()?;
    m.add("FEATURES", gym::FEATURES)?;
    m.add_function(wrap_pyfunction!(trace::open_trace, m)?)?;
    m.add_function(wrap_pyfunction!(trace::sample, m)?)?;
    m.add_function(wrap_pyfunction!(trace::generate_lublin, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run_experiment, m)?)?;
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
