//! Metrics of one finished run (docs/semantics.md, "Metrics"), computed from the trace and the
//! run record alone.
//!
//! Definitions, with τ the bounded-slowdown threshold (10 s by default):
//! - turnaround = end − submit; wait = turnaround − runtime (for a job that
//!   was preempted, wait includes its lost work and overheads);
//! - bounded slowdown BSD = (wait + max(runtime, τ)) / max(runtime, τ);
//! - MBS = mean BSD; MWBS = Σ BSD × size / Σ size (pv-easy formula 2);
//! - slowdown = turnaround / max(runtime, 1);
//! - stretch = (wait + estimate) / estimate (deadline-based-backfilling eq. 2,
//!   "walltime" being the user's estimate);
//! - utilisation = Σ runtime × size / (P × (last end − first submit)),
//!   makespan = last end − first submit (over all jobs of the run);
//! - categories: short if runtime ≤ the runtime limit (1 h), narrow if
//!   size ≤ the size limit (8), as in selective-reservation §4;
//! - strict fairness (`fairness`, the first waiting job only, pv-easy
//!   table 1): delay = first start − fair start for blocked jobs; a blocked
//!   job whose fairness condition first held in the very pass it started has
//!   no recorded fair start and a delay of zero;
//! - full strict fairness (`fairness_all`, every job that waited): see
//!   [`fairness_audit`].
//!
//! Averages are over the measured jobs: all jobs, unless the first and last
//! `skip_percent` % (by submit order) are left out to avoid warm-up and
//! drain effects.

mod catalogue;
mod deadline;
mod ecdf;
mod fair_slowdown;
mod fairness;
mod machine;
mod predictions;
mod preemption;
mod priority;
mod summary;
#[cfg(test)]
mod test_run;
mod violations;

pub use catalogue::{
    column, columns, format_cell, format_mean, glossary_markdown, CategoryField, Column, FairSlowdownField, GroupField,
    Metric, MetricKey, CATEGORY_NAMES, UNDEFINED,
};
pub use deadline::{deadline_metrics, DeadlineMetrics};
pub use ecdf::{downsample_ecdf, wait_ecdf};
pub use fair_slowdown::{fair_slowdown_table, fair_starts, FairSlowdownRow, FairSlowdownTable};
pub use fairness::{fairness_audit, DelayedJob, FairnessAll, FairnessAudit};
pub use machine::{machine_metrics, MachineMetrics, PartitionMetrics, ResourceUse};
pub use predictions::{prediction_metrics, PredictionMetrics};
pub use preemption::PreemptionMetrics;
pub use priority::{priority_metrics, PriorityMetrics};
pub use summary::{
    compute, headline, measured, measured_waits, BlockedGroup, Category, CategoryLimits, Fairness, Headline, Metrics,
    MetricsError, MetricsOptions,
};
pub use violations::ReservationViolations;
