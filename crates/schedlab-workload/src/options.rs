//! What the user can set when a trace is read (docs/semantics.md, "Reading a trace"
//! can set"), and the checks that refuse meaningless settings up front.

use serde::{Deserialize, Serialize};

use crate::error::short_number;
use crate::limits::{DEFAULT_MAX_JOBS, MAX_PROCS, MAX_TIME};

/// Default limit on the uncompressed size of a trace: 2 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// What to do with a job that asks for more processors than the machine has.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Oversize {
    /// Drop the job (the default): it could never run.
    #[default]
    Drop,
    /// Keep the job with its size reduced to the machine size.
    Clamp,
}

/// Which part of the (sorted, cleaned) trace to keep.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// Keep every job (the default).
    #[default]
    All,
    /// Keep the first `n` jobs in (submit, job number) order, counted after
    /// the jobs dropped by the other cleaning rules.
    FirstJobs(usize),
    /// Keep the jobs whose submit time, in seconds after the first job's
    /// submit time, lies in `[from, to)`. Measured on the original time line,
    /// before any load factor.
    TimeRange {
        /// First second kept (inclusive).
        from: i64,
        /// First second no longer kept (exclusive).
        to: i64,
    },
}

/// Options for [`read_swf`](crate::read_swf). `ReadOptions::default()` reads
/// the whole trace with no filter (docs/semantics.md, "Reading a trace").
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadOptions {
    /// Refuse input whose uncompressed size exceeds this many bytes.
    pub max_bytes: u64,
    /// Refuse input holding more than this many jobs (counted while
    /// reading, after the per-line rules), which bounds memory where
    /// `max_bytes` cannot: a small compressed file of one repeated line.
    /// Not serialized: it can only refuse a trace, never change how one is
    /// read, and hosts differ in it (the browser's is lower), so it is no
    /// part of a result's identity.
    #[serde(skip_serializing)]
    pub max_jobs: u64,
    /// Machine size to simulate, overriding the header (e.g. 430 for CTC).
    pub machine_size: Option<u32>,
    /// Drop or clamp jobs larger than the machine.
    pub oversize: Oversize,
    /// Keep only jobs in these queues (field 15); `None` keeps all.
    pub queues: Option<Vec<i32>>,
    /// Keep only jobs in these partitions (field 16); `None` keeps all.
    pub partitions: Option<Vec<i32>>,
    /// Drop jobs whose status (field 11) is one of these.
    pub drop_status: Vec<i32>,
    /// Which part of the trace to keep.
    pub window: Window,
    /// Divide inter-arrival times by this factor (> 0): 1.2 offers 20 % more load.
    pub load_factor: f64,
    /// The machine of nodes to read the trace for (docs/semantics.md,
    /// "Machines of nodes"); `None`, the archive's model, leaves
    /// `machine_size` or the header to give the processors. Every job then
    /// gets a request on it, and jobs that can never run are dropped and
    /// counted (the report's `machine`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<crate::Machine>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_bytes: DEFAULT_MAX_BYTES,
            max_jobs: DEFAULT_MAX_JOBS,
            machine_size: None,
            oversize: Oversize::Drop,
            queues: None,
            partitions: None,
            drop_status: Vec::new(),
            window: Window::All,
            load_factor: 1.0,
            machine: None,
        }
    }
}

/// A [`ReadOptions`] value that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionsError {
    /// `max_bytes` is zero.
    #[error("max_bytes must be at least 1")]
    ZeroMaxBytes,
    /// `max_jobs` is zero.
    #[error("max_jobs must be at least 1")]
    ZeroMaxJobs,
    /// `machine_size` is `Some(0)`.
    #[error("machine_size must be at least 1 processor")]
    ZeroMachineSize,
    /// `machine_size` is above [`MAX_PROCS`].
    #[error("machine_size {0} is above the limit of {MAX_PROCS} processors (2^31)")]
    MachineSizeTooLarge(u32),
    /// `load_factor` is not a finite number above zero.
    #[error("load_factor must be a finite number above 0, not {}", short_number(*.0))]
    LoadFactor(f64),
    /// `window` is `FirstJobs(0)`.
    #[error("window first_jobs must keep at least 1 job")]
    EmptyFirstJobs,
    /// `window` is a time range with `from >= to`.
    #[error("window time_range [{from}, {to}) is empty: from must be below to")]
    EmptyTimeRange {
        /// Start of the range.
        from: i64,
        /// End of the range.
        to: i64,
    },
    /// A time range bound is beyond ±[`MAX_TIME`].
    #[error("window time_range [{from}, {to}) reaches beyond ±{MAX_TIME} s (2^40), the time limit")]
    TimeRangeTooWide {
        /// Start of the range.
        from: i64,
        /// End of the range.
        to: i64,
    },
    /// A keep-only list (`queues` or `partitions`) is empty.
    #[error("{0} is an empty list, which would keep no job (use None to keep all)")]
    EmptyFilter(&'static str),
    /// A machine of nodes given as data (a link, JSON) that no reader would make.
    #[error("machine.{0}")]
    Machine(String),
}

impl ReadOptions {
    /// Checks every option; `read_swf` calls this first.
    pub fn validate(&self) -> Result<(), OptionsError> {
        if self.max_bytes == 0 {
            return Err(OptionsError::ZeroMaxBytes);
        }
        if self.max_jobs == 0 {
            return Err(OptionsError::ZeroMaxJobs);
        }
        match self.machine_size {
            Some(0) => return Err(OptionsError::ZeroMachineSize),
            Some(p) if p > MAX_PROCS => return Err(OptionsError::MachineSizeTooLarge(p)),
            _ => {}
        }
        if !(self.load_factor.is_finite() && self.load_factor > 0.0) {
            return Err(OptionsError::LoadFactor(self.load_factor));
        }
        validate_window(self.window)?;
        if self.queues.as_ref().is_some_and(Vec::is_empty) {
            return Err(OptionsError::EmptyFilter("queues"));
        }
        if self.partitions.as_ref().is_some_and(Vec::is_empty) {
            return Err(OptionsError::EmptyFilter("partitions"));
        }
        if let Some(m) = &self.machine {
            m.check().map_err(OptionsError::Machine)?;
        }
        Ok(())
    }
}

fn validate_window(window: Window) -> Result<(), OptionsError> {
    match window {
        Window::All => Ok(()),
        Window::FirstJobs(0) => Err(OptionsError::EmptyFirstJobs),
        Window::FirstJobs(_) => Ok(()),
        Window::TimeRange { from, to } if from >= to => Err(OptionsError::EmptyTimeRange { from, to }),
        Window::TimeRange { from, to } if from.unsigned_abs().max(to.unsigned_abs()) > MAX_TIME.unsigned_abs() => {
            Err(OptionsError::TimeRangeTooWide { from, to })
        }
        Window::TimeRange { .. } => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        let o = ReadOptions::default();
        assert_eq!(o.max_bytes, 2 << 30);
        assert_eq!(o.load_factor, 1.0);
        assert_eq!(o.oversize, Oversize::Drop);
        assert_eq!(o.window, Window::All);
        assert_eq!(o.validate(), Ok(()));
        let edge = ReadOptions {
            machine_size: Some(MAX_PROCS),
            window: Window::TimeRange { from: -MAX_TIME, to: MAX_TIME },
            ..ReadOptions::default()
        };
        assert_eq!(edge.validate(), Ok(()));
    }

    #[test]
    fn bad_options_are_refused() {
        type Edit = fn(&mut ReadOptions);
        let cases: [(Edit, &str); 14] = [
            (|o| o.max_bytes = 0, "max_bytes"),
            (|o| o.max_jobs = 0, "max_jobs"),
            (|o| o.machine_size = Some(0), "machine_size"),
            (|o| o.machine_size = Some(MAX_PROCS + 1), "above the limit of 2147483648"),
            (|o| o.window = Window::TimeRange { from: 0, to: MAX_TIME + 1 }, "2^40"),
            (|o| o.window = Window::TimeRange { from: -MAX_TIME - 1, to: 0 }, "2^40"),
            (|o| o.load_factor = 0.0, "load_factor"),
            (|o| o.load_factor = -1.0, "load_factor"),
            (|o| o.load_factor = f64::NAN, "load_factor"),
            (|o| o.load_factor = f64::INFINITY, "load_factor"),
            (|o| o.load_factor = -1e300, "not -1e300"),
            (|o| o.window = Window::FirstJobs(0), "first_jobs"),
            (|o| o.window = Window::TimeRange { from: 5, to: 5 }, "time_range"),
            (|o| o.queues = Some(vec![]), "queues"),
        ];
        for (edit, word) in cases {
            let mut o = ReadOptions::default();
            edit(&mut o);
            let err = o.validate().expect_err(word);
            assert!(err.to_string().contains(word), "{err}");
        }
    }

    #[test]
    fn empty_partition_list_is_refused() {
        let o = ReadOptions { partitions: Some(vec![]), ..Default::default() };
        assert_eq!(o.validate(), Err(OptionsError::EmptyFilter("partitions")));
    }
}
