//! Replay: the machine and the queue at an instant, from the indexes, so
//! that stepping and playing cost what the instant holds.

use schedlab_engine::{JobIdx, Time};
use schedlab_workload::Job;
use serde::Serialize;

use crate::{Band, JobRect, ScheduleView};

/// A waiting job, in the queue beside the machine.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QueuedJob {
    pub job: JobIdx,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: u64,
    pub size: u32,
    pub estimate: Time,
    pub submit: Time,
}

/// The first waiting job's reservation at an instant, drawn as an outline
/// where the job later ran: from `start` for `length` seconds (the
/// prediction it was started with) on `bands`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeadReservation {
    pub job: JobIdx,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: u64,
    /// When the reservation was made.
    pub made: Time,
    pub start: Time,
    pub length: Time,
    pub bands: Vec<Band>,
}

/// The state at `time`, after everything that happened at that second.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayState {
    pub time: Time,
    /// The runs holding processors, in start order.
    pub running: Vec<JobRect>,
    pub busy: u32,
    /// The first waiting jobs in priority order (at most the limit asked for).
    pub queue: Vec<QueuedJob>,
    /// How many jobs wait in all.
    pub queue_length: u32,
    pub head_reservation: Option<HeadReservation>,
    /// The next instant something happens, and the last one before `time`.
    pub next: Option<Time>,
    pub previous: Option<Time>,
}

impl ScheduleView {
    /// The machine and the first `queue_limit` waiting jobs at `t`.
    pub fn replay(&self, jobs: &[Job], t: Time, queue_limit: usize) -> ReplayState {
        let mut running = Vec::new();
        self.runs.visit(t, t.saturating_add(1), |r| {
            running.push(self.rect(jobs, r));
            true
        });
        let mut queue = Vec::new();
        self.waits.visit(t, t.saturating_add(1), |j| {
            if queue.len() == queue_limit {
                return false;
            }
            let job = &jobs[j as usize];
            queue.push(QueuedJob { job: j, id: job.id, size: job.size, estimate: job.estimate, submit: job.submit });
            true
        });
        let (busy, queue_length) = self.series.levels_at(t);
        let (next, previous) = self.series.neighbours(t);
        ReplayState {
            time: t,
            running,
            busy,
            queue,
            queue_length,
            head_reservation: self.head_reservation(jobs, t),
            next,
            previous,
        }
    }

    /// The first waiting job's reservation in force at `t`, if it has one.
    pub fn head_reservation(&self, jobs: &[Job], t: Time) -> Option<HeadReservation> {
        let h = self.series.head_at(t)?;
        // PV-EASY records "no start in sight" as the end of time: no outline.
        let held = self.reservation_in_force(h, t).filter(|r| r.start < Time::MAX)?;
        // Its next run: the first preempted segment starting after `t`, else its last run.
        let n = self.record.jobs.len() as u32;
        let next_run = self
            .segments_by_job
            .iter()
            .skip(self.segments_by_job.partition_point(|&s| self.record.segments[s as usize].job < h))
            .take_while(|&&s| self.record.segments[s as usize].job == h)
            .find(|&&s| self.record.segments[s as usize].start > t)
            .map_or(h, |&s| n + s);
        Some(HeadReservation {
            job: h,
            id: jobs[h as usize].id,
            made: held.made,
            start: held.start,
            length: self.record.jobs[h as usize].prediction,
            bands: self.layout.bands(next_run).to_vec(),
        })
    }
}
