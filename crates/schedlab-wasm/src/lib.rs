//! The Schedlab core in WebAssembly, for the browser playground (`www/`).
//!
//! Thin on purpose: every export decodes its request (serde-wasm-bindgen,
//! unknown keys refused), calls the core through [`session`], and encodes the
//! result (plain JSON-compatible objects). Errors reach JavaScript as `Error`
//! objects carrying the core's message; a panic becomes an `Error` too (see
//! [`start`]). The API, as JavaScript sees it:
//!
//! - `registry(): { policies, predictors, schema, progress_every, ecdf_pixels, palette, version }`
//! - `new Session(bytes: Uint8Array, name: string, options?: object)`: reads
//!   a trace (plain, gzip, zlib, bzip2, xz or zstd); `options` has the fields of the core's
//!   `ReadOptions`, all optional (`max_jobs` defaults to 5 million here).
//! - `session.summary(): { identity, header, bad_lines, warnings, bytes, lines }`
//! - `session.run(request, on_progress?): RunDocument & { wait_ecdf }`; the
//!   callback gets `{ completed, jobs, events, now }` every `progress_every`
//!   events and cancels the run by returning `false` (or by throwing, whose
//!   exception the run then rethrows).
//! - `session.run_json(request, on_progress?): string`: the document as
//!   `schedlab run --json` prints it, without `elapsed_ms`.
//! - `session.jobs_csv(): string`, `session.schedule_swf(): string`: the
//!   last run's per-job table and simulated schedule.
//! - `generate_lublin(params): Uint8Array`: a Lublin–Feitelson trace as SWF.
//! - `draw_chart(canvas, spec)`, `chart_svg(spec, width, height): string`:
//!   the charts of `schedlab-charts`, on the page's thread only (plotters
//!   measures text through the DOM, which a worker does not have).
//! - `presets(): Preset[]`: the core's presets (`schedlab reproduce`), each
//!   section with its `experiment`.
//! - `plan(experiment): { labels, points: [{ index, run, value, seed, request }] }`:
//!   the points of an experiment and the run request of each.
//! - `experiment_result(experiment, trace_identity, points): ExperimentResult`:
//!   points `{ index, run, value, seed, events, metrics }` summarised (mean,
//!   95 % interval) as `schedlab sweep --json` and `reproduce --json` do.
//! - `wasm_memory_bytes(): number`: the module's linear memory.
//!
//! After a panic the module instance should be dropped (the page runs each
//! run in its own worker): the panic interrupted Rust code half-way.

pub mod presets;
pub mod protocol;
pub mod session;

use js_sys::{Function, Object, Uint8Array};
use plotters_canvas::CanvasBackend;
use schedlab_charts::plotters::prelude::IntoDrawingArea;
use schedlab_charts::ChartSpec;
use schedlab_engine::{Control, Progress};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::protocol::{GenerateMessage, ProgressMessage, Registry, RunMessage, TraceOptions};

/// Runs when the module is instantiated: installs the panic hook.
#[wasm_bindgen(start)]
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

/// Decodes a request. Through a JSON value, because serde-wasm-bindgen reads
/// only the fields a struct knows, so it would not see (and refuse) a
/// misspelt key. A key set to `undefined` or `null` counts as absent.
fn decode<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    let fail = |e: &dyn std::fmt::Display| JsError::new(&format!("{what}: {e}"));
    let mut json: serde_json::Value = serde_wasm_bindgen::from_value(value).map_err(|e| fail(&e))?;
    drop_nulls(&mut json);
    serde_json::from_value(json).map_err(|e| fail(&e))
}

/// Decodes without dropping `null`s (for documents the core produced).
fn decode_raw<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    let fail = |e: &dyn std::fmt::Display| JsError::new(&format!("{what}: {e}"));
    let json: serde_json::Value = serde_wasm_bindgen::from_value(value).map_err(|e| fail(&e))?;
    serde_json::from_value(json).map_err(|e| fail(&e))
}

fn drop_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

fn encode<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    Ok(value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}

/// Policies, runtime sources and their parameters: what the forms are built from.
#[wasm_bindgen]
pub fn registry() -> Result<JsValue, JsError> {
    encode(&Registry::new())
}

/// A trace loaded in the core.
#[wasm_bindgen]
pub struct Session {
    inner: session::Session,
}

#[wasm_bindgen]
impl Session {
    /// Reads `bytes` (SWF text, plain or gzip) under the name `name`.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: Uint8Array, name: String, options: Option<Object>) -> Result<Session, JsError> {
        let options: TraceOptions = match options {
            Some(o) => decode(o.into(), "options")?,
            None => TraceOptions::default(),
        };
        Ok(Session { inner: session::Session::open(JsBytes::new(bytes), name, options)? })
    }

    /// `{ identity, header, bad_lines, warnings, bytes, lines }`: the trace
    /// as read (identity = name, sha256, jobs, procs, options, cleaning, stats).
    pub fn summary(&self) -> Result<JsValue, JsError> {
        encode(&self.inner.summary())
    }

    /// Runs `{ policy, params?, predictor?, seed?, bsd_threshold?, skip_percent?,
    /// short_runtime?, narrow_size?, no_check? }` and returns the result
    /// document plus `wait_ecdf`. `on_progress({ completed, jobs, events, now })`
    /// is called every `progress_every` events; returning `false` cancels.
    pub fn run(&mut self, request: JsValue, on_progress: Option<Function>) -> Result<JsValue, JsValue> {
        let message: RunMessage = decode(request, "request")?;
        let mut observer = Observer::new(on_progress);
        let result = self.inner.run(&message, &mut |p| observer.report(p));
        observer.rethrow()?;
        Ok(encode(&result.map_err(JsError::from)?)?)
    }

    /// As `run`, but the document as `schedlab run --json` prints it (pretty
    /// JSON text, no `elapsed_ms`, no `wait_ecdf`).
    pub fn run_json(&mut self, request: JsValue, on_progress: Option<Function>) -> Result<String, JsValue> {
        let message: RunMessage = decode(request, "request")?;
        let mut observer = Observer::new(on_progress);
        let result = self.inner.run_json(&message, &mut |p| observer.report(p));
        observer.rethrow()?;
        Ok(result.map_err(JsError::from)?)
    }

    /// The last run's per-job table as CSV (`run --jobs-csv`).
    pub fn jobs_csv(&self) -> Result<String, JsError> {
        Ok(self.inner.jobs_csv()?)
    }

    /// The last run's simulated schedule as SWF (`run --swf-out`).
    pub fn schedule_swf(&self) -> Result<String, JsError> {
        Ok(self.inner.schedule_swf()?)
    }
}

/// A Lublin–Feitelson synthetic trace as SWF bytes, from `{ procs, jobs, load,
/// seed, estimate_factor }` (all optional: 128, 10000, 0.7, 1, 1).
#[wasm_bindgen]
pub fn generate_lublin(params: JsValue) -> Result<Vec<u8>, JsError> {
    let message: GenerateMessage = decode(params, "params")?;
    Ok(schedlab_synth::generate_swf(&message.into())?)
}

/// The presets of `schedlab reproduce`, each section with its experiment.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsError> {
    encode(&presets::presets())
}

/// The points of an experiment `{ runs, params?, repeat?, seed?, sweep? }`,
/// each with the request `session.run` takes.
#[wasm_bindgen]
pub fn plan(experiment: JsValue) -> Result<JsValue, JsError> {
    let experiment = decode(experiment, "experiment")?;
    encode(&presets::plan(experiment)?)
}

/// An experiment's result from its points `{ index, run, value, seed,
/// events, metrics }` (metrics as `session.run` returned them).
#[wasm_bindgen]
pub fn experiment_result(experiment: JsValue, trace_identity: JsValue, points: JsValue) -> Result<JsValue, JsError> {
    let experiment = decode(experiment, "experiment")?;
    // Kept as they are: `null` metrics are part of the documents summarised.
    let trace = decode_raw(trace_identity, "trace_identity")?;
    let points = decode_raw(points, "points")?;
    encode(&presets::experiment_result(experiment, trace, points)?)
}

/// Draws a chart on a canvas (its `width` × `height` in pixels). Page thread only.
#[wasm_bindgen]
pub fn draw_chart(canvas: HtmlCanvasElement, spec: JsValue) -> Result<(), JsError> {
    let spec: ChartSpec = decode(spec, "chart")?;
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsError::new("the canvas has no 2D drawing context"))?;
    Ok(schedlab_charts::draw(&spec, &backend.into_drawing_area())?)
}

/// A chart as an SVG document. Page thread only.
#[wasm_bindgen]
pub fn chart_svg(spec: JsValue, width: u32, height: u32) -> Result<String, JsError> {
    let spec: ChartSpec = decode(spec, "chart")?;
    Ok(schedlab_charts::try_to_svg(&spec, width, height)?)
}

/// Bytes of linear memory the module holds (it grows, never shrinks): for
/// the page's memory figures and the benchmarks.
#[wasm_bindgen]
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

/// Panics on purpose, for the tests of the panic hook.
#[wasm_bindgen]
pub fn panic_for_tests(message: String) {
    panic!("{message}");
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
    callback: Option<Function>,
    thrown: Option<JsValue>,
}

impl Observer {
    fn new(callback: Option<Function>) -> Self {
        Observer { callback, thrown: None }
    }

    fn report(&mut self, p: Progress) -> Control {
        let Some(callback) = &self.callback else { return Control::Continue };
        let message = ProgressMessage { completed: p.completed, jobs: p.jobs, events: p.events, now: p.now };
        let answer = encode(&message).map_err(JsValue::from).and_then(|m| callback.call1(&JsValue::NULL, &m));
        match answer {
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
