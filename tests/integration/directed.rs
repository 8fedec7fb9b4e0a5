//! The policy whose choice comes from outside (`policies::directed`, the
//! Gymnasium environment's bridge to the engine): a chooser that always
//! picks the first waiting job is `easy` with EASY backfilling and `fcfs`
//! without, job for job; another chooser changes the schedule as worked
//! out by hand.

use schedlab::engine::{self, Control, JobIdx, RunConfig, RunRecord, RuntimeSource, Sim};
use schedlab::policies::directed::{directed, Backfill, Chooser, Decision};
use schedlab::workload::Trace;

use crate::support::{run, starts, trace, Row};

/// Picks the offered job at `index` (counted from the end when `last`).
struct Pick {
    last: bool,
    decisions: u64,
}

impl Chooser for Pick {
    fn choose(&mut self, _: &Sim<'_>, offered: &[JobIdx]) -> Decision {
        self.decisions += 1;
        Decision::Start(if self.last { offered.len() - 1 } else { 0 })
    }
}

fn run_directed(trace: &Trace, last: bool, backfill: Backfill) -> RunRecord {
    let config = RunConfig {
        procs: trace.procs,
        source: RuntimeSource::Estimate,
        overrun: Default::default(),
        seed: 0,
        progress_every: 0,
    };
    let mut policy = directed(Box::new(Pick { last, decisions: 0 }), 128, backfill, RuntimeSource::Estimate);
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
