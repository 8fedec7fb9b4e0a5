//! The playground's charts, drawn with `plotters` on any backend (SVG here
//! and in tests, an HTML canvas in the browser) from plain serializable
//! specifications ([`ChartSpec`]). No I/O: the caller gives the backend.
//!
//! - [`BarChart`] (`kind: "bars"`): grouped bars with optional 95 % interval
//!   whiskers. MBS and MWBS per policy (groups = policies, series = MBS and
//!   MWBS), and blocked-job MBS by parallelism group (groups = size groups,
//!   series = runs).
//! - [`EcdfChart`] (`kind: "ecdf"`): wait-time ECDFs on a log time axis, one
//!   step curve per run, from points already thinned by
//!   `schedlab_metrics::downsample_ecdf`. Waits below 1 s are drawn at 1 s.
//! - [`SweepChart`] (`kind: "sweep"`): a metric against a parameter, one line
//!   per policy, optional intervals, optional log axes.
//!
//! - [`ScheduleChart`] (`kind: "schedule"`): the schedule view (Gantt) of
//!   a time window with its time series strips, built by [`schedule_chart`]
//!   from a laid-out run.
//!
//! [`figures`] and [`preset_figures`] build the specifications of an
//! experiment result's figures, so the page constructs none itself.
//!
//! The plot keeps most of the canvas: the legend sits beside it only when
//! its names are short, else in rows under it. No text is cut or drawn off
//! the canvas: legend entries and bar-group labels wrap onto more lines
//! (and shrink down to [`MIN_FONT`], 11.3 px in an SVG) instead, never
//! inside a number, and tick labels that would overlap are thinned. Widths
//! are estimated at 0.6 em per character, wider than the average of the
//! sans-serif fonts a browser or SVG viewer picks. Interval whiskers widen
//! the value axis so that they are never clipped.
//!
//! Colours are the Okabe–Ito palette ([`PALETTE`]), safe for the common
//! colour-vision deficiencies; lines also differ by marker shape. Fonts scale
//! with the chart's height and stay large enough for a projector.
//!
//! Text from users (titles, labels, series and group names, which may come
//! from file names or share links) is drawn as text, never markup: control
//! characters are removed and long text is cut ([`clean_text`]), and the SVG
//! backend of plotters 0.3.7 escapes `<`, `>`, `&`, `"` and `'` in text and
//! attributes (checked by this crate's tests, so a plotters upgrade that
//! stopped escaping would fail them). A canvas draws text as pixels.
//!
//! Data is taken as it comes: missing values (`null`), non-finite numbers,
//! empty series, single points and zero values are skipped or drawn without
//! error; a chart with nothing to draw shows its title and "no data".

mod bars;
mod ecdf;
mod figures;
mod frame;
mod hbars;
mod marks;
mod schedule;
mod size;
mod sweep;

pub use bars::MIN_BAR;
pub use marks::{marks, Extent, Mark, MARK_EM};
pub use size::{canvas_size, chart_height, default_height, CanvasRequest, CanvasSize};

pub use figures::{figures, preset_figures, wants_log, Figure, LOG_RATIO};
pub use schedule::{
    schedule_chart, schedule_legend, window_chart, BoxKind, GanttBox, LegendEntry, ScheduleChart, ScheduleChartOptions,
    SeriesStrip, StripUnit, MAX_CHART_BOXES,
};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use plotters;

/// A chart to draw.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChartSpec {
    Bars(BarChart),
    Ecdf(EcdfChart),
    Sweep(SweepChart),
    Schedule(ScheduleChart),
}

/// Grouped bars: one group per entry of `groups` along the x axis, one bar
/// per series in each group.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarChart {
    pub title: String,
    /// A second line under the title: what the numbers are of (the
    /// trace, its machine size and workload options).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub subtitle: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub x_label: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub y_label: String,
    pub groups: Vec<String>,
    pub series: Vec<BarSeries>,
    /// A log10 value axis (values ≤ 0 are not drawn): for bars whose
    /// values span orders of magnitude.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub log_y: bool,
    /// Written in a group where no series has a value ("no blocked
    /// jobs"), so that an empty group reads as a finding and not as
    /// missing data; empty: the group is left blank.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub empty: String,
}

/// One series of bars: a value per group (`null` or missing: no bar).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarSeries {
    pub name: String,
    pub values: Vec<Option<f64>>,
    /// Optional interval per group, `[low, high]` (e.g. a 95 % confidence
    /// interval over repetitions), drawn as a whisker.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub intervals: Option<Intervals>,
}

/// `[low, high]` per group, `None` where a group has none.
pub type Intervals = Vec<Option<(f64, f64)>>;

/// Empirical distribution functions of waits.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EcdfChart {
    pub title: String,
    /// A second line under the title: what the numbers are of (the
    /// trace, its machine size and workload options).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub subtitle: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub x_label: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub y_label: String,
    pub curves: Vec<EcdfCurve>,
}

/// One ECDF: `(wait in seconds, fraction of jobs that waited at most that
/// long)`, waits ascending.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EcdfCurve {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Curves of a metric against a parameter.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepChart {
    pub title: String,
    /// A second line under the title: what the numbers are of (the
    /// trace, its machine size and workload options).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub subtitle: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub x_label: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub y_label: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub log_x: bool,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub log_y: bool,
    pub lines: Vec<SweepLine>,
    /// Swept values that are words (depth `all`): each is drawn at its
    /// position past the numbers, its tick labelled with the word.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<WordTick>>", optional))]
    pub words: Vec<WordTick>,
}

/// A swept value that is a word, and where the x axis puts it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WordTick {
    pub x: f64,
    pub word: String,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepLine {
    pub name: String,
    pub points: Vec<SweepPoint>,
}

/// One point, with an optional interval `[low, high]` around `y`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepPoint {
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub low: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub high: Option<f64>,
}

impl ChartSpec {
    /// Sets the line drawn under the chart's title.
    pub fn set_subtitle(&mut self, subtitle: &str) {
        let field = match self {
            ChartSpec::Bars(c) => &mut c.subtitle,
            ChartSpec::Ecdf(c) => &mut c.subtitle,
            ChartSpec::Sweep(c) => &mut c.subtitle,
            ChartSpec::Schedule(c) => &mut c.subtitle,
        };
        subtitle.clone_into(field);
    }
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ChartError {
    #[error("cannot draw the chart: {0}")]
    Draw(String),
}

pub(crate) fn draw_err<E: std::fmt::Display>(e: E) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// The Okabe–Ito palette (Okabe and Ito 2008, "Color Universal Design"),
/// in the order series use it: blue, orange, bluish green, vermillion,
/// reddish purple, sky blue, yellow, black.
pub const PALETTE: [(u8, u8, u8); 8] = [
    (0x00, 0x72, 0xB2),
    (0xE6, 0x9F, 0x00),
    (0x00, 0x9E, 0x73),
    (0xD5, 0x5E, 0x00),
    (0xCC, 0x79, 0xA7),
    (0x56, 0xB4, 0xE9),
    (0xF0, 0xE4, 0x42),
    (0x00, 0x00, 0x00),
];

/// The palette as CSS colours (`#0072b2`, …), for tables next to charts.
pub fn palette_css() -> Vec<String> {
    PALETTE.iter().map(|(r, g, b)| format!("#{r:02x}{g:02x}{b:02x}")).collect()
}

pub(crate) fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// Longest user text drawn, in characters; longer text is cut with "…".
/// Names and titles wrap, so any name a run gets (a composable-backfilling
/// title with its formula is under 120) is drawn whole.
pub const MAX_TEXT_CHARS: usize = 160;

/// Estimated width of `text` at font size `size`, pixels: 0.6 em per
/// character, wider than the average glyph of the common sans-serif fonts.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// `text` broken into lines of at most `fit` characters, at spaces and
/// after `,`, `:`, `@`, `=` and `-` where possible, but never inside a
/// number or between a number and its unit: not after the `-` of a range
/// such as "65-100", not at the space of "40 %" or "120 s". A word longer
/// than a line is split. Nothing is left out.
pub(crate) fn wrap(text: &str, fit: usize) -> Vec<String> {
    let fit = fit.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for p in break_pieces(text) {
        if line.chars().count() + p.trim_end().chars().count() > fit && !line.is_empty() {
            lines.push(line.trim_end().to_owned());
            line.clear();
        }
        line.push_str(&p);
        while line.trim_end().chars().count() > fit {
            let head: String = line.chars().take(fit).collect();
            line = line.chars().skip(fit).collect();
            lines.push(head);
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines
}

/// Characters of the longest part of `text` that [`wrap`] keeps on one line
/// when it can.
pub(crate) fn longest_piece(text: &str) -> usize {
    break_pieces(text).iter().map(|p| p.trim_end().chars().count()).max().unwrap_or(0)
}

/// `text` cut after each place a line may break (see [`wrap`]).
fn break_pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut pieces: Vec<String> = Vec::new();
    let mut piece = String::new();
    for (i, &c) in chars.iter().enumerate() {
        piece.push(c);
        let before = i.checked_sub(1).map(|k| chars[k]);
        let after = chars.get(i + 1).copied();
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let breaks = match c {
            ',' | ':' | '@' | '=' => true,
            // "65-100" is one number range; "pv-easy" may break.
            '-' => !(digit(before) && digit(after)),
            // "40 %" and "120 s" keep their number with its unit.
            ' ' => !digit(before) && after != Some('%'),
            _ => false,
        };
        if breaks {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// User text as it is drawn: control characters (which XML cannot hold)
/// removed, whitespace runs collapsed, cut to [`MAX_TEXT_CHARS`].
pub fn clean_text(text: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text.split(|c: char| c.is_whitespace() || c.is_control()).filter(|w| !w.is_empty()) {
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= MAX_TEXT_CHARS {
                out.pop();
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

/// The smallest font size drawn, in plotters' units: the SVG backend
/// writes sizes divided by 1.24, so 14 is 11.3 px in an SVG at its own
/// size (and 14 px on a canvas): readable at 1× in print and on screen.
pub const MIN_FONT: f64 = 14.0;

/// Font sizes and spacing for a chart of a given size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Look {
    pub title: f64,
    pub label: f64,
    pub tick: f64,
    pub legend: f64,
    pub line: u32,
}

impl Look {
    /// Sizes that grow with the chart, so that a large chart read from
    /// afar keeps its proportions, and never fall below [`MIN_FONT`]. The
    /// title and the axis descriptions are only a little larger than the
    /// tick labels, so that the plot keeps most of the canvas.
    pub fn for_size(w: u32, h: u32) -> Self {
        let base = f64::from(h).min(f64::from(w) * 0.75);
        Look {
            title: (base / 22.0).clamp(MIN_FONT * 1.25, 50.0),
            label: (base / 25.0).clamp(MIN_FONT, 40.0),
            tick: (base / 27.0).clamp(MIN_FONT, 36.0),
            legend: (base / 30.0).clamp(MIN_FONT, 32.0),
            line: ((base / 220.0).round() as u32).clamp(2, 6),
        }
    }

    pub fn font(size: f64) -> TextStyle<'static> {
        ("sans-serif", size.max(MIN_FONT)).into_font().color(&BLACK)
    }
}

/// Draws `spec` on `root` (filled white first).
pub fn draw<DB: DrawingBackend>(spec: &ChartSpec, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError> {
    draw_unpresented(spec, root)?;
    root.present().map_err(draw_err)
}

/// [`draw`] without presenting the backend: for charts that share one.
fn draw_unpresented<DB: DrawingBackend>(spec: &ChartSpec, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let (w, h) = root.dim_in_pixel();
    // The schedule view fills its canvas; the other charts keep the font
    // of their default height when grown to hold their names.
    let look = match spec {
        ChartSpec::Schedule(_) => Look::for_size(w, h),
        _ => size::look_of(w, h),
    };
    match spec {
        ChartSpec::Bars(c) => bars::draw(c, root, look),
        ChartSpec::Ecdf(c) => ecdf::draw(c, root, look),
        ChartSpec::Sweep(c) => sweep::draw(c, root, look),
        ChartSpec::Schedule(c) => schedule::draw(c, root, look),
    }
}

/// Smallest and largest chart drawn, pixels per side.
pub const MIN_SIDE: u32 = 160;
pub const MAX_SIDE: u32 = 8192;

/// The chart as an SVG document of `w` × `h` pixels (each clamped to
/// [`MIN_SIDE`, `MAX_SIDE`]).
pub fn try_to_svg(spec: &ChartSpec, w: u32, h: u32) -> Result<String, ChartError> {
    let size = (w.clamp(MIN_SIDE, MAX_SIDE), h.clamp(MIN_SIDE, MAX_SIDE));
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(spec, &root)?;
    }
    Ok(out)
}

/// Charts stacked one above the other in one SVG document of `w` × `h`
/// pixels (each side clamped as [`try_to_svg`] clamps it), each given an
/// equal share of the height: the schedule view's runs before and after,
/// as the page shows them stacked.
pub fn try_to_svg_stacked(specs: &[ChartSpec], w: u32, h: u32) -> Result<String, ChartError> {
    let size = (w.clamp(MIN_SIDE, MAX_SIDE), h.clamp(MIN_SIDE, MAX_SIDE));
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let areas = root.split_evenly((specs.len().max(1), 1));
        for (spec, area) in specs.iter().zip(&areas) {
            draw_unpresented(spec, area)?;
        }
        root.present().map_err(draw_err)?;
    }
    Ok(out)
}

/// [`try_to_svg`], with a drawing error (which no valid size produces)
/// shown in the SVG itself.
pub fn to_svg(spec: &ChartSpec, w: u32, h: u32) -> String {
    try_to_svg(spec, w, h).unwrap_or_else(|e| {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (w.clamp(MIN_SIDE, MAX_SIDE), h.clamp(MIN_SIDE, MAX_SIDE)))
                .into_drawing_area();
            let _ = root.fill(&WHITE);
            let _ = no_data(&root, &e.to_string(), Look::for_size(w, h));
            let _ = root.present();
        }
        out
    })
}

/// A title (if any) and a centred message, for charts with nothing to plot.
pub(crate) fn no_data<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    look: Look,
) -> Result<(), ChartError> {
    let (w, h) = root.dim_in_pixel();
    let title = clean_text(title);
    if !title.is_empty() {
        let style = Look::font(look.title).pos(Pos::new(HPos::Center, VPos::Top));
        root.draw(&Text::new(title, (w as i32 / 2, (look.title * 0.5) as i32), style)).map_err(draw_err)?;
    }
    let style = Look::font(look.label).color(&RGBColor(0x55, 0x55, 0x55)).pos(Pos::new(HPos::Center, VPos::Center));
    root.draw(&Text::new("no data", (w as i32 / 2, h as i32 / 2), style)).map_err(draw_err)
}

/// Finite values only.
pub(crate) fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A readable number for tick labels: 3 significant digits, no exponent
/// for everyday magnitudes, and "2.9 × 10⁹" (not "2.9e9") beyond them.
pub(crate) fn short_number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".to_owned();
    }
    let a = v.abs();
    if !(1e-3..1e7).contains(&a) {
        return scientific(v);
    }
    let digits = (2 - a.log10().floor() as i32).clamp(0, 6) as usize;
    trim_zeros(format!("{v:.digits$}"))
}

/// "2.9 × 10⁹": two significant digits and a power of ten in superscript.
fn scientific(v: f64) -> String {
    let text = format!("{v:.1e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let superscript: String = exponent
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect();
    format!("{} × 10{superscript}", trim_zeros(mantissa.to_owned()))
}

/// "2.50" → "2.5", "3.0" → "3"; text without a decimal point is kept.
fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// A duration in seconds as a short label: `1 s`, `10 min`, `2.8 h`, `12 d`.
/// Every duration axis uses it: the charts' and the page's scatter.
pub fn duration_label(s: f64) -> String {
    if s < 60.0 {
        format!("{} s", short_number(s))
    } else if s < 3600.0 {
        format!("{} min", short_number(s / 60.0))
    } else if s < 86_400.0 {
        format!("{} h", short_number(s / 3600.0))
    } else {
        format!("{} d", short_number(s / 86_400.0))
    }
}

/// A value of a schedule strip as its ticks read it, with its unit:
/// "50 %", "1 job", "2.8 h", "1.5 × 10⁷ proc·s". The page's strips use it.
pub fn strip_value(unit: StripUnit, v: f64) -> String {
    schedule::unit_label(unit)(v)
}

/// One tick of an axis: where it is (in the axis's values) and its text.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AxisTick {
    pub value: f64,
    pub label: String,
}

/// The ticks of a log axis from 1 to `max`: for durations (seconds) the
/// round ones the wait ECDF uses (1 s, 10 s, 1 min, 10 min, 1 h, 10 h,
/// 1 d, …), else the powers of ten (1, 10, 100, …).
pub fn log_axis_ticks(durations: bool, max: f64) -> Vec<AxisTick> {
    let max = if max.is_finite() { max.max(1.0) } else { 1.0 };
    if durations {
        let ticks = ecdf::TIME_TICKS.iter().filter(|&&t| t <= max);
        return ticks.map(|&t| AxisTick { value: t, label: duration_label(t) }).collect();
    }
    (0..=max.log10().floor().min(300.0) as i32)
        .map(|e| 10f64.powi(e))
        .map(|v| AxisTick { value: v, label: short_number(v) })
        .collect()
}

/// `(lo, hi)` widened so that the axis is never empty, with `pad` of
/// headroom above.
pub(crate) fn padded(lo: f64, hi: f64, pad: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi <= lo {
        let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.5 };
        return (lo - d, hi + d);
    }
    (lo, hi + (hi - lo) * pad)
}

#[cfg(test)]
mod tests;
