//! The policy whose choice comes from outside (`policies::directed`, the
//! Gymnasium environment's bridge to the engine): a chooser that always
//! picks the first waiting job is `easy` with EASY backfilling and `fcfs`
//! without, job for job; another chooser changes the schedule as worked
//! out by hand. The same decisions answered from outside the engine's loop
//! (`Steps`, which the environment drives) give the same runs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use schedlab::engine::{self, Control, JobIdx, Preemption, Replay, RunConfig, RunRecord, RuntimeSource, Sim};
use schedlab::policies::directed::{directed, Backfill, Chooser, Decision, Steps};
use schedlab::workload::Trace;

use crate::support::{run, starts, trace, Row};

/// Picks the first offered job, or the last when `last`, counting its
/// decisions in `decisions`.
struct Pick {
    last: bool,
    decisions: Arc<AtomicU64>,
}

impl Chooser for Pick {
    fn choose(&mut self, _: &Sim<'_>, offered: &[JobIdx]) -> Decision {
        self.decisions.fetch_add(1, Ordering::Relaxed);
        Decision::Start(if self.last { offered.len() - 1 } else { 0 })
    }
}

fn config(trace: &Trace) -> RunConfig {
    RunConfig {
        procs: trace.procs,
        source: RuntimeSource::Estimate,
        overrun: Default::default(),
        seed: 0,
        progress_every: 0,
    }
}

fn run_directed(trace: &Trace, last: bool, backfill: Backfill) -> RunRecord {
    run_directed_counting(trace, last, backfill, &Arc::new(AtomicU64::new(0)))
}

fn run_directed_counting(trace: &Trace, last: bool, backfill: Backfill, asked: &Arc<AtomicU64>) -> RunRecord {
    let config = config(trace);
    let chooser = Pick { last, decisions: Arc::clone(asked) };
    let mut policy = directed(Box::new(chooser), 128, backfill, RuntimeSource::Estimate);
    let record = engine::run(&trace.jobs, &config, policy.as_mut(), &mut |_| Control::Continue).expect("the run");
    engine::check(&trace.jobs, &record, &policy.guarantees()).expect("a valid schedule");
    record
}

#[test]
fn picking_the_first_job_is_easy_with_easy_backfilling_and_fcfs_without() {
    let sample = crate::golden_sample();
    for (backfill, policy) in [(Backfill::Easy, "easy"), (Backfill::None, "fcfs")] {
        let want = run(&sample, policy).record;
        let got = run_directed(&sample, false, backfill);
        assert_eq!(got.jobs, want.jobs, "{policy}");
        assert_eq!(got.reservations, want.reservations, "{policy}");
    }
}

// P = 4. Job 1 holds the machine until t=100; job 2 (3 processors, 50 s)
// and job 3 (2 processors, 10 s) wait. FCFS starts 2 at 100 and 3 when 2
// ends (150). Picking the last offered job starts 3 at 100; 2 then does
// not fit (2 free) and waits for 3's end at 110.
const TWO_WAITING: &[Row] = &[(0, 100, 4, 100, 1), (10, 50, 3, 50, 2), (20, 10, 2, 10, 3)];

#[test]
fn the_choice_decides_the_order() {
    let t = trace(4, TWO_WAITING);
    assert_eq!(starts(&run_directed(&t, false, Backfill::None)), [0, 100, 150]);
    assert_eq!(starts(&run_directed(&t, true, Backfill::None)), [0, 110, 100]);
    // With EASY backfilling, the chosen job 3 runs first all the same; job 2
    // is then reserved at 110 and nothing is left to backfill.
    let easy = run_directed(&t, true, Backfill::Easy);
    assert_eq!(starts(&easy), [0, 110, 100]);
    assert_eq!(easy.jobs[1].first_reservation, Some(100), "reserved when first chosen, at job 1's end");
}

/// The run of `Steps` answering each decision as `Pick` would, and how many
/// decisions it asked for.
fn run_stepped(trace: &Trace, last: bool, backfill: Backfill) -> (RunRecord, u64) {
    let replay = Replay::new(&trace.jobs, &config(trace), Preemption::Kill).expect("sorted jobs");
    let mut steps = Steps::new(replay, 128, backfill, RuntimeSource::Estimate);
    let mut decisions = 0;
    let mut waiting = steps.advance().expect("the run");
    while waiting {
        decisions += 1;
        let offered = steps.offered().len();
        waiting = steps.decide(Decision::Start(if last { offered - 1 } else { 0 })).expect("the run");
    }
    assert!(!steps.decide(Decision::Start(0)).expect("nothing to decide"), "no decision after the end");
    let record = steps.finish();
    engine::check(&trace.jobs, &record, &[]).expect("a valid schedule");
    (record, decisions)
}

#[test]
fn stepping_from_outside_gives_the_chooser_policy_s_runs() {
    let sample = crate::golden_sample();
    for backfill in [Backfill::Easy, Backfill::None] {
        for last in [false, true] {
            let asked = Arc::new(AtomicU64::new(0));
            let want = run_directed_counting(&sample, last, backfill, &asked);
            let (got, decisions) = run_stepped(&sample, last, backfill);
            assert_eq!(got.jobs, want.jobs, "{backfill:?}, last {last}");
            assert_eq!(got.reservations, want.reservations, "{backfill:?}, last {last}");
            assert_eq!((got.events, got.passes), (want.events, want.passes));
            assert_eq!(decisions, asked.load(Ordering::Relaxed), "the same decisions");
            // Every job starts after a decision that picked it or, with
            // EASY, by backfilling, so there are at least as many decisions
            // as jobs without backfilling.
            if backfill == Backfill::None {
                assert!(decisions >= sample.jobs.len() as u64);
            }
        }
    }
}

#[test]
fn stepping_the_hand_worked_runs() {
    let t = trace(4, TWO_WAITING);
    // t = 0: job 1 (1 decision); t = 10: job 2 offered, does not fit (1);
    // t = 20: jobs 2 and 3 offered (1); t = 100: job 3 (last) starts, then
    // job 2 alone is offered and does not fit (2); t = 110: job 2 starts
    // (1), nothing waits after it.
    let (record, decisions) = run_stepped(&t, true, Backfill::None);
    assert_eq!(starts(&record), [0, 110, 100]);
    assert_eq!(decisions, 6);
    let (record, decisions) = run_stepped(&t, false, Backfill::None);
    assert_eq!(starts(&record), [0, 100, 150]);
    // t = 0 (1), t = 10 (1), t = 20: job 2 first, does not fit (1), t = 100:
    // job 2 starts, then job 3 does not fit (2), t = 150: job 3 (1).
    assert_eq!(decisions, 6);
}
