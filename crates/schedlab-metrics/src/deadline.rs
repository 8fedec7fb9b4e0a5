//! Deadline metrics of DBF (deadline-based-backfilling §6.1), for runs whose
//! policy reports deadlines (docs/semantics.md, "Metrics"): regular and deadline-driven jobs
//! apart, deadline violations and deadline usage.
//!
//! - wait = end − submit − runtime (as everywhere in Schedlab);
//! - stretch = (wait + estimate) / estimate (eq. 2, walltime = estimate);
//! - a *violation* is a deadline-driven job that completed after its
//!   deadline;
//! - usage = (completion − submit) / (deadline − submit) (eq. 3).
//!   `mean_usage` covers every deadline-driven job; `mean_usage_delayed`
//!   leaves out the jobs that started at their submission, as the paper's
//!   figure 7 does.
//!
//! Averages cover the measured jobs (the run's `skip_percent`).

use schedlab_engine::{RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;

use crate::summary::measured;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeadlineMetrics {
    /// Deadline-driven jobs measured.
    pub jobs: usize,
    pub violations: usize,
    pub mean_usage: f64,
    pub mean_usage_delayed: f64,
    pub regular_jobs: usize,
    pub regular_mean_wait: f64,
    pub regular_mean_stretch: f64,
    pub regular_max_stretch: f64,
    pub deadline_mean_wait: f64,
    pub deadline_mean_stretch: f64,
}

#[derive(Default)]
struct Sums {
    n: usize,
    wait: f64,
    stretch: f64,
    max_stretch: f64,
}

impl Sums {
    fn add(&mut self, wait: Time, estimate: Time) {
        let est = estimate.max(1) as f64;
        let stretch = (wait as f64 + est) / est;
        self.n += 1;
        self.wait += wait as f64;
        self.stretch += stretch;
        self.max_stretch = self.max_stretch.max(stretch);
    }

    fn mean(sum: f64, n: usize) -> f64 {
        if n == 0 {
            0.0
        } else {
            sum / n as f64
        }
    }
}

/// Deadline metrics of `run`; `deadlines[i]` is job i's deadline if it was
/// deadline-driven.
pub fn deadline_metrics(
    jobs: &[Job],
    run: &RunRecord,
    deadlines: &[Option<Time>],
    skip_percent: f64,
) -> DeadlineMetrics {
    let (mut regular, mut driven) = (Sums::default(), Sums::default());
    let (mut violations, mut usage, mut usage_delayed, mut delayed) = (0, 0.0, 0.0, 0usize);
    for i in measured(jobs.len(), skip_percent) {
        let (job, rec) = (&jobs[i], &run.jobs[i]);
        let wait = rec.end - job.submit - job.runtime;
        match deadlines.get(i).copied().flatten() {
            None => regular.add(wait, job.estimate),
            Some(d) => {
                driven.add(wait, job.estimate);
                violations += usize::from(rec.end > d);
                let u = (rec.end - job.submit) as f64 / (d - job.submit).max(1) as f64;
                usage += u;
                if rec.first_start > job.submit {
                    usage_delayed += u;
                    delayed += 1;
                }
            }
        }
    }
    DeadlineMetrics {
        jobs: driven.n,
        violations,
        mean_usage: Sums::mean(usage, driven.n),
        mean_usage_delayed: Sums::mean(usage_delayed, delayed),
        regular_jobs: regular.n,
        regular_mean_wait: Sums::mean(regular.wait, regular.n),
        regular_mean_stretch: Sums::mean(regular.stretch, regular.n),
        regular_max_stretch: regular.max_stretch,
        deadline_mean_wait: Sums::mean(driven.wait, driven.n),
        deadline_mean_stretch: Sums::mean(driven.stretch, driven.n),
    }
}
