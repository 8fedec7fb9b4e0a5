use schedlab_engine::{JobRecord, RunRecord, Time};
use schedlab_workload::Job;
use serde::Serialize;
use thiserror::Error;

/// How metrics are computed; every field has the default of docs/semantics.md, "Metrics".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsOptions {
    /// τ of the bounded slowdown, seconds.
    pub bsd_threshold: Time,
    pub categories: CategoryLimits,
    /// Leave out the first and the last this many percent of jobs (by submit
    /// order) from per-job averages.
    pub skip_percent: f64,
}

impl Default for MetricsOptions {
    fn default() -> Self {
        Self { bsd_threshold: 10, categories: CategoryLimits::default(), skip_percent: 0.0 }
    }
}

/// Limits of the SN/SW/LN/LW categories (selective-reservation §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CategoryLimits {
    /// Short: runtime at most this many seconds.
    pub runtime: Time,
    /// Narrow: at most this many processors.
    pub size: u32,
}

impl Default for CategoryLimits {
    fn default() -> Self {
        Self { runtime: 3600, size: 8 }
    }
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MetricsError {
    #[error("bounded-slowdown threshold must be at least 1 s, got {0}")]
    Threshold(String),
    #[error("skip percentage must be in [0, 50), got {0}")]
    Skip(String),
    #[error("category limits must be positive (runtime {runtime} s, size {size})")]
    Categories { runtime: Time, size: u32 },
}

impl MetricsOptions {
    pub fn validate(&self) -> Result<(), MetricsError> {
        if self.bsd_threshold < 1 {
            return Err(MetricsError::Threshold(self.bsd_threshold.to_string()));
        }
        if !(0.0..50.0).contains(&self.skip_percent) {
            return Err(MetricsError::Skip(schedlab_workload::short_number(self.skip_percent)));
        }
        if self.categories.runtime < 1 || self.categories.size < 1 {
            return Err(MetricsError::Categories { runtime: self.categories.runtime, size: self.categories.size });
        }
        Ok(())
    }
}

/// Every metric of one run. Times in seconds; utilisation a fraction.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Jobs measured (after `skip_percent`).
    pub jobs: usize,
    pub mbs: f64,
    pub mwbs: f64,
    pub mean_wait: f64,
    pub median_wait: Time,
    pub p95_wait: Time,
    pub max_wait: Time,
    pub mean_turnaround: f64,
    pub mean_slowdown: f64,
    pub max_slowdown: f64,
    pub mean_stretch: f64,
    pub max_stretch: f64,
    pub utilization: f64,
    pub makespan: Time,
    pub backfilled: usize,
    pub blocked: usize,
    /// MBS and MWBS of blocked jobs: "big" (size > P/4), "small", then
    /// power-of-two size bins.
    pub blocked_groups: Vec<BlockedGroup>,
    /// SN, SW, LN, LW.
    pub categories: Vec<Category>,
    pub fairness: Fairness,
    /// Strict fairness over every job that waited (see
    /// [`crate::fairness_audit`]).
    pub fairness_all: crate::FairnessAll,
    #[serde(flatten)]
    pub preemption: crate::preemption::PreemptionMetrics,
    pub reservation_violations: crate::violations::ReservationViolations,
    /// Reservations the policy made or moved during the run (the run
    /// record's reservation log): the work of keeping its plan, which the
    /// reservation-depth figure draws against the depth.
    pub reservation_changes: usize,
    /// DBF's deadline metrics, for policies that report deadlines.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub deadline: Option<crate::DeadlineMetrics>,
    /// Mean wait by priority class, for policies that give some jobs a
    /// higher priority.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub priority: Option<crate::PriorityMetrics>,
    /// The fair-slowdown table (selective-reservation table 9), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub fair_slowdown: Option<crate::FairSlowdownTable>,
    /// What the runtime predictions were worth, for policies that use them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub predictions: Option<crate::PredictionMetrics>,
    /// On a machine of nodes, utilisation per resource and figures per
    /// partition; absent on processors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub machine: Option<crate::MachineMetrics>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlockedGroup {
    pub group: String,
    pub min_size: u32,
    pub max_size: u32,
    pub jobs: usize,
    pub mbs: f64,
    pub mwbs: f64,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Category {
    pub name: &'static str,
    pub jobs: usize,
    pub mbs: f64,
    pub mean_turnaround: f64,
    pub mean_wait: f64,
}

/// The strict-fairness audit (pv-easy table 1).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fairness {
    pub blocked: usize,
    pub delayed: usize,
    /// Mean delay of the delayed jobs, seconds.
    pub mean_delay: f64,
    pub max_delay: Time,
}

/// Per-job figures the aggregates are built from.
#[derive(Clone, Copy, Debug)]
struct JobFigures {
    wait: Time,
    turnaround: Time,
    bsd: f64,
    size: u32,
}

fn figures(job: &Job, rec: &JobRecord, tau: Time) -> JobFigures {
    let turnaround = rec.end - job.submit;
    let wait = turnaround - job.runtime;
    let bound = job.runtime.max(tau) as f64;
    JobFigures { wait, turnaround, bsd: (wait as f64 + bound) / bound, size: job.size }
}

/// The measured range of job indices after leaving out `skip_percent` %
/// at each end.
pub fn measured(n: usize, skip_percent: f64) -> std::ops::Range<usize> {
    let skip = ((n as f64) * skip_percent / 100.0).floor() as usize;
    skip..n.saturating_sub(skip).max(skip)
}

/// Waits (end − submit − runtime) of the jobs the metrics measure (all, or
/// all but the first and last `skip_percent` %), in priority order: the
/// input of [`crate::wait_ecdf`] for the page's wait-time chart.
pub fn measured_waits(jobs: &[Job], run: &RunRecord, opts: &MetricsOptions) -> Vec<Time> {
    let range = measured(jobs.len(), opts.skip_percent);
    jobs[range.clone()].iter().zip(&run.jobs[range]).map(|(j, r)| figures(j, r, opts.bsd_threshold).wait).collect()
}

/// The four metrics a learning agent is rewarded with (see
/// [`headline`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Headline {
    pub mbs: f64,
    pub mwbs: f64,
    pub mean_wait: f64,
    pub utilization: f64,
}

impl From<&Metrics> for Headline {
    fn from(m: &Metrics) -> Self {
        Headline { mbs: m.mbs, mwbs: m.mwbs, mean_wait: m.mean_wait, utilization: m.utilization }
    }
}

/// MBS, MWBS, mean wait and utilisation of `run`, equal to [`compute`]'s
/// by the same steps, without its audits, groups and quantiles: over a
/// 256-job episode of the Gymnasium environment those cost about a hundred
/// times more than these four, which are all a reward needs.
pub fn headline(jobs: &[Job], run: &RunRecord, opts: &MetricsOptions) -> Headline {
    let range = measured(jobs.len(), opts.skip_percent);
    let figs: Vec<JobFigures> =
        jobs[range.clone()].iter().zip(&run.jobs[range]).map(|(j, r)| figures(j, r, opts.bsd_threshold)).collect();
    Headline {
        mbs: mean(figs.iter().map(|f| f.bsd)),
        mwbs: weighted_bsd(&figs),
        mean_wait: mean(figs.iter().map(|f| f.wait as f64)),
        utilization: utilization(jobs, run).0,
    }
}

/// Computes every metric of `run` over `jobs` (the trace the run replayed).
pub fn compute(jobs: &[Job], run: &RunRecord, opts: &MetricsOptions) -> Metrics {
    let range = measured(jobs.len(), opts.skip_percent);
    let pairs: Vec<(&Job, &JobRecord)> = jobs[range.clone()].iter().zip(&run.jobs[range]).collect();
    let figs: Vec<JobFigures> = pairs.iter().map(|(j, r)| figures(j, r, opts.bsd_threshold)).collect();
    let mut waits: Vec<Time> = figs.iter().map(|f| f.wait).collect();
    waits.sort_unstable();
    let (mean_slowdown, max_slowdown) =
        mean_max(pairs.iter().map(|(j, r)| (r.end - j.submit) as f64 / j.runtime.max(1) as f64));
    let (mean_stretch, max_stretch) = mean_max(pairs.iter().map(|(j, r)| {
        let est = j.estimate.max(1) as f64;
        ((r.end - j.submit - j.runtime) as f64 + est) / est
    }));
    let (utilization, makespan) = utilization(jobs, run);
    Metrics {
        jobs: figs.len(),
        mbs: mean(figs.iter().map(|f| f.bsd)),
        mwbs: weighted_bsd(&figs),
        mean_wait: mean(figs.iter().map(|f| f.wait as f64)),
        median_wait: quantile(&waits, 0.5),
        p95_wait: quantile(&waits, 0.95),
        max_wait: waits.last().copied().unwrap_or(0),
        mean_turnaround: mean(figs.iter().map(|f| f.turnaround as f64)),
        mean_slowdown,
        max_slowdown,
        mean_stretch,
        max_stretch,
        utilization,
        makespan,
        backfilled: pairs.iter().filter(|(_, r)| r.backfilled).count(),
        blocked: pairs.iter().filter(|(_, r)| r.blocked).count(),
        blocked_groups: blocked_groups(&pairs, &figs, run.procs),
        categories: categories(&pairs, &figs, opts.categories),
        fairness: fairness(&pairs),
        fairness_all: crate::fairness_audit(jobs, run).summary(measured(jobs.len(), opts.skip_percent)),
        preemption: crate::preemption::preemption_metrics(&pairs, jobs, run),
        reservation_violations: crate::violations::reservation_violations(
            jobs,
            run,
            measured(jobs.len(), opts.skip_percent),
            opts.bsd_threshold,
        ),
        reservation_changes: run.reservations.len(),
        deadline: None,
        priority: None,
        fair_slowdown: None,
        predictions: None,
        machine: None,
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for v in values {
        sum += v;
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

fn mean_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut sum, mut max, mut n) = (0.0, 0.0f64, 0usize);
    for v in values {
        sum += v;
        max = max.max(v);
        n += 1;
    }
    (if n == 0 { 0.0 } else { sum / n as f64 }, max)
}

/// MWBS = Σ BSD × size / Σ size.
fn weighted_bsd(figs: &[JobFigures]) -> f64 {
    let weight: f64 = figs.iter().map(|f| f64::from(f.size)).sum();
    if weight == 0.0 {
        return 0.0;
    }
    figs.iter().map(|f| f.bsd * f64::from(f.size)).sum::<f64>() / weight
}

/// Nearest-rank quantile of sorted values: the smallest value with at
/// least a fraction `q` of the values at or below it.
fn quantile(sorted: &[Time], q: f64) -> Time {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Σ runtime × size / (P × makespan), in floating point: a product of a
/// time and a size can pass 2^63 even within the reader's limits (2^40 s ×
/// 2^31 processors), a float cannot overflow there. The makespan saturates
/// rather than wrap, should a record ever hold an end time out of range.
fn utilization(jobs: &[Job], run: &RunRecord) -> (f64, Time) {
    let Some(first) = jobs.first() else { return (0.0, 0) };
    let last_end = run.jobs.iter().map(|r| r.end).max().unwrap_or(first.submit);
    let makespan = last_end.saturating_sub(first.submit);
    let work: f64 = jobs.iter().map(|j| j.runtime as f64 * f64::from(j.size)).sum();
    let capacity = f64::from(run.procs) * makespan as f64;
    (if capacity > 0.0 { work / capacity } else { 0.0 }, makespan)
}

fn group(name: String, min_size: u32, max_size: u32, members: &[&JobFigures]) -> BlockedGroup {
    let owned: Vec<JobFigures> = members.iter().map(|f| **f).collect();
    BlockedGroup {
        group: name,
        min_size,
        max_size,
        jobs: owned.len(),
        mbs: mean(owned.iter().map(|f| f.bsd)),
        mwbs: weighted_bsd(&owned),
    }
}

/// Blocked jobs by parallelism: big (size > P/4) and small (pv-easy journal
/// figures 2 and 3), then power-of-two bins 1, 2, 3–4, 5–8, … up to P.
fn blocked_groups(pairs: &[(&Job, &JobRecord)], figs: &[JobFigures], procs: u32) -> Vec<BlockedGroup> {
    let blocked: Vec<&JobFigures> = pairs.iter().zip(figs).filter(|((_, r), _)| r.blocked).map(|(_, f)| f).collect();
    let in_range = |lo: u32, hi: u32| -> Vec<&JobFigures> {
        blocked.iter().copied().filter(|f| f.size >= lo && f.size <= hi).collect()
    };
    let quarter = procs / 4;
    let mut out = vec![
        group("big".into(), quarter + 1, procs, &in_range(quarter + 1, procs)),
        group("small".into(), 1, quarter, &in_range(1, quarter)),
    ];
    for (lo, top) in power_of_two_bins(procs) {
        let name = if lo == top { lo.to_string() } else { format!("{lo}-{top}") };
        out.push(group(name, lo, top, &in_range(lo, top)));
    }
    out
}

/// The size bins 1, 2, 3–4, 5–8, … whose last one ends at `procs`. Counted
/// in u64, so that a machine of up to u32::MAX processors ends the loop
/// (in u32, `hi + 1` wraps to 0 past 2^31 and the loop never ends).
fn power_of_two_bins(procs: u32) -> Vec<(u32, u32)> {
    let procs = u64::from(procs);
    let mut bins = Vec::new();
    let (mut lo, mut hi) = (1u64, 1u64);
    while lo <= procs {
        let top = hi.min(procs);
        // Both at most `procs`, which came from a u32.
        bins.push((lo as u32, top as u32));
        lo = hi + 1;
        hi *= 2;
    }
    bins
}

fn categories(pairs: &[(&Job, &JobRecord)], figs: &[JobFigures], limits: CategoryLimits) -> Vec<Category> {
    let names = ["SN", "SW", "LN", "LW"];
    names
        .iter()
        .enumerate()
        .map(|(k, &name)| {
            let members: Vec<&JobFigures> = pairs
                .iter()
                .zip(figs)
                .filter(|((j, _), _)| {
                    let long = j.runtime > limits.runtime;
                    let wide = j.size > limits.size;
                    usize::from(long) * 2 + usize::from(wide) == k
                })
                .map(|(_, f)| f)
                .collect();
            Category {
                name,
                jobs: members.len(),
                mbs: mean(members.iter().map(|f| f.bsd)),
                mean_turnaround: mean(members.iter().map(|f| f.turnaround as f64)),
                mean_wait: mean(members.iter().map(|f| f.wait as f64)),
            }
        })
        .collect()
}

fn fairness(pairs: &[(&Job, &JobRecord)]) -> Fairness {
    let delays: Vec<Time> = pairs
        .iter()
        .filter(|(_, r)| r.blocked)
        .map(|(_, r)| r.fair_start.map_or(0, |f| (r.first_start - f).max(0)))
        .collect();
    let delayed: Vec<Time> = delays.iter().copied().filter(|&d| d > 0).collect();
    Fairness {
        blocked: delays.len(),
        delayed: delayed.len(),
        mean_delay: mean(delayed.iter().map(|&d| d as f64)),
        max_delay: delayed.iter().copied().max().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headline_is_computes_to_the_bit() {
        // Waits 0, 5, 40 and 100 s on runtimes around the threshold, with
        // a fifth of the jobs skipped at each end in the second case.
        let (jobs, run) =
            crate::test_run::finished(&[(0, 3, 10, 0), (1, 50, 60, 6), (2, 7, 9, 42), (3, 900, 1000, 103)]);
        for skip_percent in [0.0, 25.0] {
            let opts = MetricsOptions { skip_percent, ..MetricsOptions::default() };
            let all = compute(&jobs, &run, &opts);
            let headline = headline(&jobs, &run, &opts);
            assert_eq!(headline, Headline::from(&all));
            assert_eq!(headline.mbs.to_bits(), all.mbs.to_bits());
        }
        // By hand, no skip: BSDs (0+10)/10, (5+50)/50, (40+10)/10, (100+900)/900.
        let h = headline(&jobs, &run, &MetricsOptions::default());
        let expected = (1.0 + 1.1 + 5.0 + 1000.0 / 900.0) / 4.0;
        assert!((h.mbs - expected).abs() < 1e-12, "{}", h.mbs);
        assert_eq!(h.mean_wait, (0.0 + 5.0 + 40.0 + 100.0) / 4.0);
    }

    #[test]
    fn size_bins_end_at_the_machine_size() {
        assert_eq!(power_of_two_bins(1), vec![(1, 1)]);
        assert_eq!(power_of_two_bins(6), vec![(1, 1), (2, 2), (3, 4), (5, 6)]);
        assert_eq!(power_of_two_bins(8), vec![(1, 1), (2, 2), (3, 4), (5, 8)]);
        // The machine sizes that looped forever: 2^31 + 1 and u32::MAX.
        for procs in [(1u32 << 31) + 1, u32::MAX] {
            let bins = power_of_two_bins(procs);
            assert_eq!(bins.len(), 33, "{procs}");
            assert_eq!(bins.last().map(|b| b.1), Some(procs));
            assert!(bins.windows(2).all(|w| w[1].0 == w[0].1 + 1), "{procs}: contiguous");
        }
        assert_eq!(power_of_two_bins(1 << 31).len(), 32);
    }
}
