//! Deadline metrics of DBF (deadline-based-backfilling §6.1), for runs whose
//! policy reports deadlines (docs/semantics.md, "Metrics"): regular and deadline-driven jobs
//! apart, deadline violations and deadline usage.
//!
//! - wait = end − submit − runtime (as everywhere in Schedlab);
//! - stretch = (wait + estimate) / estimate (eq. 2, walltime = estimate);
//! - a *violation* is a deadline-driven job that completed after its
//!   deadline; violations are also counted by the term of the deadline
//!   rule that set the deadline (the minimum window, 24 h, or the factor
//!   times the estimate), as the paper's figure 6 splits them;
//! - usage = (completion − submit) / (deadline − submit) (eq. 3).
//!   `mean_usage` covers every deadline-driven job; `mean_usage_delayed`
//!   leaves out the jobs that started at their submission, as the paper's
//!   figure 7 does.
//!
//! Averages cover the measured jobs (the run's `skip_percent`).

use schedlab_engine::{Deadline, DeadlineKind, RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;

use crate::summary::measured;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeadlineMetrics {
    /// Deadline-driven jobs measured.
    pub jobs: usize,
    pub violations: usize,
    /// Violations of deadlines set by the rule's minimum window.
    pub violations_minimum: usize,
    /// Violations of deadlines set by the factor times the estimate.
    pub violations_scaled: usize,
    /// Deadline-driven jobs measured that started at their submission.
    pub started_at_submission: usize,
    /// Means and the largest stretch are `None` (`null`) over no jobs: a
    /// run without regular jobs has no regular mean wait, not one of 0 s.
    pub mean_usage: Option<f64>,
    pub mean_usage_delayed: Option<f64>,
    pub regular_jobs: usize,
    pub regular_mean_wait: Option<f64>,
    pub regular_mean_stretch: Option<f64>,
    pub regular_max_stretch: Option<f64>,
    pub deadline_mean_wait: Option<f64>,
    pub deadline_mean_stretch: Option<f64>,
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

    fn mean(sum: f64, n: usize) -> Option<f64> {
        (n > 0).then(|| sum / n as f64)
    }

    fn max_stretch(&self) -> Option<f64> {
        (self.n > 0).then_some(self.max_stretch)
    }
}

/// Deadline metrics of `run`; `deadlines[i]` is job i's deadline if it was
/// deadline-driven.
pub fn deadline_metrics(
    jobs: &[Job],
    run: &RunRecord,
    deadlines: &[Option<Deadline>],
    skip_percent: f64,
) -> DeadlineMetrics {
    let (mut regular, mut driven) = (Sums::default(), Sums::default());
    let (mut usage, mut usage_delayed, mut delayed) = (0.0, 0.0, 0usize);
    let (mut violations_minimum, mut violations_scaled) = (0, 0);
    for i in measured(jobs.len(), skip_percent) {
        let (job, rec) = (&jobs[i], &run.jobs[i]);
        let wait = rec.end - job.submit - job.runtime;
        match deadlines.get(i).copied().flatten() {
            None => regular.add(wait, job.estimate),
            Some(Deadline { at: d, kind }) => {
                driven.add(wait, job.estimate);
                if rec.end > d {
                    match kind {
                        DeadlineKind::Minimum => violations_minimum += 1,
                        DeadlineKind::Scaled => violations_scaled += 1,
                    }
                }
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
        violations: violations_minimum + violations_scaled,
        violations_minimum,
        violations_scaled,
        started_at_submission: driven.n - delayed,
        mean_usage: Sums::mean(usage, driven.n),
        mean_usage_delayed: Sums::mean(usage_delayed, delayed),
        regular_jobs: regular.n,
        regular_mean_wait: Sums::mean(regular.wait, regular.n),
        regular_mean_stretch: Sums::mean(regular.stretch, regular.n),
        regular_max_stretch: regular.max_stretch(),
        deadline_mean_wait: Sums::mean(driven.wait, driven.n),
        deadline_mean_stretch: Sums::mean(driven.stretch, driven.n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_run::finished;

    #[test]
    fn violations_are_told_apart_by_the_term_that_set_the_deadline() {
        // (submit, runtime, estimate, start).
        let (jobs, run) = finished(&[
            (0, 10, 10, 0),   // regular, wait 0, stretch (0 + 10) / 10 = 1
            (0, 10, 20, 100), // minimum deadline 50, ends 110: violated
            (0, 10, 20, 20),  // minimum deadline 50, ends 30: kept
            (5, 10, 20, 5),   // scaled deadline 205, ends 15, started at submission
            (0, 10, 20, 300), // scaled deadline 200, ends 310: violated
            (0, 10, 10, 30),  // regular, wait 30, stretch (30 + 10) / 10 = 4
        ]);
        let at = |at, kind| Some(Deadline { at, kind });
        let deadlines = [
            None,
            at(50, DeadlineKind::Minimum),
            at(50, DeadlineKind::Minimum),
            at(205, DeadlineKind::Scaled),
            at(200, DeadlineKind::Scaled),
            None,
        ];
        let d = deadline_metrics(&jobs, &run, &deadlines, 0.0);
        assert_eq!((d.jobs, d.violations, d.violations_minimum, d.violations_scaled), (4, 2, 1, 1));
        assert_eq!(d.started_at_submission, 1);
        // Usage: 110/50, 30/50, 10/200, 310/200; the delayed jobs leave
        // out the third (started at submission).
        assert_eq!(d.mean_usage, Some((2.2 + 0.6 + 0.05 + 1.55) / 4.0));
        assert_eq!(d.mean_usage_delayed, Some((2.2 + 0.6 + 1.55) / 3.0));
        assert_eq!(
            (d.regular_jobs, d.regular_mean_wait, d.regular_mean_stretch, d.regular_max_stretch),
            (2, Some(15.0), Some(2.5), Some(4.0))
        );
    }

    #[test]
    fn means_over_no_jobs_are_undefined() {
        // Both jobs have a deadline, and the first started at submission:
        // there are no regular jobs to average, and one delayed job.
        let (jobs, run) = finished(&[(0, 10, 10, 0), (0, 10, 10, 40)]);
        let deadline = Some(Deadline { at: 100, kind: DeadlineKind::Scaled });
        let d = deadline_metrics(&jobs, &run, &[deadline, deadline], 0.0);
        assert_eq!(d.regular_jobs, 0);
        assert_eq!((d.regular_mean_wait, d.regular_mean_stretch, d.regular_max_stretch), (None, None, None));
        // Waits 0 and 40; stretches 1 and (40 + 10) / 10 = 5.
        assert_eq!((d.deadline_mean_wait, d.deadline_mean_stretch), (Some(20.0), Some(3.0)));
        // Usage: 10/100 and 50/100; only the second job was delayed.
        assert_eq!((d.mean_usage, d.mean_usage_delayed), (Some(0.3), Some(0.5)));
        let none = deadline_metrics(&jobs, &run, &[None, None], 0.0);
        assert_eq!((none.jobs, none.mean_usage, none.deadline_mean_wait), (0, None, None));
    }
}
