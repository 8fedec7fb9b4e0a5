//! Mean wait by priority class, for runs whose policy gives some jobs a
//! higher priority than the rest (slack-based backfilling's every-k-th
//! scenario, slack-priority-backfilling table 5): the high-priority jobs and
//! the others apart.
//!
//! wait = end − submit − runtime (as everywhere in Schedlab); averages cover
//! the measured jobs (the run's `skip_percent`).

use schedlab_engine::RunRecord;
use schedlab_workload::Job;
use serde::Serialize;

use crate::summary::measured;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PriorityMetrics {
    /// High-priority jobs measured.
    pub high_jobs: usize,
    /// `None` (`null`) when no job had the higher priority.
    pub high_mean_wait: Option<f64>,
    /// The other jobs measured.
    pub low_jobs: usize,
    pub low_mean_wait: Option<f64>,
}

/// Mean waits of `run` by class; `high[i]` says whether job i had the
/// higher priority (a job past the end of `high` counts as low).
pub fn priority_metrics(jobs: &[Job], run: &RunRecord, high: &[bool], skip_percent: f64) -> PriorityMetrics {
    let (mut sums, mut counts) = ([0.0f64; 2], [0usize; 2]);
    for i in measured(jobs.len(), skip_percent) {
        let class = usize::from(high.get(i).copied().unwrap_or(false));
        sums[class] += (run.jobs[i].end - jobs[i].submit - jobs[i].runtime) as f64;
        counts[class] += 1;
    }
    let mean = |c: usize| (counts[c] > 0).then(|| sums[c] / counts[c] as f64);
    PriorityMetrics { high_jobs: counts[1], high_mean_wait: mean(1), low_jobs: counts[0], low_mean_wait: mean(0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_run::finished;

    #[test]
    fn waits_are_averaged_per_class() {
        // (submit, runtime, estimate, start): waits 0, 10, 30, 5, 100.
        let (jobs, run) = finished(&[(0, 10, 10, 0), (0, 10, 10, 10), (5, 1, 1, 35), (10, 4, 4, 15), (0, 1, 1, 100)]);
        // Jobs 1 and 3 (every second job) are high: waits 10 and 5.
        let high = [false, true, false, true, false];
        let m = priority_metrics(&jobs, &run, &high, 0.0);
        assert_eq!(
            m,
            PriorityMetrics { high_jobs: 2, high_mean_wait: Some(7.5), low_jobs: 3, low_mean_wait: Some(130.0 / 3.0) }
        );
        // With 20 % skipped at each end, jobs 1 to 3 remain: high 10 and 5,
        // low 30.
        let m = priority_metrics(&jobs, &run, &high, 20.0);
        assert_eq!(
            m,
            PriorityMetrics { high_jobs: 2, high_mean_wait: Some(7.5), low_jobs: 1, low_mean_wait: Some(30.0) }
        );
        // No high-priority job: its mean wait is undefined, not 0.
        let m = priority_metrics(&jobs, &run, &[], 0.0);
        assert_eq!((m.high_jobs, m.high_mean_wait, m.low_jobs), (0, None, 5));
    }
}
