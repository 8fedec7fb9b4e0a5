//! The runs of a record: every stretch a job held processors.

use schedlab_engine::{JobIdx, RunRecord, Time};

/// A run's id: `j < n` is job `j`'s last run (the one it completed from),
/// `n + s` the preempted segment `s` of the record.
pub type RunId = u32;

/// One run of a job: a preempted segment or its last run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub job: JobIdx,
    pub start: Time,
    pub end: Time,
    /// The index of the segment in `RunRecord::segments` if the run was
    /// preempted.
    pub segment: Option<u32>,
}

pub fn run_of(record: &RunRecord, r: RunId) -> Run {
    let n = record.jobs.len();
    match (r as usize).checked_sub(n) {
        None => {
            let rec = &record.jobs[r as usize];
            Run { job: r, start: rec.start, end: rec.end, segment: None }
        }
        Some(s) => {
            let seg = record.segments[s];
            Run { job: seg.job, start: seg.start, end: seg.end, segment: Some(s as u32) }
        }
    }
}

pub fn run_count(record: &RunRecord) -> usize {
    record.jobs.len() + record.segments.len()
}
