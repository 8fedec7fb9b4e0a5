//! One error type for every front end: the user's words (the core's
//! message, unchanged) and a [`ErrorKind`] that says which part of the
//! request was wrong, so that each host can translate it once (an exit
//! code, a Python exception class, a field of the page's form).

use std::fmt;

use schedlab_engine::EngineError;
use schedlab_experiment::{ConfigError, GridError, PointError, RunError};
use schedlab_workload::SwfError;

/// What was wrong, as a small closed set. The names ([`ErrorKind::name`])
/// are a stable interface: the Python package builds one exception class
/// per kind from them (`TraceError` for `trace`, …), so a kind is never
/// renamed or removed, only added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// The trace cannot be read or cleaned: its format, its content, its
    /// compression, or a workload option that does not fit it.
    Trace,
    /// A limit refused the input or the work asked for: the job limit, the
    /// byte limit, the memory a host has room for, the size of a plan.
    Limit,
    /// A run option is wrong: an unknown key, a value of the wrong type or
    /// out of range, a formula that does not compile, a metric option.
    Option,
    /// The policy or the runtime predictor named does not exist, or the
    /// predictor does not apply to the policy.
    Policy,
    /// The experiment cannot be planned: no run, a sweep or shared
    /// parameter no run takes, conflicting settings, or workload options
    /// other than those the trace was read with.
    Experiment,
    /// A share link cannot be opened.
    Link,
    /// Shard results cannot be merged.
    Merge,
    /// A run failed: the engine stopped (a NaN score, a policy bug) or the
    /// run checker found a broken rule.
    Run,
    /// The caller cancelled the run (its observer answered `Cancel`).
    Cancelled,
    /// An output cannot be made: a schedule layout, a chart, a document.
    Export,
    /// A call out of order: an export before any run, a point the plan
    /// does not have, a schedule slot that is not open.
    State,
}

impl ErrorKind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::Trace,
        ErrorKind::Limit,
        ErrorKind::Option,
        ErrorKind::Policy,
        ErrorKind::Experiment,
        ErrorKind::Link,
        ErrorKind::Merge,
        ErrorKind::Run,
        ErrorKind::Cancelled,
        ErrorKind::Export,
        ErrorKind::State,
    ];

    /// The kind's stable name: lower case, one word.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Trace => "trace",
            ErrorKind::Limit => "limit",
            ErrorKind::Option => "option",
            ErrorKind::Policy => "policy",
            ErrorKind::Experiment => "experiment",
            ErrorKind::Link => "link",
            ErrorKind::Merge => "merge",
            ErrorKind::Run => "run",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Export => "export",
            ErrorKind::State => "state",
        }
    }

    /// The name of the error class a host throws for the kind, the same in
    /// every host: `TraceError` for `trace`, `CancelledError` for
    /// `cancelled` (Python's exception classes, JavaScript's `Error.name`).
    pub fn class_name(self) -> &'static str {
        match self {
            ErrorKind::Trace => "TraceError",
            ErrorKind::Limit => "LimitError",
            ErrorKind::Option => "OptionError",
            ErrorKind::Policy => "PolicyError",
            ErrorKind::Experiment => "ExperimentError",
            ErrorKind::Link => "LinkError",
            ErrorKind::Merge => "MergeError",
            ErrorKind::Run => "RunError",
            ErrorKind::Cancelled => "CancelledError",
            ErrorKind::Export => "ExportError",
            ErrorKind::State => "StateError",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which limit refused a trace, and where: hosts word it in their own
/// terms (the flag that raises it, the memory a tab has left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// More jobs than `limit`, found at line `line`.
    Jobs { limit: u64, line: u64 },
    /// More uncompressed bytes than `limit`, passed at line `line`.
    Bytes { limit: u64, line: u64 },
}

/// What a host may word in its own terms, beside the message.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Detail {
    Refused(Refused),
    /// The key of a parameter both swept and set.
    SweptAndSet(String),
}

/// An error of a session call: what kind, and the message a user reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionError {
    kind: ErrorKind,
    message: String,
    detail: Option<Detail>,
}

impl SessionError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        SessionError { kind, message: message.into(), detail: None }
    }

    /// The limit that refused the trace, for an error of kind
    /// [`ErrorKind::Limit`] from the reader.
    pub fn refused(&self) -> Option<Refused> {
        match self.detail {
            Some(Detail::Refused(r)) => Some(r),
            _ => None,
        }
    }

    /// The parameter an experiment both sweeps and sets, for a form that
    /// names the field where it is set.
    pub fn swept_and_set(&self) -> Option<&str> {
        match &self.detail {
            Some(Detail::SweptAndSet(key)) => Some(key),
            _ => None,
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error with `context` before its message ("run `easy`: …").
    pub fn context(self, context: impl fmt::Display) -> Self {
        SessionError { message: format!("{context}: {}", self.message), ..self }
    }
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SessionError {}

/// Core errors whose every variant is of one kind.
macro_rules! of_kind {
    ($kind:ident: $($t:ty),*) => {$(
        impl From<$t> for SessionError {
            fn from(e: $t) -> Self {
                SessionError::new(ErrorKind::$kind, e.to_string())
            }
        }
    )*};
}
of_kind!(Option: schedlab_experiment::SpecError, schedlab_experiment::SweepError, schedlab_engine::params::ParamError);
of_kind!(Option: schedlab_synth::SynthError);
of_kind!(Link: schedlab_experiment::link::LinkError);
of_kind!(Merge: schedlab_experiment::MergeError);
of_kind!(Export: schedlab_experiment::DocumentError, schedlab_charts::ChartError, schedlab_schedule::ScheduleError);
of_kind!(Export: std::io::Error);

impl From<SwfError> for SessionError {
    fn from(e: SwfError) -> Self {
        let refused = match e {
            SwfError::TooManyJobs { limit, line } => Some(Refused::Jobs { limit, line }),
            SwfError::TooLarge { limit, line, .. } => Some(Refused::Bytes { limit, line }),
            _ => None,
        };
        let kind = if refused.is_some() { ErrorKind::Limit } else { ErrorKind::Trace };
        SessionError { kind, message: e.to_string(), detail: refused.map(Detail::Refused) }
    }
}

impl From<ConfigError> for SessionError {
    fn from(e: ConfigError) -> Self {
        let kind = match e {
            ConfigError::UnknownPolicy { .. }
            | ConfigError::UnknownPredictor { .. }
            | ConfigError::PredictorNotUsed { .. } => ErrorKind::Policy,
            ConfigError::Param(_) | ConfigError::Metrics(_) => ErrorKind::Option,
        };
        SessionError::new(kind, e.to_string())
    }
}

impl From<GridError> for SessionError {
    fn from(e: GridError) -> Self {
        let kind = match &e {
            GridError::Config(c) => SessionError::from(c.clone()).kind,
            GridError::Spec(_) | GridError::Sweep(_) => ErrorKind::Option,
            GridError::ShardShape(_) | GridError::Shard { .. } => ErrorKind::Option,
            _ => ErrorKind::Experiment,
        };
        let detail = match &e {
            GridError::SweepConflict { param, .. } => Some(Detail::SweptAndSet(param.clone())),
            _ => None,
        };
        SessionError { kind, message: e.to_string(), detail }
    }
}

impl From<RunError> for SessionError {
    fn from(e: RunError) -> Self {
        let kind = match e {
            RunError::Engine(EngineError::Cancelled { .. }) => ErrorKind::Cancelled,
            _ => ErrorKind::Run,
        };
        SessionError::new(kind, e.to_string())
    }
}

impl From<PointError> for SessionError {
    fn from(e: PointError) -> Self {
        match e {
            PointError::Plan(e) => e.into(),
            PointError::Run(e) => e.into(),
            PointError::Document(e) => e.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_distinct_lower_case_words() {
        let names: std::collections::BTreeSet<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), ErrorKind::ALL.len());
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase())));
    }

    #[test]
    fn class_names_are_the_kind_capitalised_with_error() {
        for kind in ErrorKind::ALL {
            let name = kind.name();
            let want = format!("{}{}Error", name[..1].to_ascii_uppercase(), &name[1..]);
            assert_eq!(kind.class_name(), want);
        }
    }

    #[test]
    fn kinds_follow_the_part_of_the_request_at_fault() {
        let policy = schedlab_experiment::resolve(&schedlab_experiment::RunRequest {
            policy: "nope".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(SessionError::from(policy).kind(), ErrorKind::Policy);
        let option = schedlab_experiment::resolve(&schedlab_experiment::RunRequest {
            policy: "easy".into(),
            params: vec![("depth".into(), "x".into())],
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(SessionError::from(option).kind(), ErrorKind::Option);
        let cancelled = RunError::Engine(EngineError::Cancelled { time: 3 });
        assert_eq!(SessionError::from(cancelled).kind(), ErrorKind::Cancelled);
        let grid = GridError::NoRun;
        assert_eq!(SessionError::from(grid).kind(), ErrorKind::Experiment);
    }
}
