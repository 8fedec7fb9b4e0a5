//! The limits every cleaned trace keeps, so that no time, size or sum the
//! engine and the metrics compute can overflow 64-bit integers.
//!
//! A time (submit, run time, requested time) is at most [`MAX_TIME`] =
//! 2^40 s, about 34,800 years: a thousand times the longest span of any
//! archived log, and small enough that a start time plus a run time plus a
//! wait, or a time multiplied by a processor count up to [`MAX_PROCS`]
//! (2^40 × 2^31 = 2^71, summed in 128-bit or floating point where it
//! happens), stays exact. A machine or a job has at most [`MAX_PROCS`] =
//! 2^31 processors, 2,000 times the largest machine ever built, which keeps
//! every processor count and `count + 1` inside `u32`. The last submit
//! plus the sum of every requested time is at most [`MAX_HORIZON`] = 2^62 s,
//! so that no schedule, however long the queue, can push an end time past
//! 2^63. A trace holds at most [`DEFAULT_MAX_JOBS`] jobs unless the caller
//! raises [`ReadOptions::max_jobs`](crate::ReadOptions::max_jobs).

/// Largest submit, run or requested time kept, in seconds (2^40).
pub const MAX_TIME: i64 = 1 << 40;

/// Largest machine or job size, in processors (2^31).
pub const MAX_PROCS: u32 = 1 << 31;

/// Largest value of the last submit time plus every job's requested time,
/// in seconds (2^62).
pub const MAX_HORIZON: i64 = 1 << 62;

/// Default limit on the jobs a trace may hold: 20 million, whose job
/// records alone take about 2.4 GB (a run's per-job state as much again).
pub const DEFAULT_MAX_JOBS: u64 = 20_000_000;
