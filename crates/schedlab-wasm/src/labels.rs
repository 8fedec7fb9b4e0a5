//! Words, names and sizes the page shows, from the core, so that the page
//! formats nothing of its own: a sweep's values as typed, a chart's canvas
//! for its box, the names of generated traces and of downloads.

use schedlab_charts::{CanvasRequest, CanvasSize, ChartSpec};
use schedlab_experiment::SweepValues;
use schedlab_synth::LublinParams;
use schedlab_wasm_macros::export;

use crate::{Js, Thrown};

/// `sweep_values(param, text)`: what the user typed for a sweep of
/// `param` (`0:8:2`, or a list `0,1,2,4,8,all`) as the sweep's values; the
/// error names what is wrong.
#[export]
pub fn sweep_values(param: &str, text: &str) -> Result<Js<SweepValues>, Thrown> {
    let values = SweepValues::parse(param, text)?;
    Js::encode(&values)
}

/// `sweep_text(values)`: a sweep's values as `sweep_values` reads them.
#[export]
pub fn sweep_text(values: Js<SweepValues>) -> Result<String, Thrown> {
    Ok(values.decode("values")?.text())
}

/// `chart_canvas(spec, request)`: the canvas a chart gets in a box of the
/// page (its pixels and the chart pixels each covers), tall enough for
/// every name the chart shows.
#[export]
pub fn chart_canvas(spec: Js<ChartSpec>, request: Js<CanvasRequest>) -> Result<Js<CanvasSize>, Thrown> {
    Js::encode(&schedlab_charts::canvas_size(&spec.decode("chart")?, request.decode("request")?))
}

/// `chart_height(spec, width)`: the height an export `width` pixels wide
/// is drawn at, so that it holds every name the chart shows.
#[export]
pub fn chart_height(spec: Js<ChartSpec>, width: u32) -> Result<u32, Thrown> {
    Ok(schedlab_charts::chart_height(&spec.decode("chart")?, width))
}

/// `generated_trace_name(procs, jobs, load, seed)`: the file name of a
/// generated trace, `lublin99-p128-n10000-l0.7-s1.swf`.
#[export]
pub fn generated_trace_name(procs: u32, jobs: u32, load: f64, seed: f64) -> String {
    let params = LublinParams { procs, jobs, load, seed: seed as u64, ..LublinParams::default() };
    params.file_name()
}

/// `download_name(trace, what, kind, ending)`: the one naming scheme of
/// every download: the trace, what it shows (a run's label, a figure, a
/// preset), the kind of file, in lowercase words joined by hyphens:
/// `kth-sp2-first3000-easy-jobs.csv`.
#[export]
pub fn download_name(trace: &str, what: &str, kind: &str, ending: &str) -> String {
    schedlab_experiment::download_name(trace, what, kind, ending)
}

/// `log_axis_ticks(durations, max)`: the ticks of a log axis from 1 to
/// `max`, round durations (1 min, 10 min, 1 h) when it is of seconds.
#[export]
pub fn log_axis_ticks(durations: bool, max: f64) -> Result<Js<Vec<schedlab_charts::AxisTick>>, Thrown> {
    Js::encode(&schedlab_charts::log_axis_ticks(durations, max))
}

/// `strip_value(unit, value)`: a schedule strip's value with its unit,
/// as the strips' ticks read it ("1.5 × 10⁷ proc·s", "2.8 h").
#[export]
pub fn strip_value(unit: Js<schedlab_charts::StripUnit>, value: f64) -> Result<String, Thrown> {
    Ok(schedlab_charts::strip_value(unit.decode("unit")?, value))
}

/// `charts_svg(specs, width, height)`: charts stacked one above the other
/// in one SVG (the schedule view's runs before and after, as the page
/// stacks them). Page thread only.
#[export]
pub fn charts_svg(specs: Js<Vec<ChartSpec>>, width: u32, height: u32) -> Result<String, Thrown> {
    Ok(schedlab_charts::try_to_svg_stacked(&specs.decode("charts")?, width, height)?)
}
