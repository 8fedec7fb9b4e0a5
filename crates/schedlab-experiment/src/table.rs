//! An experiment result as a table: one row per (run, sweep value), one
//! column per metric of the column catalogue, each cell the mean with its
//! 95 % half-width when the runs were repeated, printed with the column's
//! digits. The command line's `sweep` and `reproduce` tables and the page's
//! result and preset tables are all this table.

use schedlab_metrics::{column, columns, format_cell, Column};
use schedlab_workload::duration_text;
use serde::Serialize;

use crate::{ExperimentResult, MetricValue, MetricsDocument};

/// One cell: the text a table prints, and the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TableCell {
    /// "12.345", "12.345 ± 0.678", or "–" for a missing value.
    pub text: String,
    pub mean: Option<f64>,
    /// The 95 % half-width; `None` for one repetition.
    pub ci95: Option<f64>,
}

/// One (run, sweep value) of a [`SummaryTable`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TableRow {
    pub run: usize,
    pub label: String,
    /// The run's title for people (the label stays its exact spec).
    pub title: String,
    /// The sweep value; `None` for a run the sweep does not apply to.
    pub value: Option<String>,
    pub cells: Vec<TableCell>,
}

/// How a table prints the columns measured in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellStyle {
    /// Seconds with the column's digits ("1749.9"), as the command line's
    /// tables print them to be compared with the papers' figures.
    Seconds,
    /// Durations as people read them ("29 min 10 s"), as the page shows
    /// them; the header then names no unit, since every cell carries one.
    Durations,
}

impl CellStyle {
    fn durations(self, c: &Column) -> bool {
        self == CellStyle::Durations && c.unit == Some("s")
    }
}

/// An experiment result's summaries as a table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SummaryTable {
    /// The swept parameter, whose values the rows carry.
    pub sweep: Option<String>,
    /// The trace and the options it was read with (`trace_context`).
    pub context: String,
    pub columns: Vec<Column>,
    /// Each column's header: its label, and its unit when the cells do not
    /// carry one ("MBS", "largest size (processors)", "max wait").
    pub headers: Vec<String>,
    pub rows: Vec<TableRow>,
    /// Which runs ran once because they use no randomness
    /// ([`ExperimentResult::note`]), for the table to print under it.
    pub note: Option<String>,
}

/// A summarised metric as a table prints it: the mean, and ± the 95 %
/// half-width when there is an interval (repeated runs).
pub fn summary_cell(mean: &MetricsDocument, ci95: &MetricsDocument, c: &Column) -> String {
    styled_cell(mean, ci95, c, CellStyle::Seconds)
}

/// [`summary_cell`] in `style`: "4 h 54 min ± 12 min" for a duration.
fn styled_cell(mean: &MetricsDocument, ci95: &MetricsDocument, c: &Column, style: CellStyle) -> String {
    let m = match mean.value(c.metric) {
        MetricValue::Undefined => return schedlab_metrics::UNDEFINED.to_owned(),
        m => m.number().filter(|m| m.is_finite()),
    };
    let h = ci95.value(c.metric).number();
    match (m, h, style.durations(c)) {
        (Some(m), Some(h), true) => format!("{} ± {}", duration_text(m), duration_text(h)),
        (Some(m), None, true) => duration_text(m),
        (Some(m), Some(h), false) => format!("{m:.d$} ± {h:.d$}", d = usize::from(c.digits)),
        _ => format_cell(m, c.digits),
    }
}

/// A column's header in `style`: the label, and the unit in parentheses
/// unless every cell carries it.
pub fn column_header(c: &Column, style: CellStyle) -> String {
    match c.unit {
        Some(u) if !style.durations(c) => format!("{} ({u})", c.label),
        _ => c.label.clone(),
    }
}

/// The table of `r` with the given columns (metric paths; a path the
/// catalogue does not know is left out), or, with `None`, every catalogue
/// column that some row has a number for (`Column::shown` marks the ones
/// to show first), its durations printed in `style`.
pub fn summary_table(r: &ExperimentResult, paths: Option<&[String]>, style: CellStyle) -> SummaryTable {
    let columns: Vec<Column> = match paths {
        Some(paths) => paths.iter().filter_map(|p| column(p)).collect(),
        None => columns()
            .into_iter()
            .filter(|c| r.summary.iter().any(|row| row.mean.value(c.metric).number().is_some()))
            .collect(),
    };
    let rows = r
        .summary
        .iter()
        .map(|row| TableRow {
            run: row.run,
            label: row.label.clone(),
            title: row.title.clone(),
            value: row.value.clone(),
            cells: columns
                .iter()
                .map(|c| TableCell {
                    text: styled_cell(&row.mean, &row.ci95, c, style),
                    mean: row.mean.value(c.metric).number(),
                    ci95: row.ci95.value(c.metric).number(),
                })
                .collect(),
        })
        .collect();
    SummaryTable {
        sweep: r.experiment.sweep.as_ref().map(|s| s.param.clone()),
        context: crate::identity_context(&r.trace).unwrap_or_default(),
        headers: columns.iter().map(|c| column_header(c, style)).collect(),
        columns,
        rows,
        note: r.note.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Experiment, Plan, PointResult, RunSpec, TraceDocument};

    fn result(repeat: u32, metrics: &[&str]) -> ExperimentResult {
        // DBF draws from its seed, so it runs `repeat` times.
        let mut e = Experiment::of(vec![RunSpec::parse("dbf").unwrap()]);
        e.repeat = repeat;
        let plan = Plan::new(e).unwrap();
        let points = metrics
            .iter()
            .enumerate()
            .map(|(i, m)| PointResult {
                point: plan.point(i as u64).unwrap(),
                events: 1,
                elapsed_ms: None,
                metrics: serde_json::from_str(m).unwrap(),
                wait_ecdf: None,
            })
            .collect();
        ExperimentResult::new(&plan, TraceDocument::none(), None, points)
    }

    #[test]
    fn cells_print_the_mean_and_interval_with_the_columns_digits() {
        // Two repetitions: MBS 2 and 4, mean 3, s = √2, half-width
        // t(0.975, 1) · √2 / √2 = 12.706.
        let r = result(2, &[r#"{"mbs": 2.0, "max_wait": 7}"#, r#"{"mbs": 4.0, "max_wait": 7}"#]);
        let t = summary_table(&r, Some(&["mbs".into(), "max_wait".into(), "no_such".into()]), CellStyle::Seconds);
        assert_eq!(t.columns.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(), ["MBS", "max wait"]);
        let cells = &t.rows[0].cells;
        assert_eq!(cells[0].text, "3.000 ± 12.706");
        assert_eq!((cells[0].mean, cells[0].ci95.map(|h| (h * 1000.0).round())), (Some(3.0), Some(12706.0)));
        // Identical values: an interval of exactly 0.
        assert_eq!(cells[1].text, "7 ± 0");
        assert_eq!((t.rows[0].label.as_str(), t.rows[0].value.as_ref(), t.sweep.as_ref()), ("dbf", None, None));
    }

    #[test]
    fn without_paths_every_column_with_a_number_in_some_row() {
        let r = result(1, &[r#"{"mbs": 1.5, "backfilled": 3, "fairness": {"delayed": 2}}"#]);
        let t = summary_table(&r, None, CellStyle::Seconds);
        let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["mbs", "backfilled", "fairness.delayed"]);
        let texts: Vec<&str> = t.rows[0].cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["1.500", "3", "2"], "one repetition: the mean alone, whole numbers without decimals");
    }

    /// A mean over no jobs is `null` in every run: its cell says so rather
    /// than showing a dash (no such metric) or 0.
    #[test]
    fn a_mean_over_no_jobs_prints_as_undefined() {
        let m = r#"{"deadline": {"regular_jobs": 0, "regular_mean_wait": null}}"#;
        let r = result(2, &[m, m]);
        let paths = ["deadline.regular_jobs".into(), "deadline.regular_mean_wait".into(), "mbs".into()];
        let cells = &summary_table(&r, Some(&paths), CellStyle::Durations).rows[0].cells;
        let texts: Vec<&str> = cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["0 ± 0", "undefined (no jobs)", "\u{2013}"]);
        assert_eq!((cells[1].mean, cells[1].ci95), (None, None));
    }

    /// The page's tables print seconds as durations, the interval too
    /// (mean 17,640 s; half-width t(0.975, 1) · 640 = 8,131.8 s), and their
    /// headers name no unit; other columns keep theirs and their digits.
    #[test]
    fn durations_print_as_people_read_them_in_the_page_style() {
        let r = result(2, &[r#"{"mbs": 2.0, "max_wait": 17000}"#, r#"{"mbs": 4.0, "max_wait": 18280}"#]);
        let paths = ["max_wait".into(), "mbs".into()];
        let t = summary_table(&r, Some(&paths), CellStyle::Durations);
        let texts: Vec<&str> = t.rows[0].cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["4 h 54 min ± 2 h 15 min", "3.000 ± 12.706"]);
        assert_eq!(t.headers, ["max wait", "MBS"]);
        let t = summary_table(&r, Some(&paths), CellStyle::Seconds);
        assert_eq!(t.rows[0].cells[0].text, "17640 ± 8132");
        assert_eq!(t.headers, ["max wait (s)", "MBS"]);
    }
}
