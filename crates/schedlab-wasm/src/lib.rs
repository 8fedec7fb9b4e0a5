//! The Schedlab core in WebAssembly, for the browser playground (`www/`).
//!
//! Thin on purpose: every export decodes its request (unknown keys
//! refused), calls the core, and encodes the result as plain
//! JSON-compatible objects (result documents as JSON text, below). An
//! export's signature is its one declaration: it takes and returns
//! `Js<T>` and `Callback<T>` (`boundary.rs`), `#[export]`
//! (schedlab-wasm-macros) gives wasm-bindgen the TypeScript name of each
//! `T`, and this crate's test `generated_types_are_current` writes the
//! declarations of those types and of every type they refer to
//! (`www/src/generated/types.ts`, also in the wasm-bindgen `.d.ts`), so the
//! page needs no cast. Errors reach JavaScript as `Error` objects carrying
//! the core's message, named after the session's error kind (`name` is
//! `TraceError`, `OptionError`, …, `kind` is `trace`, `option`, …:
//! `boundary::Thrown`); a panic becomes an `Error` too.
//!
//! The API, as JavaScript sees it, is the declaration wasm-bindgen writes
//! from these exports and their doc comments, `www/src/wasm/schedlab_wasm.d.ts`
//! (`scripts/build-wasm.sh`), with the types of `types.ts` in it; it is
//! not listed again here. Result documents (a run, a point, an experiment's
//! result, a reproduction) cross as JSON text, one export each, so that a
//! page's export equals the command line's byte for byte (a JavaScript
//! number forgets that `100.0` was a float); the page parses the text to
//! read it.
//!
//! After a panic the module instance should be dropped: the panic
//! interrupted Rust code half-way.

mod boundary;
mod canvas;
pub mod experiments;
mod labels;
pub mod machines;
mod page;
pub mod protocol;
mod schedule_exports;
pub mod schedules;
pub mod session;
#[cfg(test)]
mod types;

use js_sys::Uint8Array;
use schedlab_charts::plotters::prelude::IntoDrawingArea;
use schedlab_charts::{ChartSpec, Figure};
use schedlab_engine::{Control, Progress};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use schedlab_experiment::link::Link;
use schedlab_experiment::{Experiment, ExperimentResult, Phase, Preset, Scope, SummaryTable, WorkloadOptions};
use schedlab_wasm_macros::export;

pub use crate::boundary::{Callback, Js, Thrown};
use crate::experiments::PlanView;
use crate::protocol::{GenerateMessage, ProgressMessage, Registry, RunMessage, Summary};
use crate::session::Error;
use schedlab_session::ErrorKind;

/// The generated TypeScript declarations, also in the wasm-bindgen `.d.ts`
/// so that the exports' return types below resolve.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../../www/src/generated/types.ts");

/// Runs when the module is instantiated: installs the panic hook.
#[export(start)]
pub fn start() {
    install_panic_hook();
}

/// Makes a panic throw a JavaScript `Error` with the panic's message (and
/// log it to the console), instead of an opaque "unreachable" trap.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("internal error in the Schedlab core (please report it): {info}");
        web_sys::console::error_1(&JsValue::from_str(&message));
        wasm_bindgen::throw_str(&message);
    }));
}

/// Decodes a request. Through its JSON text, because serde-wasm-bindgen
/// reads only the fields a struct knows, so it would not see (and refuse) a
/// misspelt key, and because a JSON value would forget the order of an
/// object's keys (a run's parameters, and so its label). A key set to
/// `undefined` or `null` counts as absent; NaN and ±Infinity, which JSON
/// would write as `null`, are written as the strings of
/// [`NON_FINITE`] so that they are refused, not taken for the default.
fn decode<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, Thrown> {
    // A Rust closure, not `new Function(...)`: the page's Content Security
    // Policy forbids evaluating text as JavaScript.
    let drop_nulls = Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(|_key: JsValue, value: JsValue| {
        if value.is_null() {
            JsValue::UNDEFINED
        } else if let Some(marker) = value.as_f64().and_then(non_finite_marker) {
            JsValue::from_str(marker)
        } else {
            value
        }
    });
    from_text(js_sys::JSON::stringify_with_replacer(&value, drop_nulls.as_ref().unchecked_ref()), what)
}

/// Decodes without dropping `null`s (for documents the core produced).
fn decode_raw<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, Thrown> {
    from_text(js_sys::JSON::stringify(&value), what)
}

fn from_text<T: DeserializeOwned>(text: Result<js_sys::JsString, JsValue>, what: &str) -> Result<T, Thrown> {
    let text: String = text.map_err(|_| Error::new(ErrorKind::Option, format!("{what}: not JSON data")))?.into();
    let mut reader = serde_json::Deserializer::from_str(&text);
    Ok(serde_path_to_error::deserialize(&mut reader)
        .map_err(|e| Error::new(ErrorKind::Option, decode_error(what, &e)))?)
}

/// The texts that stand for the numbers JSON cannot hold, and the numbers.
const NON_FINITE: [(&str, f64); 3] = [("NaN", f64::NAN), ("Infinity", f64::INFINITY), ("-Infinity", f64::NEG_INFINITY)];

fn non_finite_marker(x: f64) -> Option<&'static str> {
    NON_FINITE.iter().find(|(_, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())).map(|(m, _)| *m)
}

/// The message for a field that was sent NaN or ±Infinity (`message` is
/// then the type error of its marker): the command line's message for the
/// metric options, which it refuses the same way.
fn non_finite_message(path: &str, message: &str) -> Option<String> {
    let (_, x) = NON_FINITE.iter().find(|(m, _)| message.starts_with(&format!("invalid type: string \"{m}\"")))?;
    let shown = schedlab_workload::short_number(*x);
    Some(match path.rsplit('.').next().unwrap_or(path) {
        "skip_percent" => schedlab_metrics::MetricsError::Skip(shown).to_string(),
        "bsd_threshold" => schedlab_metrics::MetricsError::Threshold(shown).to_string(),
        _ => format!("{shown} is not a number this field takes; give a finite number"),
    })
}

/// "experiment.workload.machine_size: invalid type: …": the field where
/// decoding failed, and why (without the position in a text the page never
/// sees).
fn decode_error(what: &str, e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let message = e.inner().to_string();
    let message = message.split(" at line ").next().unwrap_or(&message);
    let mut path = e.path().to_string();
    // An unknown key's path ends with the key, which the message names:
    // name the object that holds it instead.
    if message.starts_with("unknown field") {
        path = path.rsplit_once('.').map_or_else(|| ".".to_owned(), |(head, _)| head.to_owned());
    }
    let message = non_finite_message(&path, message).unwrap_or_else(|| message.to_owned());
    match path.as_str() {
        "." => format!("{what}: {message}"),
        path => format!("{what}.{path}: {message}"),
    }
}

fn encode<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Thrown> {
    Ok(value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}

/// Policies, runtime sources and their parameters: what the forms are built from.
#[export]
pub fn registry() -> Result<Js<Registry>, Thrown> {
    Js::encode(&Registry::new())
}

/// A trace loaded in the core.
#[wasm_bindgen]
pub struct Session {
    inner: session::Session,
}

#[export]
impl Session {
    /// Reads `bytes` (SWF text, plain or gzip) under the name `name`.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: Uint8Array, name: String, options: Option<Js<WorkloadOptions>>) -> Result<Session, Thrown> {
        let options = match options {
            Some(o) => o.decode("options")?,
            None => WorkloadOptions::default(),
        };
        Ok(Session { inner: session::Session::open(JsBytes::new(bytes), name, options)? })
    }

    /// `{ identity, header, bad_lines, warnings, bytes, lines }`: the trace
    /// as read (identity = name, sha256, jobs, procs, options, cleaning, stats).
    pub fn summary(&self) -> Result<Js<Summary>, Thrown> {
        Js::encode(&self.inner.summary())
    }

    /// The trace's identity (a `TraceIdentity`) as JSON text, as an
    /// experiment result records it (for `experiment_result`).
    pub fn identity(&self) -> Result<String, Thrown> {
        Ok(serde_json::to_string(self.inner.identity())?)
    }

    /// Point `index` of `experiment` (its `workload` must be this
    /// session's options), as a `PointResult`'s JSON text (for
    /// `experiment_result`, which keeps every number's form). `on_progress`
    /// as for `run`. The point's run is kept for `jobs_csv`, `schedule_swf`
    /// and `batsim_jobs_csv`.
    pub fn run_point(
        &mut self,
        experiment: Js<Experiment>,
        index: f64,
        on_progress: Option<Callback<ProgressMessage>>,
    ) -> Result<String, JsValue> {
        let experiment = experiment.decode("experiment")?;
        let index = point_index(index)?;
        let mut observer = Observer::new(on_progress);
        let result = self.inner.run_point(&experiment, index, &mut |phase, p| observer.report(phase, p));
        observer.rethrow()?;
        Ok(serde_json::to_string(&result.map_err(Thrown::from)?).map_err(Thrown::from)?)
    }

    /// Runs `{ policy, params?, predictor?, seed?, bsd_threshold?, skip_percent?,
    /// short_runtime?, narrow_size?, no_check? }` and returns the result
    /// document (a `RunDocument`) as `schedlab run --json` prints it: pretty
    /// JSON text, no `elapsed_ms`. `on_progress({ phase, completed, jobs,
    /// events, now })` is called every `progress_every` events; returning
    /// `false` cancels, throwing cancels and rethrows.
    pub fn run(
        &mut self,
        request: Js<RunMessage>,
        on_progress: Option<Callback<ProgressMessage>>,
    ) -> Result<String, JsValue> {
        let message = request.decode("request")?;
        let mut observer = Observer::new(on_progress);
        let result = self.inner.run_text(&message, &mut |phase, p| observer.report(phase, p));
        observer.rethrow()?;
        Ok(result.map_err(Thrown::from)?)
    }

    /// The last run's per-job table as CSV (`run --jobs-csv`).
    pub fn jobs_csv(&self) -> Result<String, Thrown> {
        Ok(self.inner.jobs_csv()?)
    }

    /// The last run's simulated schedule as SWF (`run --swf-out`).
    pub fn schedule_swf(&self) -> Result<String, Thrown> {
        Ok(self.inner.schedule_swf()?)
    }

    /// The last run as Batsim's jobs.csv (`run --batsim-jobs`).
    pub fn batsim_jobs_csv(&self) -> Result<String, Thrown> {
        Ok(self.inner.batsim_jobs_csv()?)
    }
}

/// A Lublin–Feitelson synthetic trace as SWF bytes, from `{ procs, jobs, load,
/// seed, estimate_factor }` (all optional: 128, 10000, 0.7, 1, 1).
#[export]
pub fn generate_lublin(params: Js<GenerateMessage>) -> Result<Vec<u8>, Thrown> {
    let message = params.decode("params")?;
    Ok(schedlab_synth::generate_swf(&message.into())?)
}

/// The presets of `schedlab reproduce`.
#[export]
pub fn presets() -> Result<Js<[Preset]>, Thrown> {
    Js::encode(experiments::presets())
}

/// How many runs the preset `id` makes, all sections together (the
/// count its plans give: a run without randomness runs once).
#[export]
pub fn preset_runs(id: &str) -> Result<f64, Thrown> {
    Ok(experiments::preset_runs(id)? as f64)
}

/// A preset section's experiment on a trace read with `workload`.
#[export]
pub fn preset_experiment(
    id: &str,
    section: usize,
    workload: Js<WorkloadOptions>,
    trace_name: Option<String>,
) -> Result<Js<Experiment>, Thrown> {
    let workload = workload.decode("workload")?;
    Js::encode(&experiments::preset_experiment(id, section, &workload, trace_name.as_deref())?)
}

/// The notes beside a preset run on the trace named `trace_name`.
#[export]
pub fn preset_notes(id: &str, trace_name: &str, workload: Js<WorkloadOptions>) -> Result<Js<Vec<String>>, Thrown> {
    let workload = workload.decode("workload")?;
    Js::encode(&experiments::preset_notes(id, trace_name, &workload)?)
}

/// An experiment of no run with every default (metric settings, one
/// repetition, seed 0): what the page's form starts from.
#[export]
pub fn default_experiment() -> Result<Js<Experiment>, Thrown> {
    Js::encode(&Experiment::default())
}

/// The runs and points of an experiment (checked: a bad value fails here).
#[export]
pub fn plan(experiment: Js<Experiment>) -> Result<Js<PlanView>, Thrown> {
    Js::encode(&experiments::plan(experiment.decode("experiment")?)?)
}

/// The figures of an experiment result.
#[export]
pub fn figures(result: Js<ExperimentResult>) -> Result<Js<Vec<Figure>>, Thrown> {
    Js::encode(&experiments::figures(&result.decode_raw("result")?))
}

/// The figures of a preset section's result.
#[export]
pub fn preset_figures(id: &str, section: usize, result: Js<ExperimentResult>) -> Result<Js<Vec<Figure>>, Thrown> {
    Js::encode(&experiments::preset_figures(id, section, &result.decode_raw("result")?)?)
}

/// A time window written as the command line's `--window` takes it
/// (`10d:17d`, `864000:1468800`), as `[from, to)` in whole seconds; the
/// error says what is wrong with the text.
#[export]
pub fn parse_window(text: &str) -> Result<Js<(i64, i64)>, Thrown> {
    Js::encode(&schedlab_schedule::parse_window(text)?)
}

/// A share link's fragment (without `#`).
#[export]
pub fn encode_link(link: Js<Link>) -> Result<String, Thrown> {
    Ok(experiments::encode_link(&link.decode("link")?)?)
}

/// A share link's content, checked; the error names the field.
#[export]
pub fn decode_link(fragment: &str) -> Result<Js<Link>, Thrown> {
    Js::encode(&experiments::decode_link(fragment)?)
}

/// Which parameters reach which runs of an experiment: every run's
/// parameters with the value it uses and where it comes from, whether each
/// matters with the run's other values, and for each shared parameter (the
/// global knobs first) the runs it reaches, overrides and misses.
#[export]
pub fn param_scope(experiment: Js<Experiment>) -> Result<Js<Scope>, Thrown> {
    Js::encode(&experiments::param_scope(&experiment.decode("experiment")?))
}

/// An experiment's result (an `ExperimentResult`) as the text `schedlab
/// sweep --json` writes (pretty JSON and a newline), from the JSON texts
/// of the trace's identity (`session.identity()`) and of the points
/// (`session.run_point`). Texts, so that every number keeps its form.
#[export]
pub fn experiment_result(experiment: Js<Experiment>, identity: &str, points: Vec<String>) -> Result<String, Thrown> {
    Ok(experiments::experiment_result_text(experiment.decode("experiment")?, identity, &points)?)
}

/// An experiment result (its JSON text) as a table: the given columns
/// (metric paths, each one of the catalogue), or every catalogue column
/// some row has a number for; each cell as people read it (durations in
/// their units, "4 h 54 min").
#[export]
pub fn summary_table(result: &str, columns: Option<Vec<String>>) -> Result<Js<SummaryTable>, Thrown> {
    let result: ExperimentResult =
        serde_json::from_str(result).map_err(|e| Error::new(ErrorKind::Option, format!("result: {e}")))?;
    let keys = columns
        .map(|paths| {
            paths
                .iter()
                .map(|p| {
                    schedlab_metrics::MetricKey::parse(p).ok_or_else(|| {
                        Error::new(ErrorKind::Option, format!("columns: `{p}` is not a metric of the catalogue"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let style = schedlab_experiment::CellStyle::Durations;
    Js::encode(&schedlab_experiment::summary_table(&result, keys.as_deref(), style))
}

/// A preset's result as the text `schedlab reproduce --json` writes, from
/// the JSON texts of its sections' results (`experiment_result`).
#[export]
pub fn reproduction(id: &str, sections: Vec<String>) -> Result<String, Thrown> {
    Ok(experiments::reproduction_text(id, &sections)?)
}

/// A point number from JavaScript: a whole number ≥ 0 within 2^53.
fn point_index(x: f64) -> Result<u64, Thrown> {
    if x.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&x) {
        Ok(x as u64)
    } else {
        Err(Error::new(ErrorKind::Option, format!("point index must be a whole number from 0, not {x}")).into())
    }
}

/// Draws a chart on a canvas: laid out for `canvas.width / ratio` ×
/// `canvas.height / ratio` chart pixels and drawn at `ratio` canvas pixels
/// each, so that a canvas with a pixel per device pixel shows the chart
/// crisp at any text size. Page thread only.
#[export]
pub fn draw_chart(canvas: HtmlCanvasElement, spec: Js<ChartSpec>, ratio: f64) -> Result<(), Thrown> {
    let spec = spec.decode("chart")?;
    let backend = canvas::scaled(canvas, ratio).map_err(|e| Error::new(ErrorKind::Export, e))?;
    Ok(schedlab_charts::draw(&spec, &backend.into_drawing_area())?)
}

/// A chart as an SVG document. Page thread only.
#[export]
pub fn chart_svg(spec: Js<ChartSpec>, width: u32, height: u32) -> Result<String, Thrown> {
    Ok(schedlab_charts::try_to_svg(&spec.decode("chart")?, width, height)?)
}

/// What the page says when a worker's module ran out of memory (a trap:
/// its allocator found no room and the browser refused to grow it
/// further); the page then replaces that worker. During a run or an export
/// (`reading` false) it is the whole sentence, saying what is kept. While
/// a trace is read (`reading` true) it is the reason the page puts after
/// "FILE could not be read:" or "With these workload options:", followed
/// by the page's own word on which trace is still in use.
#[export]
pub fn memory_exhausted_message(reading: bool) -> String {
    let gib = protocol::WASM_MAX_MEMORY >> 30;
    if reading {
        format!("the trace needed more memory than the browser gives the page ({gib} GiB).")
    } else {
        format!("This run needed more memory than the browser gives the page ({gib} GiB); the other results and the trace are kept.")
    }
}

/// Bytes of linear memory the module holds (it grows, never shrinks): for
/// the page's memory figures and the benchmarks.
#[export]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// Reads a JavaScript `Uint8Array` in pieces, so the trace is never copied
/// whole into the module's memory.
struct JsBytes {
    array: Uint8Array,
    pos: u32,
    len: u32,
}

impl JsBytes {
    fn new(array: Uint8Array) -> Self {
        let len = array.length();
        JsBytes { array, pos: 0, len }
    }
}

impl std::io::Read for JsBytes {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (self.len - self.pos).min(u32::try_from(buf.len()).unwrap_or(u32::MAX));
        if n > 0 {
            self.array.subarray(self.pos, self.pos + n).copy_to(&mut buf[..n as usize]);
            self.pos += n;
        }
        Ok(n as usize)
    }
}

/// Passes progress to the page's callback; a `false` answer or an exception
/// cancels the run, and the exception is thrown again once the run stops.
struct Observer {
    callback: Option<Callback<ProgressMessage>>,
    thrown: Option<JsValue>,
}

impl Observer {
    fn new(callback: Option<Callback<ProgressMessage>>) -> Self {
        Observer { callback, thrown: None }
    }

    fn report(&mut self, phase: Phase, p: Progress) -> Control {
        let Some(callback) = &self.callback else { return Control::Continue };
        let message = ProgressMessage::new(phase, &p);
        match callback.call(&message) {
            Ok(v) if v == JsValue::FALSE => Control::Cancel,
            Ok(_) => Control::Continue,
            Err(e) => {
                self.thrown = Some(e);
                Control::Cancel
            }
        }
    }

    fn rethrow(&mut self) -> Result<(), JsValue> {
        self.thrown.take().map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Running out of memory names the browser's limit: for a run, in one
    /// sentence that says what the page keeps; for a trace being read, as
    /// the reason the page's "could not be read" sentence gives.
    #[test]
    fn memory_exhausted_is_one_sentence() {
        assert_eq!(
            memory_exhausted_message(false),
            "This run needed more memory than the browser gives the page (4 GiB); the other results and the trace are kept."
        );
        assert_eq!(
            memory_exhausted_message(true),
            "the trace needed more memory than the browser gives the page (4 GiB)."
        );
    }

    /// A decoding error names the field, from the value's name down.
    #[test]
    fn decode_errors_name_the_field() {
        let text = r#"{"runs": [{"policy": "easy"}], "workload": {"machine_size": 2.5}}"#;
        let mut reader = serde_json::Deserializer::from_str(text);
        let e = serde_path_to_error::deserialize::<_, Experiment>(&mut reader).unwrap_err();
        assert_eq!(
            decode_error("experiment", &e),
            "experiment.workload.machine_size: invalid type: floating point `2.5`, expected u32"
        );
        // An unknown key: the object that holds it, and the key.
        let text = r#"{"runs": [{"policy": "easy", "ordr": "x"}]}"#;
        let mut reader = serde_json::Deserializer::from_str(text);
        let e = serde_path_to_error::deserialize::<_, Experiment>(&mut reader).unwrap_err();
        assert!(
            decode_error("experiment", &e).starts_with("experiment.runs[0]: unknown field `ordr`"),
            "{}",
            decode_error("experiment", &e)
        );
        // NaN and ±Infinity, as `decode` passes them: the command line's
        // messages for the metric options, a plain refusal elsewhere.
        let cases = [
            (
                r#"{"policy": "easy", "skip_percent": "NaN"}"#,
                "run.skip_percent: skip percentage must be in [0, 50), got NaN",
            ),
            (
                r#"{"policy": "easy", "skip_percent": "-Infinity"}"#,
                "run.skip_percent: skip percentage must be in [0, 50), got -inf",
            ),
            (
                r#"{"policy": "easy", "bsd_threshold": "Infinity"}"#,
                "run.bsd_threshold: bounded-slowdown threshold must be at least 1 s, got inf",
            ),
            (
                r#"{"policy": "easy", "narrow_size": "NaN"}"#,
                "run.narrow_size: NaN is not a number this field takes; give a finite number",
            ),
        ];
        for (text, expected) in cases {
            let mut reader = serde_json::Deserializer::from_str(text);
            let e = serde_path_to_error::deserialize::<_, RunMessage>(&mut reader).unwrap_err();
            assert_eq!(decode_error("run", &e), expected);
        }
        let text = r#"{"runs": [{"policy": "easy"}], "metrics": {"bsd_threshold": "NaN"}}"#;
        let mut reader = serde_json::Deserializer::from_str(text);
        let e = serde_path_to_error::deserialize::<_, Experiment>(&mut reader).unwrap_err();
        assert_eq!(
            decode_error("experiment", &e),
            "experiment.metrics.bsd_threshold: bounded-slowdown threshold must be at least 1 s, got NaN"
        );
        assert_eq!(
            [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.0].map(non_finite_marker),
            [Some("NaN"), Some("Infinity"), Some("-Infinity"), None]
        );
        let mut reader = serde_json::Deserializer::from_str(r#""x""#);
        let e = serde_path_to_error::deserialize::<_, GenerateMessage>(&mut reader).unwrap_err();
        assert_eq!(decode_error("params", &e), "params: invalid type: string \"x\", expected struct GenerateMessage");
    }
}
