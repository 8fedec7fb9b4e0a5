//! Time series of a run on a grid of time buckets (a bucket per pixel
//! column of the page, or any width): utilisation, queue length in jobs and
//! in requested processor-seconds, and the wait of the first waiting job.
//!
//! The machine's busy processors, the queue length and the queue's
//! requested work are step functions of time; each is kept with its
//! running integral at every change, so the mean over any bucket is two
//! binary searches, whatever the bucket holds. A level applies from its
//! change to the next one, after everything that happened at that second
//! (a job that starts the second it is submitted never counts as waiting).
//! A job waits from its submission to its first start and from each
//! preemption to its next start; its requested work is size × estimate.
//!
//! The first waiting job (the *head*) is kept as the list of its changes;
//! the head's wait in a bucket is the longest wait (time since submission)
//! any head had in that bucket, which is what a spike in the chart should
//! show. It costs the head changes inside the bucket.

use std::collections::BTreeMap;

use schedlab_engine::{JobIdx, RunRecord, Time};
use schedlab_workload::Job;
use serde::{Deserialize, Serialize};

use crate::runs::{run_count, run_of};
use crate::ScheduleError;

/// The most buckets one query may ask for (a 4K screen has 3,840 columns).
pub const MAX_BUCKETS: u32 = 20_000;

/// `buckets` equal buckets over `[from, to)`; bucket k covers
/// `[from + k·w, from + (k+1)·w)` with `w = (to − from) / buckets` seconds,
/// not necessarily whole.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    pub from: Time,
    pub to: Time,
    pub buckets: u32,
}

impl Grid {
    pub fn check(&self) -> Result<(), ScheduleError> {
        if self.to <= self.from {
            return Err(ScheduleError::EmptyWindow { from: self.from, to: self.to });
        }
        if self.buckets == 0 || self.buckets > MAX_BUCKETS {
            return Err(ScheduleError::Buckets { buckets: self.buckets });
        }
        Ok(())
    }

    /// The left edge of bucket `k` (the right edge of the last for `k = buckets`).
    pub fn edge(&self, k: u32) -> f64 {
        let span = (self.to - self.from) as f64;
        self.from as f64 + span * f64::from(k) / f64::from(self.buckets)
    }
}

/// The series of one run on a grid.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesData {
    pub grid: Grid,
    /// Mean fraction of the machine busy, per bucket.
    pub utilisation: Vec<f64>,
    /// Mean number of waiting jobs.
    pub queue_jobs: Vec<f64>,
    /// Mean requested work of the waiting jobs (size × estimate), processor-seconds.
    pub queue_work: Vec<f64>,
    /// The longest wait of a first waiting job in the bucket, seconds (0 when none waited).
    pub head_wait: Vec<f64>,
}

/// A change of the step functions, and their integrals up to it (also the
/// window schedule's running levels, computed the same way).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Point {
    t: Time,
    used: u32,
    queued: u32,
    work: f64,
    used_area: f64,
    queued_area: f64,
    work_area: f64,
}

impl Point {
    /// The levels `used`, `queued` and `work` from `t` on, after `last`.
    pub(crate) fn after(last: Option<&Point>, t: Time, used: u32, queued: u32, work: f64) -> Point {
        let mut p = Point { t, used, queued, work, ..Point::default() };
        if let Some(last) = last {
            let dt = (t - last.t) as f64;
            p.used_area = last.used_area + f64::from(last.used) * dt;
            p.queued_area = last.queued_area + f64::from(last.queued) * dt;
            p.work_area = last.work_area + last.work * dt;
        }
        p
    }

    /// Each measure's integral from the first change to `t`, which no
    /// later change precedes.
    pub(crate) fn areas_to(&self, t: f64) -> (f64, f64, f64) {
        let dt = t - self.t as f64;
        (
            self.used_area + f64::from(self.used) * dt,
            self.queued_area + f64::from(self.queued) * dt,
            self.work_area + self.work * dt,
        )
    }
}

/// No job waits.
const NO_HEAD: JobIdx = JobIdx::MAX;

#[derive(Clone, Debug, Default)]
pub struct Series {
    points: Vec<Point>,
    /// `(time, head)` at every change of the first waiting job.
    heads: Vec<(Time, JobIdx)>,
}

/// One change: time, busy processors, waiting jobs, waiting work.
type Delta = (Time, i64, i64, i128);

impl Series {
    pub fn new(jobs: &[Job], record: &RunRecord) -> Series {
        let waits = waits(jobs, record);
        let mut deltas: Vec<Delta> = Vec::with_capacity(2 * waits.len() + 2 * run_count(record));
        for &(from, to, j) in &waits {
            let work = i128::from(jobs[j as usize].size) * i128::from(jobs[j as usize].estimate);
            deltas.push((from, 0, 1, work));
            deltas.push((to, 0, -1, -work));
        }
        for r in 0..run_count(record) as u32 {
            let run = run_of(record, r);
            let size = i64::from(jobs[run.job as usize].size);
            deltas.push((run.start, size, 0, 0));
            deltas.push((run.end, -size, 0, 0));
        }
        deltas.sort_unstable_by_key(|d| d.0);
        Series { points: integrate(&deltas), heads: heads(&waits) }
    }

    /// Each measure's integral from the first change to `t`.
    fn areas(&self, t: f64) -> (f64, f64, f64) {
        let k = self.points.partition_point(|p| p.t as f64 <= t);
        k.checked_sub(1).map_or((0.0, 0.0, 0.0), |k| self.points[k].areas_to(t))
    }

    /// Busy processors and waiting jobs at `t`, after everything that happened at `t`.
    pub fn levels_at(&self, t: Time) -> (u32, u32) {
        let k = self.points.partition_point(|p| p.t <= t);
        k.checked_sub(1).map_or((0, 0), |k| (self.points[k].used, self.points[k].queued))
    }

    /// The first change after `t` and the last before it: the instants a
    /// replay steps to.
    pub fn neighbours(&self, t: Time) -> (Option<Time>, Option<Time>) {
        let after = self.points.partition_point(|p| p.t <= t);
        let before = self.points.partition_point(|p| p.t < t);
        (self.points.get(after).map(|p| p.t), before.checked_sub(1).map(|k| self.points[k].t))
    }

    /// The first and last change: the span of the run.
    pub fn span(&self) -> Option<(Time, Time)> {
        Some((self.points.first()?.t, self.points.last()?.t))
    }

    /// Mean busy processors per bucket.
    pub fn mean_used(&self, grid: &Grid) -> Vec<f64> {
        self.per_bucket(grid, |a, b| b.0 - a.0)
    }

    pub fn data(&self, jobs: &[Job], procs: u32, grid: &Grid) -> SeriesData {
        SeriesData {
            grid: *grid,
            utilisation: self.per_bucket(grid, |a, b| (b.0 - a.0) / f64::from(procs.max(1))),
            queue_jobs: self.per_bucket(grid, |a, b| b.1 - a.1),
            queue_work: self.per_bucket(grid, |a, b| b.2 - a.2),
            head_wait: (0..grid.buckets)
                .map(|k| self.longest_head_wait(jobs, grid.edge(k), grid.edge(k + 1)))
                .collect(),
        }
    }

    /// `area(from, to) / width` per bucket.
    fn per_bucket(&self, grid: &Grid, area: impl Fn((f64, f64, f64), (f64, f64, f64)) -> f64) -> Vec<f64> {
        let mut left = self.areas(grid.edge(0));
        (1..=grid.buckets)
            .map(|k| {
                let right = self.areas(grid.edge(k));
                let width = grid.edge(k) - grid.edge(k - 1);
                let mean = area(left, right) / width;
                left = right;
                mean
            })
            .collect()
    }

    /// The longest time since submission of a first waiting job in `[a, b)`.
    fn longest_head_wait(&self, jobs: &[Job], a: f64, b: f64) -> f64 {
        let mut k = self.heads.partition_point(|h| h.0 as f64 <= a).saturating_sub(1);
        let mut longest: f64 = 0.0;
        while let Some(&(t, head)) = self.heads.get(k).filter(|h| (h.0 as f64) < b) {
            let until = self.heads.get(k + 1).map_or(b, |n| (n.0 as f64).min(b));
            if head != NO_HEAD && until > a && until > t as f64 {
                longest = longest.max(until - jobs[head as usize].submit as f64);
            }
            k += 1;
        }
        longest
    }

    /// The first waiting job at `t` (after everything that happened at `t`).
    pub fn head_at(&self, t: Time) -> Option<JobIdx> {
        let k = self.heads.partition_point(|h| h.0 <= t).checked_sub(1)?;
        Some(self.heads[k].1).filter(|&h| h != NO_HEAD)
    }

    pub fn heap_bytes(&self) -> usize {
        self.points.capacity() * std::mem::size_of::<Point>() + self.heads.capacity() * 16
    }
}

fn integrate(deltas: &[Delta]) -> Vec<Point> {
    let mut points: Vec<Point> = Vec::new();
    let (mut used, mut queued, mut work) = (0i64, 0i64, 0i128);
    for group in deltas.chunk_by(|a, b| a.0 == b.0) {
        let t = group[0].0;
        for d in group {
            used += d.1;
            queued += d.2;
            work += d.3;
        }
        points.push(Point::after(points.last(), t, used as u32, queued as u32, work as f64));
    }
    points
}

/// Every wait of every job as `(from, to, job)`, in priority order (each
/// job's waits in time order): submission to first start, and each
/// preemption to the next start. Waits of no length are left out.
pub fn waits(jobs: &[Job], record: &RunRecord) -> Vec<(Time, Time, JobIdx)> {
    let mut segments: Vec<u32> = (0..record.segments.len() as u32).collect();
    segments.sort_by_key(|&s| (record.segments[s as usize].job, record.segments[s as usize].start));
    let mut out = Vec::with_capacity(jobs.len() + segments.len());
    let mut next = 0;
    for (j, (job, rec)) in jobs.iter().zip(&record.jobs).enumerate() {
        let mut from = job.submit;
        while let Some(seg) = segments.get(next).map(|&s| record.segments[s as usize]).filter(|s| s.job as usize == j) {
            out.push((from, seg.start, j as JobIdx));
            from = seg.end;
            next += 1;
        }
        out.push((from, rec.start, j as JobIdx));
    }
    out.retain(|w| w.1 > w.0);
    out
}

/// The changes of the first waiting job. Within a second, a job may start
/// and be preempted or be preempted and restart: counts per job (+1 on
/// joining the queue, −1 on leaving it) settle once the second is over.
fn heads(waits: &[(Time, Time, JobIdx)]) -> Vec<(Time, JobIdx)> {
    let mut events: Vec<(Time, JobIdx, i32)> = Vec::with_capacity(2 * waits.len());
    for &(from, to, j) in waits {
        events.push((from, j, 1));
        events.push((to, j, -1));
    }
    events.sort_unstable();
    let mut queue: BTreeMap<JobIdx, i32> = BTreeMap::new();
    let mut out: Vec<(Time, JobIdx)> = Vec::new();
    for group in events.chunk_by(|a, b| a.0 == b.0) {
        for &(_, j, d) in group {
            let count = queue.entry(j).or_insert(0);
            *count += d;
            if *count == 0 {
                queue.remove(&j);
            }
        }
        let head = queue.first_key_value().map_or(NO_HEAD, |(&j, _)| j);
        if out.last().map(|h| h.1) != Some(head) {
            out.push((group[0].0, head));
        }
    }
    out
}
