//! The run checker must catch broken runs: each case corrupts one field of
//! a correct record and expects the matching complaint.

use schedlab::engine::{check, Guarantee, ReservationChange, ReservationLog, RunRecord};

use crate::support::{run, trace, Row};

// P = 10; under EASY: 1 at 0 (to 100), 2 blocked until 100, 3 backfilled at 2.
const ROWS: &[Row] = &[(0, 100, 8, 100, 1), (1, 50, 6, 50, 2), (2, 90, 2, 90, 3)];

type Corruption = fn(&mut RunRecord);

#[test]
fn the_checker_catches_each_kind_of_broken_run() {
    let t = trace(10, ROWS);
    let good = run(&t, "easy").record;
    let cases: &[(&str, Corruption, &[Guarantee], &str)] = &[
        (
            "early start",
            |r| {
                r.jobs[1].first_start = 0;
                r.jobs[1].start = 0;
                r.jobs[1].end = 50
            },
            &[],
            "(submitted at 1",
        ),
        ("wrong runtime", |r| r.jobs[2].end += 1, &[], "ran 91 s"),
        ("double completion", |r| r.jobs[0].completions = 2, &[], "completed 2 times"),
        ("never completed", |r| r.jobs[0].completions = 0, &[], "completed 0 times"),
        (
            "overcommit",
            |r| {
                r.jobs[1].first_start = 50;
                r.jobs[1].start = 50;
                r.jobs[1].end = 100
            },
            &[],
            "processors in use",
        ),
        ("priority order", |_| {}, &[Guarantee::PriorityOrder], "before job 2 of higher priority"),
        (
            "late start",
            |r| r.jobs[1].first_reservation = Some(99),
            &[Guarantee::NoLaterThanFirstReservation],
            "after its first reservation",
        ),
    ];
    for (name, corrupt, guarantees, expected) in cases {
        let mut bad = good.clone();
        corrupt(&mut bad);
        let err = check(&t.jobs, &bad, guarantees).expect_err(name);
        let text = format!("{err} {:?}", err.violations);
        assert!(text.contains(expected), "{name}: {text}");
    }
    assert!(check(&t.jobs, &good, &[Guarantee::NoLaterThanFirstReservation]).is_ok());
}

/// A job preempted and planned afresh must restart by the first reservation
/// of its new wait. In the SLP schedule (preemption.rs), job 3 (index 2)
/// starts at 2 without a reservation, is killed at 100, is then the blocked
/// head, reserved at 200, and restarts at 200. Moving that reservation to
/// 150 must be caught, although its first start (2) is early.
#[test]
fn a_late_restart_after_a_preemption_is_caught() {
    let t = trace(10, crate::preemption::SLP);
    let good = run(&t, "pv-easy@estimate").record;
    let history: Vec<ReservationChange> = good.reservations.iter().collect();
    assert!(history.iter().any(|c| (c.job, c.wait, c.time, c.start) == (2, 1, 100, 200)), "{history:?}");
    assert_eq!(good.jobs[2].first_reservation, Some(200), "its first wait had none");
    let mut bad = good.clone();
    bad.reservations = ReservationLog::default();
    for mut c in history {
        if (c.job, c.wait) == (2, 1) {
            c.start = 150;
        }
        bad.reservations.push(c);
    }
    bad.jobs[2].first_reservation = None;
    let guarantees = [Guarantee::NoLaterThanFirstReservation];
    let err = check(&t.jobs, &bad, &guarantees).expect_err("a late restart");
    assert!(err.to_string().contains("restarted at 200 after the first reservation of that wait, at 150"), "{err}");
    assert!(check(&t.jobs, &good, &guarantees).is_ok());
}

/// Ten processors: J1 (6, 100 s) runs from 0; J2 (8, 50 s) and J3 (9,
/// 100 s) are blocked; J4 (2, 200 s) is backfilled at 3 under depth 1 and
/// waits under depth 2 (policy tests). A record claiming that the pass at
/// 3 reserved J3 at 150 and still backfilled J4 (2 processors until 203,
/// beside J3's 9 at 150: 11 on a machine of 10) is refused.
#[test]
fn a_backfill_that_delays_a_reservation_of_its_pass_is_caught() {
    let t = trace(10, &[(0, 100, 6, 100, 1), (1, 50, 8, 50, 1), (2, 100, 9, 100, 1), (3, 200, 2, 200, 1)]);
    let guarantees = [Guarantee::ReservationsFitTheirPass];
    let depth_two = run(&t, "backfill:depth=2").record;
    assert!(check(&t.jobs, &depth_two, &guarantees).is_ok());
    let easy = run(&t, "backfill:depth=1").record;
    assert_eq!(easy.jobs[3].first_start, 3, "J4 is backfilled");
    let mut history: Vec<ReservationChange> = easy.reservations.iter().collect();
    history.push(ReservationChange { job: 2, wait: 0, time: 3, start: 150 });
    history.sort_by_key(|c| c.time);
    let mut bad = easy.clone();
    bad.reservations = ReservationLog::default();
    for c in history {
        bad.reservations.push(c);
    }
    let err = check(&t.jobs, &bad, &guarantees).expect_err("J4 delays J3");
    assert!(err.to_string().contains("job 3: reserved at t=3 for 150, but 11 processors are planned at 150"), "{err}");
}
