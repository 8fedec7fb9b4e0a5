//! Selective reservation (Sel, Sel-D): hand-computed schedules, the
//! calibration figures, and the guarantee on random traces.

use proptest::prelude::*;
use schedlab::engine::Time;

use crate::properties::{run_checked, traces};
use crate::support::{run, starts, Row};

// P = 10, threshold 1.5 given. 1 runs [0,100) on 6 processors. 2 (whole
// machine, estimate 100) reaches XF = (wait + 100)/100 = 1.5 at wait 50:
// promoted at exactly t = 51. 3 arrives at 50, one second before: no
// reservation exists, it fits (4 free) and backfills [50,350). At 51,
// arrivals come before timers: 4 arrives (sets its own timer), then 2 is
// promoted and reserved at the earliest slot for 10 processors, 350 (when
// 3 ends), and only then does the no-guarantee queue backfill: 4 (2
// processors until 351) would overlap 2's reservation, so it waits; at its
// own promotion (t = 51 + 150 = 201) it is reserved after 2, at 450.
const EXACT_SECOND: &[Row] = &[(0, 100, 6, 100, 1), (1, 100, 10, 100, 2), (50, 300, 2, 300, 3), (51, 300, 2, 300, 4)];

struct Case {
    name: &'static str,
    policy: &'static str,
    starts: &'static [Time],
    reservations: &'static [Option<Time>],
}

const CASES: &[Case] = &[
    Case {
        name: "sel, promotion at the exact second",
        policy: "selective:threshold=1.5",
        starts: &[0, 350, 50, 450],
        reservations: &[None, Some(350), None, Some(450)],
    },
    // Sel-D: 2 is short and wide (SW, 10 > 8 processors), 3 and 4 short
    // and narrow (SN). SW at 1.5 and SN at 100: the same schedule as Sel
    // except that 4 (SN, promoted at 51 + 99 × 300) is never promoted; it
    // still starts at 450, the first time it fits without touching 2.
    Case {
        name: "sel-d, SW promoted at 51",
        policy: "selective:variant=sel-d,threshold_sn=100,threshold_sw=1.5,threshold_ln=100,threshold_lw=100",
        starts: &[0, 350, 50, 450],
        reservations: &[None, Some(350), None, None],
    },
    // Sel-D with SW at 3: 2 is promoted only at 1 + 200 = 201, so at 51 4
    // backfills [51,351); 2 is then reserved after 3 and 4, at 351.
    Case {
        name: "sel-d, SW promoted at 201",
        policy: "selective:variant=sel-d,threshold_sn=100,threshold_sw=3,threshold_ln=100,threshold_lw=100",
        starts: &[0, 351, 50, 51],
        reservations: &[None, Some(351), None, None],
    },
    // CBF for contrast: 2 is reserved at 100 on arrival, so neither 3 nor 4
    // (300 s) can start before 2 ends at 200.
    Case {
        name: "cbf",
        policy: "cbf",
        starts: &[0, 100, 200, 200],
        reservations: &[Some(0), Some(100), Some(200), Some(200)],
    },
];

#[test]
fn hand_computed_selective_schedules() {
    for case in CASES {
        let out = run(&crate::support::trace(10, EXACT_SECOND), case.policy);
        assert_eq!(starts(&out.record), case.starts, "{}", case.name);
        let res: Vec<Option<Time>> = out.record.jobs.iter().map(|r| r.first_reservation).collect();
        assert_eq!(res, case.reservations, "{}", case.name);
    }
}

// The FAIRNESS trace of `schedules` under CBF: starts 0, 0, 100, 50, 150;
// waits 0, 0, 99, 48, 147; runtimes (= estimates, so every job is well
// estimated) 100, 50, 100, 100, 1000. BSD = 1, 1, 1.99, 1.48, 1.147:
// mean 6.617 / 5 = 1.3234. Mean wait 294 / 5 = 58.8. Every job is short
// and narrow, so SN = 1.3234 and the empty categories take the overall value.
const FAIRNESS: &[Row] =
    &[(0, 100, 5, 100, 1), (0, 50, 3, 50, 2), (1, 100, 7, 100, 3), (2, 100, 3, 100, 4), (3, 1000, 2, 1000, 5)];

#[test]
fn default_thresholds_come_from_a_cbf_run() {
    let out = run(&crate::support::trace(10, FAIRNESS), "selective");
    let c = out.calibration.expect("selective calibrates by default");
    assert_eq!(c.reference, "cbf@estimate");
    assert!((c.mean_wait - 58.8).abs() < 1e-12);
    assert!((c.well_estimated_bsd - 1.3234).abs() < 1e-12, "{}", c.well_estimated_bsd);
    for v in c.well_estimated_bsd_by_category {
        assert!((v - 1.3234).abs() < 1e-12);
    }
    // A threshold given as a number needs no calibration run.
    assert!(run(&crate::support::trace(10, FAIRNESS), "selective:threshold=2").calibration.is_none());
}

/// The first second at which XF = (t − submit + est) / est reaches T.
fn promotion(submit: Time, estimate: Time, threshold: f64) -> Time {
    submit + ((threshold - 1.0) * estimate.max(1) as f64).ceil() as Time
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A promoted job starts no later than its reservation; a job still
    /// waiting at its promotion time holds a reservation; no other does.
    #[test]
    fn selective_keeps_its_reservations(t in traces()) {
        for spec in ["selective:threshold=2", "selective:threshold=1.2@exact"] {
            let threshold = if spec.contains("1.2") { 1.2 } else { 2.0 };
            let out = run_checked(&t, spec, 0).map_err(TestCaseError::fail)?;
            for (job, rec) in t.jobs.iter().zip(&out.record.jobs) {
                let planned = if spec.ends_with("exact") { job.runtime } else { job.estimate };
                let due = promotion(job.submit, planned, threshold);
                if let Some(r) = rec.first_reservation {
                    prop_assert!(rec.first_start <= r, "{spec}: job {}", job.id);
                    prop_assert!(rec.first_start >= due, "{spec}: job {} reserved early", job.id);
                } else {
                    prop_assert!(rec.first_start < due, "{spec}: job {} waited past its threshold", job.id);
                }
            }
        }
    }
}

// Fair starts on FAIRNESS, by hand, from the CBF reference (starts 0, 0,
// 100, 50, 150; ends 100, 50, 200, 150, 1150): 1 and 2 start at once; 3
// (7 processors) arrives at 1 with 1 and 2 running (2 free): FCFS from 1
// waits for 2 (50) and 1 (100): 100; 4 queues behind 3: 100 (3 left);
// 5 behind both: 200. Fair slowdowns (fair − submit + rt) / rt: 1, 1,
// 1.99, 1.98, 1.197. EASY's slowdowns: 1, 1, 1.99, 298/100 = 2.98,
// 1000/1000 = 1: only 4 is worse, by 2.98 / 1.98 = 1.505, in (1.5, 2].
#[test]
fn fair_slowdown_table_by_hand() {
    let t = crate::support::trace(10, FAIRNESS);
    let cbf = run(&t, "cbf");
    assert_eq!(schedlab::metrics::fair_starts(&t.jobs, &cbf.record), vec![0, 0, 100, 100, 200]);
    let easy = run(&t, "easy:fair_slowdown=on");
    let table = easy.metrics.fair_slowdown.expect("asked for");
    assert_eq!(table.reference, "cbf@estimate");
    let counts: Vec<usize> = table.rows.iter().map(|r| r.jobs).collect();
    assert_eq!(counts, vec![4, 0, 1, 0, 0]);
    assert_eq!(table.rows[0].percent, 80.0);
    let cbf_table = run(&t, "cbf:fair_slowdown=on").metrics.fair_slowdown.expect("asked for");
    assert_eq!(cbf_table.rows[0].jobs, 5, "CBF is fair by this definition here");
    assert!(run(&t, "easy").metrics.fair_slowdown.is_none(), "off by default");
}
