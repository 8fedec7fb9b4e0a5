//! Synthetic traces from the Lublin–Feitelson model of rigid parallel jobs
//! (U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers:
//! modeling the characteristics of rigid jobs", J. Parallel Distrib. Comput.
//! 63(11):1105–1122, 2003; technical report 1999), written as SWF text so
//! that a generated trace goes through the same reader as a real one.
//!
//! Pure: no I/O, no clock, no global random generator. A trace is a function
//! of [`LublinParams`] alone, and the same on every platform (the draws use
//! [`schedlab_engine::SplitMix64`] and the portable `libm` functions).
//!
//! # The model
//!
//! Jobs come in two classes, interactive and batch, with their own arrival
//! streams and parameters; the class is written in SWF field 15 (queue 0 =
//! interactive, 1 = batch, the SWF convention), so the reader's queue filter
//! keeps one class.
//!
//! - **Size.** A uniform draw `u`: the job is serial if `u < serial_prob`;
//!   otherwise log2(size) follows a two-stage uniform, on [u_low, u_med] with
//!   probability `u_prob` and on [u_med, u_hi] otherwise, rounded to an
//!   integer (a power-of-two job) if `u < serial_prob + pow2_prob`; then
//!   size = round(2^x). On a machine of P processors u_hi = log2(P) −
//!   `u_hi_offset` and u_med = u_hi − `u_med_offset`.
//! - **Runtime.** ln(runtime) is hyper-gamma: Gamma(a1, b1) with probability
//!   p = pa · size + pb (clamped to [0, 1]), Gamma(a2, b2) otherwise, so
//!   larger jobs run longer. Rounded to whole seconds, at least 1 s.
//! - **Arrivals.** Each class's ln(inter-arrival) is Gamma(aarr, barr) in a
//!   "virtual" time; the daily cycle maps virtual to real time: the day is
//!   48 half-hour slots, and virtual time runs in slot k at a rate
//!   proportional to the Gamma(ANUM, BNUM) density over slot numbers (folded
//!   onto one day), so more jobs arrive in the afternoon than at night. The
//!   two classes' arrivals are merged in time order.
//!
//! # Constants and their sources
//!
//! All from the authors' program `m_lublin99.c` (Parallel Workloads Archive,
//! "Models" page), as recalled: we could not consult the program or the
//! paper while writing this, so each value below should be checked against
//! `m_lublin99.c` before results that depend on it are published.
//!
//! | constant | interactive | batch | note |
//! |---|---|---|---|
//! | serial_prob | 0.1541 | 0.2927 | `SERIAL_PROB_*` |
//! | pow2_prob | 0.625 | 0.6686 | `POW2_PROB_*` |
//! | u_low | 1.0 | 1.2 | `ULOW_*` |
//! | u_hi | log2(P) − 1.5 | log2(P) | `UHI_*` = 5.5 and 7 for the 128-node SP2 of the fit; we keep the offsets for other machine sizes (our generalisation) |
//! | u_med | u_hi − 2.5 | u_hi − 2 | `UMED_*` = 3 and 5 for 128 nodes (the program requires u_hi − 3.5 ≤ u_med ≤ u_hi − 1.5); the offsets are our generalisation |
//! | u_prob | 0.705 | 0.875 | `UPROB_*` |
//! | a1, b1 | 3.8351, 0.6605 | 6.57, 0.823 | `A1_*`, `B1_*` |
//! | a2, b2 | 7.073, 0.6856 | 639.1, 0.0156 | `A2_*`, `B2_*` |
//! | pa, pb | −0.0118, 0.9156 | −0.003, 0.6986 | `PA_*`, `PB_*`; p uses the number of processors |
//! | aarr, barr | 10.2303, 0.4871 | 10.2303 × 1.0225, 0.4871 | `AARR`, `BARR`, `ARAR` (batch shape = AARR × ARAR, as in the program's initialisation) |
//! | anum, bnum | 8.1737, 3.9631 | same | `ANUM`, `BNUM`: the daily cycle over 48 half-hour slots (`BUCKETS` = 48) |
//!
//! Compared with real output of the authors' program, the PWA's
//! `lublin_256` log (10,000 jobs, 256 nodes, one job class), against ours
//! for 256 processors, 10,000 jobs, seed 1, load 1.06 (the log's):
//!
//! | | lublin_256 | ours |
//! |---|---|---|
//! | serial jobs | 24.9 % | 23.1 % |
//! | power-of-two parallel jobs | 61.2 % | 66.9 % |
//! | mean log2(size) of parallel jobs | 3.62 | 3.64 |
//! | runtime median / 99th percentile / max, s | 137 / 36,138 / 124,707 | 90 / 47,778 / 11,202,629 |
//! | busiest and quietest hour (time 0 = 00:00) | 12–13 h / 03–04 h | 14–15 h / 03–04 h |
//!
//! Sizes and the daily cycle agree; our runtime tail is much heavier (the
//! first gamma component of batch jobs reaches days). `lublin_256` may come
//! from an earlier version of the program, or one that caps runtimes: one
//! more reason to check the runtime constants against `m_lublin99.c`.
//!
//! Where the published program is unclear to us we chose: the cycle's
//! origin is time 0 of the trace (the program has a START hour, 8 by
//! default, whose exact use we do not recall; origin 0 matches the phase of
//! `lublin_256`); the gamma of the cycle is folded onto one day; a
//! power-of-two size above a machine that is not a power of two becomes the
//! largest power of two that fits; ln(runtime) is capped at 40 (e^40 s) so
//! that a far-tail draw cannot overflow; runtimes are rounded to whole
//! seconds, at least 1.
//!
//! # What is ours, not the model's
//!
//! - **Offered load.** The model's arrival rate is fixed; to hit the target
//!   load L, every virtual inter-arrival gap is multiplied by one factor c,
//!   found by bisection so that Σ runtime × size / (P × (last submit − first
//!   submit)) = L, the offered load Schedlab's statistics report. The daily
//!   cycle is applied after the scaling, so its shape is kept at any load.
//! - **Estimates.** The model has none. The requested time (field 9) is
//!   ceil(runtime × `estimate_factor`): with the default factor 1 every
//!   estimate is exact (as cleaning does, docs/semantics.md); a factor f > 1
//!   makes every job request f times its runtime.
//! - **Other fields.** Status 1 (completed); user, group, executable,
//!   partition, memory, CPU time, preceding job and think time unknown (-1):
//!   the model has no users, so user-based predictors see one unknown user.
//!
//! # Output
//!
//! SWF 2.2 text with a header (`; Version: 2.2`, `; MaxProcs: P`,
//! `; Note: generated by Schedlab, Lublin–Feitelson 1999 model, seed S, load
//! L`, …) and one line per job, sorted by submit time.

mod lublin;
mod random;

pub use lublin::{ClassModel, DailyCycle, JobClass, ARAR, BATCH, INTERACTIVE};

use schedlab_workload::{write_swf, Job, SwfExtra, SwfRow, Trace};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::lublin::DAY;
use crate::random::Draws;

/// Largest machine the generator accepts.
pub const MAX_PROCS: u32 = 1 << 22;
/// Most jobs the generator accepts (a 2,000,000-job trace is about 130 MB of
/// SWF text, as much as a browser tab should hold).
pub const MAX_JOBS: u32 = 2_000_000;
/// Highest target load accepted.
pub const MAX_LOAD: f64 = 10.0;
/// Highest estimate factor accepted.
pub const MAX_ESTIMATE_FACTOR: f64 = 1000.0;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LublinParams {
    /// Machine size P, processors.
    pub procs: u32,
    /// Number of jobs.
    pub jobs: u32,
    /// Target offered load, Σ runtime × size / (P × submit span); 0.7 = 70 %.
    pub load: f64,
    /// Seed of every draw.
    pub seed: u64,
    /// Requested time = ceil(runtime × factor); 1 gives exact estimates.
    pub estimate_factor: f64,
}

impl Default for LublinParams {
    fn default() -> Self {
        Self { procs: 128, jobs: 10_000, load: 0.7, seed: 1, estimate_factor: 1.0 }
    }
}

/// Parameters that cannot be generated; each message names the parameter.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum SynthError {
    #[error("procs must be between 1 and {MAX_PROCS}, not {0}")]
    Procs(u32),
    #[error("jobs must be between 1 and {MAX_JOBS}, not {0}")]
    Jobs(u32),
    #[error("load must be a number above 0 and at most {MAX_LOAD}, not {0}")]
    Load(f64),
    #[error("estimate_factor must be a number from 1 to {MAX_ESTIMATE_FACTOR}, not {0}")]
    EstimateFactor(f64),
}

impl LublinParams {
    pub fn validate(&self) -> Result<(), SynthError> {
        if !(1..=MAX_PROCS).contains(&self.procs) {
            return Err(SynthError::Procs(self.procs));
        }
        if !(1..=MAX_JOBS).contains(&self.jobs) {
            return Err(SynthError::Jobs(self.jobs));
        }
        if !(self.load > 0.0 && self.load <= MAX_LOAD) {
            return Err(SynthError::Load(self.load));
        }
        if !(1.0..=MAX_ESTIMATE_FACTOR).contains(&self.estimate_factor) {
            return Err(SynthError::EstimateFactor(self.estimate_factor));
        }
        Ok(())
    }

    /// A file name that says what the trace is, e.g.
    /// `lublin99-p128-n10000-l0.7-s1.swf`.
    pub fn file_name(&self) -> String {
        let est = if self.estimate_factor == 1.0 { String::new() } else { format!("-e{}", self.estimate_factor) };
        format!("lublin99-p{}-n{}-l{}-s{}{est}.swf", self.procs, self.jobs, self.load, self.seed)
    }
}

/// One generated job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynthJob {
    pub submit: i64,
    pub runtime: i64,
    pub size: u32,
    pub estimate: i64,
    pub class: JobClass,
}

/// Generates the jobs, sorted by submit time (ties keep generation order).
pub fn generate_jobs(params: &LublinParams) -> Result<Vec<SynthJob>, SynthError> {
    params.validate()?;
    let mut d = Draws::new(params.seed);
    let classes = [(JobClass::Interactive, INTERACTIVE), (JobClass::Batch, BATCH)];
    // Next virtual arrival of each class's stream.
    let mut next = [classes[0].1.gap(&mut d), classes[1].1.gap(&mut d)];
    let n = params.jobs as usize;
    let mut virtual_times = Vec::with_capacity(n);
    let mut jobs = Vec::with_capacity(n);
    let mut work = 0.0f64;
    for _ in 0..n {
        let k = usize::from(next[1] < next[0]);
        let (class, model) = classes[k];
        virtual_times.push(next[k]);
        next[k] += model.gap(&mut d);
        let size = model.size(params.procs, &mut d);
        let runtime = model.runtime(size, &mut d);
        let estimate = libm::ceil(runtime as f64 * params.estimate_factor) as i64;
        work += runtime as f64 * f64::from(size);
        jobs.push(SynthJob { submit: 0, runtime, size, estimate: estimate.max(runtime), class });
    }
    let cycle = DailyCycle::model();
    let span = work / (f64::from(params.procs) * params.load);
    let scale = fit_scale(&cycle, virtual_times[0], virtual_times[n - 1], span);
    for (job, v) in jobs.iter_mut().zip(&virtual_times) {
        job.submit = libm::round(cycle.real_time(scale * v)) as i64;
    }
    Ok(jobs)
}

/// The factor c for which the real time between the first and the last
/// arrival is `span` seconds (bisection; the map is continuous and strictly
/// increasing in c).
fn fit_scale(cycle: &DailyCycle, first: f64, last: f64, span: f64) -> f64 {
    let real_span = |c: f64| cycle.real_time(c * last) - cycle.real_time(c * first);
    if last <= first || span <= 0.0 {
        return 1.0;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    // Spans are finite: at most ~2^53 s, reached long before 2^1100.
    while real_span(hi) < span && hi < 1e300 {
        lo = hi;
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if real_span(mid) < span {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Generates a trace as SWF text, header included.
pub fn generate_swf(params: &LublinParams) -> Result<Vec<u8>, SynthError> {
    let jobs = generate_jobs(params)?;
    let mut comments = vec![
        "Version: 2.2".to_owned(),
        "Computer: synthetic".to_owned(),
        format!("MaxJobs: {}", jobs.len()),
        format!("MaxRecords: {}", jobs.len()),
        format!("MaxProcs: {}", params.procs),
        format!("Note: generated by Schedlab, Lublin–Feitelson 1999 model, seed {}, load {}", params.seed, params.load),
        "Note: queue 0 = interactive jobs, queue 1 = batch jobs (field 15)".to_owned(),
    ];
    comments.push(if params.estimate_factor == 1.0 {
        "Note: requested time = run time (the model has no estimates)".to_owned()
    } else {
        format!("Note: requested time = ceil(run time x {}) (the model has no estimates)", params.estimate_factor)
    });
    comments.push("Queues: 0 interactive, 1 batch".to_owned());
    let rows = jobs.iter().enumerate().map(|(i, j)| swf_row(i as u64 + 1, j));
    let mut out = Vec::with_capacity(jobs.len() * 48 + 512);
    // Writing to a Vec cannot fail.
    if write_swf(&mut out, &comments, rows).is_err() {
        out.clear();
    }
    Ok(out)
}

/// A backlog: `params.jobs` jobs whose sizes and runtimes are drawn from
/// the model as for [`generate_jobs`], all submitted at time 0, on a machine
/// of `params.procs` processors (the target load is ignored: the queue holds
/// every job at once). The queue-stress benchmark and the identity tests use
/// it to measure and pin down policies under the longest possible queue.
pub fn generate_backlog(params: &LublinParams) -> Result<Trace, SynthError> {
    let jobs = generate_jobs(params)?;
    let (jobs, extras) = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let row = swf_row(i as u64 + 1, &SynthJob { submit: 0, ..*j });
            (row.job, row.extra)
        })
        .unzip();
    Ok(Trace { procs: params.procs, jobs, extras, cluster: None })
}

fn swf_row(id: u64, j: &SynthJob) -> SwfRow {
    let job = Job {
        id,
        submit: j.submit,
        runtime: j.runtime,
        size: j.size,
        estimate: j.estimate,
        user: -1,
        group: -1,
        queue: j.class as i32,
        partition: -1,
        status: 1,
    };
    let extra = SwfExtra::unknown(i64::from(j.size));
    SwfRow { job, extra, wait: -1, runtime: j.runtime, procs: j.size }
}

/// Seconds per day, for callers that reason about the daily cycle.
pub const SECONDS_PER_DAY: f64 = DAY;

#[cfg(test)]
mod tests;
