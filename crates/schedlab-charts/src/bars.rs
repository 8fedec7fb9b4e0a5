//! Grouped bars with optional interval whiskers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::frame::{frame, legend, linear_ticks, titled, with_legend, AxisSpec, Key};
use crate::{clean_text, colour, draw_err, finite, no_data, padded, short_number, BarChart, ChartError, Look};

/// Bars are labelled with their value when there are at most this many.
const LABELLED_BARS: usize = 16;

type Whisker = (usize, f64, f64);

pub(crate) fn draw<DB: DrawingBackend>(
    c: &BarChart,
    root: &DrawingArea<DB, Shift>,
    look: Look,
) -> Result<(), ChartError> {
    let n = c.groups.len();
    let bars: Vec<Vec<(usize, f64)>> = c
        .series
        .iter()
        .map(|s| s.values.iter().take(n).enumerate().filter_map(|(i, v)| v.and_then(finite).map(|v| (i, v))).collect())
        .collect();
    let whiskers: Vec<Vec<Whisker>> = c.series.iter().map(|s| whiskers(s.intervals.as_deref(), n)).collect();
    if n == 0 || bars.iter().all(Vec::is_empty) {
        return no_data(root, &c.title, look);
    }
    let values = bars.iter().flatten().map(|b| b.1).chain(whiskers.iter().flatten().flat_map(|w| [w.1, w.2]));
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (y0, y1) = padded(lo, if hi == lo { lo + 1.0 } else { hi }, 0.1);
    let y0 = if lo >= 0.0 { 0.0 } else { y0 };
    let names: Vec<String> = c.series.iter().map(|s| clean_text(&s.name)).collect();
    let body = titled(root, &c.title, look)?;
    let (plot, side) = with_legend(&body, &names, look);
    let (x_tick, groups) = fit_labels(&c.groups, f64::from(plot.dim_in_pixel().0) * 0.85 / n as f64, look);
    let group_label = |x: f64| groups.get(x.floor().max(0.0) as usize).cloned().unwrap_or_default();
    let x = AxisSpec {
        lo: 0.0,
        hi: n as f64,
        ticks: (0..n).map(|i| i as f64 + 0.5).collect(),
        label: &group_label,
        desc: c.x_label.clone(),
    };
    let y = AxisSpec { lo: y0, hi: y1, ticks: linear_ticks(y0, y1, 6), label: &short_number, desc: c.y_label.clone() };
    let mut chart = frame(&plot, x, y, look, x_tick, false)?;
    let slot = 0.8 / c.series.len().max(1) as f64;
    let left = |i: usize, k: usize| i as f64 + 0.1 + k as f64 * slot;
    let value_size = (look.tick * 0.85).max(10.0);
    // A label per bar when there are few and each fits above its bar.
    let widest = bars.iter().flatten().map(|b| short_number(b.1).chars().count()).max().unwrap_or(0) as f64;
    let bar_pixels = f64::from(plot.dim_in_pixel().0) * 0.85 * slot * 0.9 / n as f64;
    let labelled = bars.iter().map(Vec::len).sum::<usize>() <= LABELLED_BARS && widest * value_size * 0.6 <= bar_pixels;
    let above = Look::font(value_size).pos(Pos::new(HPos::Center, VPos::Bottom));
    let below = Look::font(value_size).pos(Pos::new(HPos::Center, VPos::Top));
    let lift = (look.line * 2) as i32;
    for (k, (bars, whiskers)) in bars.iter().zip(&whiskers).enumerate() {
        let col = colour(k);
        chart
            .draw_series(bars.iter().map(|&(i, v)| {
                let x0 = left(i, k);
                Rectangle::new([(x0, 0.0), (x0 + slot * 0.9, v)], col.filled())
            }))
            .map_err(draw_err)?;
        let stroke = BLACK.stroke_width(look.line);
        for &(i, wlo, whi) in whiskers {
            let (mid, cap) = (left(i, k) + slot * 0.45, slot * 0.2);
            let lines = [
                vec![(mid, wlo), (mid, whi)],
                vec![(mid - cap, wlo), (mid + cap, wlo)],
                vec![(mid - cap, whi), (mid + cap, whi)],
            ];
            chart.draw_series(lines.into_iter().map(|l| PathElement::new(l, stroke))).map_err(draw_err)?;
        }
        if labelled {
            // Above a bar's end (or its whisker), below it for negative bars.
            let end = |i: usize, v: f64| {
                let w = whiskers.iter().find(|w| w.0 == i);
                if v < 0.0 {
                    w.map_or(v, |w| w.1.min(v))
                } else {
                    w.map_or(v, |w| w.2.max(v))
                }
            };
            chart
                .draw_series(bars.iter().map(|&(i, v)| {
                    let (offset, style) = if v < 0.0 { (lift, below.clone()) } else { (-lift, above.clone()) };
                    EmptyElement::at((left(i, k) + slot * 0.45, end(i, v)))
                        + Text::new(short_number(v), (0, offset), style)
                }))
                .map_err(draw_err)?;
        }
    }
    legend(&side, &names, Key::Box, look)
}

fn whiskers(intervals: Option<&[Option<(f64, f64)>]>, n: usize) -> Vec<Whisker> {
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
/// to three quarters of the tick size, then cut with "…".
fn fit_labels(groups: &[String], width: f64, look: Look) -> (f64, Vec<String>) {
    let groups: Vec<String> = groups.iter().map(|g| clean_text(g)).collect();
    let widest = groups.iter().map(|g| g.chars().count()).max().unwrap_or(1).max(1) as f64;
    let size = (width / (widest * 0.58)).clamp(look.tick * 0.75, look.tick);
    let fit = ((width / (size * 0.58)) as usize).max(4);
    let cut =
        groups
            .into_iter()
            .map(|g| {
                if g.chars().count() > fit {
                    g.chars().take(fit - 1).chain(std::iter::once('…')).collect()
                } else {
                    g
                }
            })
            .collect();
    (size, cut)
}
