use schedlab_engine::params::{CheckedValue, ParamError, ParamInput, ParamSet, ParamSpec, Params};
use schedlab_engine::{Overrun, Policy, RuntimeSource, SOURCES};
use schedlab_metrics::{MetricsError, MetricsOptions};
use schedlab_policies::{Calibration, Categories, PolicyInfo, PolicySettings, REGISTRY};
use thiserror::Error;

/// A run as a user asks for it: everything but the policy may be left out.
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    pub policy: String,
    /// `KEY=VALUE` pairs for the policy and, for `virtual`, its `error`.
    pub params: Vec<(String, Given)>,
    /// A runtime source id; the policy's default when absent.
    pub predictor: Option<String>,
    pub seed: u64,
    pub metrics: MetricsOptions,
    /// Skip the run checker (it runs by default).
    pub skip_check: bool,
}

/// A parameter's value as a front end gives it: text as typed, or a number
/// it already holds (the page's JSON numbers), which is checked as a number
/// and never printed and read back.
#[derive(Clone, Debug, PartialEq)]
pub enum Given {
    Text(String),
    Number(f64),
}

impl From<String> for Given {
    fn from(text: String) -> Self {
        Given::Text(text)
    }
}

impl From<&str> for Given {
    fn from(text: &str) -> Self {
        Given::Text(text.to_owned())
    }
}

/// `KEY=VALUE` pairs of text, as a request's parameters.
pub fn given_texts(pairs: impl IntoIterator<Item = (String, String)>) -> Vec<(String, Given)> {
    pairs.into_iter().map(|(k, v)| (k, Given::Text(v))).collect()
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
    let texts: Vec<String> = req.params.iter().map(|(_, v)| text_of(v)).collect();
    let inputs: Vec<(&str, ParamInput<'_>)> =
        req.params.iter().zip(&texts).map(|((k, v), text)| (k.as_str(), input(v, text))).collect();
    let (run_given, rest): (Vec<_>, Vec<_>) =
        inputs.into_iter().partition(|(k, _)| RUN_PARAMS.iter().any(|s| s.key == *k));
    let run_params = RunParams::read(&Params::resolve_inputs(RUN_PARAMS, &run_given)?);
    let (source_given, policy_given): (Vec<_>, Vec<_>) =
        rest.into_iter().partition(|(k, _)| source_info.params.iter().any(|s| s.key == *k));
    let policy_params = Params::resolve_inputs(policy.params, &policy_given).map_err(|e| match e {
        ParamError::Unknown { key, .. } => {
            ParamError::Unknown { key, known: all_keys(policy.params, source_info.params) }
        }
        e => e,
    })?;
    let source_params = Params::resolve_inputs(source_info.params, &source_given)?;
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

/// A given value's text: the text, or the number as Rust prints it (the
/// shortest that reads back as the same number), which messages show.
fn text_of(given: &Given) -> String {
    match given {
        Given::Text(text) => text.clone(),
        Given::Number(x) => x.to_string(),
    }
}

/// A given value as the parameter reader takes it, with `text` its text.
fn input<'a>(given: &Given, text: &'a str) -> ParamInput<'a> {
    match given {
        Given::Text(_) => ParamInput::Text(text),
        Given::Number(value) => ParamInput::Number { value: *value, text },
    }
}

/// The list a parameter of a run belongs to, and its spec there.
enum Place {
    Run(&'static ParamSpec),
    Source(&'static ParamSpec),
    Policy(&'static ParamSpec),
}

impl Place {
    fn spec(&self) -> &'static ParamSpec {
        match self {
            Place::Run(spec) | Place::Source(spec) | Place::Policy(spec) => spec,
        }
    }
}

/// The policy's, the source's and the run's keys together, so that an
/// unknown key's message lists every key the user could have meant.
fn all_keys(policy: &[ParamSpec], source: &[ParamSpec]) -> String {
    policy.iter().chain(source).chain(RUN_PARAMS).map(|s| s.key).collect::<Vec<_>>().join(", ")
}

impl RunSettings {
    /// These settings with parameter `key` set to `input`, checked as
    /// [`resolve`] checks a given value: an experiment's swept value over a
    /// run resolved once, so that no other value of the run is read again.
    pub fn with_value(&self, key: &str, input: ParamInput<'_>) -> Result<RunSettings, ConfigError> {
        self.with_checked(key, self.check_value(key, input)?)
    }

    /// `input` checked for parameter `key` of these settings, to be set
    /// with [`RunSettings::with_checked`] (once for every point that takes
    /// it).
    pub fn check_value(&self, key: &str, input: ParamInput<'_>) -> Result<CheckedValue, ConfigError> {
        Ok(Params::check(self.place(key)?.spec(), input)?)
    }

    /// These settings with parameter `key` set to a value checked for it.
    pub fn with_checked(&self, key: &str, value: CheckedValue) -> Result<RunSettings, ConfigError> {
        let mut s = self.clone();
        match self.place(key)? {
            Place::Run(spec) => {
                let mut values = Params::resolve(RUN_PARAMS, &[])?;
                values.put(spec, value);
                s.fair_slowdown = RunParams::read(&values).fair_slowdown == OnOff::On;
            }
            Place::Source(spec) => {
                s.source_params.put(spec, value);
                let id = s.source.id();
                s.source = RuntimeSource::from_id(id, &s.source_params)
                    .ok_or_else(|| ConfigError::UnknownPredictor { id: id.to_string(), known: String::new() })?;
                s.overrun = Overrun::of_source(s.source, &s.source_params);
            }
            Place::Policy(spec) => s.policy_params.put(spec, value),
        }
        Ok(s)
    }

    /// Which list parameter `key` belongs to, sorted as [`resolve`] sorts
    /// the keys of a request: the run's, the source's, else the policy's.
    fn place(&self, key: &str) -> Result<Place, ConfigError> {
        let source = SOURCES.iter().find(|i| i.id == self.source.id()).map_or(&[][..], |i| i.params);
        if let Some(spec) = RUN_PARAMS.iter().find(|p| p.key == key) {
            Ok(Place::Run(spec))
        } else if let Some(spec) = source.iter().find(|p| p.key == key) {
            Ok(Place::Source(spec))
        } else {
            let spec = self.policy.params.iter().find(|p| p.key == key).ok_or_else(|| ParamError::Unknown {
                key: schedlab_workload::short_text(key),
                known: all_keys(self.policy.params, source),
            })?;
            Ok(Place::Policy(spec))
        }
    }

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
            params: params.iter().map(|(k, v)| (k.to_string(), (*v).into())).collect(),
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
