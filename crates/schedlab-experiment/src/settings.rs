use schedlab_engine::params::{ParamError, ParamKind, ParamSpec, Params};
use schedlab_engine::{Overrun, Policy, RuntimeSource, SOURCES};
use schedlab_metrics::{MetricsError, MetricsOptions};
use schedlab_policies::{Calibration, Categories, PolicyInfo, PolicySettings, REGISTRY};
use thiserror::Error;

/// A run as a user asks for it: everything but the policy may be left out.
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    pub policy: String,
    /// `KEY=VALUE` pairs for the policy and, for `virtual`, its `error`.
    pub params: Vec<(String, String)>,
    /// A runtime source id; the policy's default when absent.
    pub predictor: Option<String>,
    pub seed: u64,
    pub metrics: MetricsOptions,
    /// Skip the run checker (it runs by default).
    pub skip_check: bool,
}

/// Checked settings of one run.
#[derive(Clone, Debug)]
pub struct RunSettings {
    pub policy: &'static PolicyInfo,
    pub policy_params: Params,
    pub source: RuntimeSource,
    pub source_params: Params,
    /// What is expected of a running job that outlived its prediction (the
    /// source's `overrun` parameter).
    pub overrun: Overrun,
    pub seed: u64,
    pub metrics: MetricsOptions,
    pub check: bool,
    /// Compute the fair-slowdown table (run parameter `fair_slowdown=on`).
    pub fair_slowdown: bool,
}

/// Parameters of the run itself, accepted by every policy through
/// `--param`: they choose extra metrics rather than a policy's behaviour.
pub const RUN_PARAMS: &[ParamSpec] = &[ParamSpec {
    key: "fair_slowdown",
    name: "Fair-slowdown table",
    description: "Compute the fair-slowdown fairness table (selective-reservation table 9) against a CBF run of the same trace (which costs that extra run).",
    kind: ParamKind::Choice { options: &["off", "on"], default: "off" },
    unit: None,
}];

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("unknown policy `{id}` (known: {known})")]
    UnknownPolicy { id: String, known: String },
    #[error("unknown predictor `{id}` (known: {known})")]
    UnknownPredictor { id: String, known: String },
    #[error("policy `{policy}` does not use runtime predictions, so --predictor does not apply")]
    PredictorNotUsed { policy: &'static str },
    #[error(transparent)]
    Param(#[from] ParamError),
    #[error(transparent)]
    Metrics(#[from] MetricsError),
}

/// The policy named `id`, or the error that names it (cut short) and the
/// known ones.
pub fn find_policy(id: &str) -> Result<&'static schedlab_policies::PolicyInfo, ConfigError> {
    schedlab_policies::find(id).ok_or_else(|| ConfigError::UnknownPolicy {
        id: schedlab_workload::short_text(id),
        known: REGISTRY.iter().map(|p| p.id).collect::<Vec<_>>().join(", "),
    })
}

/// Resolves a request into checked settings; every unknown or out-of-range
/// value is an error that names it.
pub fn resolve(req: &RunRequest) -> Result<RunSettings, ConfigError> {
    let policy = find_policy(&req.policy)?;
    if req.predictor.is_some() && !policy.uses_runtime_source {
        return Err(ConfigError::PredictorNotUsed { policy: policy.id });
    }
    let source_id = req.predictor.as_deref().unwrap_or(policy.default_source);
    let source_info = SOURCES.iter().find(|s| s.id == source_id).ok_or_else(|| ConfigError::UnknownPredictor {
        id: schedlab_workload::short_text(source_id),
        known: SOURCES.iter().map(|s| s.id).collect::<Vec<_>>().join(", "),
    })?;
    let (run_given, rest): (Vec<_>, Vec<_>) =
        req.params.iter().cloned().partition(|(k, _)| RUN_PARAMS.iter().any(|s| s.key == k));
    let run_params = Params::resolve(RUN_PARAMS, &run_given)?;
    let (source_given, policy_given): (Vec<_>, Vec<_>) =
        rest.into_iter().partition(|(k, _)| source_info.params.iter().any(|s| s.key == k));
    let policy_params = Params::resolve(&all_keys_hint(policy.params, source_info.params), &policy_given)
        .and_then(|_| Params::resolve(policy.params, &policy_given))?;
    let source_params = Params::resolve(source_info.params, &source_given)?;
    let source = RuntimeSource::from_id(source_id, &source_params)
        .ok_or_else(|| ConfigError::UnknownPredictor { id: source_id.to_string(), known: String::new() })?;
    req.metrics.validate()?;
    Ok(RunSettings {
        policy,
        policy_params,
        source,
        overrun: Overrun::from_params(&source_params),
        source_params,
        seed: req.seed,
        metrics: req.metrics.clone(),
        check: !req.skip_check,
        fair_slowdown: run_params.choice("fair_slowdown") == "on",
    })
}

/// The policy's and the source's parameters together, so that an unknown
/// key's message lists every key the user could have meant.
fn all_keys_hint(policy: &[ParamSpec], source: &[ParamSpec]) -> Vec<ParamSpec> {
    policy.iter().chain(source).chain(RUN_PARAMS).cloned().collect()
}

impl RunSettings {
    pub fn build_policy(&self) -> Box<dyn Policy> {
        self.build_policy_with(None)
    }

    /// Builds the policy with the figures of a calibration run.
    pub fn build_policy_with(&self, calibration: Option<Calibration>) -> Box<dyn Policy> {
        (self.policy.build)(&PolicySettings {
            params: self.policy_params.clone(),
            source: self.source,
            seed: self.seed,
            calibration,
            categories: self.categories(),
        })
    }

    /// Whether the policy, with these parameters, wants a calibration run.
    pub fn needs_calibration(&self) -> bool {
        (self.policy.needs_calibration)(&self.policy_params)
    }

    /// Whether a reference CBF run is needed (calibration or the
    /// fair-slowdown table).
    pub fn needs_reference(&self) -> bool {
        self.needs_calibration() || self.fair_slowdown
    }

    /// The run's category limits, which Sel-D shares with the metrics.
    pub fn categories(&self) -> Categories {
        let c = self.metrics.categories;
        Categories { short_runtime: c.runtime, narrow_size: c.size }
    }
}
