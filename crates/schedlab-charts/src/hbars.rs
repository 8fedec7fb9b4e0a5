//! Bars laid across the chart, for names too long or too many to stand
//! under upright bars: each group's name, wrapped, left of its band of
//! bars; the chart grows a band per group ([`crate::chart_height`]), so
//! that neither the names nor the bars are squeezed.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::bars::{to_axis, value_label, Values, MIN_BAR};
use crate::frame::{frame_in, linear_ticks, log_ticks, right_margin, spaced_ticks, x_area, Areas, AxisSpec};
use crate::{clean_text, colour, draw_err, short_number, BarChart, ChartError, Look, MIN_FONT};

/// The group names' column and each group's band.
struct Bands {
    /// Font size of the names.
    size: f64,
    /// Width of the names' column, pixels.
    column: f64,
    /// Each group's name in lines.
    names: Vec<Vec<String>>,
    /// Height of a group's band, pixels.
    band: f64,
}

/// Bars across are at least this many times [`MIN_BAR`] thick, so that
/// they read as bars and leave room for their value beside them.
const BAR_FACTOR: f64 = 3.0;

/// Lays out the names' column (at most 45 % of a narrow chart's width and
/// 35 % of a wide one's, the names wrapped to it) and the band of each
/// group: room for its name's lines and for its bars.
fn bands(c: &BarChart, w: u32, look: Look) -> Bands {
    let size = (look.tick * 0.9).max(MIN_FONT);
    let names: Vec<String> = c.groups.iter().map(|g| clean_text(g)).collect();
    let widest = names.iter().map(|g| crate::text_width(g, size)).fold(0.0, f64::max);
    let share = if w < 600 { 0.45 } else { 0.35 };
    // Never narrower than the longest piece that may not break ("129-256").
    let whole = names.iter().map(|g| crate::longest_piece(g)).max().unwrap_or(1).min(24) as f64 * size * 0.6;
    let column = widest.min(f64::from(w) * share).max(size * 0.6 * 6.0).max(whole);
    let fit = (column / (size * 0.6) + 1e-9).floor().max(4.0) as usize;
    let names: Vec<Vec<String>> = names.iter().map(|g| crate::wrap(g, fit)).collect();
    let lines = names.iter().map(Vec::len).max().unwrap_or(1).max(1) as f64;
    let bars = c.series.len().max(1) as f64 * (MIN_BAR * BAR_FACTOR).max(size * 0.9);
    let band = (lines * size * 1.2 + size * 0.6).max(bars / 0.8);
    Bands { size, column, names, band }
}

/// The height the plot needs: a band per group, the value axis's labels
/// and description under it, and its margins.
pub(crate) fn plot_height(c: &BarChart, w: u32, look: Look) -> f64 {
    let b = bands(c, w, look);
    let desc = if clean_text(&c.y_label).is_empty() { 0.0 } else { look.label * 1.25 };
    b.band * c.groups.len() as f64 + look.tick * 1.2 + desc + 12.0 + look.tick * 0.8
}

pub(crate) fn draw<DB: DrawingBackend>(
    c: &BarChart,
    plot: &DrawingArea<DB, Shift>,
    values: &Values,
    look: Look,
) -> Result<(), ChartError> {
    let (w, _) = plot.dim_in_pixel();
    let n = c.groups.len();
    let b = bands(c, w, look);
    let desc = if clean_text(&c.x_label).is_empty() { 0.0 } else { look.label * 1.35 };
    let y_room = (b.column + desc + 16.0) as u32;
    let value_size = (look.tick * 0.85).max(MIN_FONT);
    let slot = 0.8 / c.series.len().max(1) as f64;
    // Values written beside their bars when there are few and each bar is
    // as thick as the text: the axis runs on far enough to hold them.
    let count: usize = values.bars.iter().map(Vec::len).sum();
    let widest = values.bars.iter().flatten().map(|v| short_number(v.1).chars().count()).max().unwrap_or(0);
    let plot_px = (f64::from(w) - f64::from(y_room) - look.tick * 2.0).max(1.0);
    let labelled = count <= 16 && b.band * slot * 0.9 >= value_size;
    let (lo, hi) = (values.lo, values.hi);
    let room = if labelled { (widest as f64 * value_size * 0.6 + 8.0) / plot_px } else { 0.0 };
    // The room as a share of the plot, taken on the side the values grow.
    let grow = (hi - lo) * room / (1.0 - room).max(0.2);
    let (lo, hi) = (if lo < values.base { lo - grow } else { lo }, hi + grow);
    let label = value_label(c.log_y);
    let ticks = if c.log_y { log_ticks(lo, hi) } else { linear_ticks(lo, hi, 6) };
    let ticks = spaced_ticks(&ticks, &label, look.tick, plot_px / (hi - lo));
    let x = AxisSpec { lo, hi, ticks, label: &label, desc: c.y_label.clone(), lines: 1 };
    let none = |_: f64| String::new();
    let y = AxisSpec { lo: 0.0, hi: n as f64, ticks: Vec::new(), label: &none, desc: c.x_label.clone(), lines: 1 };
    let margin = (look.tick * 0.4) as u32;
    let areas = Areas {
        y: y_room,
        x: x_area(&x, look, look.tick),
        top: margin,
        bottom: margin,
        right: right_margin(&x, look.tick),
    };
    let mut chart = frame_in(plot, x, y, look, look.tick, true, areas)?;
    // Group i's band is [n − i − 1, n − i]: the first group on top.
    let top = |i: usize, k: usize| (n - i) as f64 - 0.1 - k as f64 * slot;
    let name_style = Look::font(b.size).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, lines) in b.names.iter().enumerate() {
        let middle = (lines.len() as f64 - 1.0) / 2.0;
        let texts = lines.iter().enumerate().map(|(k, line)| {
            let dy = ((k as f64 - middle) * b.size * 1.2) as i32;
            EmptyElement::at((lo, (n - i) as f64 - 0.5)) + Text::new(line.clone(), (-8, dy), name_style.clone())
        });
        chart.draw_series(texts).map_err(draw_err)?;
    }
    let lift = (look.line * 2) as i32;
    for (k, bars) in values.bars.iter().enumerate() {
        let col = colour(k);
        let rects = bars
            .iter()
            .map(|&(i, _, a)| Rectangle::new([(values.base, top(i, k)), (a, top(i, k) - slot * 0.9)], col.filled()));
        chart.draw_series(rects).map_err(draw_err)?;
        for &(i, wlo, whi) in &values.whiskers[k] {
            let mid = top(i, k) - slot * 0.45;
            let (a, z) = (to_axis(c, wlo).unwrap_or(lo), to_axis(c, whi).unwrap_or(lo));
            let cap = slot * 0.2;
            let lines =
                [vec![(a, mid), (z, mid)], vec![(z, mid - cap), (z, mid + cap)], vec![(a, mid - cap), (a, mid + cap)]];
            chart
                .draw_series(lines.into_iter().map(|l| PathElement::new(l, BLACK.stroke_width(look.line))))
                .map_err(draw_err)?;
        }
        if labelled {
            let texts = bars.iter().map(|&(i, v, a)| {
                let (dx, anchor) = if v < 0.0 { (-lift, HPos::Right) } else { (lift, HPos::Left) };
                let style = Look::font(value_size).pos(Pos::new(anchor, VPos::Center));
                EmptyElement::at((values.label_end(c, k, (i, v, a)), top(i, k) - slot * 0.45))
                    + Text::new(short_number(v), (dx, 0), style)
            });
            chart.draw_series(texts).map_err(draw_err)?;
        }
    }
    if !c.empty.is_empty() {
        // The note of a group without any bar, where its bars would start.
        let note = clean_text(&c.empty);
        let style = Look::font(value_size).pos(Pos::new(HPos::Left, VPos::Center));
        let texts = values.empty_groups(n).map(|i| {
            EmptyElement::at((values.base, (n - i) as f64 - 0.5)) + Text::new(note.clone(), (lift, 0), style.clone())
        });
        chart.draw_series(texts).map_err(draw_err)?;
    }
    Ok(())
}
