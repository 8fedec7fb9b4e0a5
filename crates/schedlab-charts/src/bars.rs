//! Grouped bars with optional interval whiskers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::frame::{frame, linear_ticks, log_ticks, titled, with_legend, AxisSpec, Key};
use crate::{
    clean_text, colour, draw_err, finite, no_data, padded, short_number, BarChart, ChartError, Look, MIN_FONT,
};

/// Bars are labelled with their value when there are at most this many.
const LABELLED_BARS: usize = 16;

pub(crate) type Whisker = (usize, f64, f64);

/// The bars of a chart in axis units, with their whiskers and the value
/// axis's range: what either orientation draws.
pub(crate) struct Values {
    /// Per series: (group, value, value in axis units).
    pub bars: Vec<Vec<(usize, f64, f64)>>,
    pub whiskers: Vec<Vec<Whisker>>,
    /// The value axis's range, in axis units.
    pub lo: f64,
    pub hi: f64,
    /// Where bars start: 0, or the bottom of a log axis.
    pub base: f64,
}

impl Values {
    /// `None` when there is no bar to draw.
    pub fn new(c: &BarChart) -> Option<Self> {
        let n = c.groups.len();
        let bars: Vec<Vec<(usize, f64, f64)>> = c
            .series
            .iter()
            .map(|s| {
                s.values
                    .iter()
                    .take(n)
                    .enumerate()
                    .filter_map(|(i, v)| v.and_then(finite).and_then(|v| to_axis(c, v).map(|a| (i, v, a))))
                    .collect()
            })
            .collect();
        let whiskers: Vec<Vec<Whisker>> = c.series.iter().map(|s| whiskers(s.intervals.as_deref(), n)).collect();
        if n == 0 || bars.iter().all(Vec::is_empty) {
            return None;
        }
        let axis_values = bars
            .iter()
            .flatten()
            .map(|b| b.2)
            .chain(whiskers.iter().flatten().flat_map(|w| [to_axis(c, w.1), to_axis(c, w.2)]).flatten());
        let (lo, hi) = axis_values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if c.log_y {
            // From the power of ten below the smallest bar, so every bar shows.
            let bottom = (lo - 0.05).floor();
            (bottom, hi + (hi - bottom).max(1.0) * 0.1)
        } else {
            let (lo, hi) = (lo.min(0.0), hi.max(0.0));
            let (y0, y1) = padded(lo, if hi == lo { lo + 1.0 } else { hi }, 0.1);
            (if lo >= 0.0 { 0.0 } else { y0 }, y1)
        };
        let base = if c.log_y { lo } else { 0.0 };
        Some(Values { bars, whiskers, lo, hi, base })
    }

    /// The groups no series has a bar in.
    pub fn empty_groups(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        (0..n).filter(|&i| self.bars.iter().all(|b| b.iter().all(|bar| bar.0 != i)))
    }

    /// Where a bar's value label goes along the value axis: past its end,
    /// or past its whisker's.
    pub fn label_end(&self, c: &BarChart, k: usize, (i, v, a): (usize, f64, f64)) -> f64 {
        let w = self.whiskers[k]
            .iter()
            .find(|w| w.0 == i)
            .and_then(|w| Some((to_axis(c, w.1).unwrap_or(self.lo), to_axis(c, w.2)?)));
        if v < 0.0 {
            w.map_or(a, |w| w.0.min(a))
        } else {
            w.map_or(a, |w| w.1.max(a))
        }
    }
}

/// A value in axis units: log10 on a log axis, where values ≤ 0 cannot go.
pub(crate) fn to_axis(c: &BarChart, v: f64) -> Option<f64> {
    if c.log_y {
        (v > 0.0).then(|| v.log10())
    } else {
        Some(v)
    }
}

/// The value axis's tick labels.
pub(crate) fn value_label(log: bool) -> impl Fn(f64) -> String {
    move |v: f64| if log { short_number(10f64.powf(v)) } else { short_number(v) }
}

/// The thinnest bar drawn upright, pixels: thinner bars are laid across
/// the chart instead, where the chart grows to hold them.
pub const MIN_BAR: f64 = 5.0;

/// How the bars of a chart `w` pixels wide are laid out.
enum Orientation {
    /// Upright, the group names under the axis: their font size and lines.
    Upright(f64, Vec<Vec<String>>),
    /// Across, each group's name left of its bars.
    Across,
}

/// Upright when every group's name fits its slot on at most three lines
/// and every bar is at least [`MIN_BAR`] wide; else across. Decided from
/// the chart's width alone (the plot's is estimated), so that the height
/// the chart asks for ([`plot_height`]) and its drawing agree.
fn orientation(c: &BarChart, w: u32, look: Look) -> Orientation {
    let n = c.groups.len().max(1) as f64;
    let axis = look.tick * 0.6 * 7.0 + look.label * 1.35 + look.tick * 0.4 + 14.0;
    let plot = f64::from(w) * (1.0 - crate::frame::SIDE_SHARE) - axis;
    let slot = plot * 0.95 / n;
    let bar = slot * 0.8 / c.series.len().max(1) as f64 * 0.9;
    if bar < MIN_BAR {
        return Orientation::Across;
    }
    match fit_labels(&c.groups, slot, look) {
        (size, groups) if groups.iter().all(|g| !g.is_empty() && g.len() <= 3) => Orientation::Upright(size, groups),
        _ => Orientation::Across,
    }
}

/// The height the plot of `c` needs at width `w`, its axes included:
/// upright, its group names and about half the default height for the
/// bars; across, a band per group ([`crate::hbars`]).
pub(crate) fn plot_height(c: &BarChart, w: u32, look: Look) -> f64 {
    match orientation(c, w, look) {
        Orientation::Upright(size, groups) => {
            let lines = groups.iter().map(Vec::len).max().unwrap_or(1) as f64;
            let desc = if clean_text(&c.x_label).is_empty() { 0.0 } else { look.label * 1.25 };
            size * 1.2 * lines + desc + 12.0 + look.tick * 0.8 + f64::from(crate::default_height(w)) * 0.45
        }
        Orientation::Across => crate::hbars::plot_height(c, w, look),
    }
}

pub(crate) fn draw<DB: DrawingBackend>(
    c: &BarChart,
    root: &DrawingArea<DB, Shift>,
    look: Look,
) -> Result<(), ChartError> {
    let Some(values) = Values::new(c) else { return no_data(root, &c.title, look) };
    let (w, _) = root.dim_in_pixel();
    let entries: Vec<(String, Key)> =
        c.series.iter().enumerate().map(|(k, s)| (clean_text(&s.name), Key::Box(colour(k)))).collect();
    let body = titled(root, &c.title, &c.subtitle, look)?;
    let plot = with_legend(&body, &entries, look)?;
    match orientation(c, w, look) {
        Orientation::Upright(x_tick, groups) => upright(c, &plot, &values, look, (x_tick, groups)),
        Orientation::Across => crate::hbars::draw(c, &plot, &values, look),
    }
}

/// Bars standing on the x axis, the group names under it (wrapped).
fn upright<DB: DrawingBackend>(
    c: &BarChart,
    plot: &DrawingArea<DB, Shift>,
    values: &Values,
    look: Look,
    (x_tick, groups): (f64, Vec<Vec<String>>),
) -> Result<(), ChartError> {
    let n = c.groups.len();
    let Values { bars, whiskers, lo: y0, hi: y1, base } = values;
    let (y0, y1, base) = (*y0, *y1, *base);
    let slot_px = f64::from(plot.dim_in_pixel().0) * 0.85 * 0.95 / n as f64;
    let lines = groups.iter().map(Vec::len).max().unwrap_or(1);
    let group_label = |x: f64| groups.get(x.floor().max(0.0) as usize).map(|g| g.join(" ")).unwrap_or_default();
    let x = AxisSpec {
        lo: 0.0,
        hi: n as f64,
        ticks: (0..n).map(|i| i as f64 + 0.5).collect(),
        label: &group_label,
        desc: c.x_label.clone(),
        lines,
    };
    let y_label = value_label(c.log_y);
    let ticks = if c.log_y { log_ticks(y0, y1) } else { linear_ticks(y0, y1, 6) };
    let y = AxisSpec { lo: y0, hi: y1, ticks, label: &y_label, desc: c.y_label.clone(), lines: 1 };
    let mut chart = frame(plot, x, y, look, x_tick, false)?;
    if lines > 1 {
        // Wrapped group names, drawn line by line under the axis.
        let style = Look::font(x_tick).pos(Pos::new(HPos::Center, VPos::Top));
        let texts = groups.iter().enumerate().flat_map(|(i, g)| {
            let style = style.clone();
            g.iter().enumerate().map(move |(k, line)| {
                EmptyElement::at((i as f64 + 0.5, y0))
                    + Text::new(line.clone(), (0, (x_tick * (0.5 + 1.2 * k as f64)) as i32), style.clone())
            })
        });
        chart.draw_series(texts).map_err(draw_err)?;
    }
    let slot = 0.8 / c.series.len().max(1) as f64;
    let left = |i: usize, k: usize| i as f64 + 0.1 + k as f64 * slot;
    let value_size = (look.tick * 0.85).max(MIN_FONT);
    // A label per bar when there are few and each fits above its bar.
    let widest = bars.iter().flatten().map(|b| short_number(b.1).chars().count()).max().unwrap_or(0) as f64;
    let bar_pixels = f64::from(plot.dim_in_pixel().0) * 0.85 * slot * 0.9 / n as f64;
    let labelled = bars.iter().map(Vec::len).sum::<usize>() <= LABELLED_BARS && widest * value_size * 0.6 <= bar_pixels;
    let above = Look::font(value_size).pos(Pos::new(HPos::Center, VPos::Bottom));
    let below = Look::font(value_size).pos(Pos::new(HPos::Center, VPos::Top));
    let lift = (look.line * 2) as i32;
    for (k, (bars, whiskers)) in bars.iter().zip(whiskers).enumerate() {
        let col = colour(k);
        chart
            .draw_series(bars.iter().map(|&(i, _, a)| {
                let x0 = left(i, k);
                Rectangle::new([(x0, base), (x0 + slot * 0.9, a)], col.filled())
            }))
            .map_err(draw_err)?;
        for &(i, wlo, whi) in whiskers {
            crate::frame::whisker(
                &mut chart,
                (left(i, k) + slot * 0.45, slot * 0.2),
                (to_axis(c, wlo), to_axis(c, whi)),
                y0,
                look,
                BLACK,
            )?;
        }
        if labelled {
            // Above a bar's end (or its whisker), below it for negative bars.
            chart
                .draw_series(bars.iter().map(|&(i, v, a)| {
                    let (offset, style) = if v < 0.0 { (lift, below.clone()) } else { (-lift, above.clone()) };
                    EmptyElement::at((left(i, k) + slot * 0.45, values.label_end(c, k, (i, v, a))))
                        + Text::new(short_number(v), (0, offset), style)
                }))
                .map_err(draw_err)?;
        }
    }
    if !c.empty.is_empty() {
        // The note of a group without any bar, wrapped to its slot and
        // written upwards from the axis like a short bar of text.
        let fit = ((slot_px / (value_size * 0.6)) as usize).max(3);
        let style = Look::font(value_size).pos(Pos::new(HPos::Center, VPos::Bottom));
        for i in values.empty_groups(n) {
            let lines = crate::wrap(&clean_text(&c.empty), fit);
            let count = lines.len() as i32;
            let texts = lines.into_iter().enumerate().map(|(k, line)| {
                let up = -lift - (count - 1 - k as i32) * (value_size * 1.2) as i32;
                EmptyElement::at((i as f64 + 0.5, base)) + Text::new(line, (0, up), style.clone())
            });
            chart.draw_series(texts).map_err(draw_err)?;
        }
    }
    Ok(())
}

pub(crate) fn whiskers(intervals: Option<&[Option<(f64, f64)>]>, n: usize) -> Vec<Whisker> {
    intervals
        .unwrap_or_default()
        .iter()
        .take(n)
        .enumerate()
        .filter_map(|(i, iv)| match iv {
            Some((lo, hi)) if lo.is_finite() && hi.is_finite() => Some((i, lo.min(*hi), lo.max(*hi))),
            _ => None,
        })
        .collect()
}

/// Group labels that fit their slot of `width` pixels: a smaller font down
/// to three quarters of the tick size (and never under [`MIN_FONT`]), then
/// wrapped onto up to three lines at spaces and punctuation; a number such
/// as "65-100" is never broken, and nothing is cut. When a piece that may
/// not break is wider than the slot (size ranges on a phone), no lines at
/// all: the bars are then laid across the chart.
fn fit_labels(groups: &[String], width: f64, look: Look) -> (f64, Vec<Vec<String>>) {
    let groups: Vec<String> = groups.iter().map(|g| clean_text(g)).collect();
    let widest = groups.iter().map(|g| g.chars().count()).max().unwrap_or(1).max(1) as f64;
    let smallest = (look.tick * 0.75).max(MIN_FONT);
    let size = (width / (widest * 0.6)).clamp(smallest, look.tick.max(smallest));
    if widest * size * 0.6 <= width {
        return (size, groups.into_iter().map(|g| vec![g]).collect());
    }
    // Never narrower than the longest piece that may not break: an
    // over-wide label is better than a number read in pieces.
    let whole = groups.iter().map(|g| crate::longest_piece(g)).max().unwrap_or(1);
    if whole as f64 * size * 0.6 > width {
        return (size, vec![Vec::new(); groups.len()]);
    }
    let fit = ((width / (size * 0.6)) as usize).max(3).max(whole);
    (size, groups.iter().map(|g| crate::wrap(g, fit)).collect())
}
