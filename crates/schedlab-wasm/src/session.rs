//! The binding's calls in plain Rust (no JavaScript types), so that they
//! are tested natively too: each takes a protocol request, calls the core,
//! and returns a protocol result or an [`Error`] carrying the core's message.

use std::io::Read;

use schedlab_engine::{Control, Progress};
use schedlab_experiment::{
    point_result, resolve, run_phased, run_title, schedule_comments, trace_context, write_jobs_csv, write_schedule_swf,
    Experiment, Phase, Plan, PointResult, RunDocument, RunOutcome, RunSettings, TraceIdentity,
};
use schedlab_schedule::{write_batsim_jobs, Layout, ScheduleView};
use schedlab_workload::{read_swf, Job, Loaded, ReadOptions, SwfError};

use crate::protocol::{memory_job_budget, RunMessage, Summary, TraceOptions, BROWSER_MAX_JOBS, WASM_MAX_MEMORY};
use crate::schedules::{ScheduleInfo, Schedules};

/// An error as the page shows it: the core's message, unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Every core error converts the same way: its `Display` text.
macro_rules! from_core {
    ($($t:ty),*) => {$(
        impl From<$t> for Error {
            fn from(e: $t) -> Self {
                Error(e.to_string())
            }
        }
    )*};
}
from_core!(
    schedlab_workload::SwfError,
    schedlab_experiment::ConfigError,
    schedlab_experiment::GridError,
    schedlab_experiment::SweepError,
    schedlab_experiment::RunError,
    schedlab_experiment::PointError,
    schedlab_experiment::DocumentError,
    schedlab_synth::SynthError,
    schedlab_charts::ChartError,
    schedlab_schedule::ScheduleError,
    serde_json::Error,
    std::io::Error,
    std::string::FromUtf8Error
);

/// Bytes the module's memory has grown to; none natively, where the
/// browser's 4 GiB does not bound the process.
fn memory_in_use() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) as u64 * 65_536
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

/// A loaded trace and the last run on it.
pub struct Session {
    options: TraceOptions,
    loaded: Loaded,
    identity: TraceIdentity,
    last: Option<(RunSettings, RunOutcome)>,
    /// The last run's title for people (the schedule view's name for it).
    last_title: String,
    /// Runs laid out for the schedule view, by slot.
    schedules: Schedules,
}

impl Session {
    /// Reads a trace (plain or compressed) with the given options, at most
    /// [`BROWSER_MAX_JOBS`] jobs or fewer if the options say so.
    pub fn open(bytes: impl Read, name: String, options: TraceOptions) -> Result<Session, Error> {
        Session::open_in(bytes, name, options, memory_in_use())
    }

    /// `open` in a module whose memory has grown to `in_use` bytes: the
    /// job limit is also what the memory left has room for, checked while
    /// the trace streams, so that a trace too large for the tab is refused
    /// with a sentence rather than by running out of memory.
    pub(crate) fn open_in(
        bytes: impl Read,
        name: String,
        options: TraceOptions,
        in_use: u64,
    ) -> Result<Session, Error> {
        // The options may lower the browser's job limit, never raise it.
        let limit = options.max_jobs.map_or(BROWSER_MAX_JOBS, |n| n.min(BROWSER_MAX_JOBS));
        let room = memory_job_budget(in_use);
        let read = ReadOptions { max_jobs: limit.min(room), ..options.read_options() };
        let loaded = read_swf(bytes, &read).map_err(|e| match e {
            SwfError::TooManyJobs { line, .. } if room < limit => Error(format!(
                "the trace holds more than {room} jobs, as many as this tab's memory has room for: {} MB of its {} MB \
                 are taken (refused at line {line}); reload the page to free them",
                in_use >> 20,
                WASM_MAX_MEMORY >> 20
            )),
            e => e.into(),
        })?;
        let identity = TraceIdentity::new(name, &loaded, &read);
        let context = trace_context(&identity.name, identity.jobs, identity.procs, &identity.options);
        Ok(Session {
            options,
            loaded,
            identity,
            last: None,
            last_title: String::new(),
            schedules: Schedules::new(context),
        })
    }

    pub fn summary(&self) -> Summary {
        Summary::new(&self.identity, &self.loaded)
    }

    /// One run, checked, with its metrics; kept for the exports below (a
    /// run that fails leaves none).
    pub fn run(
        &mut self,
        message: &RunMessage,
        observer: &mut dyn FnMut(Phase, Progress) -> Control,
    ) -> Result<RunDocument, Error> {
        self.last = None;
        let settings = resolve(&message.request().map_err(Error)?)?;
        let outcome = run_phased(&self.loaded.trace, &settings, observer)?;
        let document = RunDocument::new(&settings, self.identity.clone(), &outcome, None);
        self.last_title = run_title(&settings, &[], self.options.load());
        self.last = Some((settings, outcome));
        Ok(document)
    }

    /// The result document of a run as `schedlab run --json` prints it
    /// (pretty, without `elapsed_ms`), byte for byte.
    pub fn run_text(
        &mut self,
        message: &RunMessage,
        observer: &mut dyn FnMut(Phase, Progress) -> Control,
    ) -> Result<String, Error> {
        let document = self.run(message, observer)?;
        Ok(serde_json::to_string_pretty(&document)?)
    }

    /// Point `index` of `experiment` on this session's trace, as
    /// `schedlab sweep`/`reproduce` run it. The experiment must read the
    /// trace as this session did (its `workload`).
    pub fn run_point(
        &mut self,
        experiment: &Experiment,
        index: u64,
        observer: &mut dyn FnMut(Phase, Progress) -> Control,
    ) -> Result<PointResult, Error> {
        if experiment.workload != self.options {
            return Err(Error(
                "the experiment's workload options differ from this session's: open a session with them".into(),
            ));
        }
        let plan = Plan::new(experiment.clone())?;
        let point = plan
            .point(index)
            .ok_or_else(|| Error(format!("point {index}: the experiment has {} points", plan.len())))?;
        self.last = None;
        let settings = plan.settings(&point)?;
        let outcome = run_phased(&self.loaded.trace, &settings, observer)?;
        let result = point_result(&self.loaded.trace, &plan, &point, &settings, &outcome)?;
        // Kept, as after `run`, for the point's per-job table and schedule.
        self.last_title = plan.title(point.run, point.value);
        self.last = Some((settings, outcome));
        Ok(result)
    }

    /// The trace's identity (what `experiment_result` records).
    pub fn identity(&self) -> &TraceIdentity {
        &self.identity
    }

    fn last(&self) -> Result<&(RunSettings, RunOutcome), Error> {
        self.last.as_ref().ok_or_else(|| Error("no run yet: run a policy on this trace first".to_owned()))
    }

    /// The per-job table of the last run (or point), as `run --jobs-csv` writes it.
    pub fn jobs_csv(&self) -> Result<String, Error> {
        let (settings, outcome) = self.last()?;
        let mut out = Vec::new();
        write_jobs_csv(&mut out, &self.loaded.trace, &outcome.record, settings.metrics.bsd_threshold)?;
        Ok(String::from_utf8(out)?)
    }

    /// The simulated schedule of the last run (or point), as `run --swf-out` writes it.
    pub fn schedule_swf(&self) -> Result<String, Error> {
        let (settings, outcome) = self.last()?;
        let comments = schedule_comments(settings, &self.identity, &self.loaded.header);
        let mut out = Vec::new();
        write_schedule_swf(&mut out, &self.loaded.trace, &outcome.record, &comments)?;
        Ok(String::from_utf8(out)?)
    }

    /// The last run (or point) as Batsim's jobs.csv, as `run --batsim-jobs`
    /// writes it.
    pub fn batsim_jobs_csv(&self) -> Result<String, Error> {
        let (_, outcome) = self.last()?;
        let jobs = &self.loaded.trace.jobs;
        let layout = Layout::new(jobs, &outcome.record)?;
        let mut out = Vec::new();
        write_batsim_jobs(&mut out, jobs, &outcome.record, &layout)?;
        Ok(String::from_utf8(out)?)
    }

    /// Lays the last run out for the schedule view in `slot` (replacing
    /// what was there); the queries below read it.
    pub fn schedule_open(&mut self, slot: u32) -> Result<ScheduleInfo, Error> {
        let (settings, outcome) = self.last()?;
        let view = ScheduleView::new(&self.loaded.trace.jobs, outcome.record.clone(), settings.metrics.bsd_threshold)?;
        self.schedules.put(slot, self.last_title.clone(), view)
    }

    /// The laid-out runs, and the trace's jobs their queries take.
    pub fn schedules(&self) -> (&Schedules, &[Job]) {
        (&self.schedules, &self.loaded.trace.jobs)
    }

    pub fn schedule_close(&mut self, slot: u32) -> Result<(), Error> {
        self.schedules.close(slot)
    }
}

#[cfg(test)]
mod tests;
