//! Names for people: a run's title ("PV-EASY, checkpoint (interval 120 s),
//! virtual (error 20 %), load factor 1.2") and an experiment's context line
//! ("kth.swf: 3000 jobs on 100 processors, load factor 1.2"). Every table,
//! chart, schedule view and export shows these, so they are made here once,
//! from the registry's parameter lists: a policy added to the registry gets
//! its title with no change here. The spec text (`RunSpec::label`) stays
//! the exact, machine-readable name beside it.

use schedlab_engine::params::{ParamSpec, ParamValue, Params};
use schedlab_engine::SOURCES;
use schedlab_workload::{Oversize, ReadOptions, Window};

use crate::{format_value, Experiment, RunSettings, RunSpec, TraceDocument};

/// The title of a resolved run: the policy's name, then every parameter
/// that differs from its default and matters with the run's other values,
/// the runtime source when it is not the policy's default (with its own
/// parameters), and the load factor when it is not 1. `always` names the
/// parameters shown even at their defaults (a swept one, or one another run
/// of the experiment sets otherwise: [`distinguishing`]), whose values tell
/// the rows apart.
pub fn run_title(settings: &RunSettings, always: &[&str], load_factor: f64) -> String {
    let policy = settings.policy;
    let mut parts = vec![policy.name.to_owned()];
    let matters = |key: &str| policy.param_matters(key, |k| chosen(policy.params, &settings.policy_params, k));
    let shown = |spec: &ParamSpec| always.contains(&spec.key) || differs(spec, &settings.policy_params);
    for spec in policy.params {
        let is_switch = policy.conditions.iter().any(|c| c.when == spec.key);
        let has_condition = policy.conditions.iter().any(|c| c.param == spec.key);
        if has_condition || !matters(spec.key) {
            continue;
        }
        let dependents: Vec<String> = policy
            .params
            .iter()
            .filter(|d| policy.conditions.iter().any(|c| c.param == d.key && c.when == spec.key))
            .filter(|d| matters(d.key) && shown(d))
            .map(|d| setting(d, &settings.policy_params))
            .collect();
        if is_switch && (shown(spec) || !dependents.is_empty()) {
            parts.push(with_details(value_text(&settings.policy_params, spec), &dependents));
        } else if shown(spec) {
            parts.push(setting(spec, &settings.policy_params));
        }
    }
    if policy.uses_runtime_source {
        parts.extend(source_part(settings, always));
    }
    if settings.fair_slowdown {
        parts.push("fair-slowdown table".to_owned());
    }
    if load_factor != 1.0 {
        parts.push(format!("load factor {}", format_value(load_factor)));
    }
    parts.join(", ")
}

/// The runtime source's part of a title: its id when it is not the
/// policy's default or when one of its parameters is shown, with those
/// parameters in parentheses.
fn source_part(settings: &RunSettings, always: &[&str]) -> Option<String> {
    let id = settings.source.id();
    let specs = SOURCES.iter().find(|s| s.id == id).map_or(&[][..], |s| s.params);
    let params: Vec<String> = specs
        .iter()
        .filter(|s| always.contains(&s.key) || differs(s, &settings.source_params))
        .map(|s| setting(s, &settings.source_params))
        .collect();
    (id != settings.policy.default_source || !params.is_empty()).then(|| with_details(id.to_owned(), &params))
}

/// The parameters of run `run` that another run of the same policy in `e`
/// gives another value (each run's own value, else the experiment's shared
/// one, else the default, compared as text): six cards of composable
/// backfilling at depths 0, 1, 2, 4, 8 and `all` are each titled with
/// their depth, the default 1 included.
pub fn distinguishing(e: &Experiment, run: usize) -> Vec<&'static str> {
    let Some(this) = e.runs.get(run) else { return Vec::new() };
    let value = |r: &RunSpec, spec: &ParamSpec| {
        r.params.get(spec.key).or_else(|| e.params.get(spec.key)).map_or_else(|| spec.default_text(), str::to_owned)
    };
    let others: Vec<&RunSpec> =
        e.runs.iter().enumerate().filter(|&(r, o)| r != run && o.policy == this.policy).map(|(_, o)| o).collect();
    this.params_taken()
        .into_iter()
        .filter(|spec| others.iter().any(|o| o.uses(spec.key) && value(o, spec) != value(this, spec)))
        .map(|spec| spec.key)
        .collect()
}

/// `head (a, b)`, or `head` alone.
fn with_details(head: String, details: &[String]) -> String {
    if details.is_empty() {
        head
    } else {
        format!("{head} ({})", details.join(", "))
    }
}

/// The chosen option of the choice parameter `key` of `specs`.
fn chosen<'a>(specs: &[ParamSpec], values: &'a Params, key: &str) -> Option<&'a str> {
    match specs.iter().find(|s| s.key == key).and_then(|s| values.value(s)) {
        Some(ParamValue::Choice(option)) => Some(option),
        _ => None,
    }
}

/// Whether the resolved value of `spec` is not its default.
fn differs(spec: &ParamSpec, values: &Params) -> bool {
    values.value(spec) != Some(&spec.default_value())
}

/// A text value as a title shows it: the name of the formula preset it
/// spells out ("f4" for F4's formula typed out), else the whole text. It
/// is not cut as the spec label cuts it: two formulas that begin alike
/// would give two runs one title, and the charts wrap long names.
fn named(text: &str) -> String {
    match schedlab_priority::preset_of(text) {
        Some(p) => p.name.to_owned(),
        None => text.to_owned(),
    }
}

/// `key value unit`, the key's underscores read as spaces ("interval 120 s").
fn setting(spec: &ParamSpec, values: &Params) -> String {
    format!("{} {}", spec.key.replace('_', " "), value_text(values, spec))
}

/// A value as a title shows it: the option, the number with its unit, or
/// a text (a formula, or the preset it spells out).
fn value_text(values: &Params, spec: &ParamSpec) -> String {
    // Through the value's JSON form, so that every kind of value the
    // registry may declare reads as text or a number without a list of them.
    let text = values.value(spec).and_then(crate::json::scalar_text).map_or_else(|| spec.default_text(), |t| named(&t));
    match spec.unit {
        Some(unit) => format!("{text} {unit}"),
        None => text,
    }
}

/// The context of an experiment's numbers: the trace's name, its jobs and
/// machine size as read, and every workload option that is not the
/// reader's default ("kth.swf: 3000 jobs on 100 processors, load factor
/// 1.2, first 1000 jobs").
pub fn trace_context(name: &str, jobs: usize, procs: u32, options: &ReadOptions) -> String {
    let mut parts = vec![format!("{name}: {jobs} jobs on {procs} processors")];
    if options.load_factor != 1.0 {
        parts.push(format!("load factor {}", format_value(options.load_factor)));
    }
    match options.window {
        Window::All => {}
        Window::FirstJobs(n) => parts.push(format!("first {n} jobs")),
        Window::TimeRange { from, to } => parts.push(format!("jobs submitted in [{from} s, {to} s)")),
    }
    if options.oversize == Oversize::Clamp {
        parts.push("jobs wider than the machine clamped".to_owned());
    }
    let list = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    if let Some(q) = &options.queues {
        parts.push(format!("queues {}", list(q)));
    }
    if let Some(p) = &options.partitions {
        parts.push(format!("partitions {}", list(p)));
    }
    if !options.drop_status.is_empty() {
        parts.push(format!("status {} dropped", list(&options.drop_status)));
    }
    parts.join(", ")
}

/// The one name of every download: the trace (its file name without the
/// endings `.swf`, `.gz`, …), what the file shows (a run's label, a
/// figure's id, a preset), and the kind of file, each in lowercase words
/// joined by hyphens, then the ending: `kth-sp2-first3000-easy-jobs.csv`.
/// Empty parts are left out; each part is cut at 60 characters.
pub fn download_name(trace: &str, what: &str, kind: &str, ending: &str) -> String {
    let mut stem = trace.rsplit(['/', '\\']).next().unwrap_or(trace);
    while let Some((head, tail)) = stem.rsplit_once('.') {
        let known = ["swf", "gz", "bz2", "xz", "zst", "zlib", "json", "txt", "csv", "log", "sacct"];
        if head.is_empty() || !known.contains(&tail.to_ascii_lowercase().as_str()) {
            break;
        }
        stem = head;
    }
    let parts: Vec<String> = [stem, what, kind].iter().map(|p| slug(p)).filter(|p| !p.is_empty()).collect();
    let name = if parts.is_empty() { "schedlab".to_owned() } else { parts.join("-") };
    format!("{name}.{}", slug(ending))
}

/// `text` in lowercase letters and digits, every other run of characters
/// one hyphen, at most 60 characters.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let cut: String = out.chars().take(60).collect();
    cut.trim_end_matches('-').to_owned()
}

/// [`trace_context`] of a trace identity as a result document holds it
/// (`name`, `jobs`, `procs`, `options`); `None` when a field is missing.
pub fn identity_context(identity: &TraceDocument) -> Option<String> {
    let (name, jobs, procs, options) = identity.context_fields()?;
    Some(trace_context(name, jobs, procs, &options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{resolve, RunSpec};

    fn title(spec: &str, always: Option<&str>, load: f64) -> String {
        let e = crate::Experiment::of(vec![RunSpec::parse(spec).unwrap()]);
        run_title(&resolve(&e.request(0, None, 0)).unwrap(), always.as_slice(), load)
    }

    /// Runs of one policy that differ in a parameter are each titled with
    /// it, the one at its default included; a run of another policy is not.
    #[test]
    fn titles_name_the_knobs_runs_of_a_policy_differ_in() {
        let specs = ["backfill:depth=0", "backfill", "backfill:depth=all", "easy"];
        let e = crate::Experiment::of(specs.iter().map(|s| RunSpec::parse(s).unwrap()).collect());
        let titles: Vec<String> =
            (0..4).map(|r| run_title(&resolve(&e.request(r, None, 0)).unwrap(), &distinguishing(&e, r), 1.0)).collect();
        assert_eq!(
            titles,
            [
                "Composable backfilling, depth 0",
                "Composable backfilling, depth 1",
                "Composable backfilling, depth all",
                "EASY"
            ]
        );
        assert!(distinguishing(&e, 3).is_empty());
    }

    #[test]
    fn titles_name_the_policy_and_every_setting_off_its_default() {
        assert_eq!(title("easy", None, 1.0), "EASY");
        assert_eq!(title("easy:order=shortest", None, 1.0), "EASY, order shortest");
        assert_eq!(
            title("pv-easy:mode=checkpoint,interval=120,error=20@virtual", None, 1.0),
            "PV-EASY, checkpoint (interval 120 s), virtual (error 20 %)"
        );
        assert_eq!(title("cbf@last", None, 1.2), "Conservative backfilling, last, load factor 1.2");
        assert_eq!(title("fcfs", None, 1.0), "FCFS");
        assert_eq!(title("backfill:order=wfp3,depth=all", None, 1.0), "Composable backfilling, depth all, order wfp3");
        assert_eq!(title("backfill:order=sjf,fill=hold", None, 1.0), "Composable backfilling, order sjf, fill hold");
        let f4 = schedlab_priority::find_preset("f4").unwrap().source.replace(' ', "");
        assert_eq!(title(&format!("backfill:order={f4}"), None, 1.0), "Composable backfilling, order f4");
        assert_eq!(
            title("backfill:order=-(wait + 1e-15) / (log2(procs + 1e-15) * requested * 2)", None, 1.0),
            "Composable backfilling, order -(wait + 1e-15) / (log2(procs + 1e-15) * requested * 2)",
            "a formula whole, so that formulas beginning alike give two titles"
        );
        assert_eq!(
            title("backfill:order=-(wait + 1e-15) / (log2(procs + 1e-15) * requested)", None, 1.0),
            "Composable backfilling, order unicep",
            "a preset's formula typed out is named as the preset"
        );
    }

    #[test]
    fn a_setting_that_does_not_matter_is_left_out_and_a_swept_one_always_shown() {
        // The interval matters only in checkpoint mode.
        assert_eq!(title("pv-easy:interval=120", None, 1.0), "PV-EASY");
        assert_eq!(title("pv-easy:venture=off", None, 1.0), "PV-EASY, venture off");
        assert_eq!(title("easy@virtual", Some("error"), 1.0), "EASY, virtual (error 10 %)");
        assert_eq!(title("pv-easy:fair_slowdown=on", None, 1.0), "PV-EASY, fair-slowdown table");
    }

    #[test]
    fn every_registry_policy_has_a_title_starting_with_its_name() {
        for p in schedlab_policies::REGISTRY {
            assert!(title(p.id, None, 1.0).starts_with(p.name), "{}", p.id);
        }
    }

    #[test]
    fn downloads_are_named_by_trace_what_and_kind() {
        assert_eq!(download_name("kth-sp2-first3000.swf", "easy", "jobs", "csv"), "kth-sp2-first3000-easy-jobs.csv");
        assert_eq!(
            download_name("KTH-SP2-1996-2.1-cln.swf.gz", "easy:order=shortest@virtual", "batsim jobs", "csv"),
            "kth-sp2-1996-2-1-cln-easy-order-shortest-virtual-batsim-jobs.csv"
        );
        assert_eq!(download_name("a.swf", "", "schedule", "png"), "a-schedule.png");
        assert_eq!(download_name("", "", "", "json"), "schedlab.json");
        assert_eq!(download_name("../x/y.json", "chart-mbs", "", "svg"), "y-chart-mbs.svg");
    }

    #[test]
    fn the_context_names_the_trace_and_every_option_off_its_default() {
        let mut o = ReadOptions::default();
        assert_eq!(trace_context("kth.swf", 3000, 100, &o), "kth.swf: 3000 jobs on 100 processors");
        o.load_factor = 1.2;
        o.window = Window::FirstJobs(1000);
        o.oversize = Oversize::Clamp;
        o.queues = Some(vec![1, 2]);
        assert_eq!(
            trace_context("kth.swf", 1000, 100, &o),
            "kth.swf: 1000 jobs on 100 processors, load factor 1.2, first 1000 jobs, jobs wider than the machine clamped, queues 1 2"
        );
        let identity = serde_json::json!({ "name": "a.swf", "jobs": 5, "procs": 8, "options": o });
        let identity: TraceDocument = serde_json::from_value(identity).unwrap();
        assert_eq!(identity_context(&identity).unwrap(), trace_context("a.swf", 5, 8, &o));
        assert_eq!(identity_context(&TraceDocument::none()), None);
    }
}
