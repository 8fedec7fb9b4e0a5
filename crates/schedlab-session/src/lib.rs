//! The one host layer. A [`Session`] is a loaded trace and everything a
//! front end asks of it: runs, experiments through a checked plan,
//! schedules and exports. The command line, the page's WebAssembly binding
//! and the Python extension each translate their arguments into the calls
//! of this crate and its results back into their own terms, nothing else,
//! so a run option or a check added here reaches the three at once.
//!
//! Like the core, the session does no I/O of its own: it reads the bytes
//! it is given and writes into the writers it is given, so it builds for
//! WebAssembly too; the host measures time and passes it in. Every error
//! is a [`SessionError`] of one [`ErrorKind`].

mod error;
mod export;
mod machine;
mod plan;
#[cfg(test)]
mod read_once;
#[cfg(test)]
mod tests;

use std::io::Read;

pub use error::{ErrorKind, Refused, SessionError};
pub use export::{Export, GANTT_SIZE};
pub use machine::{machine_from_nodes, machine_from_slurm_conf, SlurmConfMachine};
pub use plan::{experiment_result, plan};
pub use schedlab_experiment::Phase;

use schedlab_engine::{Control, Progress};
use schedlab_experiment::{
    resolve, run_phased, run_title, RunDocument, RunOutcome, RunRequest, RunSettings, TraceDocument, TraceIdentity,
    WorkloadOptions,
};
use schedlab_workload::{read_swf, Loaded, ReadOptions, Trace};

/// What a run reports while it goes, and whether it should go on.
pub type Observer<'a> = dyn FnMut(Phase, Progress) -> Control + 'a;

/// A trace read and cleaned, with its identity and the workload options it
/// was read with. Shared read-only by any number of runs (`&self`), so a
/// host may run points on several threads.
pub struct Session {
    loaded: Loaded,
    identity: TraceIdentity,
    workload: WorkloadOptions,
}

/// A finished, checked run of a session's trace: its settings, its
/// outcome (record and metrics) and its title for people.
pub struct Run {
    settings: RunSettings,
    outcome: RunOutcome,
    title: String,
}

impl Run {
    pub fn settings(&self) -> &RunSettings {
        &self.settings
    }

    pub fn outcome(&self) -> &RunOutcome {
        &self.outcome
    }

    /// The run's title for people ("EASY, estimate": the schedule view's
    /// name for it).
    pub fn title(&self) -> &str {
        &self.title
    }
}

impl Session {
    /// Reads a trace in any format the core reads (SWF, a Slurm accounting
    /// dump, Batsim JSON; plain or compressed) with `workload`'s options.
    /// `name` is part of the trace's identity (a file's name, as on the
    /// command line).
    pub fn load(bytes: impl Read, name: impl Into<String>, workload: WorkloadOptions) -> Result<Session, SessionError> {
        let read = workload.read_options();
        let loaded = read_swf(bytes, &read)?;
        Ok(Session::of_loaded(loaded, name.into(), workload))
    }

    /// A session over a trace the host read itself (streaming a file with
    /// its own error messages); `workload` must be the options it was read
    /// with.
    pub fn of_loaded(loaded: Loaded, name: String, workload: WorkloadOptions) -> Session {
        let identity = TraceIdentity::new(name, &loaded, &workload.read_options());
        Session { loaded, identity, workload }
    }

    /// The workload options of the reader's options `read`, as a session
    /// records them (only what differs from the defaults, and the job
    /// limit, which never changes a result).
    pub fn workload_of(read: &ReadOptions) -> WorkloadOptions {
        let defaults = ReadOptions::default();
        WorkloadOptions {
            max_jobs: (read.max_jobs != defaults.max_jobs).then_some(read.max_jobs),
            ..WorkloadOptions::given(read)
        }
    }

    pub fn loaded(&self) -> &Loaded {
        &self.loaded
    }

    pub fn trace(&self) -> &Trace {
        &self.loaded.trace
    }

    pub fn identity(&self) -> &TraceIdentity {
        &self.identity
    }

    pub fn workload(&self) -> &WorkloadOptions {
        &self.workload
    }

    /// The identity as experiment results record it.
    pub fn trace_document(&self) -> Result<TraceDocument, SessionError> {
        Ok(TraceDocument::of(&self.identity)?)
    }

    /// One run as a user asked for it: resolved (every bad value an error
    /// naming it), replayed, checked unless told not to, with its metrics.
    pub fn run(&self, request: &RunRequest, observer: &mut Observer<'_>) -> Result<Run, SessionError> {
        self.run_resolved(resolve(request)?, observer)
    }

    /// A run of settings already resolved (a host that checks the request
    /// before it reads the trace, so that a typo costs no reading).
    pub fn run_resolved(&self, settings: RunSettings, observer: &mut Observer<'_>) -> Result<Run, SessionError> {
        let title = run_title(&settings, &[], self.workload.load());
        self.run_settings(settings, title, observer)
    }

    /// A run of checked settings, titled `title`.
    pub(crate) fn run_settings(
        &self,
        settings: RunSettings,
        title: String,
        observer: &mut Observer<'_>,
    ) -> Result<Run, SessionError> {
        let outcome = run_phased(&self.loaded.trace, &settings, observer)?;
        Ok(Run { settings, outcome, title })
    }

    /// The result document of `run` (`schedlab run --json`'s), with the
    /// host-measured time if the host has one.
    pub fn document(&self, run: &Run, elapsed_ms: Option<f64>) -> RunDocument {
        RunDocument::new(&run.settings, self.identity.clone(), &run.outcome, elapsed_ms)
    }
}
