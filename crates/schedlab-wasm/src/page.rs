//! What the page offers beside the experiment pipeline: the context line
//! of a trace (`trace_context`), the one-click demo (`demo`), and the
//! formula editor's language and check (`formula_language`,
//! `formula_check`), and times as people read them (`time_label`,
//! `time_date`, `duration_label`), so that the page keeps no copy of a
//! time format. Run
//! titles come with the plan (`PlanView::cells`), the results (`titles`,
//! each row's `title`) and the schedule view (`ScheduleInfo::label`).

use schedlab_experiment::{Experiment, RunSpec, TraceDocument, TraceIdentity};
use schedlab_wasm_macros::export;
use schedlab_workload::TraceClock;
use serde::Serialize;

use schedlab_session::ErrorKind;

use crate::session::Error;
use crate::{Js, Thrown};

/// The runs of the first visit's demo: EASY, conservative backfilling and
/// PV-EASY, the three families a scheduling audience knows.
const DEMO_RUNS: &[&str] = &["easy", "cbf", "pv-easy"];

/// The one-click demo: the experiment it runs on the bundled sample, and
/// the button's text, which names its runs by their titles.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Demo {
    pub button: String,
    pub experiment: Experiment,
}

/// The demo (plain Rust, tested natively).
pub fn demo_of() -> Result<Demo, Error> {
    let runs = DEMO_RUNS
        .iter()
        .map(|s| RunSpec::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::new(ErrorKind::Option, e.to_string()))?;
    let experiment = Experiment { wait_ecdf: true, ..Experiment::of(runs) };
    let titles = schedlab_session::plan(experiment.clone())?.titles();
    Ok(Demo { button: format!("Try it: {} on the sample", titles.join(" vs ")), experiment })
}

/// `demo(): Demo`: what the first visit's button runs, and its text.
#[export]
pub fn demo() -> Result<Js<Demo>, Thrown> {
    Js::encode(&demo_of()?)
}

/// The trace's name, jobs and machine size as read, and every workload
/// option off its default: "kth.swf: 3000 jobs on 100 processors, load
/// factor 1.2". The runs header, the table caption and the charts'
/// subtitles all show it.
#[export]
pub fn trace_context(identity: Js<TraceIdentity>) -> Result<String, Thrown> {
    let identity: TraceDocument = identity.read_as("identity")?;
    let context = schedlab_experiment::identity_context(&identity);
    Ok(context.ok_or_else(|| {
        Error::new(ErrorKind::Option, "identity: expected a trace identity with name, jobs, procs and options")
    })?)
}

/// The parameters whose value is a priority formula (or a preset's name),
/// as (policy id, parameter key): the page gives them the formula editor.
const FORMULA_PARAMS: &[(&str, &str)] = &[("backfill", "order")];

/// A name and the one line that explains it.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NamedLine {
    pub name: String,
    pub line: String,
}

/// A preset of the formula language, as the editor's menu lists it.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FormulaPreset {
    pub name: String,
    pub source: String,
    pub title: String,
    pub origin: String,
}

/// A parameter that takes a formula.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FormulaField {
    pub policy: String,
    pub key: String,
}

/// Everything the formula editor lists: the variables and functions with
/// one line each, the presets, the length limit, and which fields it edits.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FormulaLanguage {
    pub variables: Vec<NamedLine>,
    pub functions: Vec<NamedLine>,
    pub presets: Vec<FormulaPreset>,
    pub max_length: usize,
    pub fields: Vec<FormulaField>,
}

/// The language as the page shows it (plain Rust, tested natively).
pub fn formula_language_of() -> FormulaLanguage {
    use schedlab_priority::{Func, Var, PRESETS};
    let line = |name: &str, line: &str| NamedLine { name: name.to_owned(), line: line.to_owned() };
    FormulaLanguage {
        variables: Var::ALL.iter().map(|v| line(v.name(), v.description())).collect(),
        functions: Func::ALL.iter().map(|f| line(f.name(), f.signature())).collect(),
        presets: PRESETS
            .iter()
            .map(|p| FormulaPreset {
                name: p.name.to_owned(),
                source: p.source.to_owned(),
                title: p.title.to_owned(),
                origin: p.origin.to_owned(),
            })
            .collect(),
        max_length: schedlab_priority::MAX_LENGTH,
        fields: FORMULA_PARAMS
            .iter()
            .map(|(p, k)| FormulaField { policy: (*p).to_owned(), key: (*k).to_owned() })
            .collect(),
    }
}

/// What the editor says under a formula as it is typed.
#[derive(Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FormulaCheck {
    /// Why the text is refused ("unknown variable `wiat` at column 2; did
    /// you mean `wait`?"), or `None` when a run accepts it.
    pub error: Option<String>,
    /// The preset the text names, if it names one.
    pub preset: Option<String>,
    /// Whether the formula reads a variable that changes while a job
    /// waits, so that every pass scores every waiting job again.
    pub rescored: bool,
}

/// The check of an `order` value, the one a run makes (plain Rust, tested
/// natively).
pub fn formula_check_of(text: &str) -> FormulaCheck {
    let preset = schedlab_priority::preset_of(text).map(|p| p.name.to_owned());
    match schedlab_policies::order_formula(text) {
        Ok(f) => FormulaCheck { error: None, preset, rescored: f.is_time_dependent() },
        Err(error) => FormulaCheck { error: Some(error), preset, rescored: false },
    }
}

/// `formula_language(): FormulaLanguage`: the editor's lists.
#[export]
pub fn formula_language() -> Result<Js<FormulaLanguage>, Thrown> {
    Js::encode(&formula_language_of())
}

/// `formula_check(text): FormulaCheck`: the message under the field, as
/// the text is typed.
#[export]
pub fn formula_check(text: &str) -> Result<Js<FormulaCheck>, Thrown> {
    Js::encode(&formula_check_of(text))
}

/// `time_label(t, clock)`: trace second `t` as its date and the time since
/// the start when the header gives a date, "1996-09-30 14:00 UTC+1
/// (+7 d 1 h)", else as "d7 01:00".
#[export]
pub fn time_label(t: f64, clock: Js<TraceClock>) -> Result<String, Thrown> {
    Ok(clock.decode_raw("clock")?.label(t))
}

/// `time_date(t, clock)`: the calendar date and time of trace second `t`
/// ("1996-09-30 14:00 UTC+1"), or `undefined` without `UnixStartTime`.
#[export]
pub fn time_date(t: f64, clock: Js<TraceClock>) -> Result<Option<String>, Thrown> {
    Ok(clock.decode_raw("clock")?.date(t))
}

/// `time_note(clock)`: how dates are shown, one sentence, or `undefined`.
#[export]
pub fn time_note(clock: Js<TraceClock>) -> Result<Option<String>, Thrown> {
    Ok(clock.decode_raw("clock")?.note())
}

/// `duration_label(seconds)`: "3 h 20 min", "2 d 4 h", "45 s".
#[export]
pub fn duration_label(seconds: f64) -> String {
    schedlab_workload::duration_text(seconds)
}

/// `axis_duration(seconds)`: a duration axis's tick ("1 s", "1.67 min",
/// "2.78 h"), the format of the charts' duration axes.
#[export]
pub fn axis_duration(seconds: f64) -> String {
    schedlab_charts::duration_label(seconds)
}

/// `trace_time(t)`: "d7 01:00", the trace's own clock.
#[export]
pub fn trace_time(t: f64) -> String {
    schedlab_workload::trace_time(t)
}

#[cfg(test)]
mod tests {
    use super::{formula_check_of, FormulaCheck};
    use schedlab_engine::params::ParamKind;

    #[test]
    fn every_formula_field_is_a_text_parameter_of_its_policy() {
        for f in super::formula_language_of().fields {
            let p = schedlab_policies::REGISTRY.iter().find(|p| p.id == f.policy).expect("a registered policy");
            let spec = p.params.iter().find(|s| s.key == f.key).expect("a parameter of the policy");
            assert!(matches!(spec.kind, ParamKind::Text { .. }), "{}:{} is a text parameter", f.policy, f.key);
        }
    }

    #[test]
    fn the_check_names_the_column_and_the_nearest_variable() {
        let c = formula_check_of("(wiat / requested)^3 * procs");
        assert_eq!(c.error.as_deref(), Some("unknown variable `wiat` at column 2; did you mean `wait`?"));
        let fixed = formula_check_of("(wait / requested)^3 * procs");
        assert_eq!(fixed, FormulaCheck { error: None, preset: None, rescored: true });
    }

    /// A preset's formula typed out, with other spacing, is named as it.
    #[test]
    fn a_presets_formula_typed_out_is_named() {
        let f4 = schedlab_priority::find_preset("f4").unwrap();
        let typed = f4.source.replace(' ', "");
        assert_eq!(formula_check_of(&typed).preset.as_deref(), Some("f4"));
        assert_eq!(formula_check_of("requested * procs * 2").preset, None);
    }

    #[test]
    fn a_preset_is_named_and_a_static_formula_is_scored_once() {
        assert_eq!(
            formula_check_of(" saf "),
            FormulaCheck { error: None, preset: Some("saf".into()), rescored: false }
        );
        assert!(formula_check_of("wfp3").rescored);
        assert!(formula_check_of("").error.is_some());
    }

    #[test]
    fn the_demo_runs_three_policies_named_by_their_titles() {
        let d = super::demo_of().unwrap();
        assert_eq!(d.button, "Try it: EASY vs Conservative backfilling vs PV-EASY on the sample");
        assert_eq!(d.experiment.runs.len(), 3);
        assert!(d.experiment.wait_ecdf);
    }
}
