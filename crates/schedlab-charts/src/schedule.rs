//! The schedule view (Gantt) of a time window: processors up, time along,
//! each run of a job a box coloured by how it started, or, zoomed out, the
//! mean utilisation of each column; the first waiting job's reservation as
//! an outline; the time series in strips below on the same time axis.
//!
//! [`schedule_chart`] builds the specification from a laid-out run
//! (`schedlab-schedule`); the command line's `--gantt` and the page's
//! export draw it the same way.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use schedlab_engine::RunRecord;
use schedlab_schedule::{
    Grid, HeadReservation, JobClass, JobRect, NodeRows, ScheduleError, ScheduleView, SeriesData, WindowJobs,
    WindowSchedule,
};
use schedlab_workload::{Cluster, Job};
use serde::{Deserialize, Serialize};

use crate::frame::{
    frame_in, linear_ticks, right_margin, spaced_ticks, titled, with_legend, x_area, y_area, Areas, AxisSpec, Frame,
    Key,
};
use crate::{clean_text, colour, draw_err, duration_label, no_data, short_number, ChartError, Look, MIN_FONT};

/// A Gantt chart of `[from, to)` on a machine of `procs` processors.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleChart {
    pub title: String,
    /// A second line under the title: what the numbers are of (the
    /// trace, its machine size and workload options).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<String>", optional))]
    pub subtitle: String,
    pub procs: u32,
    pub from: i64,
    pub to: i64,
    /// One box per processor band of every run in the window (zoomed in).
    #[serde(default)]
    pub boxes: Vec<GanttBox>,
    /// Zoomed out (when there are no boxes): the mean fraction of the
    /// machine busy in each of these equal columns of the window.
    #[serde(default)]
    pub columns: Vec<f64>,
    /// The first waiting job's reservation, drawn as an outline.
    #[serde(default)]
    pub outline: Vec<GanttBox>,
    /// Series under the chart, each with one value per equal column.
    #[serde(default)]
    pub strips: Vec<SeriesStrip>,
    /// On a machine of nodes (the Gantt by node: the rows are the nodes'
    /// cores, node after node), the row where each node but the first
    /// begins, drawn as a line; empty on processors or past
    /// [`MAX_DRAWN_NODES`] nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<u32>>", optional))]
    pub node_rows: Vec<u32>,
}

/// A run of a job on the processors `lo..hi`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GanttBox {
    pub start: i64,
    pub end: i64,
    pub lo: u32,
    pub hi: u32,
    pub kind: BoxKind,
    /// The last seconds of a preempted run whose work was lost (hatched).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<i64>", optional))]
    pub lost: i64,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoxKind {
    InOrder,
    Backfilled,
    Ventured,
    Preempted,
}

/// How a strip's values read.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StripUnit {
    /// A fraction, shown in percent.
    Fraction,
    /// A number of jobs.
    Count,
    Seconds,
    /// Processor-seconds (work).
    ProcSeconds,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesStrip {
    pub name: String,
    pub unit: StripUnit,
    pub values: Vec<f64>,
}

/// The most runs a chart (an SVG file or export) draws one by one; a
/// window holding more is drawn as utilisation per column: a file of that
/// many boxes is megabytes and no clearer at print size.
pub const MAX_CHART_BOXES: usize = 20_000;

/// What [`schedule_chart`] draws.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleChartOptions {
    pub title: String,
    pub from: i64,
    pub to: i64,
    /// Columns of the zoomed-out view and of the strips.
    pub columns: u32,
    /// The most runs drawn one by one; a window holding more is drawn by columns.
    pub max_boxes: usize,
}

/// The palette slot of each kind of box: blue, orange, bluish green, vermillion.
fn kind_colour(kind: BoxKind) -> RGBColor {
    colour(match kind {
        BoxKind::InOrder => 0,
        BoxKind::Backfilled => 1,
        BoxKind::Ventured => 2,
        BoxKind::Preempted => 3,
    })
}

/// The outline's colour (black, the palette's last) and the zoomed-out columns' (sky blue).
const OUTLINE: usize = 7;
const COLUMNS: usize = 5;

/// The chart of a window of a laid-out run.
pub fn schedule_chart(
    view: &ScheduleView,
    jobs: &[Job],
    options: &ScheduleChartOptions,
) -> Result<ScheduleChart, ScheduleError> {
    let grid = grid_of(options);
    let window = view.window(jobs, options.from, options.to, options.max_boxes)?;
    let columns = if window.complete { Vec::new() } else { view.utilisation(&grid)? };
    let head = view.head_reservation(jobs, middle(options));
    let series = view.series(jobs, &grid)?;
    let mut chart = assemble(options, view.record().procs, &window, columns, head, series);
    chart.node_rows = drawn_node_rows(view.node_rows());
    Ok(chart)
}

/// The same chart as [`schedule_chart`] from the run record alone, keeping
/// only what the window shows (`WindowSchedule`): a command that draws one
/// window of a run of millions of jobs needs memory for the window, not for
/// the whole run's view.
pub fn window_chart(
    jobs: &[Job],
    cluster: Option<&Cluster>,
    record: &RunRecord,
    options: &ScheduleChartOptions,
) -> Result<ScheduleChart, ScheduleError> {
    let parts = WindowSchedule::new(jobs, cluster, record, &grid_of(options), options.max_boxes, middle(options))?;
    let columns = if parts.window.complete { Vec::new() } else { parts.utilisation };
    let mut chart = assemble(options, record.procs, &parts.window, columns, parts.head_reservation, parts.series);
    chart.node_rows = drawn_node_rows(cluster.map(|c| NodeRows::new(&c.machine)).as_ref());
    Ok(chart)
}

/// The most nodes whose boundaries a chart draws: past that, lines closer
/// than a pixel would grey the whole chart.
pub const MAX_DRAWN_NODES: usize = 256;

/// The rows where a node begins, the first excepted, for a machine of at
/// most [`MAX_DRAWN_NODES`] nodes; none otherwise.
fn drawn_node_rows(rows: Option<&NodeRows>) -> Vec<u32> {
    match rows {
        Some(r) if r.nodes() <= MAX_DRAWN_NODES => r.first[1..r.nodes()].to_vec(),
        _ => Vec::new(),
    }
}

/// The grid of the zoomed-out columns and of the strips.
fn grid_of(options: &ScheduleChartOptions) -> Grid {
    Grid { from: options.from, to: options.to, buckets: options.columns }
}

/// The instant whose reservation is outlined: the window's middle.
fn middle(options: &ScheduleChartOptions) -> i64 {
    options.from + (options.to - options.from) / 2
}

/// The chart from its parts: the window's runs as boxes when they are
/// complete (else the columns given), the reservation as an outline and
/// the series as strips.
fn assemble(
    options: &ScheduleChartOptions,
    procs: u32,
    window: &WindowJobs,
    columns: Vec<f64>,
    head: Option<HeadReservation>,
    series: SeriesData,
) -> ScheduleChart {
    let mut chart = ScheduleChart {
        title: options.title.clone(),
        procs,
        from: options.from,
        to: options.to,
        columns,
        ..Default::default()
    };
    if window.complete {
        chart.boxes = window.rects.iter().flat_map(rect_boxes).collect();
    }
    if let Some(head) = head {
        let end = head.start.saturating_add(head.length);
        chart.outline = head
            .bands
            .iter()
            .map(|b| GanttBox { start: head.start, end, lo: b.lo, hi: b.hi, kind: BoxKind::InOrder, lost: 0 })
            .collect();
    }
    chart.strips = vec![
        SeriesStrip { name: "utilisation".into(), unit: StripUnit::Fraction, values: series.utilisation },
        SeriesStrip { name: "waiting jobs".into(), unit: StripUnit::Count, values: series.queue_jobs },
        SeriesStrip { name: "queued work".into(), unit: StripUnit::ProcSeconds, values: series.queue_work },
        SeriesStrip { name: "first job's wait".into(), unit: StripUnit::Seconds, values: series.head_wait },
    ];
    chart
}

/// One box per processor band of a run.
fn rect_boxes(rect: &JobRect) -> impl Iterator<Item = GanttBox> + '_ {
    let kind = match (rect.preempted, rect.class) {
        (true, _) => BoxKind::Preempted,
        (false, JobClass::InOrder) => BoxKind::InOrder,
        (false, JobClass::Backfilled) => BoxKind::Backfilled,
        (false, JobClass::Ventured) => BoxKind::Ventured,
    };
    rect.bands.iter().map(move |b| GanttBox {
        start: rect.start,
        end: rect.end,
        lo: b.lo,
        hi: b.hi,
        kind,
        lost: rect.lost,
    })
}

/// Time ticks: steps of whole minutes, hours or days, at most eight.
fn time_ticks(from: i64, to: i64) -> Vec<f64> {
    const STEPS: [i64; 16] = [
        1, 10, 60, 300, 600, 1800, 3600, 7200, 21_600, 43_200, 86_400, 172_800, 604_800, 2_592_000, 7_776_000,
        31_536_000,
    ];
    let span = (to - from).max(1);
    let step = STEPS.iter().copied().find(|s| span / s <= 8).unwrap_or(span);
    let first = from.div_euclid(step) * step + if from.rem_euclid(step) == 0 { 0 } else { step };
    (0..).map(|k| first + k * step).take_while(|&t| t <= to).map(|t| t as f64).collect()
}

/// A time as day and clock from the trace's start: `d12 06:30`.
fn clock_label(t: f64) -> String {
    let t = t.round() as i64;
    let (day, rest) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    if rest == 0 {
        format!("d{day}")
    } else {
        format!("d{day} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
    }
}

const LEGEND: [&str; 6] = [
    "in order",
    "backfilled",
    "backfilled past the reservation",
    "preempted, lost work hatched",
    "first waiting job's reservation at the window's middle",
    "busy (zoomed out)",
];

/// One entry of the schedule view's legend, for a page that draws the view
/// itself: what is drawn, its label and its colour, the chart's own.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegendEntry {
    /// `in_order`, `backfilled`, `ventured`, `preempted` (a [`BoxKind`]),
    /// `reservation` (the outline) or `busy` (the zoomed-out columns).
    pub key: String,
    pub label: String,
    /// A CSS colour.
    pub colour: String,
}

/// The legend of the schedule view in the chart's order, with the colours
/// [`schedule_chart`] draws (so the page and the SVG export agree).
pub fn schedule_legend() -> Vec<LegendEntry> {
    let kinds = [BoxKind::InOrder, BoxKind::Backfilled, BoxKind::Ventured, BoxKind::Preempted];
    let keys = ["in_order", "backfilled", "ventured", "preempted", "reservation", "busy"];
    let colours = kinds.map(kind_colour).into_iter().chain([colour(OUTLINE), colour(COLUMNS)]);
    keys.iter()
        .zip(LEGEND)
        .zip(colours)
        .map(|((key, label), RGBColor(r, g, b))| LegendEntry {
            key: (*key).to_owned(),
            label: label.to_owned(),
            colour: format!("#{r:02x}{g:02x}{b:02x}"),
        })
        .collect()
}

/// The legend's entries with their keys, in [`LEGEND`]'s order.
fn legend_entries() -> Vec<(String, Key)> {
    let keys = [
        Key::Box(kind_colour(BoxKind::InOrder)),
        Key::Box(kind_colour(BoxKind::Backfilled)),
        Key::Box(kind_colour(BoxKind::Ventured)),
        Key::Hatched(kind_colour(BoxKind::Preempted)),
        Key::Outline(colour(OUTLINE)),
        Key::Box(colour(COLUMNS)),
    ];
    LEGEND.iter().zip(keys).map(|(name, key)| ((*name).to_owned(), key)).collect()
}

pub(crate) fn draw<DB: DrawingBackend>(
    c: &ScheduleChart,
    root: &DrawingArea<DB, Shift>,
    look: Look,
) -> Result<(), ChartError> {
    if c.to <= c.from || c.procs == 0 {
        return no_data(root, &c.title, look);
    }
    let body = titled(root, &c.title, &c.subtitle, look)?;
    // The legend's names are long: it goes under the time axis, in rows.
    let main = with_legend(&body, &legend_entries(), look)?;
    let (w, h) = main.dim_in_pixel();
    let ticks =
        spaced_ticks(&time_ticks(c.from, c.to), &clock_label, look.tick, f64::from(w) * 0.8 / (c.to - c.from) as f64);
    let time = |labelled: bool| AxisSpec {
        lo: c.from as f64,
        hi: c.to as f64,
        ticks: ticks.clone(),
        label: if labelled { &clock_label } else { &no_label },
        desc: if labelled { "time since the trace's start".into() } else { String::new() },
        lines: 1,
    };
    let procs = f64::from(c.procs);
    let gantt_y = AxisSpec {
        lo: 0.0,
        hi: procs,
        ticks: linear_ticks(0.0, procs, 5),
        label: &int_label,
        desc: if c.node_rows.is_empty() { "processors" } else { "cores, node after node" }.into(),
        lines: 1,
    };
    let x_room = x_area(&time(true), look, look.tick);
    // Only the Gantt's top and the last panel's bottom keep a margin: the
    // panels between share the time axis.
    let margin = (look.tick * 0.4) as u32;
    let heights = Heights::new(h.saturating_sub(x_room + 2 * margin), c.strips.len(), look);
    let strip_look = Look { tick: strip_font(look), ..look };
    let strips: Vec<Strip> = c.strips.iter().map(|s| Strip::new(s, heights.strip, strip_look)).collect();
    let strip_axes: Vec<AxisSpec<'_>> = strips.iter().map(Strip::axis).collect();
    let y_room = strip_axes.iter().map(|a| y_area(a, strip_look)).fold(y_area(&gantt_y, look), u32::max);
    let last = strips.len();
    let (gantt, mut rest) = main.split_vertically(heights.gantt + margin + if last == 0 { x_room + margin } else { 0 });
    let right = right_margin(&time(true), look.tick);
    let areas = |labelled: bool, top: u32| Areas {
        y: y_room,
        x: if labelled { x_room } else { 0 },
        top,
        bottom: if labelled { margin } else { 0 },
        right,
    };
    let mut chart = frame_in(&gantt, time(last == 0), gantt_y, look, look.tick, false, areas(last == 0, margin))?;
    draw_boxes(c, &mut chart, look)?;
    for (k, (strip, axis)) in strips.iter().zip(strip_axes).enumerate() {
        let labelled = k + 1 == last;
        let (panel, below) =
            rest.split_vertically(heights.caption + heights.strip + if labelled { x_room + margin } else { 0 });
        rest = below;
        // The strip's name on its own line above the plot, where no line of
        // the series can run over it.
        let (caption, panel) = panel.split_vertically(heights.caption);
        let at = (y_room as i32 + (look.tick * 0.6) as i32, heights.caption as i32);
        let style = Look::font(strip_look.tick).pos(Pos::new(HPos::Left, VPos::Bottom));
        caption.draw(&Text::new(clean_text(&strip.spec.name), at, style)).map_err(draw_err)?;
        let mut chart = frame_in(&panel, time(labelled), axis, strip_look, look.tick, false, areas(labelled, 0))?;
        strip.draw(c, &mut chart, look)?;
    }
    Ok(())
}

/// Heights of the Gantt, of each strip's plot and of the line of its name.
struct Heights {
    gantt: u32,
    strip: u32,
    caption: u32,
}

impl Heights {
    /// The strips share up to 45 % of the height (each at most a sixth),
    /// the Gantt keeps the rest.
    fn new(plots: u32, strips: usize, look: Look) -> Self {
        if strips == 0 {
            return Heights { gantt: plots, strip: 0, caption: 0 };
        }
        let caption = (strip_font(look) * 1.15) as u32;
        let share = (plots * 9 / 20 / strips as u32).min(plots / 6);
        let strip = share.saturating_sub(caption).max(1);
        let gantt = plots.saturating_sub((strip + caption) * strips as u32);
        Heights { gantt, strip, caption }
    }
}

/// The font of the strips' names and ticks: smaller than the Gantt's, since
/// a strip is low and its labels carry units.
fn strip_font(look: Look) -> f64 {
    (look.tick * 0.7).max(MIN_FONT)
}

fn no_label(_: f64) -> String {
    String::new()
}

fn int_label(v: f64) -> String {
    format!("{}", v.round() as i64)
}

/// The boxes (or columns) and the outline.
fn draw_boxes<DB: DrawingBackend>(c: &ScheduleChart, chart: &mut Frame<'_, DB>, look: Look) -> Result<(), ChartError> {
    let procs = f64::from(c.procs);
    let (from, to) = (c.from as f64, c.to as f64);
    let clip = |s: i64, e: i64| ((s as f64).max(from), (e as f64).min(to));
    if c.boxes.is_empty() {
        let n = c.columns.len().max(1) as f64;
        let fill = colour(COLUMNS).filled();
        let columns = c.columns.iter().enumerate().filter(|(_, u)| u.is_finite() && **u > 0.0).map(|(k, &u)| {
            let (a, b) = (from + (to - from) * k as f64 / n, from + (to - from) * (k + 1) as f64 / n);
            Rectangle::new([(a, 0.0), (b, u.min(1.0) * procs)], fill)
        });
        chart.draw_series(columns).map_err(draw_err)?;
    }
    // Borders tell neighbouring runs apart while they are few enough to see.
    let border = c.boxes.len() <= 400;
    for b in &c.boxes {
        let (s, e) = clip(b.start, b.end);
        if e <= s {
            continue;
        }
        let corners = [(s, f64::from(b.lo)), (e, f64::from(b.hi))];
        chart.draw_series([Rectangle::new(corners, kind_colour(b.kind).filled())]).map_err(draw_err)?;
        if border {
            chart.draw_series([Rectangle::new(corners, WHITE.stroke_width(1))]).map_err(draw_err)?;
        }
        if b.kind == BoxKind::Preempted && b.lost > 0 {
            hatch(chart, (e - b.lost as f64).max(s), e, f64::from(b.lo), f64::from(b.hi))?;
        }
    }
    // Node boundaries under the outline, over the boxes: which node a run is on.
    let boundary = RGBColor(120, 120, 120).stroke_width(1);
    let lines =
        c.node_rows.iter().map(|&row| PathElement::new([(from, f64::from(row)), (to, f64::from(row))], boundary));
    chart.draw_series(lines).map_err(draw_err)?;
    for b in &c.outline {
        let (s, e) = clip(b.start, b.end);
        if e > s {
            let corners = [(s, f64::from(b.lo)), (e, f64::from(b.hi))];
            chart
                .draw_series([Rectangle::new(corners, colour(OUTLINE).stroke_width(look.line + 1))])
                .map_err(draw_err)?;
        }
    }
    Ok(())
}

/// A strip's values, cleaned, and its value axis: from 0 to twice a round
/// step, with ticks at 0, the step and the top (or 0 and the top when the
/// strip is too low for three labels), each in the strip's unit.
struct Strip<'s> {
    spec: &'s SeriesStrip,
    values: Vec<f64>,
    ticks: Vec<f64>,
    label: Box<dyn Fn(f64) -> String>,
}

impl<'s> Strip<'s> {
    fn new(spec: &'s SeriesStrip, height: u32, look: Look) -> Self {
        let values: Vec<f64> = spec.values.iter().map(|v| if v.is_finite() { v.max(0.0) } else { 0.0 }).collect();
        let most = values.iter().copied().fold(0.0, f64::max);
        let step = match spec.unit {
            StripUnit::Fraction => 0.5,
            StripUnit::Count => round_up(most / 2.0),
            StripUnit::Seconds => duration_step(most / 2.0),
            StripUnit::ProcSeconds => nice_step(most / 2.0),
        };
        let three = f64::from(height) >= look.tick * 3.3;
        let ticks = if three { vec![0.0, step, 2.0 * step] } else { vec![0.0, 2.0 * step] };
        Strip { spec, values, ticks, label: unit_label(spec.unit) }
    }

    fn axis(&self) -> AxisSpec<'_> {
        AxisSpec {
            lo: 0.0,
            hi: self.ticks.last().copied().unwrap_or(1.0),
            ticks: self.ticks.clone(),
            label: &*self.label,
            desc: String::new(),
            lines: 1,
        }
    }

    /// The values as steps.
    fn draw<DB: DrawingBackend>(
        &self,
        c: &ScheduleChart,
        chart: &mut Frame<'_, DB>,
        look: Look,
    ) -> Result<(), ChartError> {
        let n = self.values.len().max(1) as f64;
        let (from, to) = (c.from as f64, c.to as f64);
        let mut path = Vec::with_capacity(2 * self.values.len());
        for (k, &v) in self.values.iter().enumerate() {
            path.push((from + (to - from) * k as f64 / n, v));
            path.push((from + (to - from) * (k + 1) as f64 / n, v));
        }
        chart.draw_series([PathElement::new(path, colour(0).stroke_width(look.line))]).map_err(draw_err)?;
        Ok(())
    }
}

/// How a strip's ticks read: "50 %", "20 jobs", "12 h", "2 × 10⁹ proc·s".
pub(crate) fn unit_label(unit: StripUnit) -> Box<dyn Fn(f64) -> String> {
    match unit {
        StripUnit::Fraction => Box::new(|v: f64| format!("{:.0} %", v * 100.0)),
        StripUnit::Count => Box::new(|v: f64| match short_number(v).as_str() {
            "1" => "1 job".to_owned(),
            n => format!("{n} jobs"),
        }),
        StripUnit::Seconds => Box::new(|v: f64| if v == 0.0 { "0 s".to_owned() } else { duration_label(v) }),
        StripUnit::ProcSeconds => Box::new(|v: f64| format!("{} proc·s", short_number(v))),
    }
}

/// 1, 2 or 5 times a power of ten, at least `v` (any positive size).
fn nice_step(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    let mag = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|&s| s >= v).unwrap_or(10.0 * mag)
}

/// A step of whole seconds, minutes, hours or days, at least `v`, whose
/// multiples read as round durations ("30 min", "12 h", "2 d").
fn duration_step(v: f64) -> f64 {
    const STEPS: [f64; 20] = [
        1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0, 10_800.0, 21_600.0,
        43_200.0, 86_400.0, 172_800.0, 432_000.0,
    ];
    match STEPS.iter().copied().find(|&s| s >= v) {
        Some(s) => s,
        // Beyond five days: whole days, 1, 2 or 5 times a power of ten.
        None => 86_400.0 * nice_step(v / 86_400.0),
    }
}

/// 1, 2 or 5 times a power of ten, at least `v` (and at least 1).
fn round_up(v: f64) -> f64 {
    let v = v.max(1.0);
    let mag = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|&s| s >= v).unwrap_or(10.0 * mag)
}

/// Diagonal lines over `[a, b] × [lo, hi]`, about 45° and 8 pixels apart
/// on screen, clipped to the box.
fn hatch<DB: DrawingBackend>(chart: &mut Frame<'_, DB>, a: f64, b: f64, lo: f64, hi: f64) -> Result<(), ChartError> {
    let (x0, y0) = chart.backend_coord(&(a, lo));
    let (x1, y1) = chart.backend_coord(&(b, hi));
    let (px_w, px_h) = (f64::from((x1 - x0).abs().max(1)), f64::from((y0 - y1).abs().max(1)));
    let sec_per_px = (b - a) / px_w;
    // A line rises the box's height over as many pixels along time.
    let run = px_h * sec_per_px;
    let gap = 8.0 * sec_per_px;
    let mut lines = Vec::new();
    let mut x = a - run;
    while x < b {
        // The line from (x, lo) to (x + run, hi), clipped to a..b.
        let t0 = ((a - x) / run).max(0.0);
        let t1 = ((b - x) / run).min(1.0);
        if t1 > t0 {
            lines.push(PathElement::new(
                vec![(x + run * t0, lo + (hi - lo) * t0), (x + run * t1, lo + (hi - lo) * t1)],
                BLACK.stroke_width(1),
            ));
        }
        x += gap.max(f64::MIN_POSITIVE);
    }
    chart.draw_series(lines).map_err(draw_err)?;
    Ok(())
}
