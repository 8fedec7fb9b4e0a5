//! Wait-time ECDFs on a log time axis.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::frame::{frame, spaced_ticks, titled, with_legend, AxisSpec, Key};
use crate::{clean_text, colour, draw_err, duration_label, no_data, ChartError, EcdfChart, Look};

/// Tick values of the time axis, seconds.
pub(crate) const TIME_TICKS: [f64; 10] =
    [1.0, 10.0, 60.0, 600.0, 3600.0, 36_000.0, 86_400.0, 864_000.0, 8_640_000.0, 86_400_000.0];

pub(crate) fn draw<DB: DrawingBackend>(
    c: &EcdfChart,
    root: &DrawingArea<DB, Shift>,
    look: Look,
) -> Result<(), ChartError> {
    // Points as (log10 of max(wait, 1 s), fraction), finite only.
    let curves: Vec<Vec<(f64, f64)>> = c
        .curves
        .iter()
        .map(|curve| {
            curve
                .points
                .iter()
                .filter(|(t, f)| t.is_finite() && f.is_finite())
                .map(|&(t, f)| (t.max(1.0).log10(), f.clamp(0.0, 1.0)))
                .collect()
        })
        .collect();
    if curves.iter().all(Vec::is_empty) {
        return no_data(root, &c.title, look);
    }
    let top = curves.iter().flatten().map(|p| p.0).fold(0.0f64, f64::max);
    let hi = (top + 0.15).max(1.0);
    let time_label = |x: f64| duration_label(10f64.powf(x).round());
    let entries: Vec<(String, Key)> =
        c.curves.iter().enumerate().map(|(k, c)| (clean_text(&c.name), Key::Line(colour(k)))).collect();
    let body = titled(root, &c.title, &c.subtitle, look)?;
    let plot = with_legend(&body, &entries, look)?;
    // "10 h" and "1 d" are 0.38 decades apart: keep only ticks whose
    // labels do not overlap at this width (the plot is about 85 % of it).
    let px = f64::from(plot.dim_in_pixel().0) * 0.85 / hi;
    let all: Vec<f64> = TIME_TICKS.iter().map(|t| t.log10()).filter(|t| *t <= hi).collect();
    let ticks = spaced_ticks(&all, &time_label, look.tick, px);
    let percent = |y: f64| format!("{:.0} %", y * 100.0);
    let x = AxisSpec { lo: 0.0, hi, ticks, label: &time_label, desc: c.x_label.clone(), lines: 1 };
    let y = AxisSpec {
        lo: 0.0,
        hi: 1.02,
        ticks: (0..=5).map(|k| f64::from(k) * 0.2).collect(),
        label: &percent,
        desc: c.y_label.clone(),
        lines: 1,
    };
    let mut chart = frame(&plot, x, y, look, look.tick, true)?;
    for (k, points) in curves.iter().enumerate() {
        let col = colour(k);
        let style = col.stroke_width(look.line);
        // A step function: flat to the next wait, then up.
        let mut path = Vec::with_capacity(points.len() * 2 + 1);
        let mut level = 0.0;
        for &(x, f) in points {
            path.push((x, level));
            path.push((x, f));
            level = f;
        }
        if let Some(&(_, last)) = points.last() {
            path.push((hi, last));
        }
        chart.draw_series(std::iter::once(PathElement::new(path, style))).map_err(draw_err)?;
    }
    Ok(())
}
