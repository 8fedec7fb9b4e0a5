//! The calibration run (issue 5): some policies take a default from a CBF
//! run of the same trace — slack-based backfilling its average wait time,
//! selective reservation its starvation thresholds. When a policy's
//! `needs_calibration` says so (or the fair-slowdown table is asked for,
//! which needs the same run as its reference), the registry's `cbf` runs
//! first on the same jobs, with the `estimate` runtime source — or `exact`
//! when the run itself uses exact runtimes, matching the paper's
//! "accurate estimates" experiments — and its figures are handed to the
//! policy through `PolicySettings::calibration` and reported in the result
//! document (`calibration`).
//!
//! Figures (τ is the run's bounded-slowdown threshold):
//! - `mean_wait`: the mean wait of all jobs;
//! - `well_estimated_bsd`: the mean bounded slowdown of the well-estimated
//!   jobs, those whose runtime is at least half their estimate
//!   (selective-reservation §4.3; with `exact` every job is);
//! - `well_estimated_bsd_by_category`: the same per category SN, SW, LN, LW,
//!   a job classified by its planned runtime (estimate, or runtime with
//!   `exact`) and its size, as the policy classifies it. A category with no
//!   such job gets the overall value.

use schedlab_engine::{Control, EngineError, Overrun, Progress, RunConfig, RunRecord, RuntimeSource};
use schedlab_policies::{Calibration, Categories, PolicySettings};
use schedlab_workload::{Job, Trace};

use crate::RunSettings;

/// The reference run and its figures.
#[derive(Clone, Debug)]
pub struct Reference {
    pub name: String,
    pub source: RuntimeSource,
    pub record: RunRecord,
}

/// Runs the registry's `cbf` on `trace` as the reference of `settings`.
pub fn reference_run(
    trace: &Trace,
    settings: &RunSettings,
    observer: &mut dyn FnMut(Progress) -> Control,
) -> Result<Reference, EngineError> {
    let source = if settings.source == RuntimeSource::Exact { RuntimeSource::Exact } else { RuntimeSource::Estimate };
    let cbf = schedlab_policies::find("cbf").expect("the registry has cbf");
    let params = schedlab_engine::params::Params::resolve(cbf.params, &[]).expect("cbf's defaults are valid");
    let policy_settings =
        PolicySettings { source, seed: settings.seed, calibration: None, categories: settings.categories() };
    let mut policy = (cbf.build)(&params, &policy_settings);
    // Estimates and exact runtimes never fall short: no overrun to handle.
    let config = RunConfig {
        procs: trace.procs,
        source,
        overrun: Overrun::Estimate,
        seed: settings.seed,
        progress_every: crate::PROGRESS_EVERY,
    };
    let record = schedlab_engine::run(&trace.jobs, &config, policy.as_mut(), observer)?;
    Ok(Reference { name: format!("cbf@{}", source.id()), source, record })
}

/// The figures of a reference run.
pub fn calibrate(jobs: &[Job], reference: &Reference, categories: Categories, tau: i64) -> Calibration {
    let exact = reference.source == RuntimeSource::Exact;
    let mut wait = 0.0;
    let (mut all, mut by_cat) = ((0.0, 0usize), [(0.0, 0usize); 4]);
    for (job, rec) in jobs.iter().zip(&reference.record.jobs) {
        let w = (rec.end - job.submit - job.runtime) as f64;
        wait += w;
        let well = exact || 2 * job.runtime >= job.estimate;
        if !well {
            continue;
        }
        let bound = job.runtime.max(tau) as f64;
        let bsd = (w + bound) / bound;
        let planned = if exact { job.runtime } else { job.estimate };
        let k = categories.index(planned, job.size);
        all = (all.0 + bsd, all.1 + 1);
        by_cat[k] = (by_cat[k].0 + bsd, by_cat[k].1 + 1);
    }
    let mean = |(sum, n): (f64, usize)| if n == 0 { None } else { Some(sum / n as f64) };
    let overall = mean(all).unwrap_or(1.0);
    Calibration {
        reference: reference.name.clone(),
        mean_wait: if jobs.is_empty() { 0.0 } else { wait / jobs.len() as f64 },
        well_estimated_bsd: overall,
        well_estimated_bsd_by_category: by_cat.map(|c| mean(c).unwrap_or(overall)),
    }
}
