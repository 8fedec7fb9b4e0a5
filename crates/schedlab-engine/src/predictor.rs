use serde::Serialize;

use crate::params::ParamSet;
use crate::{rng::SplitMix64, JobIdx, Time};
use schedlab_workload::Job;

/// Where a policy's runtime figures come from (docs/semantics.md, "Runtime predictors").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum RuntimeSource {
    /// The user's requested time.
    Estimate,
    /// The actual runtime (perfect knowledge).
    Exact,
    /// Tsafrir's "Last Model" as the PV-EASY seeds use it: this job's
    /// estimate times the accuracy (runtime / estimate) of the same user's
    /// most recently completed job.
    Last,
    /// EASY++ (Tsafrir, Etsion and Feitelson 2007): the mean runtime of the
    /// same user's last two completed jobs (of the one, if only one has
    /// completed), capped at the estimate.
    Tsafrir,
    /// The virtual predictor of pv-easy-journal §5.2.2: the runtime times
    /// (1 + u), u drawn uniformly from [-error %, +error %] once per job.
    Virtual {
        /// Maximum relative error, in percent (0 gives `exact`).
        error_pct: f64,
    },
}

impl RuntimeSource {
    /// The identifier used on the command line and in result documents.
    pub fn id(&self) -> &'static str {
        match self {
            Self::Estimate => "estimate",
            Self::Exact => "exact",
            Self::Last => "last",
            Self::Tsafrir => "tsafrir",
            Self::Virtual { .. } => "virtual",
        }
    }

    /// Whether predictions never fall short of the actual runtime, which is
    /// what the reservation guarantees of EASY and CBF rely on.
    pub fn is_upper_bound(&self) -> bool {
        matches!(self, Self::Estimate | Self::Exact)
    }
}

impl RuntimeSource {
    /// Whether a waiting job's prediction can change while it waits (the
    /// sources that learn from the jobs completed so far: `last`,
    /// `tsafrir`).
    pub fn learns(&self) -> bool {
        matches!(self, Self::Last | Self::Tsafrir)
    }
}

crate::param_choice! {
    /// What the engine expects of a running job that has outlived its runtime
    /// prediction (a parameter of the sources that predict: `last`, `tsafrir`,
    /// `virtual`). The engine applies it before each pass and reports the job in
    /// [`crate::Happened::overdue`]; policies only see the expected end.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Overrun {
        /// It runs until its estimate (the correction rule, docs/semantics.md, "Runtime predictors").
        #[default]
        Estimate = "estimate",
        /// Its prediction is stale and it may end at any moment: it is expected
        /// to end in the next second, at every pass until it does. That second
        /// is no event, so it wakes no scheduler (`Sim::stale_end`).
        Stale = "stale",
        /// It has run about half its time: it is expected to run as long again
        /// as it has run in its current segment, never past its estimate.
        Double = "double",
    }
}

impl Overrun {
    /// The expected end, seen at `now`, of a job whose current segment
    /// started at `start`, that has outlived its prediction and would reach
    /// its estimate at `at_estimate`. Always after `now`.
    pub fn expected_end(self, now: Time, start: Time, at_estimate: Time) -> Time {
        let end = match self {
            Self::Estimate => at_estimate,
            Self::Stale => now + 1,
            Self::Double => start.saturating_add(2 * (now - start)).min(at_estimate),
        };
        end.max(now + 1)
    }
}

/// The last two completed runtimes of one user, newest first, with the
/// newest one's estimate (for the Last model's accuracy).
#[derive(Clone, Copy, Debug, Default)]
struct History {
    completed: u8,
    newest: Time,
    newest_estimate: Time,
    previous: Time,
}

/// Runtime predictions for the jobs of one run.
///
/// Predictions for waiting jobs are evaluated when asked, from the history
/// of jobs completed so far; a running job keeps the prediction it started
/// with (the engine stores it). Every prediction is clamped to
/// [1, estimate] (docs/semantics.md, "Runtime predictors").
#[derive(Clone, Debug)]
pub struct Predictor {
    source: RuntimeSource,
    /// Dense user number per job, so history lookups are a vector index.
    user_of: Vec<u32>,
    history: Vec<History>,
    /// Drawn once per job for `virtual`; empty otherwise.
    virtual_runtime: Vec<Time>,
}

impl Predictor {
    pub fn new(source: RuntimeSource, jobs: &[Job], seed: u64) -> Self {
        let (user_of, users) = dense_users(jobs);
        let virtual_runtime = match source {
            RuntimeSource::Virtual { error_pct } => draw_virtual(jobs, error_pct, seed),
            _ => Vec::new(),
        };
        Self { source, user_of, history: vec![History::default(); users], virtual_runtime }
    }

    pub fn source(&self) -> RuntimeSource {
        self.source
    }

    /// The predicted runtime of `job` given the history so far.
    pub fn predict(&self, jobs: &[Job], job: JobIdx) -> Time {
        let j = &jobs[job as usize];
        let raw = match self.source {
            RuntimeSource::Estimate => j.estimate,
            RuntimeSource::Exact => j.runtime,
            RuntimeSource::Last | RuntimeSource::Tsafrir => return self.forecast(job).predict(j.estimate),
            RuntimeSource::Virtual { .. } => self.virtual_runtime[job as usize],
        };
        raw.clamp(1, j.estimate.max(1))
    }

    /// What a learning source (`last`, `tsafrir`) knows now of the user of
    /// `job`: it predicts every waiting job of that user from its estimate
    /// alone, until one of the user's jobs completes. For the other sources
    /// it predicts the estimate (clamped), which is not their prediction.
    pub fn forecast(&self, job: JobIdx) -> UserForecast {
        let learns = self.source.learns();
        let last = self.source == RuntimeSource::Last;
        let history = if learns { self.history[self.user_of[job as usize] as usize] } else { History::default() };
        UserForecast { last, history }
    }

    /// For the virtual predictor, how many of `jobs`' draws (a subset of the
    /// run's jobs, by index range) exceeded the job's estimate and so were
    /// clamped to it, and how many fell below one second and were raised to
    /// it. `None` for the other sources.
    pub fn virtual_clamps(&self, jobs: &[Job], range: std::ops::Range<usize>) -> Option<(u64, u64)> {
        if self.virtual_runtime.is_empty() {
            return None;
        }
        let (mut clamped, mut raised) = (0, 0);
        for (draw, job) in self.virtual_runtime[range.clone()].iter().zip(&jobs[range]) {
            clamped += u64::from(*draw > job.estimate.max(1));
            raised += u64::from(*draw < 1);
        }
        Some((clamped, raised))
    }

    /// Records that `job` completed after `runtime` seconds of useful work.
    pub fn completed(&mut self, jobs: &[Job], job: JobIdx, runtime: Time) {
        let h = &mut self.history[self.user_of[job as usize] as usize];
        h.previous = h.newest;
        h.newest = runtime;
        h.newest_estimate = jobs[job as usize].estimate.max(1);
        h.completed = h.completed.saturating_add(1).min(2);
    }
}

/// A learning source's knowledge of one user at one moment (see
/// [`Predictor::forecast`]). For a given forecast the prediction is a
/// non-decreasing function of the estimate, which the live orders of the
/// waiting queue rely on.
#[derive(Clone, Copy, Debug)]
pub struct UserForecast {
    /// The Last model; else Tsafrir's mean of the last two.
    last: bool,
    history: History,
}

impl UserForecast {
    /// The prediction, clamped to [1, estimate], for a job of this user
    /// with this estimate.
    pub fn predict(&self, estimate: Time) -> Time {
        let raw = if self.last { self.last_model(estimate) } else { self.tsafrir(estimate) };
        raw.clamp(1, estimate.max(1))
    }

    fn last_model(&self, estimate: Time) -> Time {
        let h = &self.history;
        if h.completed == 0 {
            return estimate;
        }
        // estimate × (runtime' / estimate'), in exact integer arithmetic
        // rounded to the nearest second, so that every platform agrees. The
        // 64-bit path covers every real log; 128 bits only guard overflow.
        let fast = estimate
            .checked_mul(h.newest)
            .and_then(|p| p.checked_mul(2))
            .and_then(|p| p.checked_add(h.newest_estimate));
        match fast {
            Some(num) => num / (2 * h.newest_estimate),
            None => {
                let num = 2 * i128::from(estimate) * i128::from(h.newest) + i128::from(h.newest_estimate);
                (num / (2 * i128::from(h.newest_estimate))) as Time
            }
        }
    }

    fn tsafrir(&self, estimate: Time) -> Time {
        let h = &self.history;
        match h.completed {
            0 => estimate,
            1 => h.newest,
            // The mean of two integers, rounded half up.
            _ => (h.newest + h.previous + 1) / 2,
        }
    }
}

/// Maps SWF user ids to 0..users in order of first appearance. Unknown
/// users (-1) share one history, as a simulator that knows nothing better
/// must treat them.
fn dense_users(jobs: &[Job]) -> (Vec<u32>, usize) {
    let mut ids: Vec<i32> = jobs.iter().map(|j| j.user).collect();
    ids.sort_unstable();
    ids.dedup();
    let user_of = jobs.iter().map(|j| ids.binary_search(&j.user).unwrap_or(0) as u32).collect();
    (user_of, ids.len().max(1))
}

/// One draw per job, keyed by the seed and the job's number so that a job
/// keeps its draw when the trace is windowed or filtered differently.
fn draw_virtual(jobs: &[Job], error_pct: f64, seed: u64) -> Vec<Time> {
    let spread = error_pct / 100.0;
    jobs.iter()
        .map(|j| {
            let mut g = SplitMix64::new(seed ^ j.id.wrapping_mul(0xD1B5_4A32_D192_ED03));
            let u = (2.0 * g.next_f64() - 1.0) * spread;
            (j.runtime as f64 * (1.0 + u)).round() as Time
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: u64, user: i32, runtime: Time, estimate: Time) -> Job {
        Job { id, submit: id as Time, runtime, size: 1, estimate, user, group: -1, queue: -1, partition: -1, status: 1 }
    }

    #[test]
    fn last_model_scales_the_estimate_by_the_previous_accuracy() {
        let jobs = [job(1, 7, 50, 100), job(2, 7, 10, 300), job(3, 8, 10, 300)];
        let mut p = Predictor::new(RuntimeSource::Last, &jobs, 0);
        assert_eq!(p.predict(&jobs, 1), 300, "no history yet: the estimate");
        p.completed(&jobs, 0, 50);
        assert_eq!(p.predict(&jobs, 1), 150, "accuracy 0.5 times 300");
        assert_eq!(p.predict(&jobs, 2), 300, "another user's history does not count");
    }

    #[test]
    fn tsafrir_averages_the_last_two_and_caps_at_the_estimate() {
        let jobs = [job(1, 7, 50, 100), job(2, 7, 81, 100), job(3, 7, 10, 60), job(4, 7, 10, 1000)];
        let mut p = Predictor::new(RuntimeSource::Tsafrir, &jobs, 0);
        p.completed(&jobs, 0, 50);
        assert_eq!(p.predict(&jobs, 3), 50);
        p.completed(&jobs, 1, 81);
        assert_eq!(p.predict(&jobs, 3), 66, "(50 + 81) / 2 = 65.5 rounds to 66");
        assert_eq!(p.predict(&jobs, 2), 60, "capped at the estimate");
    }

    #[test]
    fn a_forecast_predicts_any_estimate_of_its_user() {
        // User 7's last job ran 50 of 100 s: accuracy 0.5. User 8 has no
        // history yet.
        let jobs = [job(1, 7, 50, 100), job(2, 7, 10, 300), job(3, 8, 10, 300)];
        let mut p = Predictor::new(RuntimeSource::Last, &jobs, 0);
        p.completed(&jobs, 0, 50);
        let seven = p.forecast(1);
        assert_eq!(seven.predict(300), 150);
        assert_eq!(seven.predict(3), 2, "1.5 rounds half up");
        assert_eq!(seven.predict(1), 1, "0.5 rounds up to the least, one second");
        assert_eq!(seven.predict(0), 1, "raised to one second");
        assert_eq!(p.forecast(2).predict(300), 300, "no history: the estimate");
        let mut t = Predictor::new(RuntimeSource::Tsafrir, &jobs, 0);
        t.completed(&jobs, 0, 50);
        t.completed(&jobs, 1, 81);
        assert_eq!(t.forecast(0).predict(1000), 66, "(50 + 81) / 2 = 65.5 rounds to 66");
        assert_eq!(t.forecast(0).predict(60), 60, "capped at the estimate");
    }

    #[test]
    fn predictions_are_clamped_to_one_and_the_estimate() {
        let jobs = [job(1, 7, 0, 100)];
        let p = Predictor::new(RuntimeSource::Exact, &jobs, 0);
        assert_eq!(p.predict(&jobs, 0), 1);
    }

    #[test]
    fn virtual_draws_stay_within_the_error_and_depend_on_the_seed() {
        let jobs: Vec<Job> = (1..=500).map(|i| job(i, 1, 1000, 100_000)).collect();
        let a = Predictor::new(RuntimeSource::Virtual { error_pct: 20.0 }, &jobs, 1);
        let b = Predictor::new(RuntimeSource::Virtual { error_pct: 20.0 }, &jobs, 2);
        let pa: Vec<Time> = (0..500).map(|i| a.predict(&jobs, i)).collect();
        let pb: Vec<Time> = (0..500).map(|i| b.predict(&jobs, i)).collect();
        assert!(pa.iter().all(|&p| (800..=1200).contains(&p)));
        assert!(pa.iter().any(|&p| p < 900) && pa.iter().any(|&p| p > 1100), "spread is used");
        assert_ne!(pa, pb);
        let zero = Predictor::new(RuntimeSource::Virtual { error_pct: 0.0 }, &jobs, 1);
        assert!((0..500).all(|i| zero.predict(&jobs, i) == 1000));
    }

    #[test]
    fn virtual_clamps_count_draws_outside_one_second_and_the_estimate() {
        // Runtime 1000, estimate 1100, error 100 %: draws spread over
        // [0, 2000]; a draw above 1100 is clamped, one below 1 raised. A job
        // of runtime 0 always draws 0.
        let mut jobs: Vec<Job> = (1..=400).map(|i| job(i, 1, 1000, 1100)).collect();
        jobs.push(job(401, 1, 0, 10));
        let p = Predictor::new(RuntimeSource::Virtual { error_pct: 100.0 }, &jobs, 3);
        let (clamped, raised) = p.virtual_clamps(&jobs, 0..jobs.len()).expect("virtual");
        let above = (0..400).filter(|&i| p.virtual_runtime[i] > 1100).count() as u64;
        assert_eq!(clamped, above);
        assert!((140..220).contains(&clamped), "about 45 % of 400 draws land above 1100: {clamped}");
        assert_eq!(raised, 1 + (0..400).filter(|&i| p.virtual_runtime[i] < 1).count() as u64);
        assert_eq!(p.virtual_clamps(&jobs, 400..401), Some((0, 1)));
        assert_eq!(Predictor::new(RuntimeSource::Last, &jobs, 3).virtual_clamps(&jobs, 0..401), None);
    }
}

/// A runtime source as the front ends list it: id, label, description and
/// parameters, read by the command line and the web page to build forms.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Serialize)]
pub struct SourceInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [crate::params::ParamSpec],
    /// Whether the source draws from the run's seed (`virtual` draws each
    /// job's error), so that repeating a run with other seeds can change it.
    pub uses_seed: bool,
}

/// The runtime sources, in the order front ends show them.
pub const SOURCES: &[SourceInfo] = &[
    SourceInfo { id: "estimate", name: "User estimate", description: "The user's requested time.", params: &[], uses_seed: false },
    SourceInfo { id: "exact", name: "Exact", description: "The actual runtime (perfect knowledge).", params: &[], uses_seed: false },
    SourceInfo {
        id: "last",
        name: "Last model",
        description: "This job's estimate times the accuracy (runtime / estimate) of the same user's most recently completed job; the estimate while the user has none.",
        params: PredictingParams::SPECS,
        uses_seed: false,
    },
    SourceInfo {
        id: "tsafrir",
        name: "Tsafrir (EASY++)",
        description: "The mean runtime of the same user's last two completed jobs, capped at the estimate; the estimate while the user has none.",
        params: PredictingParams::SPECS,
        uses_seed: false,
    },
    SourceInfo {
        id: "virtual",
        name: "Virtual predictor",
        description: "The runtime times (1 + u), u uniform in [-error, +error], drawn once per job from the run's seed.",
        params: VirtualParams::SPECS,
        uses_seed: true,
    },
];

/// The label and the description of the `overrun` parameter, which every
/// source whose predictions can fall short declares.
const OVERRUN_NAME: &str = "After an overrun";
const OVERRUN_DESCRIPTION: &str = "What is expected of a running job that has outlived its prediction: estimate (it runs until its estimate), stale (it may end at any moment: expected in the next second, at every event until it ends), double (as long again as it has run, at most its estimate).";

crate::param_set! {
    /// The parameters of `last` and `tsafrir`.
    pub struct PredictingParams {
        overrun: Choice<Overrun> { default: Overrun::Estimate },
            name: OVERRUN_NAME, description: OVERRUN_DESCRIPTION;
    }
}

crate::param_set! {
    /// The parameters of `virtual`.
    pub struct VirtualParams {
        /// Maximum relative error, in percent.
        error: Float { min: 0.0, max: 100.0, default: 10.0 },
            name: "Prediction error", description: "Maximum relative error of the virtual predictor.", unit: "%";
        overrun: Choice<Overrun> { default: Overrun::Estimate },
            name: OVERRUN_NAME, description: OVERRUN_DESCRIPTION;
    }
}

impl RuntimeSource {
    /// Builds a source from its id and the parameters checked against its
    /// list in [`SOURCES`].
    pub fn from_id(id: &str, params: &crate::params::Params) -> Option<Self> {
        Some(match id {
            "estimate" => Self::Estimate,
            "exact" => Self::Exact,
            "last" => Self::Last,
            "tsafrir" => Self::Tsafrir,
            "virtual" => Self::Virtual { error_pct: VirtualParams::read(params).error },
            _ => return None,
        })
    }
}

impl Overrun {
    /// The rule that the parameters of `source`, checked against its list
    /// in [`SOURCES`], choose (`estimate` for the sources without the
    /// parameter, whose predictions never fall short).
    pub fn of_source(source: RuntimeSource, params: &crate::params::Params) -> Self {
        match source {
            RuntimeSource::Estimate | RuntimeSource::Exact => Self::Estimate,
            RuntimeSource::Last | RuntimeSource::Tsafrir => PredictingParams::read(params).overrun,
            RuntimeSource::Virtual { .. } => VirtualParams::read(params).overrun,
        }
    }
}
