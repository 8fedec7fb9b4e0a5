use schedlab_engine::params::{ParamError, ParamSpec, Params};
use schedlab_engine::{Policy, RuntimeSource, SOURCES};
use schedlab_metrics::{MetricsError, MetricsOptions};
use schedlab_policies::{PolicyInfo, PolicySettings, REGISTRY};
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
    pub seed: u64,
    pub metrics: MetricsOptions,
    pub check: bool,
}

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

/// Resolves a request into checked settings; every unknown or out-of-range
/// value is an error that names it.
pub fn resolve(req: &RunRequest) -> Result<RunSettings, ConfigError> {
    let policy = schedlab_policies::find(&req.policy).ok_or_else(|| ConfigError::UnknownPolicy {
        id: req.policy.clone(),
        known: REGISTRY.iter().map(|p| p.id).collect::<Vec<_>>().join(", "),
    })?;
    if req.predictor.is_some() && !policy.uses_runtime_source {
        return Err(ConfigError::PredictorNotUsed { policy: policy.id });
    }
    let source_id = req.predictor.as_deref().unwrap_or(policy.default_source);
    let source_info = SOURCES.iter().find(|s| s.id == source_id).ok_or_else(|| ConfigError::UnknownPredictor {
        id: source_id.to_string(),
        known: SOURCES.iter().map(|s| s.id).collect::<Vec<_>>().join(", "),
    })?;
    let (source_given, policy_given): (Vec<_>, Vec<_>) =
        req.params.iter().cloned().partition(|(k, _)| source_info.params.iter().any(|s| s.key == k));
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
        source_params,
        seed: req.seed,
        metrics: req.metrics.clone(),
        check: !req.skip_check,
    })
}

/// The policy's and the source's parameters together, so that an unknown
/// key's message lists every key the user could have meant.
fn all_keys_hint(policy: &[ParamSpec], source: &[ParamSpec]) -> Vec<ParamSpec> {
    policy.iter().chain(source).cloned().collect()
}

impl RunSettings {
    pub fn build_policy(&self) -> Box<dyn Policy> {
        (self.policy.build)(&PolicySettings { params: self.policy_params.clone(), source: self.source })
    }
}
