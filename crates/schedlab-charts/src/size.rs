//! How tall a chart is drawn at a given width: the page's canvases and the
//! exports ask here, so that a chart with many or long names grows to hold
//! them instead of squeezing its plot to a strip.

use crate::frame::{header, legend_layout, Place};
use crate::{bars, clean_text, ChartSpec, Look, MAX_SIDE, MIN_SIDE};

/// Below this width a chart is drawn taller than wide screens draw it
/// (a phone's), so that its text keeps room.
const NARROW: u32 = 600;

/// The height of a chart `w` pixels wide when its content asks for no
/// more: 0.9 of the width on narrow screens, 0.625 (16:10) on others.
pub fn default_height(w: u32) -> u32 {
    let ratio = if w < NARROW { 0.9 } else { 0.625 };
    ((f64::from(w) * ratio).round() as u32).clamp(MIN_SIDE, MAX_SIDE)
}

/// The look (font sizes) of a chart `w` × `h` pixels: that of its default
/// height at most, so that a chart grown to hold its names keeps the font
/// it would have had, and growing never asks for more growth.
pub(crate) fn look_of(w: u32, h: u32) -> Look {
    Look::for_size(w, h.min(default_height(w)))
}

/// The height at which `spec`, drawn `w` pixels wide, lays out all its
/// text: its default height, or more when its legend or its bars' names
/// need it (capped at [`MAX_SIDE`]). The schedule view keeps its height.
pub fn chart_height(spec: &ChartSpec, w: u32) -> u32 {
    let w = w.clamp(MIN_SIDE, MAX_SIDE);
    let base = default_height(w);
    let look = look_of(w, base);
    let (title, subtitle, names, plot): (&str, &str, Vec<String>, f64) = match spec {
        ChartSpec::Bars(c) => (
            &c.title,
            &c.subtitle,
            c.series.iter().map(|s| clean_text(&s.name)).collect(),
            bars::plot_height(c, w, look),
        ),
        ChartSpec::Ecdf(c) => {
            (&c.title, &c.subtitle, c.curves.iter().map(|c| clean_text(&c.name)).collect(), f64::from(base) * 0.5)
        }
        ChartSpec::Sweep(c) => {
            (&c.title, &c.subtitle, c.lines.iter().map(|l| clean_text(&l.name)).collect(), f64::from(base) * 0.5)
        }
        ChartSpec::Schedule(_) => return base,
    };
    let head = f64::from(header(title, subtitle, w, look).height);
    // The legend's rows depend on the height left for them (a crowded
    // legend shrinks its font to fit a share of it): grow until the plot
    // keeps what it needs, a few rounds at most.
    let mut h = f64::from(base).max(head + plot);
    for _ in 0..8 {
        let body = (h - head).max(1.0);
        let legend = if names.is_empty() {
            0.0
        } else {
            let l = legend_layout(&names, w, body as u32, look);
            if l.place == Place::Below {
                f64::from(l.extent)
            } else {
                0.0
            }
        };
        let short = plot - (body - legend);
        if short <= 0.5 {
            break;
        }
        h += short.ceil();
    }
    (h.ceil() as u32).clamp(MIN_SIDE, MAX_SIDE)
}

/// Where a chart is shown: its box's width in CSS pixels, the screen's
/// device pixels per CSS pixel, the window's width, and whether the page
/// asks for large type (its "Large type" or presentation layout).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CanvasRequest {
    pub css_width: f64,
    pub device_ratio: f64,
    pub window_width: f64,
    pub large: bool,
}

/// A chart's canvas: a pixel per device pixel (`width` × `height`) and
/// the canvas pixels a chart pixel covers (`ratio`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CanvasSize {
    pub width: u32,
    pub height: u32,
    pub ratio: f64,
}

/// The canvas of `spec` in a box `css_width` CSS pixels wide. Chart fonts
/// scale with the chart's own pixels and have a floor, so fewer chart
/// pixels per CSS pixel make the text larger on the screen: large type
/// (0.6) and a projector-wide window of 1800 px and more (0.8), read from
/// afar. The height is [`chart_height`] of the chart's width, so a chart
/// with many or long names grows instead of squeezing its plot.
pub fn canvas_size(spec: &ChartSpec, r: CanvasRequest) -> CanvasSize {
    let css = if r.css_width.is_finite() && r.css_width > 0.0 { r.css_width } else { 600.0 };
    let dpr = if r.device_ratio.is_finite() && r.device_ratio > 0.0 { r.device_ratio.min(8.0) } else { 1.0 };
    let scale = if r.large {
        0.6
    } else if css >= f64::from(NARROW) && r.window_width >= 1800.0 {
        0.8
    } else {
        1.0
    };
    let width = ((css * dpr).round() as u32).clamp(200, MAX_SIDE);
    let ratio = dpr / scale;
    let chart_width = ((f64::from(width) / ratio).round() as u32).max(1);
    let height = (f64::from(chart_height(spec, chart_width)) * ratio).round() as u32;
    CanvasSize { width, height, ratio }
}
