//! What each count of the cleaning report means, in words a page or a
//! report shows next to the number: what happened (lines skipped, jobs
//! dropped, changed, reordered or kept) and why. One entry per key of
//! [`CleaningReport::counts`](crate::CleaningReport::counts), in its order;
//! the crate documentation states the rules themselves.

use serde::Serialize;

/// What a cleaning rule did to the lines or jobs it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// Lines that hold no job, passed over.
    Skipped,
    /// Jobs left out of the simulation.
    Dropped,
    /// Jobs kept with a field changed.
    Changed,
    /// Jobs kept, moved into (submit time, job number) order.
    Reordered,
    /// Jobs kept unchanged, counted for a caveat.
    Kept,
}

impl Effect {
    /// The effect as a report says it (its serialised name): "skipped".
    pub fn word(self) -> &'static str {
        match self {
            Effect::Skipped => "skipped",
            Effect::Dropped => "dropped",
            Effect::Changed => "changed",
            Effect::Reordered => "reordered",
            Effect::Kept => "kept",
        }
    }
}

/// One count of the cleaning report, explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CleaningRule {
    /// The count's key in the report (`unknown_runtime`).
    pub key: &'static str,
    pub effect: Effect,
    /// What is counted: "lines" or "jobs".
    pub counts: &'static str,
    /// A few words: "unknown runtime".
    pub label: &'static str,
    /// One sentence: why the rule exists.
    pub meaning: &'static str,
}

const fn rule(key: &'static str, effect: Effect, label: &'static str, meaning: &'static str) -> CleaningRule {
    let counts = match effect {
        Effect::Skipped => "lines",
        _ => "jobs",
    };
    CleaningRule { key, effect, counts, label, meaning }
}

/// Every cleaning count, explained, in the order the rules apply.
pub const CLEANING_RULES: &[CleaningRule] = &[
    rule("blank_lines", Effect::Skipped, "blank lines", "Empty or whitespace-only lines hold no job."),
    rule(
        "bad_lines",
        Effect::Skipped,
        "malformed lines",
        "Lines that are not job lines of the trace's format (18 numbers in SWF; the header's fields, separated \
         by `|`, in a Slurm dump); the first ones are listed below with what is wrong.",
    ),
    rule(
        "steps_folded",
        Effect::Skipped,
        "job steps folded",
        "Slurm dumps only: a job step line (`1234.batch`, `1234.0`) is part of its job, which its job line \
         already describes.",
    ),
    rule(
        "array_tasks",
        Effect::Kept,
        "array tasks expanded",
        "Slurm dumps only: a record standing for several tasks of a job array (`1234_[1-5]`) became one job per \
         task.",
    ),
    rule(
        "cancelled_before_start",
        Effect::Dropped,
        "cancelled before start",
        "Slurm dumps only: the job was cancelled before it started (no start time, or none elapsed), so it \
         never held a processor.",
    ),
    rule(
        "no_time_limit",
        Effect::Changed,
        "no time limit",
        "Slurm dumps only: the time limit is unlimited or missing, so the job has no estimate (filled in by the \
         `no estimate` rule).",
    ),
    rule(
        "fractional_rounded",
        Effect::Changed,
        "fractional values rounded",
        "A time or size field had a fraction: rounded to whole seconds or processors, which the simulator counts.",
    ),
    rule(
        "unknown_submit",
        Effect::Dropped,
        "unknown submit time",
        "A negative (unknown) submit time cannot be placed on the time line.",
    ),
    rule(
        "unknown_runtime",
        Effect::Dropped,
        "unknown runtime",
        "A negative (unknown) run time leaves the simulator no way to know when the job would end.",
    ),
    rule(
        "unknown_size",
        Effect::Dropped,
        "unknown size",
        "Neither requested nor allocated processors are positive: the job would occupy no processor.",
    ),
    rule(
        "time_out_of_range",
        Effect::Dropped,
        "time out of range",
        "A submit, run or requested time above 2^40 s (about 34,800 years) is taken for garbage.",
    ),
    rule("size_out_of_range", Effect::Dropped, "size out of range", "More than 2^31 processors is taken for garbage."),
    rule("status_filtered", Effect::Dropped, "status filter", "The job's status is one the workload options drop."),
    rule("queue_filtered", Effect::Dropped, "queue filter", "The job's queue is not among the queues kept."),
    rule(
        "partition_filtered",
        Effect::Dropped,
        "partition filter",
        "The job's partition is not among the partitions kept.",
    ),
    rule(
        "no_fit",
        Effect::Dropped,
        "fits no partition",
        "On a machine of nodes, the job can never run in its partition: the partition is unknown, or the job asks \
         for more time, more nodes or more of a resource than the partition has (the reasons are counted apart).",
    ),
    rule(
        "oversized_dropped",
        Effect::Dropped,
        "larger than the machine",
        "The job asks for more processors than the machine has, so it could never start (the oversize option \
         `clamp` runs it on the whole machine instead).",
    ),
    rule(
        "unsorted",
        Effect::Reordered,
        "out of order",
        "Jobs found after a job that should follow them; the trace is replayed in (submit time, job number) order.",
    ),
    rule(
        "window_filtered",
        Effect::Dropped,
        "outside the window",
        "Jobs outside the chosen window (the first N jobs, or a time range).",
    ),
    rule(
        "oversized_clamped",
        Effect::Changed,
        "clamped to the machine",
        "Jobs larger than the machine run on the whole machine (oversize option `clamp`).",
    ),
    rule(
        "no_estimate",
        Effect::Changed,
        "no estimate",
        "No positive requested time: the estimate becomes the run time (at least 1 s), a perfect estimate.",
    ),
    rule(
        "runtime_capped",
        Effect::Changed,
        "runtime capped",
        "The job ran longer than it requested: its run time is cut to the request, as a scheduler kills a job \
         at its walltime.",
    ),
    rule(
        "duplicate_ids",
        Effect::Kept,
        "duplicate job numbers",
        "An earlier kept job has the same number, so per-job outputs name two jobs alike.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CleaningReport;

    /// An effect's word is its serialised name, which the page and the
    /// documents already show.
    #[test]
    fn an_effects_word_is_its_serialised_name() {
        for e in [Effect::Skipped, Effect::Dropped, Effect::Changed, Effect::Reordered, Effect::Kept] {
            assert_eq!(serde_json::to_string(&e).unwrap(), format!("\"{}\"", e.word()));
        }
    }

    #[test]
    fn every_count_of_the_report_is_explained_in_its_order() {
        let slurm = CleaningReport { slurm: Some(Default::default()), ..CleaningReport::default() };
        let keys: Vec<&str> = slurm.counts().into_iter().map(|(k, _)| k).collect();
        let explained: Vec<&str> = CLEANING_RULES.iter().map(|r| r.key).collect();
        assert_eq!(explained, keys);
        for r in CLEANING_RULES {
            assert!(r.meaning.ends_with('.') && !r.label.is_empty(), "{}", r.key);
        }
        let skipped: Vec<&str> = CLEANING_RULES.iter().filter(|r| r.counts == "lines").map(|r| r.key).collect();
        assert_eq!(skipped, ["blank_lines", "bad_lines", "steps_folded"]);
    }
}
