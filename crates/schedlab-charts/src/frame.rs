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
    let margin = (look.tick * 0.4) as u32;
    let right = right_margin(&x, x_tick_size);
    let areas = Areas { y: y_area(&y, look), x: x_area(&x, look, x_tick_size), top: margin, bottom: margin, right };
    frame_in(root, x, y, look, x_tick_size, x_grid, areas)
}

/// Pixels left of and below the plot for the axes' labels, and the
/// margins above and below it (none between panels stacked on one time
/// axis) and right of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Areas {
    pub y: u32,
    pub x: u32,
    pub top: u32,
    pub bottom: u32,
    pub right: u32,
}

/// The margin right of a plot: room for half the last tick label when
/// that tick is at the axis's end, where the label is centred on the
/// plot's right edge (a time axis ending on "d12").
pub(crate) fn right_margin(x: &AxisSpec<'_>, size: f64) -> u32 {
    (size * 0.9).max(end_label_half(x, size)) as u32
}

/// Room for the y axis's tick labels (10 pixels from the axis, as
/// plotters puts them) and its description, if any.
pub(crate) fn y_area(y: &AxisSpec<'_>, look: Look) -> u32 {
    let widest = y.ticks.iter().map(|&t| crate::text_width(&(y.label)(t), look.tick)).fold(0.0, f64::max);
    let desc = if clean_text(&y.desc).is_empty() { 0.0 } else { look.label * 1.35 };
    (widest + desc + 14.0) as u32
}

/// Room for the x axis's tick labels (`lines` of them, under ticks
/// [`x_drop`] long) and its description, if any.
pub(crate) fn x_area(x: &AxisSpec<'_>, look: Look, x_tick_size: f64) -> u32 {
    let desc = if clean_text(&x.desc).is_empty() { 0.0 } else { look.label * 1.25 };
    // Plotters sets labels twice a tick's length from the axis: 10 pixels
    // for its default 5-pixel ticks.
    (x_tick_size * 1.2 * x.lines.max(1) as f64 + desc + 12.0 + 2.0 * (x_drop(x_tick_size) - 5.0)) as u32
}

/// The length of the x axis's ticks, pixels: a quarter of their labels'
/// font, at least plotters' 5.
fn x_drop(x_tick_size: f64) -> f64 {
    (x_tick_size * 0.25).round().max(5.0)
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
        // Side margins from the time axis's font, the same in every panel
        // stacked on it, so that their plots line up.
        .margin_left((x_tick_size * 0.4) as u32)
        .margin_top(areas.top)
        .margin_bottom(areas.bottom)
        .margin_right(areas.right)
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
    // Longer ticks under the x axis set its labels lower, in proportion to
    // their font: clear of the lowest y label, which is centred on the
    // axis, however large the fonts.
    mesh.set_tick_mark_size(LabelAreaPosition::Bottom, x_drop(x_tick_size) as i32);
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

/// The title's and the subtitle's lines wrapped to a `w`-pixel-wide chart,
/// and the height they take above the plot.
pub(crate) struct Header {
    pub title: Vec<String>,
    pub subtitle: Vec<String>,
    pub height: u32,
}

/// The subtitle's font size: a little smaller than tick labels, as it is
/// context, not data.
fn subtitle_size(look: Look) -> f64 {
    look.tick * 0.9
}

/// Lays out the header of a chart `w` pixels wide: the title wrapped in
/// its font (so that a long title on a phone wraps, never runs off the
/// canvas) and the subtitle wrapped in grey under it.
pub(crate) fn header(title: &str, subtitle: &str, w: u32, look: Look) -> Header {
    let fit = |size: f64| ((f64::from(w) - 2.0 * size) / (size * 0.6)).max(8.0) as usize;
    let title = clean_text(title);
    let title = if title.is_empty() { Vec::new() } else { crate::wrap(&title, fit(look.title)) };
    let subtitle = clean_subtitle(subtitle);
    let small = subtitle_size(look);
    let subtitle = if subtitle.is_empty() { Vec::new() } else { crate::wrap(&subtitle, fit(small)) };
    let title_px = if title.is_empty() { 0.0 } else { title.len() as f64 * look.title * 1.05 + look.title * 0.2 };
    let sub_px = if subtitle.is_empty() { 0.0 } else { subtitle.len() as f64 * small * 1.25 + small * 0.5 };
    Header { title, subtitle, height: (title_px + sub_px).ceil() as u32 }
}

/// The area below the title and the subtitle (the whole area when there
/// is neither), both drawn centred and wrapped to the width.
pub(crate) fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
    look: Look,
) -> Result<DrawingArea<DB, Shift>, ChartError> {
    let (w, _) = root.dim_in_pixel();
    let head = header(title, subtitle, w, look);
    if head.height == 0 {
        return Ok(root.clone());
    }
    let mid = w as i32 / 2;
    let style = Look::font(look.title).pos(Pos::new(HPos::Center, VPos::Top));
    let mut y = if head.title.is_empty() { 0.0 } else { look.title * 0.1 };
    for line in &head.title {
        root.draw(&Text::new(line.clone(), (mid, y as i32), style.clone())).map_err(draw_err)?;
        y += look.title * 1.05;
    }
    if !head.title.is_empty() {
        y += look.title * 0.1;
    }
    let size = subtitle_size(look);
    let style = Look::font(size).color(&RGBColor(0x44, 0x44, 0x44)).pos(Pos::new(HPos::Center, VPos::Top));
    for line in &head.subtitle {
        root.draw(&Text::new(line.clone(), (mid, y as i32), style.clone())).map_err(draw_err)?;
        y += size * 1.25;
    }
    Ok(root.split_vertically(head.height).1)
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

/// Half the width of the last tick label, with a few pixels to spare, when
/// that tick is at the axis's end (a time axis ending on "d12"), where the
/// label is centred on the plot's right edge; else 0.
fn end_label_half(x: &AxisSpec<'_>, size: f64) -> f64 {
    match x.ticks.last() {
        Some(&t) if x.lines <= 1 && t >= x.hi - (x.hi - x.lo) * 0.02 => {
            crate::text_width(&(x.label)(t), size) / 2.0 + 4.0
        }
        _ => 0.0,
    }
}

/// How a legend entry shows its series.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Key {
    /// A filled box (bars, the schedule's runs).
    Box(RGBColor),
    /// A filled box with a diagonal line (preempted runs, lost work hatched).
    Hatched(RGBColor),
    /// An empty box (the schedule's reservation outline).
    Outline(RGBColor),
    /// A line (ECDF curves).
    Line(RGBColor),
    /// A line with the marker of series `k` (sweeps).
    Marker(usize, RGBColor),
}

/// Where the legend goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A strip right of the plot, one entry a line.
    Side,
    /// Rows under the plot, entries side by side.
    Below,
}

/// A legend strip beside the plot takes at most this share of the width;
/// wider names go below the plot, where they keep one line each.
pub(crate) const SIDE_SHARE: f64 = 0.2;

/// A legend below the plot takes at most this share of the height; more
/// entries are drawn smaller, down to [`crate::MIN_FONT`].
const BELOW_SHARE: f64 = 0.25;

/// The legend's entries placed: font size, placement, and each entry's
/// lines of text with the top-left corner of its key, relative to the
/// legend's area.
#[derive(Clone, Debug)]
pub(crate) struct LegendLayout {
    pub size: f64,
    pub place: Place,
    /// The legend's extent: width (beside) or height (below), pixels.
    pub extent: u32,
    pub entries: Vec<(Vec<String>, (f64, f64))>,
}

/// A legend entry's width on one line: key, gap, name, and room after it.
/// The name is taken at [`crate::MARK_EM`] a character, the average of
/// the fonts a browser picks, nearer the real width than
/// [`crate::text_width`]'s safe 0.6 em, so that entries pack without wide
/// holes; a name a little wider runs into the room after it, not into the
/// next.
fn entry_width(name: &str, size: f64) -> f64 {
    size * 1.8 + name.chars().count() as f64 * size * crate::MARK_EM + size * 1.4
}

/// Places the legend of `names` for a body of `w` × `h` pixels: beside the
/// plot when the widest entry takes at most [`SIDE_SHARE`] of the width,
/// every entry fits the height on its line, and the strip takes a smaller
/// share of the width than rows below would of the height; else below it.
pub(crate) fn legend_layout(names: &[String], w: u32, h: u32, look: Look) -> LegendLayout {
    let (w, h) = (f64::from(w), f64::from(h));
    let line = look.legend * 1.25;
    // Beside the plot nothing follows a name but the canvas's edge: its
    // width is the safe estimate.
    let widest = names.iter().map(|n| look.legend * 2.6 + crate::text_width(n, look.legend)).fold(0.0, f64::max);
    let tall = names.len() as f64 * (line + look.legend * 0.45);
    // Beside the plot only when that costs the plot less than rows below.
    let below = f64::from(rows_below(names, w, look.legend).extent) / h;
    if widest <= w * SIDE_SHARE && tall <= h * 0.8 && widest / w < below {
        let top = look.tick * 0.8 + look.legend * 0.5;
        let entries =
            names.iter().enumerate().map(|(i, n)| (vec![n.clone()], (0.0, top + i as f64 * tall / names.len() as f64)));
        return LegendLayout {
            size: look.legend,
            place: Place::Side,
            extent: widest.ceil() as u32,
            entries: entries.collect(),
        };
    }
    // A slightly smaller font when it saves a row.
    let sizes = [1.0, 0.9, 0.8].map(|f| (look.legend * f).max(crate::MIN_FONT));
    let rows =
        |l: &LegendLayout| l.entries.iter().map(|e| e.1 .1.to_bits()).collect::<std::collections::BTreeSet<_>>().len();
    let mut size = sizes.into_iter().min_by_key(|&s| rows(&rows_below(names, w, s))).unwrap_or(look.legend);
    loop {
        let layout = rows_below(names, w, size);
        if f64::from(layout.extent) <= h * BELOW_SHARE || size <= crate::MIN_FONT {
            return layout;
        }
        size = (size * 0.9).max(crate::MIN_FONT);
    }
}

/// Entries in rows under the plot at font `size`: entries packed by their
/// own widths into centred rows, or, when they take more than one row and
/// a grid of equal columns takes no more, that grid. A name wider than the whole
/// row is wrapped to it.
fn rows_below(names: &[String], w: f64, size: f64) -> LegendLayout {
    let room = w - size;
    let fit = ((room - size * 3.0) / (size * 0.6)).max(4.0) as usize;
    let texts: Vec<Vec<String>> = names.iter().map(|n| crate::wrap(n, fit)).collect();
    let widths: Vec<f64> =
        texts.iter().map(|t| t.iter().map(|l| entry_width(l, size)).fold(0.0, f64::max).min(room)).collect();
    let widest = widths.iter().copied().fold(1.0, f64::max);
    let columns = ((room / widest) as usize).clamp(1, names.len().max(1));
    let packed = pack(&widths, room);
    // One packed row reads best; over several rows, a grid aligns them.
    let grid = packed.len() > 1 && names.len().div_ceil(columns) <= packed.len();
    let rows: Vec<Vec<usize>> = if grid {
        (0..names.len()).collect::<Vec<_>>().chunks(columns).map(<[usize]>::to_vec).collect()
    } else {
        packed
    };
    let mut entries = vec![(Vec::new(), (0.0, 0.0)); names.len()];
    let mut y = size * 0.3;
    for row in &rows {
        let cell = |i: usize| if grid { widest } else { widths[i] };
        let mut x = ((w - row.iter().map(|&i| cell(i)).sum::<f64>()) / 2.0).max(0.0);
        for &i in row {
            entries[i] = (texts[i].clone(), (x, y));
            x += cell(i);
        }
        let lines = row.iter().map(|&i| texts[i].len()).max().unwrap_or(1);
        y += lines as f64 * size * 1.25 + size * 0.35;
    }
    LegendLayout { size, place: Place::Below, extent: (y + size * 0.2).ceil() as u32, entries }
}

/// Indices of entries `widths` wide packed left to right into rows of
/// `room` pixels.
fn pack(widths: &[f64], room: f64) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = f64::INFINITY;
    for (i, &wi) in widths.iter().enumerate() {
        match rows.last_mut() {
            Some(row) if used + wi <= room => row.push(i),
            _ => {
                rows.push(vec![i]);
                used = 0.0;
            }
        }
        used += wi;
    }
    rows
}

/// Draws the legend of `entries` (a name and its key each) beside or below
/// the plot, and returns the area left for the plot.
pub(crate) fn with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[(String, Key)],
    look: Look,
) -> Result<DrawingArea<DB, Shift>, ChartError> {
    if entries.is_empty() {
        return Ok(root.clone());
    }
    let (w, h) = root.dim_in_pixel();
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let layout = legend_layout(&names, w, h, look);
    let (plot, side) = match layout.place {
        Place::Side => root.split_horizontally(w.saturating_sub(layout.extent)),
        Place::Below => root.split_vertically(h.saturating_sub(layout.extent)),
    };
    let keys: Vec<Key> = entries.iter().map(|e| e.1).collect();
    draw_legend(&side, &layout, &keys, look)?;
    Ok(plot)
}

/// Draws each entry's key and its lines of text where the layout put them.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    layout: &LegendLayout,
    keys: &[Key],
    look: Look,
) -> Result<(), ChartError> {
    let size = layout.size;
    let k = (size * 0.45).round() as i32;
    let style = Look::font(size).pos(Pos::new(HPos::Left, VPos::Center));
    for ((lines, (x, y)), key) in layout.entries.iter().zip(keys) {
        let (x, yc) = (*x as i32 + 2, (*y + size * 0.6) as i32);
        draw_key(area, *key, (x, yc), k, look)?;
        for (n, line) in lines.iter().enumerate() {
            let at = (x + 2 * k + (size * 0.5) as i32, yc + (n as f64 * size * 1.25) as i32);
            area.draw(&Text::new(line.clone(), at, style.clone())).map_err(draw_err)?;
        }
    }
    Ok(())
}

/// A key `2k` pixels wide, centred vertically on `y`, from `x`.
fn draw_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    key: Key,
    (x, y): (i32, i32),
    k: i32,
    look: Look,
) -> Result<(), ChartError> {
    let corners = [(x, y - k), (x + 2 * k, y + k)];
    match key {
        Key::Box(col) => area.draw(&Rectangle::new(corners, col.filled())),
        Key::Hatched(col) => {
            area.draw(&Rectangle::new(corners, col.filled())).map_err(draw_err)?;
            area.draw(&PathElement::new(vec![(x, y + k), (x + 2 * k, y - k)], BLACK.stroke_width(1)))
        }
        Key::Outline(col) => area.draw(&Rectangle::new(corners, col.stroke_width(look.line))),
        Key::Line(col) => area.draw(&PathElement::new(vec![(x, y), (x + 2 * k, y)], col.stroke_width(look.line + 1))),
        Key::Marker(i, col) => {
            area.draw(&PathElement::new(vec![(x, y), (x + 2 * k, y)], col.stroke_width(look.line)))
                .map_err(draw_err)?;
            area.draw(&(EmptyElement::at((x + k, y)) + crate::sweep::marker(i, (k * 2 / 3).max(3), col)))
        }
    }
    .map_err(draw_err)
}

/// One whisker in colour `col` at `mid` with caps `cap` wide either side, from `low` to
/// `high` in axis units. The axis range holds both ends (the caller made
/// it so), except a low end that a log axis cannot show (≤ 0): that
/// whisker runs to the axis's bottom `y0` and ends in an arrowhead pointing
/// down, which reads as "continues below", instead of a cap that would
/// claim an end.
pub(crate) fn whisker<DB: DrawingBackend>(
    chart: &mut Frame<'_, DB>,
    (mid, cap): (f64, f64),
    (low, high): (Option<f64>, Option<f64>),
    y0: f64,
    look: Look,
    col: RGBColor,
) -> Result<(), ChartError> {
    let Some(high) = high else { return Ok(()) };
    let stroke = col.stroke_width(look.line);
    let bottom = low.unwrap_or(y0);
    let mut lines = vec![vec![(mid, bottom), (mid, high)], vec![(mid - cap, high), (mid + cap, high)]];
    if low.is_some() {
        lines.push(vec![(mid - cap, bottom), (mid + cap, bottom)]);
    }
    chart.draw_series(lines.into_iter().map(|l| PathElement::new(l, stroke))).map_err(draw_err)?;
    if low.is_none() {
        // The plotting area draws in its own pixels, from its top left corner.
        let (px, py) = chart.backend_coord(&(mid, y0));
        let (bx, by) = chart.plotting_area().get_base_pixel();
        let (x, y) = (px - bx, py - by);
        let r = (look.line * 3) as i32;
        let arrow = Polygon::new(vec![(x - r, y - 2 * r), (x + r, y - 2 * r), (x, y)], col.filled());
        chart.plotting_area().strip_coord_spec().draw(&arrow).map_err(draw_err)?;
    }
    Ok(())
}

/// Keeps every `k`-th tick, for the smallest `k` at which no label,
/// `text_width` wide at `px` pixels per axis unit, comes within a font
/// size of the next: the kept ticks stay evenly spaced (0, 200, 400, not
/// 0, 100, 300; 1 s, 1 min, 1 h on a log axis of durations).
pub(crate) fn spaced_ticks(ticks: &[f64], label: &dyn Fn(f64) -> String, size: f64, px: f64) -> Vec<f64> {
    let apart = |p: f64, t: f64| {
        let half = (crate::text_width(&label(p), size) + crate::text_width(&label(t), size)) / 2.0;
        (t - p) * px >= half + size
    };
    (1..=ticks.len().max(1))
        .map(|k| ticks.iter().copied().step_by(k).collect::<Vec<f64>>())
        .find(|kept| kept.windows(2).all(|w| apart(w[0], w[1])))
        .unwrap_or_default()
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
