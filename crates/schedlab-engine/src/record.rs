use serde::Serialize;

use crate::{JobIdx, Preemption, RuntimeSource, Time};

/// What happened to one job in a run. The metrics and the checker read only
/// this and the trace, never the engine's internals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobRecord {
    /// The first time the job started.
    pub first_start: Time,
    /// The time of its last start (the one it completed from).
    pub start: Time,
    /// Completion time (or kill at the estimate).
    pub end: Time,
    /// The runtime prediction the job was last started with.
    pub prediction: Time,
    /// Started while a job of higher priority was waiting.
    pub backfilled: bool,
    /// The first waiting job when this job was first backfilled (for the
    /// reservation-violation metric).
    pub backfilled_behind: Option<JobIdx>,
    /// When it was first backfilled: its first start, unless it first
    /// started as the first waiting job and was backfilled after a
    /// preemption.
    pub backfilled_at: Option<Time>,
    /// Was the first waiting job at the end of a scheduling pass, that is,
    /// could not start at once.
    pub blocked: bool,
    /// Strict-fairness audit (SPEC §5): the first time the job was the first
    /// waiting job and idle processors plus those of running jobs of lower
    /// priority sufficed for it.
    pub fair_start: Option<Time>,
    /// The first reservation any policy recorded for the job.
    pub first_reservation: Option<Time>,
    /// How many times the job was started; one more than the times it was
    /// preempted.
    pub starts: u32,
    /// Wall seconds the job held its processors over all its segments.
    pub held: Time,
    /// How many times the job completed; exactly one in a correct run.
    pub completions: u32,
}

impl JobRecord {
    pub(crate) const UNSTARTED: JobRecord = JobRecord {
        first_start: -1,
        start: -1,
        end: -1,
        prediction: 0,
        backfilled: false,
        backfilled_behind: None,
        backfilled_at: None,
        blocked: false,
        fair_start: None,
        first_reservation: None,
        starts: 0,
        held: 0,
        completions: 0,
    };
}

/// A stretch of time a job held its processors and was then preempted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub job: JobIdx,
    pub start: Time,
    pub end: Time,
}

/// A reservation a policy made for a job whose reservation was then
/// different (or which had none in its current wait). A job's history is the
/// subsequence of its changes, in order: every reservation it held and when
/// it moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReservationChange {
    pub job: JobIdx,
    /// Which wait of the job it belongs to: how many times the job had
    /// started when it was made (0 before its first start, k after its k-th
    /// preemption).
    pub wait: u32,
    /// When the policy made it.
    pub time: Time,
    /// The start it promises.
    pub start: Time,
}

/// The outcome of one run, in the trace's priority order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord {
    pub procs: u32,
    pub source: RuntimeSource,
    /// The preemption model the run used (kill for non-preemptive policies,
    /// which never preempt; suspend also slows jobs that are never preempted).
    pub preemption: Preemption,
    pub jobs: Vec<JobRecord>,
    /// Every segment that ended in a preemption, in time order; the last
    /// segment of each job is `jobs[j].start..jobs[j].end`.
    pub segments: Vec<Segment>,
    /// Every change of a job's reservation, in the order they were made;
    /// calls that repeat a job's reservation are not recorded.
    pub reservations: Vec<ReservationChange>,
    /// Arrivals, completions and timers processed.
    pub events: u64,
    /// Scheduling passes (one per distinct event time, plus follow-ups for
    /// zero-length jobs and timers set for the current second).
    pub passes: u64,
}

/// What happens to a job at an instant of a run, in the order applied
/// within one second: ends before starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum JobChange {
    /// A segment ended in a preemption: processors released, the job waits.
    Preempted,
    /// The last run ended: processors released.
    Completed,
    /// A run of positive length started: processors taken, the job leaves
    /// the queue.
    Started,
    /// A zero-length last run: the job leaves the queue holding nothing.
    Vanished,
}

impl RunRecord {
    /// Every start and end of the run as `(time, change, job)`, sorted, so
    /// that a sweep over them replays the queue and the processors held
    /// (zero-length preempted segments change nothing and are left out).
    pub fn job_changes(&self) -> Vec<(Time, JobChange, JobIdx)> {
        let mut changes = Vec::with_capacity(2 * self.jobs.len() + 2 * self.segments.len());
        for s in &self.segments {
            if s.end > s.start {
                changes.push((s.start, JobChange::Started, s.job));
                changes.push((s.end, JobChange::Preempted, s.job));
            }
        }
        for (j, r) in self.jobs.iter().enumerate() {
            if r.end > r.start {
                changes.push((r.start, JobChange::Started, j as JobIdx));
                changes.push((r.end, JobChange::Completed, j as JobIdx));
            } else {
                changes.push((r.start, JobChange::Vanished, j as JobIdx));
            }
        }
        changes.sort_unstable();
        changes
    }
}
