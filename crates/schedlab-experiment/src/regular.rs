//! Runs compared on one subset of jobs: those regular (without a deadline)
//! under a run whose policy gives deadlines, as deadline-based-backfilling
//! figure 2 compares CBF, EASY and DBF. The paper leaves out the regular
//! jobs that waited 0 under every algorithm compared, so the means show
//! the jobs a policy could make wait; the all-jobs means stay in each run's
//! metrics.
//!
//! wait = end − submit − runtime; stretch = (wait + estimate) / estimate,
//! as in the metrics (docs/metrics.md). Only the measured jobs count (the
//! metrics' `skip_percent`).

use schedlab_engine::Time;
use schedlab_workload::Job;
use serde::Serialize;

use crate::RunOutcome;

/// What the comparison keeps of a finished run: its waits, and which jobs
/// were regular if its policy gives deadlines (8 or 9 bytes a job, not the
/// whole record).
#[derive(Clone, Debug, PartialEq)]
pub struct RunWaits {
    pub waits: Vec<Time>,
    pub regular: Option<Vec<bool>>,
}

impl RunWaits {
    pub fn new(jobs: &[Job], outcome: &RunOutcome) -> Self {
        let waits = jobs.iter().zip(&outcome.record.jobs).map(|(j, r)| r.end - j.submit - j.runtime).collect();
        RunWaits { waits, regular: outcome.regular.clone() }
    }
}

/// The runs without deadlines and one run with deadlines (`under`),
/// compared on the jobs regular under it that waited in at least one of
/// them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegularComparison {
    /// The run (index in the order given) whose regular jobs are compared.
    pub under: usize,
    /// Jobs compared: regular under `under`, measured, and waiting in at
    /// least one compared run.
    pub jobs: usize,
    /// The compared runs, in the order given: every run without deadlines,
    /// then `under`.
    pub runs: Vec<SubsetMeans>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubsetMeans {
    /// Index of the run in the order given.
    pub run: usize,
    /// `None` (`null`) when no job is compared: a mean over no jobs is
    /// undefined, not 0.
    pub mean_wait: Option<f64>,
    pub mean_stretch: Option<f64>,
}

/// One comparison per run with deadlines, in the order given; none when no
/// run has deadlines. Every run must be of `jobs`.
pub fn regular_comparison(jobs: &[Job], runs: &[RunWaits], skip_percent: f64) -> Vec<RegularComparison> {
    let plain: Vec<usize> = (0..runs.len()).filter(|&r| runs[r].regular.is_none()).collect();
    runs.iter()
        .enumerate()
        .filter_map(|(under, run)| run.regular.as_deref().map(|regular| (under, regular)))
        .map(|(under, regular)| {
            let compared: Vec<usize> = plain.iter().copied().chain([under]).collect();
            let kept: Vec<usize> = schedlab_metrics::measured(jobs.len(), skip_percent)
                .filter(|&i| regular[i] && compared.iter().any(|&r| runs[r].waits[i] > 0))
                .collect();
            let runs = compared.iter().map(|&r| subset_means(jobs, &runs[r].waits, &kept, r)).collect();
            RegularComparison { under, jobs: kept.len(), runs }
        })
        .collect()
}

fn subset_means(jobs: &[Job], waits: &[Time], kept: &[usize], run: usize) -> SubsetMeans {
    if kept.is_empty() {
        return SubsetMeans { run, mean_wait: None, mean_stretch: None };
    }
    let n = kept.len() as f64;
    let wait: f64 = kept.iter().map(|&i| waits[i] as f64).sum();
    let stretch: f64 = kept
        .iter()
        .map(|&i| {
            let estimate = jobs[i].estimate.max(1) as f64;
            (waits[i] as f64 + estimate) / estimate
        })
        .sum();
    SubsetMeans { run, mean_wait: Some(wait / n), mean_stretch: Some(stretch / n) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: u64, estimate: Time) -> Job {
        Job { id, submit: 0, runtime: 1, size: 1, estimate, user: 1, group: 1, queue: 1, partition: 1, status: 1 }
    }

    fn waits(waits: &[Time], regular: Option<&[bool]>) -> RunWaits {
        RunWaits { waits: waits.to_vec(), regular: regular.map(<[bool]>::to_vec) }
    }

    #[test]
    fn regular_jobs_that_waited_somewhere_are_compared() {
        let jobs = [job(1, 10), job(2, 10), job(3, 20), job(4, 5), job(5, 10)];
        // Job 2 (index 1) has a deadline under the third run; job 4 waited
        // under no run; jobs 1, 3 and 5 are compared.
        let regular = [true, false, true, true, true];
        let runs = [
            waits(&[10, 0, 0, 0, 30], None),
            waits(&[0, 50, 20, 0, 0], None),
            waits(&[0, 0, 0, 0, 10], Some(&regular)),
        ];
        let got = regular_comparison(&jobs, &runs, 0.0);
        // Stretches: run 0: (10+10)/10, (0+20)/20, (30+10)/10 = 2, 1, 4;
        // run 1: 1, (20+20)/20, 1 = 1, 2, 1; run 2: 1, 1, (10+10)/10 = 2.
        let means = |run, w, s| SubsetMeans { run, mean_wait: Some(w), mean_stretch: Some(s) };
        let expected = RegularComparison {
            under: 2,
            jobs: 3,
            runs: vec![
                means(0, 40.0 / 3.0, 7.0 / 3.0),
                means(1, 20.0 / 3.0, 4.0 / 3.0),
                means(2, 10.0 / 3.0, 4.0 / 3.0),
            ],
        };
        assert_eq!(got, vec![expected]);
        // Skipping 20 % at each end leaves jobs 2 to 4: only job 3 counts.
        let skipped = regular_comparison(&jobs, &runs, 20.0);
        assert_eq!(skipped[0].jobs, 1);
        assert_eq!(skipped[0].runs[1], means(1, 20.0, 2.0));
        // No run with deadlines, no comparison.
        assert!(regular_comparison(&jobs, &runs[..2], 0.0).is_empty());
    }

    #[test]
    fn no_regular_job_gives_undefined_means() {
        // Every job has a deadline under the last run, so none is compared:
        // the means are undefined (null), not 0 or -0.
        let jobs = [job(1, 10), job(2, 10)];
        let runs = [waits(&[10, 20], None), waits(&[0, 30], Some(&[false, false]))];
        let got = regular_comparison(&jobs, &runs, 0.0);
        let undefined = |run| SubsetMeans { run, mean_wait: None, mean_stretch: None };
        assert_eq!(got, vec![RegularComparison { under: 1, jobs: 0, runs: vec![undefined(0), undefined(1)] }]);
        let json = serde_json::to_string(&got[0].runs[0]).unwrap();
        assert_eq!(json, r#"{"run":0,"mean_wait":null,"mean_stretch":null}"#);
    }
}
