//! Experiments on a session's trace: the plan checked once (with the one
//! guard that the experiment reads the trace as the session did), points
//! run one at a time or all, and the summary.

use schedlab_engine::{Control, Progress};
use schedlab_experiment::{point_result, Experiment, ExperimentResult, Phase, Plan, Point, PointResult, Shard};

use crate::{ErrorKind, Observer, Run, Session, SessionError};

/// An experiment checked without a trace (`Plan::new`): for a form that
/// lists its points before a trace is loaded, and for the summary of
/// points that ran elsewhere (in the page's workers, in shards).
pub fn plan(experiment: Experiment) -> Result<Plan, SessionError> {
    Ok(Plan::new(experiment)?)
}

/// The result of `experiment` from points that ran elsewhere, on the trace
/// `trace` identifies.
pub fn experiment_result(
    experiment: Experiment,
    trace: schedlab_experiment::TraceDocument,
    points: Vec<PointResult>,
) -> Result<ExperimentResult, SessionError> {
    Ok(ExperimentResult::new(&plan(experiment)?, trace, None, points))
}

/// The workload options without the host's job limit, which never changes
/// a result and so never makes two readings of a trace differ.
fn reading(w: &schedlab_experiment::WorkloadOptions) -> schedlab_experiment::WorkloadOptions {
    schedlab_experiment::WorkloadOptions { max_jobs: None, ..w.clone() }
}

impl Session {
    /// Checks `experiment` (`Plan::new`) for this trace: its workload
    /// options must be those the trace was read with, since they decide the
    /// jobs every run replays.
    pub fn plan(&self, experiment: Experiment) -> Result<Plan, SessionError> {
        if reading(&experiment.workload) != reading(&self.workload) {
            return Err(SessionError::new(
                ErrorKind::Experiment,
                "the experiment reads the trace with other workload options than this trace was read with: \
                 load the trace with the experiment's options",
            ));
        }
        plan(experiment)
    }

    /// Point `index` of `plan`, or the error that says how many it has.
    pub fn point(&self, plan: &Plan, index: u64) -> Result<Point, SessionError> {
        plan.point(index).ok_or_else(|| {
            SessionError::new(ErrorKind::State, format!("point {index}: the experiment has {} points", plan.len()))
        })
    }

    /// Runs `point` of `plan` (a CBF reference run first when its policy
    /// needs one; `observer` sees which phase).
    pub fn run_point(&self, plan: &Plan, point: &Point, observer: &mut Observer<'_>) -> Result<Run, SessionError> {
        let settings = plan.settings(point)?;
        self.run_settings(settings, plan.title(point.run, point.value), observer)
    }

    /// The result of `point`, which ran to `run`.
    pub fn point_result(&self, plan: &Plan, point: &Point, run: &Run) -> Result<PointResult, SessionError> {
        Ok(point_result(&self.loaded.trace, plan, point, &run.settings, &run.outcome)?)
    }

    /// The experiment's result from its points' (of `shard`, or all).
    pub fn experiment_result(
        &self,
        plan: &Plan,
        shard: Option<Shard>,
        points: Vec<PointResult>,
    ) -> Result<ExperimentResult, SessionError> {
        Ok(ExperimentResult::new(plan, self.trace_document()?, shard, points))
    }

    /// Every point of `plan` in `shard` (all without one), one after the
    /// other, and their summary. `observer` is told each point's index as
    /// it starts (without a report: a host's chance to cancel between
    /// points, since a short run may make no report at all) and with each
    /// of its progress reports; the first failed point fails the whole,
    /// its message prefixed with the point's label.
    pub fn run_experiment(
        &self,
        plan: &Plan,
        shard: Option<Shard>,
        observer: &mut dyn FnMut(u64, Option<(Phase, Progress)>) -> Control,
    ) -> Result<ExperimentResult, SessionError> {
        let mut points = Vec::new();
        for point in plan.points(shard) {
            if observer(point.index, None) == Control::Cancel {
                let message = format!("the experiment was cancelled before point {}", point.index);
                return Err(SessionError::new(ErrorKind::Cancelled, message));
            }
            let run = self
                .run_point(plan, &point, &mut |phase, p| observer(point.index, Some((phase, p))))
                .map_err(|e| e.context(plan.label(point.run)))?;
            points.push(self.point_result(plan, &point, &run)?);
        }
        self.experiment_result(plan, shard, points)
    }
}
