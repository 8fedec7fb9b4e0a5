//! What preempting a running job costs (pv-easy-journal §4.2, §5.3).
//!
//! A job's *progress* is the useful work it has done, in seconds of its
//! runtime; it completes when its progress reaches its runtime (which is at
//! most its estimate, so the kill time stays the user's estimate of
//! progress). A *segment* is one stretch of wall time a job holds its
//! processors, from a start to a completion or a preemption. The model says
//! how long a segment takes to reach a given progress, and how much progress
//! survives a preemption:
//!
//! - `Kill` (kill/restart): nothing survives; a restarted job starts over.
//! - `Checkpoint { interval, cost }` (CP-PV-EASY): the job writes a
//!   checkpoint each time its progress reaches a multiple of `interval`
//!   (none at completion), each taking `cost` seconds of wall time during
//!   which it makes no progress. A preempted job keeps the progress of its
//!   last *completed* checkpoint and, when it resumes from a checkpoint
//!   (progress > 0), first spends `cost` seconds restarting. The journal
//!   folds checkpoint and restart costs into one TimeCost; we charge it per
//!   checkpoint and per restart, as docs/semantics.md, "Policies and preemption" says.
//! - `Suspend { slowdown_ppm, cost }` (VM-PV-EASY): every job runs on the
//!   virtualised platform, `slowdown` slower (wall = ⌈work × (1 + s)⌉); a
//!   suspended job keeps all its progress and spends `cost` seconds resuming.
//!
//! All arithmetic is on integers so every platform agrees.

use serde::Serialize;

use crate::Time;

/// One million: `slowdown_ppm` is in parts per million of the work.
const PPM: i128 = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum Preemption {
    Kill,
    Checkpoint { interval: Time, cost: Time },
    Suspend { slowdown_ppm: i64, cost: Time },
}

impl Preemption {
    /// Wall seconds of the setup at the start of a segment that resumes
    /// from `saved` progress (`resumed`: the job was preempted before).
    pub fn setup(&self, saved: Time, resumed: bool) -> Time {
        match *self {
            Self::Kill => 0,
            Self::Checkpoint { cost, .. } => {
                if saved > 0 {
                    cost
                } else {
                    0
                }
            }
            Self::Suspend { cost, .. } => {
                if resumed {
                    cost
                } else {
                    0
                }
            }
        }
    }

    /// Wall seconds a segment needs to take a job from `saved` progress to
    /// completion at `target` progress, setup included. With the runtime as
    /// `target` this is the segment's real length; with a prediction, its
    /// expected length.
    pub fn wall(&self, saved: Time, target: Time, resumed: bool) -> Time {
        let work = (target - saved).max(0);
        let body = match *self {
            Self::Kill => work,
            Self::Checkpoint { interval, cost } => work + cost * checkpoints_between(saved, target, interval),
            Self::Suspend { slowdown_ppm, .. } => slowed(work, slowdown_ppm),
        };
        self.setup(saved, resumed) + body
    }

    /// The progress that survives a preemption after `elapsed` wall seconds
    /// of a segment that started from `saved` progress.
    pub fn saved_after(&self, saved: Time, elapsed: Time, runtime: Time, resumed: bool) -> Time {
        let working = elapsed - self.setup(saved, resumed);
        if working <= 0 {
            return if matches!(self, Self::Kill) { 0 } else { saved };
        }
        match *self {
            Self::Kill => 0,
            Self::Checkpoint { interval, cost } => {
                let done = working / (interval + cost);
                let last = last_checkpoint(runtime, interval);
                (saved + done * interval).min(last.max(saved))
            }
            Self::Suspend { slowdown_ppm, .. } => {
                let work = (i128::from(working) * PPM / (PPM + i128::from(slowdown_ppm))) as Time;
                (saved + work).min(runtime)
            }
        }
    }
}

/// ⌈work × (1 + ppm / 10⁶)⌉.
fn slowed(work: Time, ppm: i64) -> Time {
    let num = i128::from(work) * (PPM + i128::from(ppm));
    ((num + PPM - 1) / PPM) as Time
}

/// Checkpoints at multiples of `interval` strictly between `from` and `to`
/// (none at completion, which is at `to`).
fn checkpoints_between(from: Time, to: Time, interval: Time) -> Time {
    if to <= from || interval <= 0 {
        return 0;
    }
    // Multiples k·interval with from < k·interval < to.
    let below_upper = (to - 1) / interval;
    let up_to_from = from / interval;
    (below_upper - up_to_from).max(0)
}

/// The progress of the last checkpoint a job of `runtime` can write.
fn last_checkpoint(runtime: Time, interval: Time) -> Time {
    if runtime <= 0 || interval <= 0 {
        return 0;
    }
    ((runtime - 1) / interval) * interval
}

#[cfg(test)]
mod tests {
    use super::*;

    const CP: Preemption = Preemption::Checkpoint { interval: 3600, cost: 60 };
    const VM: Preemption = Preemption::Suspend { slowdown_ppm: 50_000, cost: 60 };

    #[test]
    fn kill_loses_everything() {
        assert_eq!(Preemption::Kill.wall(0, 500, true), 500);
        assert_eq!(Preemption::Kill.saved_after(0, 400, 500, false), 0);
    }

    /// A 10,000 s job with hourly checkpoints of 60 s writes checkpoints at
    /// progress 3600 and 7200 (not at 10,000): 10,000 + 2 × 60 = 10,120 s.
    #[test]
    fn checkpoint_wall_time_counts_each_checkpoint() {
        assert_eq!(CP.wall(0, 10_000, false), 10_120);
        // Exactly two hours of work: one checkpoint, at 3600 (none at 7200,
        // which is completion).
        assert_eq!(CP.wall(0, 7200, false), 7260);
        // Resuming from 3600: a 60 s restart, 6400 s of work, one checkpoint
        // at 7200: 6520 s.
        assert_eq!(CP.wall(3600, 10_000, true), 6520);
    }

    /// Preempted after 5000 s of wall time, the job above has done one full
    /// cycle (3600 s of work + 60 s of checkpoint = 3660 s) and is 1340 s
    /// into the next: it keeps 3600. Preempted at 3659 s, the checkpoint is
    /// unfinished and it keeps nothing.
    #[test]
    fn checkpoint_keeps_the_last_completed_checkpoint() {
        assert_eq!(CP.saved_after(0, 5000, 10_000, false), 3600);
        assert_eq!(CP.saved_after(0, 3659, 10_000, false), 0);
        assert_eq!(CP.saved_after(0, 3660, 10_000, false), 3600);
        // Resumed from 3600: 60 s restart, then a cycle of 3660 s → 7200.
        assert_eq!(CP.saved_after(3600, 60 + 3660, 10_000, true), 7200);
        // During the restart nothing more is saved.
        assert_eq!(CP.saved_after(3600, 30, 10_000, true), 3600);
        // No checkpoint at or past completion: a 7200 s job keeps 3600 at most.
        assert_eq!(CP.saved_after(0, 7300, 7200, false), 3600);
    }

    /// 1000 s of work 5 % slower is 1050 s; 1001 s is ⌈1051.05⌉ = 1052 s.
    /// A resumed job pays 60 s first.
    #[test]
    fn suspend_slows_every_job_and_keeps_progress() {
        assert_eq!(VM.wall(0, 1000, false), 1050);
        assert_eq!(VM.wall(0, 1001, false), 1052);
        assert_eq!(VM.wall(400, 1000, true), 60 + 630);
        assert_eq!(VM.saved_after(0, 525, 1000, false), 500);
        assert_eq!(VM.saved_after(400, 60 + 105, 1000, true), 500);
    }
}
