//! Which parameters reach which runs of an experiment, for forms: every
//! parameter a run takes, the value it would run with and where that value
//! comes from, and whether the parameter matters under the run's other
//! values (PV-EASY's checkpoint cost does not in kill mode); and for a
//! shared parameter, the runs it reaches, the runs that set their own value
//! and the runs that ignore it. The page's forms and global knobs read this
//! instead of deciding it themselves.

use schedlab_engine::params::{ParamKind, ParamSpec};
use serde::Serialize;

use crate::{Experiment, RunSpec, SweepValues};

/// The shared parameters a form offers first, as "global knobs": the slack
/// factor, the virtual predictor's error and the checkpoint cost (also the
/// knobs of the first page's share links).
pub const KNOBS: &[&str] = &["sf", "error", "cost"];

/// Where the value a run uses comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ValueFrom {
    /// The run sets it.
    Run,
    /// The experiment's shared parameters set it.
    Shared,
    /// The sweep sets it, a value per point.
    Sweep,
    /// Nobody sets it: the parameter's default.
    Default,
}

/// One parameter of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ParamState {
    pub spec: &'static ParamSpec,
    /// The value the run uses; `None` when swept.
    pub value: Option<String>,
    pub from: ValueFrom,
    /// Whether it matters with the run's other values.
    pub matters: bool,
    /// When it matters, for one that does only sometimes ("only when mode
    /// is checkpoint or suspend").
    pub condition: Option<String>,
    /// The values a number takes, as the form's note says them: "0–100 %",
    /// "0–1000000 or all"; `None` for a choice or a text.
    pub range: Option<String>,
}

/// Every parameter one run takes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunScope {
    /// The run's label (its spec text).
    pub label: String,
    /// The run's title for people (`run_title`; the label while the run
    /// does not resolve).
    pub title: String,
    pub params: Vec<ParamState>,
}

/// A run that takes a shared parameter but ignores it, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Ignored {
    pub run: usize,
    /// "only when mode is checkpoint or suspend".
    pub why: String,
}

/// Where one shared parameter goes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SharedScope {
    pub key: String,
    /// The parameter as the first policy or runtime source that declares
    /// it describes it; `None` when nothing takes such a parameter.
    pub spec: Option<&'static ParamSpec>,
    /// The experiment's value, if it sets one.
    pub value: Option<String>,
    /// Runs that take it, with it mattering, and use the shared value.
    pub reaches: Vec<usize>,
    /// Runs that take it but set their own value, which wins.
    pub overridden: Vec<usize>,
    /// Runs that take it but ignore it with their other values.
    pub ignored: Vec<Ignored>,
    /// Runs the sweep gives it to (the shared value does not reach them).
    pub swept: Vec<usize>,
    /// The runtime sources that take it (`error`: `virtual`): a run takes
    /// such a parameter only while it uses one of them.
    pub sources: Vec<&'static str>,
}

/// Every run's parameters and every shared parameter's reach.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Scope {
    pub runs: Vec<RunScope>,
    /// The global knobs ([`KNOBS`]), then every other key the experiment shares.
    pub shared: Vec<SharedScope>,
    /// The numeric parameters some run takes, in the order runs list them.
    pub sweepable: Vec<Sweepable>,
}

/// A parameter a sweep can vary, with the range a form offers first.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Sweepable {
    pub spec: &'static ParamSpec,
    pub values: SweepValues,
}

/// Which parameters reach which runs of `e`. Needs no valid experiment: an
/// unknown policy simply takes nothing, a bad value is shown as it is.
pub fn scope(e: &Experiment) -> Scope {
    let runs: Vec<RunScope> = (0..e.runs.len())
        .map(|r| RunScope { label: e.runs[r].label(), title: title(e, r), params: run_params(e, r) })
        .collect();
    let mut keys: Vec<&str> = KNOBS.to_vec();
    keys.extend(e.params.iter().map(|(k, _)| k).filter(|k| !KNOBS.contains(k)));
    Scope { sweepable: sweepable(&runs), runs, shared: keys.into_iter().map(|k| shared(e, k)).collect() }
}

/// The numeric parameters of `runs`, each once.
fn sweepable(runs: &[RunScope]) -> Vec<Sweepable> {
    let mut out: Vec<Sweepable> = Vec::new();
    for state in runs.iter().flat_map(|r| &r.params) {
        if out.iter().any(|s| s.spec.key == state.spec.key) {
            continue;
        }
        if let Some(values) = first_values(&state.spec.kind) {
            out.push(Sweepable { spec: state.spec, values });
        }
    }
    out
}

/// The values a sweep of a parameter starts from: for a whole number that
/// may also be a word (a depth or `all`), a list of the first powers of two
/// from the least value and the word, since the word is the point of the
/// comparison; else [`first_range`].
fn first_values(kind: &ParamKind) -> Option<SweepValues> {
    if let ParamKind::IntOr { min, max, word, .. } = *kind {
        let numbers = [0, 1, 2, 4, 8].into_iter().filter(|&v| v >= min && v <= max).map(|v| v.to_string());
        return Some(SweepValues::List(numbers.chain([word.to_owned()]).collect()));
    }
    let (from, to, step) = first_range(kind)?;
    Some(SweepValues::Range { from, to, step })
}

/// The range a sweep of a parameter starts from: zero to twice the
/// default in four steps (whole steps for whole numbers), so that the
/// default is among the values and the step is on the default's scale; a
/// range that starts above zero starts at the step's first multiple in it.
/// A default of zero (or a word) says nothing of the scale, so then the
/// parameter's whole range, in four steps. `None`: not a number.
fn first_range(kind: &ParamKind) -> Option<(f64, f64, f64)> {
    let (min, max, default, whole) = match *kind {
        ParamKind::Int { min, max, default } => (min as f64, max as f64, default as f64, true),
        ParamKind::Float { min, max, default } => (min, max, default, false),
        ParamKind::IntOr { min, max, default, .. } => (min as f64, max as f64, default.parse().unwrap_or(0.0), true),
        ParamKind::Choice { .. } | ParamKind::Text { .. } => return None,
    };
    let whole_step = |x: f64| if whole { x.floor().max(1.0) } else { x };
    if default <= 0.0 {
        return Some((min, max, whole_step((max - min) / 4.0)));
    }
    let step = whole_step(default / 2.0);
    let from = ((min.max(0.0) / step).ceil() * step).min(default);
    Some((from, (2.0 * default).min(max), step))
}

/// Run `run`'s title without a sweep value; while a value of the form does
/// not resolve (a formula being typed), its policy's name, not the raw
/// spec; the label for an unknown policy.
fn title(e: &Experiment, run: usize) -> String {
    match crate::resolve(&e.request(run, None, e.seed)) {
        Ok(settings) => crate::run_title(&settings, &crate::title::distinguishing(e, run), e.workload.load()),
        Err(_) => {
            schedlab_policies::find(&e.runs[run].policy).map_or_else(|| e.runs[run].label(), |p| p.name.to_owned())
        }
    }
}

/// Whether the sweep gives run `run` its parameter `key`.
fn swept(e: &Experiment, run: usize, key: &str) -> bool {
    e.sweep.as_ref().is_some_and(|s| s.param == key && s.applies_to(run, e.runs[run].uses(key)))
}

/// The value run `run` gives `key`, and from where (`None` when swept).
fn value_of(e: &Experiment, run: usize, spec: &ParamSpec) -> (Option<String>, ValueFrom) {
    if swept(e, run, spec.key) {
        return (None, ValueFrom::Sweep);
    }
    if let Some(v) = e.runs[run].params.get(spec.key) {
        return (Some(v.to_owned()), ValueFrom::Run);
    }
    if let Some(v) = e.params.get(spec.key) {
        return (Some(v.to_owned()), ValueFrom::Shared);
    }
    (Some(spec.default_text()), ValueFrom::Default)
}

/// Whether `key` matters for run `run`: its policy's conditions, under the
/// values the run gives the parameters they depend on (any of the sweep's
/// values, when the sweep sets that parameter).
fn matters(e: &Experiment, run: usize, key: &str) -> bool {
    let spec = &e.runs[run];
    let Some(policy) = schedlab_policies::find(&spec.policy) else { return true };
    let Some(condition) = policy.conditions.iter().find(|c| c.param == key) else { return true };
    if swept(e, run, condition.when) {
        let values = match e.sweep.as_ref().map(|s| &s.values) {
            Some(SweepValues::List(v)) => v.clone(),
            _ => Vec::new(),
        };
        return values.iter().any(|v| policy.param_matters(key, |k| (k == condition.when).then_some(v.as_str())));
    }
    policy.param_matters(key, |k| own_or_shared(spec, e, k))
}

fn own_or_shared<'a>(spec: &'a RunSpec, e: &'a Experiment, key: &str) -> Option<&'a str> {
    spec.params.get(key).or_else(|| e.params.get(key))
}

/// "0–100 %", "1–64 jobs", "0–1000000 or all": the values a numeric
/// parameter takes, with its unit.
fn range_label(spec: &ParamSpec) -> Option<String> {
    let unit = spec.unit.map(|u| format!(" {u}")).unwrap_or_default();
    match spec.kind {
        ParamKind::Int { min, max, .. } => Some(format!("{min}–{max}{unit}")),
        ParamKind::Float { min, max, .. } => {
            Some(format!("{}–{}{unit}", crate::format_value(min), crate::format_value(max)))
        }
        ParamKind::IntOr { min, max, word, .. } => Some(format!("{min}–{max}{unit} or {word}")),
        ParamKind::Choice { .. } | ParamKind::Text { .. } => None,
    }
}

fn run_params(e: &Experiment, run: usize) -> Vec<ParamState> {
    let policy = schedlab_policies::find(&e.runs[run].policy);
    e.runs[run]
        .params_taken()
        .into_iter()
        .map(|spec| {
            let (value, from) = value_of(e, run, spec);
            ParamState {
                spec,
                value,
                from,
                matters: matters(e, run, spec.key),
                condition: policy.and_then(|p| p.condition_text(spec.key)),
                range: range_label(spec),
            }
        })
        .collect()
}

fn shared(e: &Experiment, key: &str) -> SharedScope {
    let mut s = SharedScope {
        key: key.to_owned(),
        spec: declared(key),
        value: e.params.get(key).map(str::to_owned),
        reaches: Vec::new(),
        overridden: Vec::new(),
        ignored: Vec::new(),
        swept: Vec::new(),
        sources: schedlab_engine::SOURCES
            .iter()
            .filter(|s| s.params.iter().any(|p| p.key == key))
            .map(|s| s.id)
            .collect(),
    };
    for (run, spec) in e.runs.iter().enumerate() {
        if !spec.uses(key) {
            continue;
        }
        if swept(e, run, key) {
            s.swept.push(run);
        } else if spec.params.contains(key) {
            s.overridden.push(run);
        } else if matters(e, run, key) {
            s.reaches.push(run);
        } else {
            let why = schedlab_policies::find(&spec.policy).and_then(|p| p.condition_text(key)).unwrap_or_default();
            s.ignored.push(Ignored { run, why });
        }
    }
    s
}

/// The first declaration of parameter `key`: a policy's, a runtime
/// source's, or a run parameter's.
fn declared(key: &str) -> Option<&'static ParamSpec> {
    let policies = schedlab_policies::REGISTRY.iter().flat_map(|p| p.params.iter());
    let sources = schedlab_engine::SOURCES.iter().flat_map(|s| s.params.iter());
    policies.chain(sources).chain(crate::RUN_PARAMS.iter()).find(|p| p.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ParamList, Sweep};

    fn run(spec: &str) -> RunSpec {
        RunSpec::parse(spec).unwrap()
    }

    fn shared_of<'a>(s: &'a Scope, key: &str) -> &'a SharedScope {
        s.shared.iter().find(|x| x.key == key).unwrap()
    }

    #[test]
    fn the_checkpoint_cost_knob_reaches_pv_easy_only_outside_kill_mode() {
        let mut e = Experiment::of(vec![run("pv-easy"), run("pv-easy:mode=checkpoint"), run("easy")]);
        e.params = ParamList(vec![("cost".into(), "120".into())]);
        let s = scope(&e);
        let cost = shared_of(&s, "cost");
        assert_eq!(cost.reaches, [1]);
        assert_eq!(cost.ignored, [Ignored { run: 0, why: "only when mode is checkpoint or suspend".into() }]);
        assert_eq!(cost.value.as_deref(), Some("120"));
        assert!(cost.overridden.is_empty() && cost.swept.is_empty() && cost.sources.is_empty());
        // The card of the kill-mode run shows the cost greyed out, with the shared value.
        let p = s.runs[0].params.iter().find(|p| p.spec.key == "cost").unwrap();
        assert_eq!((p.value.as_deref(), p.from, p.matters), (Some("120"), ValueFrom::Shared, false));
        let p = s.runs[1].params.iter().find(|p| p.spec.key == "mode").unwrap();
        assert_eq!((p.value.as_deref(), p.from, p.matters), (Some("checkpoint"), ValueFrom::Run, true));
        // EASY takes no cost at all.
        assert!(!s.runs[2].params.iter().any(|p| p.spec.key == "cost"));
        // A shared mode of checkpoint makes the first run take the cost too.
        e.params.set("mode", "checkpoint");
        assert_eq!(shared_of(&scope(&e), "cost").reaches, [0, 1]);
    }

    #[test]
    fn the_error_knob_needs_the_virtual_source_and_a_run_may_override_it() {
        let e = Experiment::of(vec![run("easy"), run("easy@virtual"), run("easy:error=10@virtual"), run("fcfs")]);
        let s = scope(&e);
        let error = shared_of(&s, "error");
        assert_eq!((error.reaches.as_slice(), error.overridden.as_slice()), (&[1][..], &[2][..]));
        assert_eq!(error.sources, ["virtual"]);
        assert_eq!(error.value, None);
        assert_eq!(error.spec.map(|p| p.key), Some("error"));
        let p = s.runs[1].params.iter().find(|p| p.spec.key == "error").unwrap();
        // Unset anywhere: the virtual predictor's declared default, 10 %.
        assert_eq!((p.value.as_deref(), p.from), (Some("10"), ValueFrom::Default));
        // The knobs come first, in their order; then the experiment's other keys.
        let keys: Vec<&str> = s.shared.iter().map(|x| x.key.as_str()).collect();
        assert_eq!(keys, KNOBS);
    }

    #[test]
    fn a_sweep_sets_its_runs_and_a_swept_mode_decides_with_any_of_its_values() {
        let mut e = Experiment::of(vec![run("pv-easy"), run("easy@virtual")]);
        e.sweep = Some(Sweep {
            param: "mode".into(),
            values: SweepValues::List(vec!["kill".into(), "suspend".into()]),
            runs: None,
        });
        e.params = ParamList(vec![("fair_slowdown".into(), "on".into())]);
        let s = scope(&e);
        let mode = s.runs[0].params.iter().find(|p| p.spec.key == "mode").unwrap();
        assert_eq!((mode.value.as_deref(), mode.from), (None, ValueFrom::Sweep));
        assert!(s.runs[0].params.iter().find(|p| p.spec.key == "cost").unwrap().matters, "suspend is among the values");
        assert!(!s.runs[0].params.iter().find(|p| p.spec.key == "interval").unwrap().matters, "never checkpoint");
        // A key the experiment shares beyond the knobs is listed after them.
        let fair = shared_of(&s, "fair_slowdown");
        assert_eq!(fair.reaches, [0, 1]);
        assert_eq!(s.shared.last().unwrap().key, "fair_slowdown");
    }

    #[test]
    fn a_sweep_starts_on_the_defaults_scale() {
        let range = |kind: ParamKind| first_range(&kind).unwrap();
        // The checkpoint cost: 0, 30, 60, 90, 120 s around its default of 60.
        assert_eq!(range(ParamKind::Int { min: 0, max: 86_400, default: 60 }), (0.0, 120.0, 30.0));
        // The checkpoint interval starts at 1 s: its first multiple of 1,800.
        assert_eq!(range(ParamKind::Int { min: 1, max: 10_000_000, default: 3600 }), (1800.0, 7200.0, 1800.0));
        // Whole numbers take whole steps: k = 5 sweeps 0, 2, 4, 6, 8, 10.
        assert_eq!(range(ParamKind::Int { min: 0, max: 1_000_000, default: 5 }), (0.0, 10.0, 2.0));
        // A weight of 1 in [0, 1] stops at the range's end.
        assert_eq!(range(ParamKind::Float { min: 0.0, max: 1.0, default: 1.0 }), (0.0, 1.0, 0.5));
        assert_eq!(range(ParamKind::Float { min: 0.0, max: 1.0, default: 0.2 }), (0.0, 0.4, 0.1));
        // A depth of 1: 0, 1, 2; a default of zero or a word: the whole range.
        let depth = |default| ParamKind::IntOr { min: 0, max: 1_000_000, word: "all", default };
        assert_eq!(range(depth("1")), (0.0, 2.0, 1.0));
        assert_eq!(range(depth("all")), (0.0, 1_000_000.0, 250_000.0));
        assert_eq!(range(ParamKind::Float { min: 0.0, max: 1e9, default: 0.0 }), (0.0, 1e9, 2.5e8));
        assert_eq!(first_range(&ParamKind::Choice { options: &["a"], default: "a" }), None);
    }

    #[test]
    fn every_numeric_parameter_of_the_runs_is_sweepable_once() {
        let s = scope(&Experiment::of(vec![run("pv-easy:mode=checkpoint"), run("pv-easy"), run("easy")]));
        let keys: Vec<&str> = s.sweepable.iter().map(|x| x.spec.key).collect();
        let numeric = |p: &&ParamState| !matches!(p.spec.kind, ParamKind::Choice { .. } | ParamKind::Text { .. });
        let want: Vec<&str> = s.runs[0].params.iter().filter(numeric).map(|p| p.spec.key).collect();
        assert_eq!(keys, want);
        assert!(keys.contains(&"cost") && !keys.contains(&"mode"));
    }

    /// Numbers say their range with their unit; a depth adds its word.
    #[test]
    fn ranges_are_labelled_with_units_and_words() {
        let s = scope(&Experiment::of(vec![run("backfill"), run("easy@virtual")]));
        let range =
            |r: usize, key: &str| s.runs[r].params.iter().find(|p| p.spec.key == key).and_then(|p| p.range.clone());
        assert_eq!(range(0, "depth").as_deref(), Some("0–1000000 or all"));
        assert_eq!(range(0, "order"), None);
        assert_eq!(range(1, "error").as_deref(), Some("0–100 %"));
    }

    /// A run whose formula does not compile yet is named by its policy,
    /// not by the raw spec.
    #[test]
    fn a_run_being_typed_is_named_by_its_policy() {
        let s = scope(&Experiment::of(vec![run("backfill:order=wiat * procs")]));
        assert_eq!(s.runs[0].title, "Composable backfilling");
    }

    /// A depth (a number or `all`) is offered as a list ending in the word,
    /// which reads back as typed.
    #[test]
    fn a_depth_sweep_starts_as_a_list_with_its_word() {
        let s = scope(&Experiment::of(vec![run("backfill")]));
        let depth = s.sweepable.iter().find(|x| x.spec.key == "depth").expect("depth is sweepable");
        let want = SweepValues::List(["0", "1", "2", "4", "8", "all"].map(String::from).to_vec());
        assert_eq!(depth.values, want);
        assert_eq!(want.text(), "0,1,2,4,8,all");
        assert_eq!(SweepValues::parse("depth", "0,1,2,4,8,all").unwrap(), want);
        let range = SweepValues::parse("slack", "0.5:2:0.5").unwrap();
        assert_eq!(range, SweepValues::Range { from: 0.5, to: 2.0, step: 0.5 });
        assert_eq!(range.text(), "0.5:2:0.5");
        assert!(SweepValues::parse("slack", "2:1:1").is_err());
        assert!(SweepValues::parse("slack", "1:2").is_err());
    }

    #[test]
    fn unknown_policies_and_keys_take_nothing() {
        let mut e = Experiment::of(vec![run("nope")]);
        e.params = ParamList(vec![("zzz".into(), "1".into())]);
        let s = scope(&e);
        assert!(s.runs[0].params.is_empty());
        let z = shared_of(&s, "zzz");
        assert!(z.spec.is_none() && z.reaches.is_empty() && z.ignored.is_empty());
    }
}
