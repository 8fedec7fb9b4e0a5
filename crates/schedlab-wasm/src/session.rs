//! The binding's calls in plain Rust (no JavaScript types), so that they
//! are tested natively too: each takes a protocol request, calls the core,
//! and returns a protocol result or an [`Error`] carrying the core's message.

use std::io::Read;

use schedlab_engine::{Control, Progress};
use schedlab_experiment::{Experiment, Phase, Plan, PointResult, RunDocument, TraceIdentity};
use schedlab_schedule::ScheduleView;
use schedlab_session::{ErrorKind, Export, Refused, Run, SessionError};
use schedlab_workload::Job;

use crate::protocol::{memory_job_budget, RunMessage, Summary, TraceOptions, BROWSER_MAX_JOBS, WASM_MAX_MEMORY};
use crate::schedules::{ScheduleInfo, Schedules};

/// An error as the page shows it: the core's message, unchanged, and its
/// kind (`schedlab_session::ErrorKind`), which JavaScript reads as the
/// thrown `Error`'s `name` and `kind` (`boundary::Thrown`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into() }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<SessionError> for Error {
    fn from(e: SessionError) -> Self {
        Error::new(e.kind(), e.message())
    }
}

/// Every core error converts through the session's error, which knows its
/// kind.
macro_rules! from_core {
    ($($t:ty),*) => {$(
        impl From<$t> for Error {
            fn from(e: $t) -> Self {
                SessionError::from(e).into()
            }
        }
    )*};
}
from_core!(
    schedlab_workload::SwfError,
    schedlab_experiment::ConfigError,
    schedlab_experiment::GridError,
    schedlab_experiment::SweepError,
    schedlab_experiment::DocumentError,
    schedlab_synth::SynthError,
    schedlab_charts::ChartError,
    schedlab_schedule::ScheduleError
);

/// A document the core made that cannot be written as JSON text: an
/// output that cannot be made.
impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::new(ErrorKind::Export, e.to_string())
    }
}

/// The bytes of a trace could not be read.
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Trace, e.to_string())
    }
}

/// A time window the page typed that cannot be read.
impl From<schedlab_schedule::WindowError> for Error {
    fn from(e: schedlab_schedule::WindowError) -> Self {
        Error::new(ErrorKind::Option, e.to_string())
    }
}

/// A value the core made that cannot become a JavaScript value.
impl From<serde_wasm_bindgen::Error> for Error {
    fn from(e: serde_wasm_bindgen::Error) -> Self {
        Error::new(ErrorKind::Export, e.to_string())
    }
}

impl From<std::string::FromUtf8Error> for Error {
    fn from(e: std::string::FromUtf8Error) -> Self {
        Error::new(ErrorKind::Trace, e.to_string())
    }
}

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

/// A loaded trace, the plan of the experiment its points come from, and
/// the last run on it.
pub struct Session {
    session: schedlab_session::Session,
    /// The last experiment's plan, checked once for all its points.
    plan: Option<(Experiment, Plan)>,
    last: Option<Run>,
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
        let workload = TraceOptions { max_jobs: Some(limit.min(room)), ..options };
        let session = schedlab_session::Session::load(bytes, name, workload).map_err(|e| match e.refused() {
            Some(Refused::Jobs { line, .. }) if room < limit => Error::new(
                ErrorKind::Limit,
                format!(
                    "the trace holds more than {room} jobs, as many as this tab's memory has room for: {} MB of its \
                     {} MB are taken (refused at line {line}); reload the page to free them",
                    in_use >> 20,
                    WASM_MAX_MEMORY >> 20
                ),
            ),
            _ => e.into(),
        })?;
        let identity = session.identity();
        let context =
            schedlab_experiment::trace_context(&identity.name, identity.jobs, identity.procs, &identity.options);
        Ok(Session { session, plan: None, last: None, schedules: Schedules::new(context) })
    }

    pub fn summary(&self) -> Summary {
        Summary::new(self.session.identity(), self.session.loaded())
    }

    /// One run, checked, with its metrics; kept for the exports below (a
    /// run that fails leaves none).
    pub fn run(
        &mut self,
        message: &RunMessage,
        observer: &mut dyn FnMut(Phase, Progress) -> Control,
    ) -> Result<RunDocument, Error> {
        self.last = None;
        let run = self.session.run(&message.request().map_err(|e| Error::new(ErrorKind::Option, e))?, observer)?;
        let document = self.session.document(&run, None);
        self.last = Some(run);
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
    /// trace as this session did (its `workload`); its plan is made once
    /// and kept for the points that follow.
    pub fn run_point(
        &mut self,
        experiment: &Experiment,
        index: u64,
        observer: &mut dyn FnMut(Phase, Progress) -> Control,
    ) -> Result<PointResult, Error> {
        if self.plan.as_ref().is_none_or(|(e, _)| e != experiment) {
            self.plan = None;
            let plan = self.session.plan(experiment.clone())?;
            self.plan = Some((experiment.clone(), plan));
        }
        let Some((_, plan)) = &self.plan else { unreachable!("the plan was just made") };
        let point = self.session.point(plan, index)?;
        self.last = None;
        let run = self.session.run_point(plan, &point, observer)?;
        let result = self.session.point_result(plan, &point, &run)?;
        // Kept, as after `run`, for the point's per-job table and schedule.
        self.last = Some(run);
        Ok(result)
    }

    /// The trace's identity (what `experiment_result` records).
    pub fn identity(&self) -> &TraceIdentity {
        self.session.identity()
    }

    fn last(&self) -> Result<&Run, Error> {
        self.last.as_ref().ok_or_else(|| Error::new(ErrorKind::State, "no run yet: run a policy on this trace first"))
    }

    fn export(&self, export: Export) -> Result<String, Error> {
        Ok(self.session.export_text(self.last()?, export)?)
    }

    /// The per-job table of the last run (or point), as `run --jobs-csv` writes it.
    pub fn jobs_csv(&self) -> Result<String, Error> {
        self.export(Export::JobsCsv)
    }

    /// The simulated schedule of the last run (or point), as `run --swf-out` writes it.
    pub fn schedule_swf(&self) -> Result<String, Error> {
        self.export(Export::ScheduleSwf)
    }

    /// The last run (or point) as Batsim's jobs.csv, as `run --batsim-jobs`
    /// writes it.
    pub fn batsim_jobs_csv(&self) -> Result<String, Error> {
        self.export(Export::BatsimJobs)
    }

    /// Lays the last run out for the schedule view in `slot` (replacing
    /// what was there); the queries below read it.
    pub fn schedule_open(&mut self, slot: u32) -> Result<ScheduleInfo, Error> {
        let run = self.last()?;
        let view: ScheduleView = self.session.schedule_view(run)?;
        let title = run.title().to_owned();
        self.schedules.put(slot, title, view)
    }

    /// The laid-out runs, and the trace's jobs their queries take.
    pub fn schedules(&self) -> (&Schedules, &[Job]) {
        (&self.schedules, &self.session.trace().jobs)
    }

    pub fn schedule_close(&mut self, slot: u32) -> Result<(), Error> {
        self.schedules.close(slot)
    }
}

#[cfg(test)]
mod tests;
