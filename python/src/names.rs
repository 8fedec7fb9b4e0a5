//! The names and facts the core words for people: a trace's statistics and
//! cleaning lines, counts, the name of a generated trace and of a file to
//! save. The page asks the core for the same strings, so Python and the
//! page never word a figure differently.

use pyo3::prelude::*;
use schedlab::experiment::{cleaning_lines, trace_facts};

use crate::trace::Trace;

/// `trace_facts(trace) -> [(label, value)]`: the trace's statistics as the
/// page's trace summary shows them ("Span", "3 h").
#[pyfunction(name = "trace_facts")]
pub fn facts(trace: PyRef<'_, Trace>) -> Vec<(String, String)> {
    trace_facts(trace.session.identity(), Some(&trace.session.loaded().header))
        .into_iter()
        .map(|f| (f.label, f.value))
        .collect()
}

/// `cleaning_lines(trace) -> [(key, text, meaning)]`: the cleaning rules that
/// counted something, in the order they apply ("skipped: blank lines:
/// 1 line").
#[pyfunction(name = "cleaning_lines")]
pub fn cleaning(trace: PyRef<'_, Trace>) -> Vec<(String, String, String)> {
    cleaning_lines(trace.session.identity()).into_iter().map(|l| (l.key, l.text, l.meaning)).collect()
}

/// `count_text(n) -> str`: "28,489".
#[pyfunction]
pub fn count_text(n: u64) -> String {
    schedlab::experiment::count_text(n)
}

/// `counted(n, singular, plural) -> str`: "1 line", "3,000 jobs".
#[pyfunction]
pub fn counted(n: u64, singular: &str, plural: &str) -> String {
    schedlab::experiment::counted(n, singular, plural)
}

/// `download_name(trace, what, kind, ending) -> str`: the page's one name
/// for a file to save, `kth-sp2-first3000-easy-jobs.csv`.
#[pyfunction]
pub fn download_name(trace: &str, what: &str, kind: &str, ending: &str) -> String {
    schedlab::experiment::download_name(trace, what, kind, ending)
}

/// `generated_trace_name(procs, jobs, load, seed, estimate_factor) ->
/// str`: the name the page gives a generated trace (every setting not
/// given at the generator's default), `lublin99-p128-n10000-l0.7-s1.swf`.
#[pyfunction]
#[pyo3(signature = (procs=None, jobs=None, load=None, seed=None, estimate_factor=None))]
pub fn generated_trace_name(
    procs: Option<u32>,
    jobs: Option<u32>,
    load: Option<f64>,
    seed: Option<u64>,
    estimate_factor: Option<f64>,
) -> String {
    crate::trace::lublin_params(procs, jobs, load, seed, estimate_factor).file_name()
}
