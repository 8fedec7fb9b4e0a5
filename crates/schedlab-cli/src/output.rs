//! Printing: stdout, JSON, aligned tables and progress bars (files go
//! through [`crate::outputs`]).

use std::io::{self, BufWriter, IsTerminal, Write};
use std::time::Duration;

use anyhow::Result;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

/// Buffered stdout; write errors (a closed pipe) surface as `io::Error`.
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::new(io::stdout().lock())
}

/// Pretty JSON and a newline on stdout.
pub fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    let mut out = stdout();
    out.write_all(schedlab_experiment::document_text(value, "result")?.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Column alignment in a [`Table`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A row of a [`Table`]: cells, or a label and a message across the rest.
enum TableRow {
    Cells(Vec<String>),
    Message(String, String),
}

/// A plain-text table with aligned columns.
pub struct Table {
    headers: Vec<String>,
    aligns: Vec<Align>,
    rows: Vec<TableRow>,
}

impl Table {
    /// Columns: the first left-aligned, the others right-aligned (numbers).
    pub fn new<S: AsRef<str>>(headers: &[S]) -> Self {
        Self::with_headers(headers.iter().map(|h| h.as_ref().to_owned()).collect())
    }

    /// A table whose headers are computed (e.g. one column per case).
    pub fn with_headers(headers: Vec<String>) -> Self {
        let aligns = (0..headers.len()).map(|i| if i == 0 { Align::Left } else { Align::Right }).collect();
        Table { headers, aligns, rows: Vec::new() }
    }

    pub fn align(mut self, column: usize, align: Align) -> Self {
        self.aligns[column] = align;
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(TableRow::Cells(cells));
    }

    /// A row whose first cell is its label and whose message spans the rest.
    pub fn message_row(&mut self, label: String, message: String) {
        self.rows.push(TableRow::Message(label, message));
    }

    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            if let TableRow::Cells(cells) = row {
                for (i, cell) in cells.iter().enumerate().take(w.len()) {
                    w[i] = w[i].max(cell.chars().count());
                }
            }
        }
        w
    }

    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let widths = self.widths();
        self.write_row(out, &self.headers, &widths)?;
        let total = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
        writeln!(out, "{}", "-".repeat(total))?;
        for row in &self.rows {
            match row {
                TableRow::Cells(cells) => self.write_row(out, cells, &widths)?,
                TableRow::Message(label, message) => writeln!(out, "{label:<w$}  {message}", w = widths[0])?,
            }
        }
        Ok(())
    }

    fn write_row(&self, out: &mut dyn Write, cells: &[String], widths: &[usize]) -> io::Result<()> {
        let mut line = String::new();
        for (i, cell) in cells.iter().enumerate().take(widths.len()) {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = widths[i].saturating_sub(cell.chars().count());
            match self.aligns[i] {
                Align::Left => {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                }
                Align::Right => {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                }
            }
        }
        writeln!(out, "{}", line.trim_end())
    }
}

/// A column's header: its catalogue label and unit.
pub fn header(c: &schedlab_metrics::Column) -> String {
    schedlab_experiment::column_header(c, schedlab_experiment::CellStyle::Seconds)
}

/// A metric of a metrics document as its column prints it.
pub fn metric_cell(metrics: &schedlab_experiment::MetricsDocument, c: &schedlab_metrics::Column) -> String {
    match metrics.value(c.metric) {
        schedlab_experiment::MetricValue::Undefined => schedlab_metrics::UNDEFINED.to_owned(),
        v => schedlab_metrics::format_cell(v.number(), c.digits),
    }
}

/// A summarised metric as tables print it (the core's, shared with the page).
pub use schedlab_experiment::summary_cell;

/// A number with `digits` decimals.
pub fn fixed(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// An integer with thousands separators: 1234567 -> "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let groups: Vec<&str> = digits.as_bytes().rchunks(3).rev().map(|g| std::str::from_utf8(g).unwrap_or("?")).collect();
    groups.join(",")
}

/// Seconds also as days/hours for long spans: "93784 s (1d 2h 3m 4s)".
pub fn duration(seconds: i64) -> String {
    if seconds.abs() < 60 {
        return format!("{seconds} s");
    }
    let s = seconds.unsigned_abs();
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    let sign = if seconds < 0 { "-" } else { "" };
    let human = if d > 0 {
        format!("{sign}{d}d {h}h {m}m {sec}s")
    } else if h > 0 {
        format!("{sign}{h}h {m}m {sec}s")
    } else {
        format!("{sign}{m}m {sec}s")
    };
    format!("{seconds} s ({human})")
}

/// Whether progress bars should be drawn at all.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && io::stderr().is_terminal()
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} jobs {elapsed_precise} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

/// A progress bar over `total` jobs on stderr, hidden when stderr is not a
/// terminal or when `quiet`.
pub fn job_bar(total: u64, prefix: &str, quiet: bool) -> ProgressBar {
    if !show_progress(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(bar_style());
    bar.set_prefix(prefix.to_owned());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Several bars on stderr, hidden like [`job_bar`].
pub fn multi(quiet: bool) -> MultiProgress {
    let target = if show_progress(quiet) { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
    MultiProgress::with_draw_target(target)
}

/// A job bar inside a [`MultiProgress`].
pub fn multi_job_bar(multi: &MultiProgress, total: u64, prefix: &str) -> ProgressBar {
    if multi.is_hidden() {
        return ProgressBar::hidden();
    }
    let bar = multi.add(ProgressBar::new(total));
    bar.set_style(bar_style());
    bar.set_prefix(prefix.to_owned());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(100), "100");
        assert_eq!(duration(5), "5 s");
        assert_eq!(duration(93784), "93784 s (1d 2h 3m 4s)");
    }

    #[test]
    fn table_aligns() {
        let mut t = Table::new(&["name", "n"]);
        t.row(vec!["a".into(), "10".into()]);
        t.row(vec!["long".into(), "2".into()]);
        t.message_row("bad".into(), "error: x".into());
        let mut out = Vec::new();
        t.write(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "name   n\n--------\na     10\nlong   2\nbad   error: x\n");
    }
}
