//! Slack-based priority backfilling: hand-computed schedules (a jump
//! ahead paid for by a delayed job's slack, the same jump rejected because
//! it would overdraw that slack, an early end), the calibrated AWT, and the
//! slack guarantee on random traces.

use proptest::prelude::*;
use schedlab::engine::Time;
use schedlab::workload::Trace;

use crate::properties::{run_checked, traces};
use crate::support::{run, starts, trace, Row};

// P = 10, AWT = 99 given, all weights 1, equal priorities (UP = PP = 0).
// 1 takes the machine [0,100); placed at once, SP = 0.
// 2 (whole machine, 100 s) arrives at 1: the only place is [100,200),
// price (100 − 1) × 10 = 990. SP = min(99 / (2 × 99), 1) = 1/2, so
// p2 = 1/6 and s0 = (5/6) × SF × 99 (247.5 with SF = 3).
// 3 (whole machine, 10 s) arrives at 2, p3 = 1/6 on arrival:
// - CBF placement after 2: [200,210), price (200 − 2) × 10 = 1980;
// - candidate slot now (2): 2 is taken out, 3 gets [100,110) (own term
//   98 × 10 = 980) and 2 goes back at [110,210): t2 = +10, cost
//   10 × 10 × (p2 / p3 = 1) × (s0 / s = 1) = 100. Price 1080 < 1980.
// With SF = 3 the move is within 2's slack (10 ≤ 247.5): 3 jumps ahead.
// With SF = 0.1, s0 = (5/6) × 0.1 × 99 = 8.25 < 10: the schedule would
// overdraw 2's slack, is rejected, and 3 waits until 200 as under CBF.
const JUMP: &[Row] = &[(0, 100, 10, 100, 1), (1, 100, 10, 100, 2), (2, 10, 10, 10, 3)];

// The same, but 1 ends at 50 (estimate 100). Remove step at 50, after 3
// jumped (3 at [100,110), 2 at [110,210), s2 = 247.5 − 10 = 237.5):
// full compression in planned-start order moves 3 to [50,60) (t = −50,
// cost −10 × 50 = −500) and 2 to [60,160) (t = −50, cost
// −10 × 50 × 247.5/237.5 ≈ −521.1): price ≈ −1021 < 0 (staying put).
const EARLY: &[Row] = &[(0, 50, 10, 100, 1), (1, 100, 10, 100, 2), (2, 10, 10, 10, 3)];

// Priorities decide: 3 now runs 150 s. Jumping ahead saves 3's own term
// (200 − 2) × 10 − (100 − 2) × 10 = 1000 but delays 2 by 150 s (within its
// 247.5 s slack): cost 10 × 150 × (p2 / p3). Equal priorities: ratio 1,
// 1500 > 1000, so 3 waits for 2. Every 3rd job high (p3 = 5/6): ratio
// (1/6) / (5/6) = 0.2, cost 300 < 1000, so 3 jumps and 2 starts at 250.
const PRIORITY: &[Row] = &[(0, 100, 10, 100, 1), (1, 100, 10, 100, 2), (2, 150, 10, 150, 3)];

struct Case {
    name: &'static str,
    rows: &'static [Row],
    policy: &'static str,
    starts: &'static [Time],
}

const CASES: &[Case] = &[
    Case { name: "jump ahead within the slack", rows: JUMP, policy: "slack:awt=99", starts: &[0, 110, 100] },
    Case { name: "overdraw rejected", rows: JUMP, policy: "slack:awt=99,sf=0.1", starts: &[0, 100, 200] },
    Case { name: "cbf for contrast", rows: JUMP, policy: "cbf", starts: &[0, 100, 200] },
    Case { name: "early end compresses", rows: EARLY, policy: "slack:awt=99", starts: &[0, 60, 50] },
    // No candidate slot may move a job: slack falls back to CBF placement.
    Case { name: "max_moved=0 is CBF", rows: JUMP, policy: "slack:awt=99,max_moved=0", starts: &[0, 100, 200] },
    // Every 3rd job high priority (UP = PP = 1): 3 has p3 = 2.5/3 = 5/6, so
    // delaying 2 costs 100 × (1/6)/(5/6) = 20: price 1000, 3 jumps ahead.
    Case {
        name: "every 3rd job high priority",
        rows: JUMP,
        policy: "slack:awt=99,scenario=every-kth,k=3",
        starts: &[0, 110, 100],
    },
    Case { name: "equal priorities: no jump", rows: PRIORITY, policy: "slack:awt=99", starts: &[0, 100, 200] },
    Case {
        name: "high priority newcomer jumps",
        rows: PRIORITY,
        policy: "slack:awt=99,scenario=every-kth,k=3",
        starts: &[0, 250, 100],
    },
];

#[test]
fn hand_computed_slack_schedules() {
    for case in CASES {
        let out = run(&trace(10, case.rows), case.policy);
        assert_eq!(starts(&out.record), case.starts, "{}", case.name);
    }
}

#[test]
fn mean_waits_are_reported_per_priority_class() {
    // PRIORITY with every 3rd job high: starts 0, 250, 100, so job 3 (the
    // high one) waits 100 − 2 = 98 and jobs 1 and 2 wait 0 and 250 − 1 = 249.
    let out = run(&trace(10, PRIORITY), "slack:awt=99,scenario=every-kth,k=3");
    let p = out.metrics.priority.expect("every-kth gives two classes");
    assert_eq!((p.high_jobs, p.high_mean_wait, p.low_jobs, p.low_mean_wait), (1, Some(98.0), 2, Some(124.5)));
    // Equal priorities, or high = 0: one class, nothing to report.
    assert!(run(&trace(10, PRIORITY), "slack:awt=99").metrics.priority.is_none());
    assert!(run(&trace(10, PRIORITY), "slack:awt=99,scenario=every-kth,k=3,high=0").metrics.priority.is_none());
}

#[test]
fn the_recorded_bound_is_the_first_planned_start_plus_the_initial_slack() {
    // JUMP, SF = 3: 2 was first planned at 100 with s0 = 247.5, so its
    // bound is 100 + 247 = 347. 3 was placed at 100 with SP = 98/198:
    // p = 98/594, s0 = (1 − 98/594) × 297 = 248, bound 348. 1: SP = 0,
    // p = 0, s0 = 297, bound 297.
    let out = run(&trace(10, JUMP), "slack:awt=99");
    let res: Vec<Option<Time>> = out.record.jobs.iter().map(|r| r.first_reservation).collect();
    assert_eq!(res, vec![Some(297), Some(347), Some(348)]);
}

#[test]
fn the_default_awt_is_the_mean_wait_of_a_cbf_run() {
    let t = crate::golden_sample();
    let cbf = run(&t, "cbf");
    let slack = run(&t, "slack");
    let c = slack.calibration.expect("slack calibrates by default");
    assert_eq!(c.reference, "cbf@estimate");
    assert_eq!(c.mean_wait, cbf.metrics.mean_wait);
    assert!(run(&t, "slack:awt=2401").calibration.is_none());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every job gets a bound (finite slack: equal or every-k-th
    /// priorities) and starts by it, for every heuristic.
    #[test]
    fn slack_never_overdraws_a_slack(t in traces()) {
        for h in ["ast", "aat", "du", "dc", "dp"] {
            for extra in ["sf=1,awt=30", "sf=3,awt=200,scenario=every-kth,k=2,high=0.7", "sf=0.5,awt=50,max_moved=3,max_slots=2"] {
                let spec = format!("slack:heuristic={h},{extra}");
                let out = run_checked(&t, &spec, 0).map_err(TestCaseError::fail)?;
                for r in &out.record.jobs {
                    let bound = r.first_reservation;
                    prop_assert!(bound.is_some(), "{}", spec);
                    prop_assert!(bound.is_none_or(|b| r.first_start <= b), "{}", spec);
                }
            }
        }
    }
}

/// Traces where history-based predictions fall short often: each user
/// alternates short and long jobs under one generous estimate.
fn overrunning_traces() -> impl Strategy<Value = Trace> {
    (2u32..=16).prop_flat_map(|procs| {
        let job = (0i64..2, 0i64..30, any::<bool>(), 1i64..400, 1u32..=procs, 0i32..3);
        proptest::collection::vec(job, 10..60).prop_map(move |raw| {
            let mut submit = 0;
            let rows: Vec<Row> = raw
                .into_iter()
                .map(|(burst, gap, long, runtime, size, user)| {
                    submit += if burst == 0 { 0 } else { gap };
                    let runtime = if long { 400 + runtime } else { runtime / 20 + 1 };
                    (submit, runtime, size, 1000, user)
                })
                .collect();
            trace(procs, &rows)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// With almost no slack (AWT = 1 s) or no candidate slot
    /// (`max_moved=0`), slack schedules nearly as CBF does, whatever the
    /// predictor: its utilisation stays above half of CBF's with the same
    /// predictor. (Not much above: after an early end slack's prices may
    /// prefer moving one wide job far earlier to compressing every job, and
    /// leave processors idle until the next event; the worst seen over
    /// thousands of such traces is 0.62 of CBF's.) A slack driven negative
    /// by a running job outliving its prediction once made every move of
    /// that job infeasible, compression included, and left the machine
    /// idle: ratios fell to 0.16, and below one half in many runs.
    #[test]
    fn slack_keeps_the_machine_as_busy_as_cbf_under_every_predictor(t in overrunning_traces(), seed in 0u64..100) {
        // (source parameter, predictor) pairs.
        for (param, source) in [("", "estimate"), ("", "exact"), ("", "last"), ("", "tsafrir"), ("error=60,", "virtual")] {
            let cbf = run_checked(&t, &format!("cbf:{param}@{source}"), seed).map_err(TestCaseError::fail)?;
            for variant in ["awt=1", "max_moved=0"] {
                let spec = format!("slack:{param}{variant}@{source}");
                let slack = run_checked(&t, &spec, seed).map_err(TestCaseError::fail)?;
                let ratio = slack.metrics.utilization / cbf.metrics.utilization;
                prop_assert!(
                    ratio >= 0.5,
                    "{}: utilisation {} against CBF's {}", spec, slack.metrics.utilization, cbf.metrics.utilization
                );
            }
        }
    }
}
