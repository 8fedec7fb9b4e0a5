//! What the runtime predictions of a run were worth (`metrics.predictions`).
//!
//! - `mean_abs_error_pct`: the realised mean absolute error,
//!   mean of |prediction − runtime| / max(runtime, 1) × 100 over the
//!   measured jobs, with the prediction each job last started with (after
//!   clamping to [1 s, estimate]); for the virtual predictor it stands
//!   beside its nominal maximum error x (`error_pct`), whose draws give a
//!   mean of about x / 2 before clamping. For estimates and history-based
//!   predictors short jobs dominate it (a 1 s job with a 1 h estimate
//!   weighs 359,900 %);
//! - `mean_abs_error_s`: the mean of |prediction − runtime| in seconds,
//!   which long jobs dominate instead;
//! - `underpredicted`: jobs whose prediction fell short of their runtime,
//!   which outlive it and trigger the run's overrun rule;
//! - `clamped_to_estimate`, `raised_to_one` (virtual predictor only): jobs
//!   whose draw, runtime × (1 + u), exceeded their estimate or fell below
//!   one second and was clamped.

use schedlab_engine::{Predictor, RunRecord, RuntimeSource};
use schedlab_workload::Job;
use serde::Serialize;

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PredictionMetrics {
    /// The runtime source's id.
    pub source: &'static str,
    /// The virtual predictor's maximum error x, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error_pct: Option<f64>,
    pub mean_abs_error_pct: f64,
    pub mean_abs_error_s: f64,
    pub underpredicted: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub clamped_to_estimate: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub raised_to_one: Option<u64>,
}

/// The prediction figures of `run` over the measured jobs; `seed` is the
/// run's (the virtual predictor's draws depend on it).
pub fn prediction_metrics(jobs: &[Job], run: &RunRecord, seed: u64, skip_percent: f64) -> PredictionMetrics {
    let measured = crate::summary::measured(jobs.len(), skip_percent);
    let pairs = jobs[measured.clone()].iter().zip(&run.jobs[measured.clone()]);
    let (mut error_sum, mut seconds_sum, mut underpredicted, mut n) = (0.0, 0.0, 0, 0usize);
    for (job, rec) in pairs {
        let error = (rec.prediction - job.runtime).abs() as f64;
        error_sum += error / job.runtime.max(1) as f64;
        seconds_sum += error;
        underpredicted += usize::from(rec.prediction < job.runtime);
        n += 1;
    }
    let clamps = match run.source {
        RuntimeSource::Virtual { .. } => Predictor::new(run.source, jobs, seed).virtual_clamps(jobs, measured),
        _ => None,
    };
    PredictionMetrics {
        source: run.source.id(),
        error_pct: match run.source {
            RuntimeSource::Virtual { error_pct } => Some(error_pct),
            _ => None,
        },
        mean_abs_error_pct: if n == 0 { 0.0 } else { 100.0 * error_sum / n as f64 },
        mean_abs_error_s: if n == 0 { 0.0 } else { seconds_sum / n as f64 },
        underpredicted,
        clamped_to_estimate: clamps.map(|c| c.0),
        raised_to_one: clamps.map(|c| c.1),
    }
}
