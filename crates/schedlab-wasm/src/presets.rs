//! The experiment model and the presets (SPEC §6) as the page sees them,
//! in plain Rust so they are tested natively too. The page runs the points
//! itself (one worker each); the core plans them and aggregates the results,
//! exactly as `schedlab reproduce` does.

use std::collections::BTreeMap;

use schedlab_experiment::{Experiment, ExperimentResult, Figure, Plan, Point, PointResult, Preset, Section, PRESETS};
use serde::Serialize;
use serde_json::Value;

use crate::session::Error;

/// `presets()`: a preset as the core defines it, each section with the
/// experiment it runs (what `plan` and `experiment_result` take).
#[derive(Debug, Serialize)]
pub struct PresetView {
    pub id: &'static str,
    pub title: &'static str,
    pub reproduces: &'static str,
    pub figure: Figure,
    pub seed_traces: &'static [(&'static str, u32)],
    pub sections: Vec<SectionView>,
}

#[derive(Debug, Serialize)]
pub struct SectionView {
    #[serde(flatten)]
    pub section: &'static Section,
    pub experiment: Experiment,
}

impl From<&'static Preset> for PresetView {
    fn from(p: &'static Preset) -> Self {
        PresetView {
            id: p.id,
            title: p.title,
            reproduces: p.reproduces,
            figure: p.figure,
            seed_traces: p.seed_traces,
            sections: p.sections.iter().map(|s| SectionView { section: s, experiment: s.experiment() }).collect(),
        }
    }
}

pub fn presets() -> Vec<PresetView> {
    PRESETS.iter().map(PresetView::from).collect()
}

/// `plan(experiment)`: the run labels and every point with its run request.
#[derive(Debug, Serialize)]
pub struct PlanView {
    pub labels: Vec<String>,
    pub points: Vec<PlanPoint>,
}

#[derive(Debug, Serialize)]
pub struct PlanPoint {
    #[serde(flatten)]
    pub point: Point,
    pub request: PointRequest,
}

/// A point's request in the shape `session.run` takes.
#[derive(Debug, Serialize)]
pub struct PointRequest {
    pub policy: String,
    pub params: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predictor: Option<String>,
    pub seed: u64,
}

pub fn plan(experiment: Experiment) -> Result<PlanView, Error> {
    let plan = Plan::new(experiment)?;
    let labels = (0..plan.experiment.runs.len()).map(|r| plan.label(r).to_string()).collect();
    let points = plan
        .points
        .iter()
        .zip(&plan.requests)
        .map(|((point, _), r)| PlanPoint {
            point: point.clone(),
            request: PointRequest {
                policy: r.policy.clone(),
                params: r.params.iter().cloned().collect(),
                predictor: r.predictor.clone(),
                seed: r.seed,
            },
        })
        .collect();
    Ok(PlanView { labels, points })
}

/// `experiment_result(experiment, trace_identity, points)`: the points'
/// summaries (mean and 95 % interval per run and sweep value).
pub fn experiment_result(
    experiment: Experiment,
    trace: Value,
    points: Vec<PointResult>,
) -> Result<ExperimentResult, Error> {
    let plan = Plan::new(experiment)?;
    Ok(ExperimentResult::new(&plan, trace, None, points))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{RunMessage, TraceOptions};
    use crate::session::Session;
    use schedlab_engine::Control;

    #[test]
    fn presets_carry_their_sections_experiments() {
        let all = serde_json::to_value(presets()).unwrap();
        assert_eq!(all.as_array().unwrap().len(), PRESETS.len());
        let fa = all.as_array().unwrap().iter().find(|p| p["id"] == "fairness-audit").unwrap();
        assert_eq!(fa["figure"], "table");
        assert_eq!(fa["sections"][0]["runs"], serde_json::json!(["easy", "easy@last"]));
        assert_eq!(fa["sections"][0]["experiment"]["repeat"], 1);
        assert_eq!(fa["sections"][0]["columns"][1]["path"], "fairness.delayed");
    }

    #[test]
    fn a_plan_run_point_by_point_gives_the_experiment_result() {
        let section = &schedlab_experiment::preset("fairness-audit").unwrap().sections[0];
        let p = plan(section.experiment()).unwrap();
        assert_eq!(p.labels, ["easy", "easy@last"]);
        assert_eq!(p.points[1].request.predictor.as_deref(), Some("last"));
        let kth: &[u8] = include_bytes!("../../../samples/kth-sp2-first3000.swf");
        let mut s = Session::open(kth, "kth.swf".into(), TraceOptions::default()).unwrap();
        let points = p
            .points
            .iter()
            .map(|pp| {
                let m = RunMessage {
                    policy: pp.request.policy.clone(),
                    params: Default::default(),
                    predictor: pp.request.predictor.clone(),
                    seed: pp.request.seed,
                    ..RunMessage::default()
                };
                let doc = s.run(&m, &mut |_| Control::Continue).unwrap().document;
                PointResult {
                    point: pp.point.clone(),
                    events: doc.events,
                    elapsed_ms: None,
                    metrics: serde_json::to_value(&doc.metrics).unwrap(),
                }
            })
            .collect();
        let r = experiment_result(section.experiment(), serde_json::json!({}), points).unwrap();
        assert_eq!(r.summary.len(), 2);
        assert_eq!(r.summary[0].mean["fairness"]["delayed"], serde_json::json!(55.0));
        let bad = Experiment { runs: vec!["nope".into()], ..section.experiment() };
        assert!(plan(bad).is_err());
    }
}
