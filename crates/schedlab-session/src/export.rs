//! What a run can be written as: the per-job table, the simulated schedule
//! as SWF, Batsim's `jobs.csv`, the schedule as an SVG drawing, and the
//! schedule view the page queries. Each writes into the writer it is
//! given; the host decides where the bytes go.

use std::io::Write;

use schedlab_charts::{window_chart, ChartSpec, ScheduleChartOptions, MAX_CHART_BOXES};
use schedlab_experiment::{schedule_comments, write_jobs_csv, write_schedule_swf};
use schedlab_schedule::{run_span, write_batsim_jobs, Layout, ScheduleView};

use crate::{Run, Session, SessionError};

/// A file a run can be written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// The per-job table (`run --jobs-csv`).
    JobsCsv,
    /// The simulated schedule as SWF, with the run's settings in comments
    /// (`run --swf-out`).
    ScheduleSwf,
    /// Batsim's `jobs.csv`, processor sets from the schedule view's layout
    /// (`run --batsim-jobs`).
    BatsimJobs,
}

/// Size of the schedule drawing, pixels: a 16:9 figure wide enough for a
/// day's jobs.
pub const GANTT_SIZE: (u32, u32) = (1600, 900);

impl Session {
    /// Writes `run` as `export` into `out`.
    pub fn export(&self, run: &Run, export: Export, out: &mut dyn Write) -> Result<(), SessionError> {
        let trace = &self.loaded.trace;
        let record = &run.outcome.record;
        match export {
            Export::JobsCsv => write_jobs_csv(out, trace, record, run.settings.metrics.bsd_threshold)?,
            Export::ScheduleSwf => {
                let comments = schedule_comments(&run.settings, &self.identity, &self.loaded.header);
                write_schedule_swf(out, trace, record, &comments)?;
            }
            Export::BatsimJobs => {
                let layout = Layout::new(&trace.jobs, trace.cluster.as_deref(), record)?;
                write_batsim_jobs(out, &trace.jobs, record, &layout)?;
            }
        }
        Ok(())
    }

    /// [`Session::export`] as text.
    pub fn export_text(&self, run: &Run, export: Export) -> Result<String, SessionError> {
        let mut out = Vec::new();
        self.export(run, export, &mut out)?;
        String::from_utf8(out)
            .map_err(|e| SessionError::new(crate::ErrorKind::Export, format!("the export is not UTF-8 text: {e}")))
    }

    /// The schedule of `run` over `window` (default: the whole run) as SVG.
    /// It is drawn from the record (`window_chart`), not from the page's
    /// `ScheduleView`: the view lays out and indexes the whole run for
    /// queries to come, which on 10 M jobs cost more than the run itself,
    /// while a drawing shows one window.
    pub fn schedule_svg(&self, run: &Run, window: Option<(i64, i64)>) -> Result<String, SessionError> {
        let jobs = &self.loaded.trace.jobs;
        let record = &run.outcome.record;
        let (from, to) = match window.or_else(|| run_span(jobs, record)) {
            Some((from, to)) if to > from => (from, to),
            Some((from, _)) => (from, from + 1),
            None => (0, 1),
        };
        let options = ScheduleChartOptions {
            title: format!("{} on {}", run.settings.policy.name, self.identity.name),
            from,
            to,
            columns: GANTT_SIZE.0,
            max_boxes: MAX_CHART_BOXES,
        };
        let chart = window_chart(jobs, self.loaded.trace.cluster.as_deref(), record, &options)?;
        Ok(schedlab_charts::try_to_svg(&ChartSpec::Schedule(chart), GANTT_SIZE.0, GANTT_SIZE.1)?)
    }

    /// `run` laid out for the schedule view's queries.
    pub fn schedule_view(&self, run: &Run) -> Result<ScheduleView, SessionError> {
        let record = run.outcome.record.clone();
        let trace = &self.loaded.trace;
        Ok(ScheduleView::new(&trace.jobs, trace.cluster.as_deref(), record, run.settings.metrics.bsd_threshold)?)
    }
}
