use crate::{sim::EngineError, JobIdx, Preemption, Sim};

/// A scheduling policy. The engine calls [`Policy::schedule`] once after all
/// events of a second have been applied; the policy starts jobs and records
/// reservations through [`Sim`]. A policy keeps whatever plan it needs
/// (a profile, queues) in itself and never reaches into another policy.
pub trait Policy {
    /// One scheduling pass at `sim.now()`.
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError>;

    /// The guarantees the run checker must verify for this policy as
    /// configured (they may depend on the runtime source).
    fn guarantees(&self) -> Vec<Guarantee>;

    /// What a preemption costs, for policies that preempt (the engine applies
    /// the model; suspend mode also slows every job).
    fn preemption(&self) -> Preemption {
        Preemption::Kill
    }

    /// Per job (in priority order), the deadline the policy gave it, for
    /// policies that have deadlines (DBF's deadline-driven jobs); read by
    /// the metrics after the run. `None` for policies without deadlines.
    fn deadlines(&self) -> Option<Vec<Option<Deadline>>> {
        None
    }

    /// Per job (in priority order), whether the policy gave it a higher
    /// priority than the rest, for policies whose priorities differ by job
    /// (slack's every-k-th scenario); read by the metrics after the run to
    /// compare the two classes. `None` when every job has the same priority.
    fn high_priority_jobs(&self) -> Option<Vec<bool>> {
        None
    }
}

/// A deadline a policy gave a job, and which term of its rule set it, so
/// that violations can be told apart by kind (a deadline rule of the form
/// submit + max(minimum, factor × estimate), DBF's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub at: crate::Time,
    pub kind: DeadlineKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlineKind {
    /// The minimum window after submission was the larger term (or the two
    /// were equal).
    Minimum,
    /// The factor times the estimate was larger than the minimum window.
    Scaled,
}

/// What changed since the previous pass, in event order.
#[derive(Clone, Debug, Default)]
pub struct Happened {
    /// Jobs that completed (or were killed at their estimate).
    pub completed: Vec<JobIdx>,
    /// Jobs that arrived, in priority order.
    pub arrived: Vec<JobIdx>,
    /// Tags of the policy's timers that fired, in the order they were set.
    pub timers: Vec<u64>,
    /// Running jobs that outlived their prediction; their expected end is now
    /// their start plus their estimate (docs/semantics.md, "Runtime predictors").
    pub overdue: Vec<JobIdx>,
}

impl Happened {
    pub(crate) fn clear(&mut self) {
        self.completed.clear();
        self.arrived.clear();
        self.timers.clear();
        self.overdue.clear();
    }
}

/// A property of a policy's schedules that the run checker verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// Jobs start in priority order (FCFS).
    PriorityOrder,
    /// No job starts later than the first reservation recorded for it (EASY's
    /// blocked head and every CBF job, with runtimes that never fall short).
    NoLaterThanFirstReservation,
    /// The reservations a pass records or moves still fit, at the end of
    /// that pass, beside every job then running (those it backfilled
    /// included) and each other: no job backfilled at a pass delays a
    /// reservation made at it (composable backfilling, which plans again at
    /// every pass). Jobs hold their processors from their start for their
    /// recorded prediction, which bounds their runtime only with runtimes
    /// that never fall short, so only then is it declared. A reservation
    /// a pass keeps unchanged is not in the log again; it was checked at
    /// the pass that recorded it. Within one second, which can hold several
    /// passes, each job's last change counts.
    ReservationsFitTheirPass,
    /// Strict fairness (PV-EASY): at no time does the first waiting job stay
    /// waiting while idle processors plus those held by running jobs of lower
    /// priority would suffice for it.
    StrictFairness,
}
