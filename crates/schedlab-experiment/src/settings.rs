use schedlab_engine::params::{ParamError, ParamSet, ParamSpec, Params};
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

schedlab_engine::param_choice! {
    /// A switch.
    pub enum OnOff {
        Off = "off",
        On = "on",
    }
}

schedlab_engine::param_set! {
    /// Parameters of the run itself, accepted by every policy through
    /// `--param`: they choose extra metrics rather than a policy's behaviour.
    pub struct RunParams {
        fair_slowdown: Choice<OnOff> { default: OnOff::Off },
            name: "Fair-slowdown table",
            description: "Compute the fair-slowdown fairness table (selective-reservation table 9) against a CBF run of the same trace (which costs that extra run).";
    }
}

/// The list of [`RunParams`].
pub const RUN_PARAMS: &[ParamSpec] = RunParams::SPECS;

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
    let run_params = RunParams::read(&Params::resolve(RUN_PARAMS, &run_given)?);
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
        overrun: Overrun::of_source(source, &source_params),
        source_params,
        seed: req.seed,
        metrics: req.metrics.clone(),
        check: !req.skip_check,
        fair_slowdown: run_params.fair_slowdown == OnOff::On,
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
        (self.policy.build)(
            &self.policy_params,
            &PolicySettings { source: self.source, seed: self.seed, calibration, categories: self.categories() },
        )
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

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(policy: &str, params: &[(&str, &str)], predictor: Option<&str>) -> Result<RunSettings, ConfigError> {
        resolve(&RunRequest {
            policy: policy.to_string(),
            params: params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            predictor: predictor.map(str::to_string),
            ..RunRequest::default()
        })
    }

    /// The typed parameter sets keep rejecting what the user mistyped, with
    /// messages that name the key and every key the run accepts.
    #[test]
    fn misspelt_keys_and_options_are_rejected_by_name() {
        // (policy@source, the one parameter given, the message)
        let cases: &[(&str, (&str, &str), &str)] = &[
            ("easy", ("ordr", "shortest"), "unknown parameter `ordr` (known: order, fair_slowdown)"),
            ("easy@virtual", ("eror", "3"), "unknown parameter `eror` (known: order, error, overrun, fair_slowdown)"),
            ("easy", ("overrun", "stale"), "unknown parameter `overrun` (known: order, fair_slowdown)"),
            ("easy@last", ("overrun", "stal"), "parameter `overrun`: `stal` is not one of estimate, stale, double"),
            ("cbf", ("fair_slowdwn", "on"), "unknown parameter `fair_slowdwn` (known: fair_slowdown)"),
            (
                "pv-easy",
                ("mode", "Checkpoint"),
                "parameter `mode`: `Checkpoint` is not one of kill, checkpoint, suspend",
            ),
            ("backfill", ("depth", "al"), "parameter `depth`: `al` is neither a whole number nor `all`"),
        ];
        for (spec, given, message) in cases {
            let (policy, source) = spec.split_once('@').map_or((*spec, None), |(p, s)| (p, Some(s)));
            let err = settings(policy, &[*given], source).unwrap_err();
            assert_eq!(err.to_string(), *message, "{spec} {given:?}");
        }
    }

    /// The values a user gives reach the run through the sets' fields.
    #[test]
    fn given_values_reach_the_source_the_overrun_rule_and_the_run() {
        let s = settings("easy", &[("error", "30"), ("overrun", "double"), ("fair_slowdown", "on")], Some("virtual"))
            .unwrap();
        assert_eq!(
            (s.source, s.overrun, s.fair_slowdown),
            (RuntimeSource::Virtual { error_pct: 30.0 }, Overrun::Double, true)
        );
        let s = settings("easy", &[("overrun", "stale")], Some("tsafrir")).unwrap();
        assert_eq!((s.source, s.overrun, s.fair_slowdown), (RuntimeSource::Tsafrir, Overrun::Stale, false));
        let s = settings("easy", &[], Some("virtual")).unwrap();
        assert_eq!((s.source, s.overrun), (RuntimeSource::Virtual { error_pct: 10.0 }, Overrun::Estimate));
    }

    /// Slack needs a CBF run for its AWT only when none is given; Sel-D
    /// needs one while any of its four thresholds is left at 0.
    #[test]
    fn calibration_follows_the_typed_values() {
        let needs = |policy, params: &[(&str, &str)]| settings(policy, params, None).unwrap().needs_calibration();
        assert!(needs("slack", &[]));
        assert!(!needs("slack", &[("awt", "5000")]));
        assert!(needs("selective", &[]));
        assert!(!needs("selective", &[("threshold", "2")]));
        let three = [("variant", "sel-d"), ("threshold_sn", "2"), ("threshold_sw", "2"), ("threshold_ln", "2")];
        assert!(needs("selective", &three), "LW is still from a CBF run");
        assert!(!needs("selective", &[&three[..], &[("threshold_lw", "2")]].concat()));
        assert!(!needs("easy", &[]));
    }
}
