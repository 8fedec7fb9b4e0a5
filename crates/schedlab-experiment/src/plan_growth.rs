//! What a run's progress says when its plan grows: the reservation
//! changes so far, and why a policy that keeps a plan does so much work on
//! a backlog, pointing to the bounded reservation depth.

use schedlab_engine::Progress;
use serde::Serialize;

/// The fewest reservation changes before the note shows: below it a run is
/// quick whatever its rate.
pub const PLAN_NOTE_MIN_CHANGES: u64 = 100_000;

/// Reservation changes per completed job from which the note shows. CBF
/// makes 9.3 a job on HPC2N at its own load and depth-8 backfilling under
/// 3; CBF at load ×1.6 makes 164, and on a backlog of 5,000 jobs with
/// users' estimates over 1,000 (BENCHMARKS.md).
pub const PLAN_NOTE_CHANGES_PER_JOB: u64 = 50;

/// Why the plan grows, and what keeps it small.
pub const PLAN_GROWTH_WHY: &str = "This policy re-plans the reservations of the waiting jobs each time a job ends \
     before its estimate; on a backlog this work grows with the queue. A bounded reservation depth (backfill, \
     depth 8) keeps it small.";

/// The note a run's progress carries once its plan grows large.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanGrowth {
    /// "1.2 M plan changes so far".
    pub so_far: String,
    /// One sentence: why, and what to try instead.
    pub why: &'static str,
}

/// The note for a run at `p`, once it has made at least
/// [`PLAN_NOTE_MIN_CHANGES`] reservation changes and
/// [`PLAN_NOTE_CHANGES_PER_JOB`] per completed job.
pub fn plan_growth(p: &Progress) -> Option<PlanGrowth> {
    let changes = p.reservation_changes;
    let grown = changes >= PLAN_NOTE_MIN_CHANGES && changes >= PLAN_NOTE_CHANGES_PER_JOB * p.completed.max(1);
    grown.then(|| PlanGrowth { so_far: format!("{} plan changes so far", short_count(changes)), why: PLAN_GROWTH_WHY })
}

/// A count in at most three significant figures with k, M or billion:
/// 950, 120 k, 1.2 M, 35.4 M, 2.1 billion (rounded down, in integers).
pub fn short_count(n: u64) -> String {
    let (unit, name) = match n {
        0..1_000 => return n.to_string(),
        1_000..1_000_000 => (1_000, " k"),
        1_000_000..1_000_000_000 => (1_000_000, " M"),
        _ => (1_000_000_000, " billion"),
    };
    let whole = n / unit;
    if whole >= 100 {
        format!("{whole}{name}")
    } else {
        let tenths = n % unit / (unit / 10);
        format!("{whole}.{tenths}{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(completed: u64, reservation_changes: u64) -> Progress {
        Progress { now: 0, completed, jobs: 10_000, events: 0, reservation_changes }
    }

    #[test]
    fn counts_are_short() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1_000, "1.0 k"),
            (120_456, "120 k"),
            (1_250_000, "1.2 M"),
            (35_400_000, "35.4 M"),
            (2_100_000_000, "2.1 billion"),
        ];
        for (n, want) in cases {
            assert_eq!(short_count(n), want, "{n}");
        }
    }

    #[test]
    fn the_note_shows_once_the_plan_outgrows_the_jobs() {
        // 100,000 changes and 50 a completed job are both needed.
        assert_eq!(plan_growth(&at(0, 99_999)), None);
        assert_eq!(plan_growth(&at(2_001, 100_000)), None);
        let note = plan_growth(&at(2_000, 100_000)).expect("50 a job");
        assert_eq!(note.so_far, "100 k plan changes so far");
        assert!(note.why.contains("depth 8"));
        assert_eq!(plan_growth(&at(10, 1_234_567)).map(|n| n.so_far), Some("1.2 M plan changes so far".into()));
    }
}
