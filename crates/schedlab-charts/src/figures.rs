//! The figures of an experiment result, as chart specifications: what the
//! page draws and exports, built once here from the core's result (the
//! summaries' means and 95 % intervals) and the column catalogue, so the
//! page constructs no chart of its own.

use schedlab_experiment::{
    identity_context, ExperimentResult, MetricsDocument, PointResult, Preset, PresetFigure, SummaryRow,
};
use schedlab_metrics::{column, MetricKey, CATEGORY_NAMES};
use serde::Serialize;

use crate::{BarChart, BarSeries, ChartSpec, EcdfChart, EcdfCurve, SweepChart, SweepLine, SweepPoint, WordTick};

/// A figure: a stable id (for the page's element and file names), a title
/// and the chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Figure {
    pub id: String,
    pub title: String,
    pub spec: ChartSpec,
}

/// Bars spanning more than this ratio (largest ÷ smallest positive value)
/// are drawn on a log axis: FCFS's slowdown would flatten every other bar.
pub const LOG_RATIO: f64 = 30.0;

/// The finite number of the catalogue metric at `path` (a preset's column),
/// read by its key; `None` for a path the catalogue does not know.
fn number(v: &MetricsDocument, path: &str) -> Option<f64> {
    MetricKey::parse(path).and_then(|key| v.value(key).number()).filter(|x| x.is_finite())
}

/// `[mean − h, mean + h]` when the row has an interval at `path`.
fn interval(row: &SummaryRow, path: &str) -> Option<(f64, f64)> {
    let (m, h) = (number(&row.mean, path)?, number(&row.ci95, path)?);
    Some((m - h, m + h))
}

fn repeated(r: &ExperimentResult) -> bool {
    r.experiment.repeat > 1
}

/// Whether values this far apart want a log axis.
pub fn wants_log(values: impl IntoIterator<Item = f64>) -> bool {
    let positive: Vec<f64> = values.into_iter().filter(|v| *v > 0.0 && v.is_finite()).collect();
    let (lo, hi) = positive.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    !positive.is_empty() && hi / lo > LOG_RATIO
}

fn label_of(c: &str) -> String {
    column(c).map_or_else(|| c.to_owned(), |c| c.label)
}

fn axis_label(c: &str) -> String {
    column(c).map_or_else(
        || c.to_owned(),
        |c| match c.unit {
            Some(u) => format!("{} ({u})", c.label),
            None => c.label,
        },
    )
}

/// Bars of `columns` (a series each), one group per row.
fn column_bars(
    title: String,
    groups: Vec<String>,
    rows: &[&SummaryRow],
    columns: &[&str],
    with_intervals: bool,
) -> ChartSpec {
    let series: Vec<BarSeries> = columns
        .iter()
        .map(|c| BarSeries {
            name: label_of(c),
            values: rows.iter().map(|r| number(&r.mean, c)).collect(),
            intervals: with_intervals.then(|| rows.iter().map(|r| interval(r, c)).collect()),
        })
        .collect();
    let log_y = wants_log(series.iter().flat_map(|s| s.values.iter().flatten().copied()));
    // A few columns name themselves ("MBS / MWBS"); more would not fit
    // along the axis.
    let y_label = match columns.len() {
        1..=3 => columns.iter().map(|c| axis_label(c)).collect::<Vec<_>>().join(" / "),
        _ => "value".to_owned(),
    };
    // The groups are runs named by their titles: the axis needs no
    // description, and the plot keeps its height.
    ChartSpec::Bars(BarChart { title, y_label, groups, series, log_y, ..BarChart::default() })
}

/// The figures of an experiment the page's form ran: MBS and MWBS per run,
/// the wait ECDFs (when kept), blocked-job MBS by job size, and for a
/// sweep MBS and MWBS against the swept parameter. Every row (each swept
/// run at each of its values) appears in every per-run chart, named by
/// its title; each chart's subtitle is the trace and its options.
pub fn figures(r: &ExperimentResult) -> Vec<Figure> {
    let mut out = Vec::new();
    let rows: Vec<&SummaryRow> = r.summary.iter().collect();
    let groups: Vec<String> = rows.iter().map(|row| row_label(r, row)).collect();
    let rep = repeated(r);
    let title = if rep { "MBS and MWBS per run (95 % intervals)" } else { "MBS and MWBS per run" };
    let mut bars = column_bars(title.into(), groups.clone(), &rows, &["mbs", "mwbs"], rep);
    if let ChartSpec::Bars(b) = &mut bars {
        b.y_label = "bounded slowdown".into();
    }
    out.push(Figure { id: "chart-mbs".into(), title: title.into(), spec: bars });
    let curves: Vec<EcdfCurve> = rows
        .iter()
        .zip(&groups)
        .filter_map(|(row, name)| {
            let first = r.points.iter().find(|p| in_cell(r, p, row) && p.wait_ecdf.is_some())?;
            let points = first.wait_ecdf.as_ref()?.iter().map(|&(t, f)| (t as f64, f)).collect();
            Some(EcdfCurve { name: name.clone(), points })
        })
        .collect();
    if !curves.is_empty() {
        let title = "Wait-time distribution (ECDF, log time axis)".to_owned();
        let spec = ChartSpec::Ecdf(EcdfChart {
            title: title.clone(),
            x_label: "wait".into(),
            y_label: "fraction of jobs".into(),
            curves,
            ..EcdfChart::default()
        });
        out.push(Figure { id: "chart-ecdf".into(), title, spec });
    }
    if let Some(spec) = blocked_bars(&rows, &groups, "mbs", rep) {
        out.push(Figure { id: "chart-blocked".into(), title: chart_title(&spec), spec });
    }
    if let Some(s) = &r.experiment.sweep {
        let names = run_titles(r);
        for metric in ["mbs", "mwbs"] {
            let spec = sweep_chart(r, metric, &s.param, rep, &names);
            out.push(Figure { id: format!("chart-sweep-{metric}"), title: chart_title(&spec), spec });
        }
    }
    let context = identity_context(&r.trace).unwrap_or_default();
    for f in &mut out {
        f.spec.set_subtitle(&context);
    }
    out
}

/// Whether point `p` belongs to the cell of summary row `row` (its run at
/// its sweep value).
fn in_cell(r: &ExperimentResult, p: &PointResult, row: &SummaryRow) -> bool {
    let value = match (&r.experiment.sweep, p.point.value) {
        (Some(s), Some(v)) => Some(s.value(v)),
        _ => None,
    };
    p.point.run == row.run && value == row.value
}

fn chart_title(spec: &ChartSpec) -> String {
    match spec {
        ChartSpec::Bars(c) => c.title.clone(),
        ChartSpec::Ecdf(c) => c.title.clone(),
        ChartSpec::Sweep(c) => c.title.clone(),
        ChartSpec::Schedule(c) => c.title.clone(),
    }
}

/// A row's name: its title (which names the sweep value), or for a
/// document written before titles, its spec and the sweep value.
fn row_label(r: &ExperimentResult, row: &SummaryRow) -> String {
    if !row.title.is_empty() {
        return row.title.clone();
    }
    match (&row.value, &r.experiment.sweep) {
        (Some(v), Some(s)) => format!("{} {}={v}", row.label, s.param),
        _ => row.label.clone(),
    }
}

/// A blocked-group metric by job-size bin (the power-of-two bins; "big"
/// and "small" are the first two groups), one series per row.
fn blocked_bars(rows: &[&SummaryRow], names: &[String], metric: &str, rep: bool) -> Option<ChartSpec> {
    let groups: Vec<String> = rows.first()?.mean.blocked_group_names().into_iter().skip(2).collect();
    if groups.is_empty() {
        return None;
    }
    let series: Vec<BarSeries> = rows
        .iter()
        .zip(names)
        .map(|(row, name)| {
            let path = |k: usize| format!("blocked_groups.{}.{metric}", k + 2);
            BarSeries {
                name: name.clone(),
                values: (0..groups.len()).map(|k| number(&row.mean, &path(k))).collect(),
                intervals: rep.then(|| (0..groups.len()).map(|k| interval(row, &path(k))).collect()),
            }
        })
        .collect();
    let label = if metric == "mwbs" { "MWBS" } else { "MBS" };
    let log_y = wants_log(series.iter().flat_map(|s| s.values.iter().flatten().copied()));
    Some(ChartSpec::Bars(BarChart {
        title: format!("{label} of blocked jobs by job size"),
        x_label: "job size (processors)".into(),
        y_label: format!("{label} of blocked jobs"),
        groups,
        series,
        log_y,
        // A size class without blocked jobs has a mean over no jobs
        // (`null`) in every run: say so rather than leave a gap.
        empty: "no blocked jobs".into(),
        ..BarChart::default()
    }))
}

/// `metric` against the swept parameter: a line per swept run, a flat line
/// for each run the sweep does not apply to, named by `names` (one per
/// run). A swept value that is a word
/// (depth `all`) goes past the numbers, one step further each: a doubling
/// on a log axis, the mean gap on a linear one.
fn sweep_chart(r: &ExperimentResult, metric: &str, param: &str, rep: bool, names: &[String]) -> ChartSpec {
    let xs: Vec<f64> = r.summary.iter().filter_map(|row| row.value.as_deref()?.parse::<f64>().ok()).collect();
    let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let log_x = lo > 0.0 && hi / lo >= LOG_X_RATIO;
    let words = word_ticks(r, &xs, log_x);
    let x_of = |value: &str| value.parse::<f64>().ok().or_else(|| words.iter().find(|w| w.word == value).map(|w| w.x));
    let right = words.last().map_or(hi, |w| w.x);
    let mut lines = Vec::new();
    for (run, name) in names.iter().enumerate() {
        let rows: Vec<&SummaryRow> = r.summary.iter().filter(|row| row.run == run).collect();
        let point = |row: &SummaryRow, x: f64| {
            let y = number(&row.mean, metric)?;
            let iv = if rep { interval(row, metric) } else { None };
            Some(SweepPoint { x, y, low: iv.map(|i| i.0), high: iv.map(|i| i.1) })
        };
        let points: Vec<SweepPoint> = match rows.as_slice() {
            [row] if row.value.is_none() && lo.is_finite() => {
                [lo, right].iter().filter_map(|&x| point(row, x)).collect()
            }
            _ => rows.iter().filter_map(|row| point(row, x_of(row.value.as_deref()?)?)).collect(),
        };
        if !points.is_empty() {
            lines.push(SweepLine { name: name.clone(), points });
        }
    }
    let name = label_of(metric);
    // The same rule as the bars of the same numbers, so that a metric
    // drawn on a log axis per run stays on one against the parameter.
    let log_y = wants_log(lines.iter().flat_map(|l| l.points.iter().map(|p| p.y)));
    ChartSpec::Sweep(SweepChart {
        title: format!("{name} vs {param}{}", if rep { " (95 % intervals)" } else { "" }),
        x_label: param.to_owned(),
        y_label: axis_label(metric),
        log_x,
        log_y,
        lines,
        words,
        ..SweepChart::default()
    })
}

/// A swept parameter's x axis is logarithmic when its values are positive
/// and span this factor or more (depths 1 to 64 do; error 0 to 40 % cannot).
const LOG_X_RATIO: f64 = 16.0;

/// The swept values that are words, in the order the sweep gives them,
/// placed past the largest of the numeric values `xs`.
fn word_ticks(r: &ExperimentResult, xs: &[f64], log_x: bool) -> Vec<WordTick> {
    let mut words: Vec<String> = Vec::new();
    for value in r.summary.iter().filter_map(|row| row.value.as_deref()) {
        if value.parse::<f64>().is_err() && !words.iter().any(|w| w == value) {
            words.push(value.to_owned());
        }
    }
    let mut distinct = xs.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let (lo, hi) = match (distinct.first(), distinct.last()) {
        (Some(&lo), Some(&hi)) => (lo, hi),
        _ => (0.0, 0.0),
    };
    let gap = if distinct.len() > 1 { (hi - lo) / (distinct.len() - 1) as f64 } else { 1.0 };
    let at = |k: usize| if log_x { hi * 2f64.powi(k as i32 + 1) } else { hi + gap * (k + 1) as f64 };
    words.into_iter().enumerate().map(|(k, word)| WordTick { x: at(k), word }).collect()
}

/// Each run's title for people (its spec label where a result has none),
/// the name its bars and lines go by in every chart.
fn run_titles(r: &ExperimentResult) -> Vec<String> {
    (0..r.labels.len()).map(|run| r.titles.get(run).unwrap_or(&r.labels[run]).clone()).collect()
}

/// The figures of a preset section, the way the paper draws them.
pub fn preset_figures(preset: &Preset, section: usize, r: &ExperimentResult) -> Vec<Figure> {
    let rep = repeated(r);
    let short = run_titles(r);
    let rows: Vec<&SummaryRow> = r.summary.iter().collect();
    let names: Vec<String> = rows
        .iter()
        .map(|row| match (&row.value, &r.experiment.sweep) {
            (Some(v), Some(s)) => format!("{} {}={v}", short[row.run], s.param),
            _ => short[row.run].clone(),
        })
        .collect();
    let mut specs: Vec<ChartSpec> = Vec::new();
    for figure in preset.figures {
        match *figure {
            PresetFigure::Bars { columns } => specs.extend(bars_by_magnitude(&rows, &names, columns, rep)),
            PresetFigure::Curves { columns } => {
                let param = r.experiment.sweep.as_ref().map_or("value", |s| s.param.as_str());
                specs.extend(columns.iter().map(|c| sweep_chart(r, c, param, rep, &short)));
            }
            PresetFigure::Categories { metric } => specs.extend(category_change(&rows, &names, metric)),
            PresetFigure::BlockedGroups { metric } => specs.extend(blocked_bars(&rows, &names, metric, rep)),
        }
    }
    specs
        .into_iter()
        .enumerate()
        .map(|(k, spec)| Figure {
            id: format!("{}-{}-{}", preset.id, section + 1, k + 1),
            title: chart_title(&spec),
            spec,
        })
        .collect()
}

/// Bars of the columns, together when their scales are within tenfold,
/// else a chart each.
fn bars_by_magnitude(rows: &[&SummaryRow], names: &[String], columns: &[&str], rep: bool) -> Vec<ChartSpec> {
    let magnitude = |c: &str| rows.iter().filter_map(|row| number(&row.mean, c)).fold(0.0f64, |m, v| m.max(v.abs()));
    let m: Vec<f64> = columns.iter().map(|c| magnitude(c)).collect();
    let together = m.len() < 2
        || (m.iter().all(|&x| x > 0.0)
            && m.iter().fold(0.0f64, |a, &b| a.max(b)) / m.iter().fold(f64::INFINITY, |a, &b| a.min(b)) <= 10.0);
    let sets: Vec<Vec<&str>> =
        if together { vec![columns.to_vec()] } else { columns.iter().map(|c| vec![*c]).collect() };
    sets.into_iter()
        .map(|set| {
            let labels: Vec<String> = set.iter().map(|c| label_of(c)).collect();
            let title = format!("{} per run{}", labels.join(" and "), if rep { " (95 % intervals)" } else { "" });
            column_bars(title, names.to_vec(), rows, &set, rep)
        })
        .collect()
}

/// % change of a category metric of every run relative to the first run,
/// per category (negative = better). A category without jobs has no value
/// (its mean over no job is not 0), so it has no bar and says so.
fn category_change(rows: &[&SummaryRow], names: &[String], metric: &str) -> Option<ChartSpec> {
    let base = rows.iter().find(|row| row.run == 0)?;
    let path = |k: usize| format!("categories.{k}.{metric}");
    let value = |row: &SummaryRow, k: usize| {
        let empty = number(&row.mean, &format!("categories.{k}.jobs")) == Some(0.0);
        if empty {
            None
        } else {
            number(&row.mean, &path(k))
        }
    };
    let series = rows
        .iter()
        .zip(names)
        .filter(|(row, _)| row.run != 0)
        .map(|(row, name)| BarSeries {
            name: name.clone(),
            values: (0..CATEGORY_NAMES.len())
                .map(|k| match (value(base, k), value(row, k)) {
                    (Some(b), Some(v)) if b != 0.0 => Some(100.0 * (v - b) / b),
                    _ => None,
                })
                .collect(),
            intervals: None,
        })
        .collect();
    let what = column(&path(0)).map_or(metric.to_owned(), |c| c.label.trim_start_matches("SN ").to_owned());
    Some(ChartSpec::Bars(BarChart {
        title: format!("{what}: % change relative to {} (negative = better)", base.label),
        x_label: "category".into(),
        y_label: format!("% change of {what}"),
        groups: CATEGORY_NAMES.iter().map(|c| (*c).to_owned()).collect(),
        series,
        log_y: false,
        empty: "no jobs".into(),
        ..BarChart::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_experiment::{preset, run_point, Experiment, Plan, RunSpec, Sweep, TraceDocument, WorkloadOptions};
    use schedlab_metrics::{GroupField, Metric};
    use schedlab_workload::{read_swf, ReadOptions};

    const KTH: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");

    fn result(e: Experiment) -> ExperimentResult {
        let trace = read_swf(KTH, &ReadOptions::default()).unwrap().trace;
        let plan = Plan::new(e).unwrap();
        let points = plan
            .points(None)
            .map(|p| run_point(&trace, &plan, &p, &mut |_, _| schedlab_engine::Control::Continue).unwrap())
            .collect();
        ExperimentResult::new(&plan, TraceDocument::none(), None, points)
    }

    /// The SVG of a figure equals its file in tests/snapshots/
    /// (`SCHEDLAB_BLESS=1` rewrites them), and no text leaves the canvas.
    fn snapshot(f: &Figure) {
        let svg = crate::to_svg(&f.spec, 1200, 750);
        crate::tests::assert_inside(&svg, 1200, 750);
        let path = format!("{}/tests/snapshots/{}.svg", env!("CARGO_MANIFEST_DIR"), f.id);
        if std::env::var_os("SCHEDLAB_BLESS").is_some() {
            std::fs::create_dir_all(format!("{}/tests/snapshots", env!("CARGO_MANIFEST_DIR"))).unwrap();
            std::fs::write(&path, &svg).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(want == svg, "{path} differs: SCHEDLAB_BLESS=1 cargo test -p schedlab-charts rewrites it");
    }

    #[test]
    fn the_blocked_job_figures_of_pv_easy_vs_easy_are_drawn() {
        let p = preset("pv-easy-vs-easy").unwrap();
        let r = result(p.sections[0].experiment(&WorkloadOptions::default()));
        let figs = preset_figures(p, 0, &r);
        assert_eq!(figs.len(), 3, "MBS/MWBS bars, then blocked MBS and MWBS by size");
        let ChartSpec::Bars(blocked) = &figs[1].spec else { panic!("bars") };
        assert_eq!(blocked.series.len(), 3, "one series per run");
        assert_eq!(blocked.groups[..3], ["1", "2", "3-4"]);
        assert_eq!(blocked.y_label, "MBS of blocked jobs");
        // The values are the summaries' means of the size bins.
        let first = r.summary[0].mean.value(MetricKey::BlockedGroup(2, GroupField::Mbs)).number();
        assert_eq!(blocked.series[0].values[0], first);
        let ChartSpec::Bars(bars) = &figs[0].spec else { panic!("bars") };
        // Each bar goes by its run's title, as the table and the results do.
        assert_eq!(bars.groups, ["EASY", "EASY, last", "PV-EASY"]);
        assert_eq!(bars.y_label, "MBS / MWBS");
        figs.iter().for_each(snapshot);
    }

    #[test]
    fn an_experiments_figures_come_from_its_summaries() {
        let mut e =
            Experiment::of(["fcfs", "easy@virtual", "cbf"].iter().map(|s| RunSpec::parse(s).unwrap()).collect());
        e.repeat = 2;
        e.wait_ecdf = true;
        let mut sweep = Sweep::parse("error=0,40").unwrap();
        sweep.runs = Some(vec![1]);
        e.sweep = Some(sweep);
        let r = result(e);
        let figs = figures(&r);
        let ids: Vec<&str> = figs.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["chart-mbs", "chart-ecdf", "chart-blocked", "chart-sweep-mbs", "chart-sweep-mwbs"]);
        let ChartSpec::Bars(b) = &figs[0].spec else { panic!("bars") };
        assert_eq!(
            b.groups,
            ["FCFS", "EASY, virtual (error 0 %)", "EASY, virtual (error 40 %)", "Conservative backfilling"],
            "every run, the swept one at each value, by its title"
        );
        let ChartSpec::Ecdf(ecdf) = &figs[1].spec else { panic!("ecdf") };
        assert_eq!(ecdf.curves.len(), 4, "a curve for every row");
        assert_ne!(ecdf.curves[1].points, ecdf.curves[2].points, "each swept value's own curve");
        let all: Vec<f64> = b.series.iter().flat_map(|s| s.values.iter().flatten().copied()).collect();
        let ratio = all.iter().copied().fold(0.0, f64::max) / all.iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(b.log_y, ratio > LOG_RATIO, "ratio {ratio}");
        assert_eq!(b.series[0].values[0], r.summary[0].mean.value(MetricKey::Fixed(Metric::Mbs)).number());
        let ChartSpec::Sweep(s) = &figs[3].spec else { panic!("sweep") };
        assert_eq!(s.lines.len(), 3);
        assert_eq!(s.lines[1].points.iter().map(|p| p.x).collect::<Vec<_>>(), [0.0, 40.0]);
        // A run the sweep does not apply to is a flat line across it.
        assert_eq!(s.lines[0].points[0].y, s.lines[0].points[1].y);
        assert!(s.lines[1].points[1].low.is_some(), "two repetitions: intervals");
        figs.iter().for_each(snapshot);
    }

    /// Bars on a log axis stay on one in a sweep: the metric drawn against
    /// the swept parameter takes the bars' rule. Blocked single-processor
    /// jobs wait hundreds of times longer under FCFS than under the
    /// backfilling runs, so the blocked-by-size bars are on a log axis, and
    /// so is that size class's MBS against the prediction error.
    #[test]
    fn a_sweep_keeps_the_log_axis_of_the_bars() {
        let mut e = Experiment::of(["fcfs", "easy@virtual"].iter().map(|s| RunSpec::parse(s).unwrap()).collect());
        let mut sweep = Sweep::parse("error=0,40").unwrap();
        sweep.runs = Some(vec![1]);
        e.sweep = Some(sweep);
        let r = result(e);
        let figs = figures(&r);
        let blocked = figs.iter().find(|f| f.id == "chart-blocked").expect("the blocked-by-size bars");
        let ChartSpec::Bars(b) = &blocked.spec else { panic!("bars") };
        assert!(b.log_y, "{:?}", b.series);
        let ChartSpec::Sweep(s) = sweep_chart(&r, "blocked_groups.2.mbs", "error", false, &r.labels) else {
            panic!("sweep")
        };
        assert!(s.log_y, "{:?}", s.lines);
        let ys = s.lines.iter().flat_map(|l| l.points.iter().map(|p| p.y));
        assert_eq!(s.log_y, wants_log(ys));
    }

    /// A category without jobs has no bar (its MBS over no job is written
    /// 0, which is no value): hand-made rows, SN empty under the second
    /// run, SW empty under both; LN from 4 to 2 is −50 %.
    #[test]
    fn an_empty_category_has_no_bar() {
        let cats = |jobs: [u32; 4], mbs: [f64; 4]| -> serde_json::Value {
            let rows: Vec<serde_json::Value> = (0..4)
                .map(|k| serde_json::json!({ "name": CATEGORY_NAMES[k], "jobs": jobs[k], "mbs": mbs[k] }))
                .collect();
            serde_json::json!({ "categories": rows })
        };
        let row = |run: usize, mean: serde_json::Value| -> SummaryRow {
            serde_json::from_value(serde_json::json!({
                "run": run, "label": format!("r{run}"), "value": null, "seeds": [0], "mean": mean, "ci95": {}
            }))
            .unwrap()
        };
        let base = row(0, cats([5, 0, 3, 2], [2.0, 0.0, 4.0, 1.0]));
        let other = row(1, cats([0, 0, 3, 2], [0.0, 0.0, 2.0, 1.5]));
        let spec = category_change(&[&base, &other], &["r0".into(), "r1".into()], "mbs").unwrap();
        let ChartSpec::Bars(b) = spec else { panic!("bars") };
        assert_eq!(b.series[0].values, [None, None, Some(-50.0), Some(50.0)]);
        assert_eq!(b.empty, "no jobs");
    }
}
