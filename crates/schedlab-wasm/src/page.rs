//! What the page offers beside the experiment pipeline: the context line
//! of a trace (`trace_context`) and the one-click demo (`demo`). Run
//! titles come with the plan (`PlanView::cells`), the results (`titles`,
//! each row's `title`) and the schedule view (`ScheduleInfo::label`).

use schedlab_experiment::{Experiment, Plan, RunSpec};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::session::Error;
use crate::{decode_raw, encode};

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
    let runs =
        DEMO_RUNS.iter().map(|s| RunSpec::parse(s)).collect::<Result<Vec<_>, _>>().map_err(|e| Error(e.to_string()))?;
    let experiment = Experiment { wait_ecdf: true, ..Experiment::of(runs) };
    let titles = Plan::new(experiment.clone())?.titles();
    Ok(Demo { button: format!("Try it: {} on the sample", titles.join(" vs ")), experiment })
}

/// `demo(): Demo`: what the first visit's button runs, and its text.
#[wasm_bindgen(unchecked_return_type = "Demo")]
pub fn demo() -> Result<JsValue, JsError> {
    encode(&demo_of()?)
}

/// The trace's name, jobs and machine size as read, and every workload
/// option off its default: "kth.swf: 3000 jobs on 100 processors, load
/// factor 1.2". The runs header, the table caption and the charts'
/// subtitles all show it.
#[wasm_bindgen]
pub fn trace_context(
    #[wasm_bindgen(unchecked_param_type = "TraceIdentity")] identity: JsValue,
) -> Result<String, JsError> {
    let identity: schedlab_experiment::TraceDocument = decode_raw(identity, "identity")?;
    schedlab_experiment::identity_context(&identity)
        .ok_or_else(|| JsError::new("identity: expected a trace identity with name, jobs, procs and options"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_demo_runs_three_policies_named_by_their_titles() {
        let d = super::demo_of().unwrap();
        assert_eq!(d.button, "Try it: EASY vs Conservative backfilling vs PV-EASY on the sample");
        assert_eq!(d.experiment.runs.len(), 3);
        assert!(d.experiment.wait_ecdf);
    }
}
