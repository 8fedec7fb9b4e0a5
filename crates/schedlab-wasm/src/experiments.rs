//! Experiments and presets as the page sees them, in plain Rust so they
//! are tested natively too. The page's workers run the points (each worker
//! keeps its session, so the trace is parsed once); the core plans them,
//! summarises them, draws their figures and writes their share links,
//! exactly as the command line does.

use schedlab_charts::Figure;
use schedlab_experiment::link::{self, Link};
use schedlab_experiment::{
    preset, Experiment, ExperimentResult, Plan, Point, PointResult, Preset, Reproduction, Scope, Section,
    TraceDocument, WorkloadOptions, PRESETS,
};
use serde::Serialize;

use schedlab_session::ErrorKind;

use crate::session::Error;

/// Most points `plan` lists: a page runs an experiment in its own
/// workers, and 100,000 runs is already days of a browser's time.
pub const MAX_LISTED_POINTS: u64 = 100_000;

/// `presets()`: every preset of the core (`schedlab reproduce`).
pub fn presets() -> &'static [Preset] {
    PRESETS
}

fn find(id: &str) -> Result<&'static Preset, Error> {
    preset(id).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        Error::new(ErrorKind::Experiment, format!("unknown preset `{id}` (known: {})", known.join(", ")))
    })
}

fn section(p: &'static Preset, index: usize) -> Result<&'static Section, Error> {
    p.sections.get(index).ok_or_else(|| {
        Error::new(ErrorKind::Experiment, format!("preset `{}` has {} sections", p.id, p.sections.len()))
    })
}

/// `preset_runs(id)`: how many runs the preset makes, all sections together.
pub fn preset_runs(id: &str) -> Result<u64, Error> {
    find(id)?.runs().map_err(|e| Error::new(ErrorKind::Experiment, e.to_string()))
}

/// `preset_experiment(id, section, workload, trace_name?)`: a preset
/// section's experiment on a trace read with the user's workload options
/// (the section's load factor multiplies theirs), on the paper's machine
/// size when the trace is the paper's and the user gave none.
pub fn preset_experiment(
    id: &str,
    index: usize,
    workload: &WorkloadOptions,
    trace_name: Option<&str>,
) -> Result<Experiment, Error> {
    let preset = find(id)?;
    let (workload, _) = preset.workload_for(trace_name.unwrap_or(""), workload);
    Ok(section(preset, index)?.experiment(&workload))
}

/// `preset_notes(id, trace_name, workload)`: what the page says beside a
/// preset run on that trace: the paper's machine size applied, and another
/// trace than the paper's, in that order.
pub fn preset_notes(id: &str, trace_name: &str, workload: &WorkloadOptions) -> Result<Vec<String>, Error> {
    let preset = find(id)?;
    let (_, size) = preset.workload_for(trace_name, workload);
    Ok(size.into_iter().map(|n| format!("{trace_name}: {n}.")).chain(preset.paper_note(trace_name)).collect())
}

/// `plan(experiment)`: the run labels and every point.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlanView {
    pub labels: Vec<String>,
    /// The runs' titles for people (`Plan::titles`).
    pub titles: Vec<String>,
    /// Every (run, sweep value) in point order, named for people and by
    /// its spec: the rows of the runs list and the schedule view's choices.
    pub cells: Vec<PlanCell>,
    /// Whether the sweep applies to each run.
    pub swept: Vec<bool>,
    /// The sweep's values as text (a point's `value` indexes them).
    pub values: Vec<String>,
    pub points: Vec<Point>,
}

/// One (run, sweep value) of a plan: its points are its repetitions.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlanCell {
    pub run: usize,
    /// The index of the sweep value; `null` for a run the sweep does not apply to.
    pub value: Option<usize>,
    /// The title for people, with the sweep value (`Plan::title`).
    pub title: String,
    /// The spec, with `PARAM=VALUE` for a sweep value (tooltips, file names).
    pub label: String,
}

fn plan_cells(plan: &Plan) -> Vec<PlanCell> {
    let param = plan.experiment().sweep.as_ref().map(|s| s.param.as_str());
    plan.cells()
        .map(|(run, value)| {
            let label = match (param, plan.value_text(value)) {
                (Some(p), Some(v)) => format!("{} {p}={v}", plan.label(run)),
                _ => plan.label(run),
            };
            PlanCell { run, value, title: plan.title(run, value), label }
        })
        .collect()
}

/// A plan's error in the page's terms where the command line's would not
/// fit: a swept parameter also set in a global knob or a policy card.
fn page_terms(e: &Experiment, error: schedlab_session::SessionError) -> Error {
    let Some(param) = error.swept_and_set() else { return error.into() };
    let name = e
        .runs
        .iter()
        .flat_map(|r| r.params_taken())
        .find(|s| s.key == param)
        .map_or_else(|| param.to_owned(), |s| s.name.to_owned());
    if e.params.contains(param) {
        return Error::new(
            ErrorKind::Experiment,
            format!("{name} is swept and also set in its global knob: clear the {name} knob, or stop sweeping it."),
        );
    }
    match e.runs.iter().position(|r| r.params.contains(param)) {
        Some(run) => Error::new(
            ErrorKind::Experiment,
            format!(
                "{name} is swept and also set in card {} ({}): clear it there, or stop sweeping it.",
                run + 1,
                e.runs[run].label()
            ),
        ),
        None => error.into(),
    }
}

pub fn plan(experiment: Experiment) -> Result<PlanView, Error> {
    let plan = schedlab_session::plan(experiment.clone()).map_err(|e| page_terms(&experiment, e))?;
    if plan.len() > MAX_LISTED_POINTS {
        return Err(Error::new(
            ErrorKind::Limit,
            format!(
                "the experiment has {} runs; the page runs at most {MAX_LISTED_POINTS} (use `schedlab sweep --shard` on a cluster)",
                plan.len()
            ),
        ));
    }
    let swept = (0..plan.experiment().runs.len()).map(|r| plan.is_swept(r)).collect();
    let count = plan.experiment().sweep.as_ref().map_or(Ok(0), schedlab_experiment::Sweep::count)?;
    let values = (0..count).filter_map(|i| plan.value_text(Some(i))).collect();
    Ok(PlanView {
        labels: plan.labels(),
        titles: plan.titles(),
        cells: plan_cells(&plan),
        swept,
        values,
        points: plan.points(None).collect(),
    })
}

/// The points' summaries (mean and 95 % interval per run and sweep value).
pub fn experiment_result(
    experiment: Experiment,
    trace: TraceDocument,
    points: Vec<PointResult>,
) -> Result<ExperimentResult, Error> {
    Ok(schedlab_session::experiment_result(experiment, trace, points)?)
}

/// `experiment_result(experiment, identity, points)`: the result as the
/// text `schedlab sweep --json` writes, from the JSON texts of the trace's
/// identity and of the points. Texts, not JavaScript objects, so that
/// every number keeps its JSON form (`100.0` stays a float, which a
/// JavaScript number would turn into `100`) and the page's export equals
/// the command line's byte for byte.
pub fn experiment_result_text(experiment: Experiment, identity: &str, points: &[String]) -> Result<String, Error> {
    let trace: TraceDocument = serde_json::from_str(identity)?;
    let points = points.iter().map(|p| serde_json::from_str(p)).collect::<Result<Vec<PointResult>, _>>()?;
    pretty(&experiment_result(experiment, trace, points)?)
}

/// `reproduction(id, sections)`: the text `schedlab reproduce --json`
/// writes, from the JSON texts of the preset's section results (as
/// `experiment_result` gave them).
pub fn reproduction_text(id: &str, sections: &[String]) -> Result<String, Error> {
    let p = find(id)?;
    let results = sections.iter().map(|s| serde_json::from_str(s)).collect::<Result<Vec<ExperimentResult>, _>>()?;
    let got = results.len();
    let doc = Reproduction::new(p, results).ok_or_else(|| {
        Error::new(ErrorKind::Experiment, format!("preset `{id}` has {} sections, not {got}", p.sections.len()))
    })?;
    pretty(&doc)
}

/// The document's text, from the core's one serialiser (the command line's too).
fn pretty<T: Serialize>(value: &T) -> Result<String, Error> {
    Ok(schedlab_experiment::document_text(value, "result")?)
}

/// `param_scope(experiment)`: which parameters reach which runs (the
/// forms' fields and global knobs).
pub fn param_scope(experiment: &Experiment) -> Scope {
    schedlab_experiment::scope(experiment)
}

/// `figures(result)`: the charts of an experiment the form ran.
pub fn figures(result: &ExperimentResult) -> Vec<Figure> {
    schedlab_charts::figures(result)
}

/// `preset_figures(id, section, result)`: a preset section's figures.
pub fn preset_figures(id: &str, index: usize, result: &ExperimentResult) -> Result<Vec<Figure>, Error> {
    let p = find(id)?;
    section(p, index)?;
    Ok(schedlab_charts::preset_figures(p, index, result))
}

/// `encode_link(link)`: the fragment (without `#`) of a share link.
pub fn encode_link(l: &Link) -> Result<String, Error> {
    link::encode(l).map_err(|e| Error::new(ErrorKind::Link, e.0))
}

/// `decode_link(fragment)`: a share link's experiment, trace and preset
/// (`#v2=` links and the first page's `#v1=` links), checked.
pub fn decode_link(fragment: &str) -> Result<Link, Error> {
    link::decode(fragment).map_err(|e| Error::new(ErrorKind::Link, e.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::TraceOptions;
    use crate::session::Session;
    use schedlab_engine::Control;

    #[test]
    fn a_swept_parameter_set_elsewhere_is_named_in_the_pages_terms() {
        let mut e = Experiment::of(vec![schedlab_experiment::RunSpec::parse("easy@virtual").unwrap()]);
        e.sweep = Some(schedlab_experiment::Sweep::parse("error=0,20").unwrap());
        e.params.set("error", "5");
        let knob = plan(e.clone()).unwrap_err().message;
        assert_eq!(knob, "Prediction error is swept and also set in its global knob: clear the Prediction error knob, or stop sweeping it.");
        e.params = Default::default();
        e.runs[0].params.set("error", "5");
        let card = plan(e).unwrap_err().message;
        assert_eq!(card, "Prediction error is swept and also set in card 1 (easy:error=5@virtual): clear it there, or stop sweeping it.");
    }

    #[test]
    fn the_plan_names_every_cell_by_its_title_and_its_spec() {
        let mut e = Experiment::of(vec![
            schedlab_experiment::RunSpec::parse("easy@virtual").unwrap(),
            schedlab_experiment::RunSpec::parse("cbf").unwrap(),
        ]);
        e.sweep = Some(schedlab_experiment::Sweep::parse("error=0,20").unwrap());
        let cells: Vec<(String, String)> = plan(e).unwrap().cells.into_iter().map(|c| (c.title, c.label)).collect();
        let want = [
            ("EASY, virtual (error 0 %)", "easy@virtual error=0"),
            ("EASY, virtual (error 20 %)", "easy@virtual error=20"),
            ("Conservative backfilling", "cbf"),
        ];
        assert_eq!(cells, want.map(|(t, l)| (t.to_owned(), l.to_owned())));
    }

    #[test]
    fn presets_and_their_experiments() {
        let all = serde_json::to_value(presets()).unwrap();
        assert_eq!(all.as_array().unwrap().len(), PRESETS.len());
        let fa = all.as_array().unwrap().iter().find(|p| p["id"] == "fairness-audit").unwrap();
        assert_eq!(fa["figures"], serde_json::json!([]));
        assert_eq!(fa["sections"][0]["runs"], serde_json::json!(["easy", "easy@last"]));
        assert_eq!(fa["sections"][0]["columns"][1], "fairness.delayed");
        let user = WorkloadOptions { load_factor: Some(2.0), ..WorkloadOptions::default() };
        let high = preset_experiment("selective", 1, &user, None).unwrap();
        assert_eq!(high.workload.load_factor, Some(2.0 * 1.3));
        assert!(preset_experiment("selective", 2, &user, None).unwrap_err().message.contains("has 2 sections"));
        assert!(preset_experiment("nope", 0, &user, None).unwrap_err().message.starts_with("unknown preset `nope`"));
    }

    /// The texts the page exports are the command line's: the result of
    /// the points' JSON texts prints as the result computed directly, a
    /// whole float such as a utilisation of 1.0 keeping its decimal point.
    #[test]
    fn results_from_json_texts_print_as_the_command_line_prints_them() {
        let experiment = preset_experiment("fairness-audit", 0, &WorkloadOptions::default(), None).unwrap();
        let kth: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");
        let mut s = Session::open(kth, "kth.swf".into(), TraceOptions::default()).unwrap();
        let plan = schedlab_session::plan(experiment.clone()).unwrap();
        let points: Vec<PointResult> =
            (0..plan.len()).map(|i| s.run_point(&experiment, i, &mut |_, _| Control::Continue).unwrap()).collect();
        let texts: Vec<String> = points.iter().map(|p| serde_json::to_string(p).unwrap()).collect();
        let identity = serde_json::to_string(s.identity()).unwrap();
        let trace = TraceDocument::of(s.identity()).unwrap();
        let direct = ExperimentResult::new(&plan, trace, None, points);
        let want = format!("{}\n", serde_json::to_string_pretty(&direct).unwrap());
        let text = experiment_result_text(experiment, &identity, &texts).unwrap();
        assert_eq!(text, want);
        assert!(text.contains(".0,\n") || text.contains(".0\n"), "whole floats keep their decimal point");
        let doc = reproduction_text("fairness-audit", std::slice::from_ref(&text)).unwrap();
        let want = Reproduction::new(preset("fairness-audit").unwrap(), vec![direct]).unwrap();
        assert_eq!(doc, format!("{}\n", serde_json::to_string_pretty(&want).unwrap()));
        assert!(reproduction_text("fairness-audit", &[]).unwrap_err().message.contains("has 1 sections, not 0"));
        // The point kept its run: the per-job table of the last point.
        assert_eq!(s.jobs_csv().unwrap().lines().count(), 3001);
    }

    #[test]
    fn a_plan_run_point_by_point_gives_the_experiment_result() {
        let experiment = preset_experiment("fairness-audit", 0, &WorkloadOptions::default(), None).unwrap();
        let p = plan(experiment.clone()).unwrap();
        assert_eq!(p.labels, ["easy", "easy@last"]);
        assert!(p.values.is_empty(), "no sweep, no values");
        // A preset's sweep values, as text, in order.
        let swept = plan(preset_experiment("prediction-error", 0, &WorkloadOptions::default(), None).unwrap()).unwrap();
        let (_, values) = preset("prediction-error").unwrap().sections[0].sweep.unwrap();
        assert_eq!(swept.values, values);
        let kth: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");
        let mut s = Session::open(kth, "kth.swf".into(), TraceOptions::default()).unwrap();
        let points = p
            .points
            .iter()
            .map(|pt| s.run_point(&experiment, pt.index, &mut |_, _| Control::Continue).unwrap())
            .collect();
        let r = experiment_result(experiment.clone(), TraceDocument::none(), points).unwrap();
        assert_eq!(r.summary.len(), 2);
        // EASY delays 55 blocked jobs past their fair start on the sample
        // (the strict-fairness audit, as `schedlab run --policy easy` prints).
        let delayed = schedlab_metrics::MetricKey::Fixed(schedlab_metrics::Metric::FairnessDelayed);
        assert_eq!(r.summary[0].mean.value(delayed), schedlab_experiment::MetricValue::Number(55.0));
        assert!(preset_figures("fairness-audit", 0, &r).unwrap().is_empty(), "a table only");
        let bad = Experiment { runs: vec![schedlab_experiment::RunSpec::parse("nope").unwrap()], ..experiment.clone() };
        assert!(plan(bad).is_err());
        let other =
            Experiment { workload: WorkloadOptions { machine_size: Some(50), ..Default::default() }, ..experiment };
        assert!(s.run_point(&other, 0, &mut |_, _| Control::Continue).unwrap_err().message.contains("workload"));
    }
}
