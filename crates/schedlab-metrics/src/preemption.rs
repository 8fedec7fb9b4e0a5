//! Preemption and resource-waste metrics (pv-easy-journal tables 4 and 5).
//!
//! - preempted: jobs started more than once; rate = preempted / jobs;
//! - MKT, mean times killed: mean number of preemptions of preempted jobs;
//! - RTW, runtime waste = (time held − runtime) / runtime, journal formula 3,
//!   averaged over preempted jobs (a zero runtime counts as 1 s);
//! - total load = Σ time held × size / (P × (last end − first submit)),
//!   wasted load = Σ (time held − runtime) × size over the same capacity
//!   (journal table 4: the capacity runs to the end of the last job).
//!   Wasted load includes lost progress and every checkpoint, restart,
//!   resume and virtualisation overhead.

use schedlab_engine::{JobRecord, RunRecord};
use schedlab_workload::Job;
use serde::Serialize;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PreemptionMetrics {
    pub preempted: usize,
    pub preemption_rate: f64,
    pub mkt: f64,
    pub mean_rtw: f64,
    pub total_load: f64,
    pub wasted_load: f64,
}

pub(crate) fn preemption_metrics(pairs: &[(&Job, &JobRecord)], jobs: &[Job], run: &RunRecord) -> PreemptionMetrics {
    let preempted: Vec<&(&Job, &JobRecord)> = pairs.iter().filter(|(_, r)| r.starts > 1).collect();
    let n = preempted.len() as f64;
    let mkt = preempted.iter().map(|(_, r)| f64::from(r.starts - 1)).sum::<f64>();
    let rtw = preempted.iter().map(|(j, r)| (r.held - j.runtime) as f64 / j.runtime.max(1) as f64).sum::<f64>();
    let (held, runtime) = jobs.iter().zip(&run.jobs).fold((0.0, 0.0), |(h, w), (j, r)| {
        (h + r.held as f64 * f64::from(j.size), w + j.runtime as f64 * f64::from(j.size))
    });
    let capacity = capacity(jobs, run);
    PreemptionMetrics {
        preempted: preempted.len(),
        preemption_rate: if pairs.is_empty() { 0.0 } else { n / pairs.len() as f64 },
        mkt: if n > 0.0 { mkt / n } else { 0.0 },
        mean_rtw: if n > 0.0 { rtw / n } else { 0.0 },
        total_load: if capacity > 0.0 { held / capacity } else { 0.0 },
        wasted_load: if capacity > 0.0 { (held - runtime) / capacity } else { 0.0 },
    }
}

/// P × (last end − first submit), processor-seconds.
fn capacity(jobs: &[Job], run: &RunRecord) -> f64 {
    let Some(first) = jobs.first() else { return 0.0 };
    let last_end = run.jobs.iter().map(|r| r.end).max().unwrap_or(first.submit);
    f64::from(run.procs) * (last_end - first.submit) as f64
}
