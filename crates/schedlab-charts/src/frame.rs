//! The frame every chart shares: caption, axes with chosen ticks, labels.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::{clean_text, draw_err, ChartError, Look};

/// A linear axis whose ticks are exactly the ones given (log axes are
/// linear axes over log10 of the values).
#[derive(Clone, Debug)]
pub(crate) struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        let frac = if span > 0.0 { ((value - self.lo) / span).clamp(-4.0, 5.0) } else { 0.0 };
        let frac = if frac.is_nan() { 0.0 } else { frac };
        limit.0 + (frac * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}
pub(crate) type Frame<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// One axis: its range and tick positions (in drawing units), and how a
/// tick is labelled.
pub(crate) struct AxisSpec<'f> {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub label: &'f dyn Fn(f64) -> String,
    pub desc: String,
    /// Lines of tick labels below the x axis (wrapped group names), which
    /// the caller draws itself when more than one.
    pub lines: usize,
}

pub(crate) fn frame<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    x: AxisSpec<'_>,
    y: AxisSpec<'_>,
    look: Look,
    x_tick_size: f64,
    x_grid: bool,
) -> Result<Frame<'a, DB>, ChartError> {
    let areas = Areas { y: y_area(&y, look), x: x_area(&x, look, x_tick_size) };
    frame_in(root, x, y, look, x_tick_size, x_grid, areas)
}

/// Pixels left of and below the plot for the axes' labels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Areas {
    pub y: u32,
    pub x: u32,
}

/// Room for the y axis's tick labels and description.
pub(crate) fn y_area(y: &AxisSpec<'_>, look: Look) -> u32 {
    let widest_y = y.ticks.iter().map(|&t| (y.label)(t).chars().count()).max().unwrap_or(1).max(1);
    (widest_y as f64 * look.tick * 0.62 + look.label * 1.6 + 8.0) as u32
}

/// Room for the x axis's tick labels and description.
pub(crate) fn x_area(x: &AxisSpec<'_>, look: Look, x_tick_size: f64) -> u32 {
    (x_tick_size * (1.2 * x.lines.max(1) as f64 + 0.4) + look.label * 1.7 + 4.0) as u32
}

/// [`frame`] with the label areas given, so that panels stacked on one
/// time axis line up.
pub(crate) fn frame_in<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    x: AxisSpec<'_>,
    y: AxisSpec<'_>,
    look: Look,
    x_tick_size: f64,
    x_grid: bool,
    areas: Areas,
) -> Result<Frame<'a, DB>, ChartError> {
    let (y_area, x_area) = (areas.y, areas.x);
    let mut chart = ChartBuilder::on(root)
        .margin((look.tick * 0.8) as u32)
        .margin_right((look.tick * 1.2) as u32)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(
            Axis { lo: x.lo, hi: x.hi, ticks: x.ticks.clone() },
            Axis { lo: y.lo, hi: y.hi, ticks: y.ticks.clone() },
        )
        .map_err(draw_err)?;
    let own_x_labels = x.lines > 1;
    let x_label = |v: &f64| if own_x_labels { String::new() } else { clean_text(&(x.label)(*v)) };
    let y_label = |v: &f64| clean_text(&(y.label)(*v));
    let mut mesh = chart.configure_mesh();
    if !x_grid {
        mesh.disable_x_mesh();
    }
    mesh.x_desc(clean_text(&x.desc))
        .y_desc(clean_text(&y.desc))
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_label_style(Look::font(x_tick_size))
        .y_label_style(Look::font(look.tick))
        .axis_desc_style(Look::font(look.label))
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .light_line_style(TRANSPARENT)
        .axis_style(RGBColor(0x44, 0x44, 0x44).stroke_width(2))
        .draw()
        .map_err(draw_err)?;
    Ok(chart)
}

/// How a legend entry shows its series.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Key {
    /// A filled box (bars).
    Box,
    /// A line (ECDF curves).
    Line,
    /// A line with the series' marker (sweeps).
    Marker,
}

/// The area below the title and the subtitle (the whole area when there
/// is neither). The subtitle is wrapped to the width, in grey.
pub(crate) fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
    look: Look,
) -> Result<DrawingArea<DB, Shift>, ChartError> {
    let title = clean_text(title);
    let body =
        if title.is_empty() { root.clone() } else { root.titled(&title, Look::font(look.title)).map_err(draw_err)? };
    let subtitle = clean_subtitle(subtitle);
    if subtitle.is_empty() {
        return Ok(body);
    }
    // A little smaller than tick labels: it is context, not data.
    let size = look.tick * 0.9;
    let (w, _) = body.dim_in_pixel();
    let lines = crate::wrap(&subtitle, ((f64::from(w) - 2.0 * size) / (size * 0.6)).max(8.0) as usize);
    let style = Look::font(size).color(&RGBColor(0x44, 0x44, 0x44)).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, line) in lines.iter().enumerate() {
        let y = (i as f64 * size * 1.25) as i32;
        body.draw(&Text::new(line.clone(), (w as i32 / 2, y), style.clone())).map_err(draw_err)?;
    }
    Ok(body.split_vertically((lines.len() as f64 * size * 1.25 + size * 0.5) as u32).1)
}

/// A subtitle as drawn: control characters removed and whitespace runs
/// collapsed like any user text, but cut at twice
/// [`crate::MAX_TEXT_CHARS`], since it wraps and names a trace with its
/// options.
fn clean_subtitle(text: &str) -> String {
    let most = 2 * crate::MAX_TEXT_CHARS;
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c.is_control()).filter(|w| !w.is_empty()).collect();
    let joined = words.join(" ");
    if joined.chars().count() <= most {
        return joined;
    }
    let mut cut: String = joined.chars().take(most - 1).collect();
    cut.push('…');
    cut
}

/// Splits `root` into the plot (left) and a legend strip (right) wide
/// enough for the names, at most two fifths of the width (longer names
/// wrap).
pub(crate) fn with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[String],
    look: Look,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, _) = root.dim_in_pixel();
    let widest = names.iter().map(|n| crate::text_width(n, look.legend)).fold(0.0, f64::max);
    // Rounded up, with a pixel to spare: `legend_layout` counts the
    // characters that fit in the whole pixels, and the widest name must fit.
    let want = (widest + look.legend * 2.6).ceil() + 1.0;
    let width = want.min(f64::from(w) * 0.4) as u32;
    root.split_horizontally(w.saturating_sub(width))
}

/// The legend's entries wrapped to the strip's width, at the largest font
/// size (down to a floor) at which they all fit its height.
pub(crate) fn legend_layout(names: &[String], w: u32, h: u32, top: f64, size: f64) -> (f64, Vec<Vec<String>>) {
    let mut size = size;
    loop {
        let fit = ((f64::from(w) - size * 2.6) / (size * 0.6)).max(4.0) as usize;
        let lines: Vec<Vec<String>> = names.iter().map(|n| crate::wrap(n, fit)).collect();
        let rows: usize = lines.iter().map(Vec::len).sum();
        let height = top + rows as f64 * size * 1.25 + names.len() as f64 * size * 0.35;
        if height <= f64::from(h) || size <= 9.0 {
            return (size, lines);
        }
        size = (size * 0.9).max(9.0);
    }
}

/// Draws one entry per series in the legend strip: its key in the series
/// colour and its name, wrapped onto as many lines as it needs.
pub(crate) fn legend<DB: DrawingBackend>(
    side: &DrawingArea<DB, Shift>,
    names: &[String],
    key: Key,
    look: Look,
) -> Result<(), ChartError> {
    let (w, h) = side.dim_in_pixel();
    let top = look.title * 1.6;
    let (size, lines) = legend_layout(names, w, h, top, look.legend);
    let k = (size * 0.45) as i32;
    let style = Look::font(size).pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = top;
    for (i, entry) in lines.iter().enumerate() {
        let yi = y as i32;
        let col = crate::colour(i);
        let x = k;
        match key {
            Key::Box => side.draw(&Rectangle::new([(x, yi - k), (x + 2 * k, yi + k)], col.filled())),
            Key::Line => side.draw(&PathElement::new(vec![(x, yi), (x + 2 * k, yi)], col.stroke_width(look.line + 1))),
            Key::Marker => {
                side.draw(&PathElement::new(vec![(x, yi), (x + 2 * k, yi)], col.stroke_width(look.line)))
                    .map_err(draw_err)?;
                side.draw(&(EmptyElement::at((x + k, yi)) + crate::sweep::marker(i, (k * 2 / 3).max(3), col)))
            }
        }
        .map_err(draw_err)?;
        for line in entry {
            side.draw(&Text::new(line.clone(), (x + 3 * k, y as i32), style.clone())).map_err(draw_err)?;
            y += size * 1.25;
        }
        y += size * 0.35;
    }
    Ok(())
}

/// Keeps the ticks whose labels, `width(label)` pixels wide at `px` pixels
/// per axis unit, do not overlap the previous kept one.
pub(crate) fn spaced_ticks(ticks: &[f64], label: &dyn Fn(f64) -> String, size: f64, px: f64) -> Vec<f64> {
    let mut kept: Vec<f64> = Vec::new();
    for &t in ticks {
        let ok = kept.last().is_none_or(|&p| {
            let half = (crate::text_width(&label(p), size) + crate::text_width(&label(t), size)) / 2.0;
            (t - p) * px >= half + size
        });
        if ok {
            kept.push(t);
        }
    }
    kept
}

/// "Nice" tick positions (1, 2, 5 × 10^k steps) covering [lo, hi].
pub(crate) fn linear_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Ticks of a log10 axis (positions are log10 of values): powers of ten,
/// with 2 and 5 multiples when the span is short.
pub(crate) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let mut ticks: Vec<f64> = ((lo.ceil() as i64)..=(hi.floor() as i64)).map(|k| k as f64).collect();
    if ticks.len() < 3 {
        let extra = (lo.floor() as i64..=hi.ceil() as i64)
            .flat_map(|k| [2.0, 5.0].map(|m| k as f64 + f64::log10(m)))
            .filter(|t| (lo..=hi).contains(t));
        ticks.extend(extra);
        ticks.sort_by(f64::total_cmp);
    }
    ticks
}
