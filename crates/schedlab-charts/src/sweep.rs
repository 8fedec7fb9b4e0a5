//! A metric against a parameter: one line per policy, markers, optional
//! intervals, optional log axes.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::frame::{frame, linear_ticks, log_ticks, titled, whisker, with_legend, AxisSpec, Key};
use crate::{clean_text, colour, draw_err, no_data, padded, short_number, ChartError, Look, SweepChart};

pub(crate) fn draw<DB: DrawingBackend>(
    c: &SweepChart,
    root: &DrawingArea<DB, Shift>,
    look: Look,
) -> Result<(), ChartError> {
    // To drawing units: log10 on log axes, where values ≤ 0 cannot go.
    let tx = |v: f64| if c.log_x { (v > 0.0).then(|| v.log10()) } else { Some(v) }.filter(|v| v.is_finite());
    let ty = |v: f64| if c.log_y { (v > 0.0).then(|| v.log10()) } else { Some(v) }.filter(|v| v.is_finite());
    type Point = ((f64, f64), Option<(Option<f64>, f64)>);
    let lines: Vec<Vec<Point>> = c
        .lines
        .iter()
        .map(|l| {
            l.points
                .iter()
                .filter_map(|p| {
                    let xy = (tx(p.x)?, ty(p.y)?);
                    // A low end a log axis cannot show (≤ 0) is kept as
                    // `None`: its whisker runs to the axis's bottom.
                    let iv = match (p.low.filter(|v| v.is_finite()), p.high.and_then(ty)) {
                        (Some(a), Some(b)) => Some((ty(a).map(|a| a.min(b)), b.max(ty(a).unwrap_or(b)))),
                        _ => None,
                    };
                    Some((xy, iv))
                })
                .collect()
        })
        .collect();
    if lines.iter().all(Vec::is_empty) {
        return no_data(root, &c.title, look);
    }
    let xs = lines.iter().flatten().map(|p| p.0 .0);
    let ys = lines.iter().flatten().flat_map(|p| [Some(p.0 .1), p.1.and_then(|i| i.0), p.1.map(|i| i.1)]).flatten();
    let (xlo, xhi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (ylo, yhi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (xlo, xhi) = padded(xlo, xhi, 0.0);
    let xpad = (xhi - xlo) * 0.04;
    let (xlo, xhi) = (xlo - xpad, xhi + xpad);
    // Room above and below the extreme points and interval ends, so that
    // no marker or cap is cut by the axis; a linear axis starts at 0 when
    // that costs less than half its height.
    let (ylo, yhi) = padded(ylo, yhi, 0.08);
    let ypad = (yhi - ylo) * 0.05;
    let ylo = if !c.log_y && ylo > 0.0 && ylo < (yhi - ylo) * 0.5 { 0.0 } else { ylo - ypad };
    let value = |log: bool| move |v: f64| if log { short_number(10f64.powf(v)) } else { short_number(v) };
    let yl = value(c.log_y);
    let ticks = |lo: f64, hi: f64, log: bool| if log { log_ticks(lo, hi) } else { linear_ticks(lo, hi, 6) };
    // Words (depth `all`) label their own ticks, past the numbers' ticks.
    let words: Vec<(f64, String)> = c.words.iter().filter_map(|w| Some((tx(w.x)?, clean_text(&w.word)))).collect();
    // The numbers' ticks stop halfway between the last number and the
    // first word, so that no number is printed beside a word.
    let numbers_end = words.first().map_or(xhi, |w| {
        let last = lines.iter().flatten().map(|p| p.0 .0).filter(|&x| x < w.0).fold(xlo, f64::max);
        (last + w.0) / 2.0
    });
    // A parameter swept over whole numbers (a depth, an interval) has no
    // value between them, so its axis shows none (no depth 0.5).
    let whole = lines.iter().flatten().map(|p| p.0 .0).filter(|&x| x < numbers_end).all(|x| x.fract() == 0.0);
    let mut x_ticks: Vec<f64> = ticks(xlo, xhi, c.log_x)
        .into_iter()
        .filter(|&t| t < numbers_end && (c.log_x || !whole || t.fract() == 0.0))
        .collect();
    x_ticks.extend(words.iter().map(|w| w.0));
    let xl = move |v: f64| match words.iter().find(|w| (w.0 - v).abs() < 1e-9) {
        Some(w) => w.1.clone(),
        None => value(c.log_x)(v),
    };
    let x = AxisSpec { lo: xlo, hi: xhi, ticks: x_ticks, label: &xl, desc: c.x_label.clone(), lines: 1 };
    let y =
        AxisSpec { lo: ylo, hi: yhi, ticks: ticks(ylo, yhi, c.log_y), label: &yl, desc: c.y_label.clone(), lines: 1 };
    let entries: Vec<(String, Key)> =
        c.lines.iter().enumerate().map(|(k, l)| (clean_text(&l.name), Key::Marker(k, colour(k)))).collect();
    let body = titled(root, &c.title, &c.subtitle, look)?;
    let plot = with_legend(&body, &entries, look)?;
    let mut chart = frame(&plot, x, y, look, look.tick, true)?;
    let r = (look.line * 3) as i32;
    let cap = (xhi - xlo) * 0.008;
    for (k, points) in lines.iter().enumerate() {
        let col = colour(k);
        let stroke = col.stroke_width(look.line);
        let mut sorted: Vec<(f64, f64)> = points.iter().map(|p| p.0).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart.draw_series(LineSeries::new(sorted.iter().copied(), stroke)).map_err(draw_err)?;
        chart.draw_series(sorted.iter().map(|&p| EmptyElement::at(p) + marker(k, r, col))).map_err(draw_err)?;
        for &((x, _), iv) in points {
            if let Some((a, b)) = iv {
                whisker(&mut chart, (x, cap), (a, Some(b)), ylo, look, col)?;
            }
        }
    }
    Ok(())
}

/// A marker that differs by line: circle, triangle, square, cross.
pub(crate) fn marker<DB: DrawingBackend>(k: usize, r: i32, col: RGBColor) -> DynElement<'static, DB, (i32, i32)> {
    let style = col.filled();
    match k % 4 {
        0 => Circle::new((0, 0), r, style).into_dyn(),
        1 => TriangleMarker::new((0, 0), r + 1, style).into_dyn(),
        2 => Rectangle::new([(-r, -r), (r, r)], style).into_dyn(),
        _ => Cross::new((0, 0), r, col.stroke_width(3)).into_dyn(),
    }
}
