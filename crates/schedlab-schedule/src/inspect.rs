//! The job inspector: one job's story in a run.

use schedlab_engine::{JobIdx, LogPosition, Preemption, RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;

use crate::{Band, JobClass, JobRef, ScheduleError, ScheduleView};

/// A reservation the job held: made at `made`, promising a start at
/// `start`, in its wait number `wait` (0 before its first start, k after
/// its k-th preemption). The next one of the same wait is when it moved.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReservationHeld {
    pub made: Time,
    pub start: Time,
    pub wait: u32,
}

/// A run of the job that ended in a preemption.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preempted {
    pub start: Time,
    pub end: Time,
    /// Wall seconds whose work did not survive.
    pub lost: Time,
    pub bands: Vec<Band>,
}

/// The strict-fairness audit's verdict on a delayed job
/// (`schedlab_metrics::fairness_audit`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Culprits {
    /// The first instant it could have started but for lower-priority running jobs.
    pub from: Time,
    /// From then to the start that ended that wait, seconds.
    pub delay: Time,
    /// The lower-priority running jobs whose processors it would have taken
    /// at `from`, lowest priority first.
    pub culprits: Vec<JobRef>,
}

/// Everything the inspector shows about one job.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobDetails {
    pub job: JobIdx,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: u64,
    pub user: i32,
    pub size: u32,
    pub submit: Time,
    pub runtime: Time,
    pub estimate: Time,
    /// The runtime prediction it was last started with.
    pub prediction: Time,
    pub first_start: Time,
    /// Its last start, the one it completed from.
    pub start: Time,
    pub end: Time,
    /// end − submit − runtime (lost work and overheads included).
    pub wait: Time,
    /// Bounded slowdown with the run's threshold.
    pub bsd: f64,
    pub class: JobClass,
    /// The first waiting job when it was first backfilled.
    pub backfilled_behind: Option<JobRef>,
    /// Was the first waiting job at the end of a pass (could not start at once).
    pub blocked: bool,
    /// Head-only strict-fairness audit: when it first could have started.
    pub fair_start: Option<Time>,
    /// Every reservation it held, in the order they were made (the run
    /// record's reservation history).
    pub reservations: Vec<ReservationHeld>,
    pub preemptions: Vec<Preempted>,
    /// The processors of its last run.
    pub bands: Vec<Band>,
    /// Set when the full strict-fairness audit found it delayed.
    pub delayed: Option<Culprits>,
    /// The jobs of higher priority whose delay it caused (as a culprit).
    pub delayed_jobs: Vec<JobRef>,
}

/// How often the index keeps a position in the reservation log.
const STRIDE: usize = 32;

/// Each job's changes in the run record's reservation log: their ordinals,
/// grouped by job, and a log position every [`STRIDE`] changes to read one
/// without decoding the log from the start (4 bytes a change).
#[derive(Clone, Debug, Default)]
pub struct ReservationIndex {
    positions: Vec<LogPosition>,
    first: Vec<u32>,
    ordinals: Vec<u32>,
}

impl ReservationIndex {
    pub fn new(record: &RunRecord) -> Self {
        let n = record.jobs.len();
        let mut positions = Vec::new();
        let mut owner = Vec::with_capacity(record.reservations.len());
        let mut first = vec![0u32; n + 1];
        for (k, (position, change)) in record.reservations.iter_from(LogPosition::default()).enumerate() {
            if k % STRIDE == 0 {
                positions.push(position);
            }
            owner.push(change.job);
            first[change.job as usize + 1] += 1;
        }
        for j in 0..n {
            first[j + 1] += first[j];
        }
        let mut next = first.clone();
        let mut ordinals = vec![0u32; owner.len()];
        for (k, &j) in owner.iter().enumerate() {
            ordinals[next[j as usize] as usize] = k as u32;
            next[j as usize] += 1;
        }
        ReservationIndex { positions, first, ordinals }
    }

    /// Job `j`'s reservations, in the order they were made.
    fn of(&self, record: &RunRecord, j: JobIdx) -> Vec<ReservationHeld> {
        let range = self.first[j as usize] as usize..self.first[j as usize + 1] as usize;
        self.ordinals[range]
            .iter()
            .filter_map(|&k| {
                let k = k as usize;
                let (_, c) = record.reservations.iter_from(self.positions[k / STRIDE]).nth(k % STRIDE)?;
                Some(ReservationHeld { made: c.time, start: c.start, wait: c.wait })
            })
            .collect()
    }

    pub fn heap_bytes(&self) -> usize {
        self.positions.capacity() * std::mem::size_of::<LogPosition>()
            + (self.first.capacity() + self.ordinals.capacity()) * 4
    }
}

/// Per preempted segment, the wall seconds of it whose work was lost, by
/// the run's preemption model: the whole segment when a killed job starts
/// over; the time since its last completed checkpoint for a checkpointed
/// job; nothing for a suspended one, which keeps its progress (a resume's
/// cost is an overhead of the next segment, not lost work).
pub fn lost_work(jobs: &[Job], record: &RunRecord, segments_by_job: &[u32]) -> Vec<Time> {
    let model = record.preemption;
    let mut lost = vec![0; record.segments.len()];
    for group in segments_by_job.chunk_by(|&a, &b| record.segments[a as usize].job == record.segments[b as usize].job) {
        let runtime = jobs[record.segments[group[0] as usize].job as usize].runtime;
        let mut saved = 0;
        for (k, &s) in group.iter().enumerate() {
            let seg = record.segments[s as usize];
            let elapsed = seg.end - seg.start;
            let resumed = k > 0;
            let kept = model.saved_after(saved, elapsed, runtime, resumed);
            lost[s as usize] = match model {
                Preemption::Kill => elapsed,
                // The progress kept was secured when the checkpoint that
                // wrote it ended: the work to it, the checkpoints before it
                // and its own.
                Preemption::Checkpoint { cost, .. } if kept > saved => {
                    (elapsed - model.wall(saved, kept, resumed) - cost).clamp(0, elapsed)
                }
                Preemption::Checkpoint { .. } => elapsed,
                Preemption::Suspend { .. } => 0,
            };
            saved = kept;
        }
    }
    lost
}

impl ScheduleView {
    /// The inspector's view of job index `job`.
    pub fn inspect(&self, jobs: &[Job], job: u64) -> Result<JobDetails, ScheduleError> {
        let j = self.check_job(job)?;
        let (spec, rec) = (&jobs[j as usize], &self.record.jobs[j as usize]);
        let wait = rec.end - spec.submit - spec.runtime;
        let bound = spec.runtime.max(self.tau).max(1) as f64;
        let delayed = self.delayed.binary_search_by_key(&j, |d| d.job).ok().map(|k| {
            let d = &self.delayed[k];
            Culprits {
                from: d.from,
                delay: d.delay,
                culprits: d.culprits.iter().map(|&c| JobRef::new(jobs, c)).collect(),
            }
        });
        let whom = self.delayed_by.partition_point(|p| p.0 < j)..self.delayed_by.partition_point(|p| p.0 <= j);
        Ok(JobDetails {
            job: j,
            id: spec.id,
            user: spec.user,
            size: spec.size,
            submit: spec.submit,
            runtime: spec.runtime,
            estimate: spec.estimate,
            prediction: rec.prediction,
            first_start: rec.first_start,
            start: rec.start,
            end: rec.end,
            wait,
            bsd: (wait as f64 + bound) / bound,
            class: self.class(j),
            backfilled_behind: rec.backfilled_behind.map(|h| JobRef::new(jobs, h)),
            blocked: rec.blocked,
            fair_start: rec.fair_start,
            reservations: self.reservations.of(&self.record, j),
            preemptions: self.preemptions(j),
            bands: self.layout.bands(j).to_vec(),
            delayed,
            delayed_jobs: self.delayed_by[whom].iter().map(|p| JobRef::new(jobs, p.1)).collect(),
        })
    }

    fn preemptions(&self, j: JobIdx) -> Vec<Preempted> {
        let n = self.record.jobs.len() as u32;
        let at = self.segments_by_job.partition_point(|&s| self.record.segments[s as usize].job < j);
        self.segments_by_job[at..]
            .iter()
            .take_while(|&&s| self.record.segments[s as usize].job == j)
            .map(|&s| {
                let seg = self.record.segments[s as usize];
                Preempted {
                    start: seg.start,
                    end: seg.end,
                    lost: self.lost[s as usize],
                    bands: self.layout.bands(n + s).to_vec(),
                }
            })
            .collect()
    }

    /// The reservation job `h` held at `t` in the wait it was in: the last
    /// change made at or before `t` in that wait.
    pub(crate) fn reservation_in_force(&self, h: JobIdx, t: Time) -> Option<ReservationHeld> {
        let waits_before = self.preemptions(h).iter().filter(|p| p.end <= t).count() as u32;
        self.reservations
            .of(&self.record, h)
            .into_iter()
            .take_while(|r| r.made <= t)
            .last()
            .filter(|r| r.wait == waits_before)
    }
}
