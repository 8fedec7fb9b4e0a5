//! Deadline-based backfilling: hand-computed schedules, its metrics, and
//! its guarantee on random traces.

use proptest::prelude::*;
use schedlab::engine::{SplitMix64, Time};

use crate::properties::{run_checked, traces};
use crate::support::{run_seeded, starts, trace, Row};

/// Whether job number `id` is deadline-driven for `seed` and `fraction`,
/// by the rule documented in the policy (one SplitMix64 draw keyed by the
/// seed and the job number).
fn driven(seed: u64, id: u64, fraction: f64) -> bool {
    SplitMix64::new(seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_f64() < fraction
}

/// The first seed for which, at share 0.5, jobs 1..=n are deadline-driven
/// exactly as `pattern` says.
fn seed_for(pattern: &[bool]) -> u64 {
    (0..10_000)
        .find(|&s| pattern.iter().enumerate().all(|(i, &d)| driven(s, i as u64 + 1, 0.5) == d))
        .expect("a seed exists")
}

// P = 10; job 2 is deadline-driven, 1 and 3 regular. Deadline rule:
// submit + max(0, 10 × estimate), so 2's deadline is 1 + 500 = 501.
// 1 holds the machine until 100 (its estimate). 2 arrives: its CBF slot
// [100,150) ends by 501, so it joins L1 (tentative). 3 (regular) arrives:
// Algorithm 1 cancels 2, gives 3 [100,150) (definitive, reserved) and puts
// 2 back at [150,200) — pushed back, still before its deadline.
const PUSHED: &[Row] = &[(0, 100, 10, 100, 1), (1, 50, 10, 50, 2), (2, 50, 10, 50, 3)];
// The same, but 1 ends at 40: compression in priority order moves 2 to
// [40,90) (free, since 3 sits at [100,150)) — pulled forward, well before
// its deadline — and then 3 to [90,140), before its reservation (100).
const PULLED: &[Row] = &[(0, 40, 10, 100, 1), (1, 50, 10, 50, 2), (2, 50, 10, 50, 3)];

const PARAMS: &str = "dbf:fraction=0.5,min_deadline=0,deadline_factor=10";

#[test]
fn a_deadline_job_is_pushed_back_by_a_regular_arrival_then_pulled_forward() {
    let seed = seed_for(&[false, true, false]);
    let pushed = run_seeded(&trace(10, PUSHED), PARAMS, seed);
    assert_eq!(starts(&pushed.record), vec![0, 150, 100]);
    let pulled = run_seeded(&trace(10, PULLED), PARAMS, seed);
    assert_eq!(starts(&pulled.record), vec![0, 40, 90]);
    // Only regular jobs hold a (checked) reservation; 2 never got one.
    let res: Vec<Option<Time>> = pulled.record.jobs.iter().map(|r| r.first_reservation).collect();
    assert_eq!(res, vec![Some(0), None, Some(100)]);
    // Metrics of the pulled run, by hand: 2 ends at 90: usage
    // (90 − 1) / (501 − 1) = 0.178, no violation. Regular waits: 1: 0;
    // 3: 140 − 2 − 50 = 88 → mean 44. Stretches (w + est) / est: 1 and
    // 138 / 50 = 2.76 → mean 1.88.
    let d = pulled.metrics.deadline.expect("dbf reports deadlines");
    assert_eq!((d.jobs, d.violations, d.regular_jobs), (1, 0, 2));
    assert!((d.mean_usage.unwrap() - 0.178).abs() < 1e-12);
    assert_eq!(d.regular_mean_wait, Some(44.0));
    assert!((d.regular_mean_stretch.unwrap() - 1.88).abs() < 1e-12);
    assert_eq!(d.deadline_mean_wait, Some(39.0));
}

// Factor 1: 2's deadline is 1 + 50 = 51, and its CBF slot [100,150)
// already misses it, so it is handled as a regular arrival (definitive,
// reserved at 100); 3 then goes after it, at 150. One violation.
#[test]
fn a_deadline_that_cannot_be_kept_makes_the_job_regular() {
    let seed = seed_for(&[false, true, false]);
    let out = run_seeded(&trace(10, PUSHED), "dbf:fraction=0.5,min_deadline=0,deadline_factor=1", seed);
    assert_eq!(starts(&out.record), vec![0, 100, 150]);
    assert_eq!(out.record.jobs[1].first_reservation, Some(100));
    let d = out.metrics.deadline.expect("dbf reports deadlines");
    assert_eq!((d.jobs, d.violations), (1, 1));
}

#[test]
fn with_no_deadline_jobs_dbf_is_cbf() {
    for rows in [PUSHED, PULLED] {
        let t = trace(10, rows);
        let dbf = run_seeded(&t, "dbf:fraction=0", 3);
        let cbf = run_seeded(&t, "cbf", 3);
        assert_eq!(starts(&dbf.record), starts(&cbf.record));
        assert!(cbf.metrics.deadline.is_none(), "other policies report no deadline metrics");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every regular job holds a reservation and starts no later than it
    /// (the checker verifies it too); deadline-driven jobs are counted.
    #[test]
    fn dbf_regular_jobs_keep_their_first_reservation(t in traces(), seed in 0u64..1000) {
        for spec in ["dbf", "dbf:fraction=0.6,min_deadline=50,deadline_factor=2", "dbf:fraction=0.9@exact"] {
            let out = run_checked(&t, spec, seed).map_err(TestCaseError::fail)?;
            let d = out.metrics.deadline.clone().expect("dbf reports deadlines");
            prop_assert_eq!(d.jobs + d.regular_jobs, t.jobs.len());
            let reserved = out.record.jobs.iter().filter(|r| r.first_reservation.is_some()).count();
            prop_assert!(reserved >= d.regular_jobs, "{}: every regular job is reserved", spec);
            for r in &out.record.jobs {
                prop_assert!(r.first_reservation.is_none_or(|res| r.first_start <= res), "{}", spec);
            }
        }
    }
}

/// `share_mode=exact`: exactly round(fraction × jobs) deadline-driven jobs,
/// the ones whose draws are lowest; `draw` leaves the count to chance.
#[test]
fn an_exact_share_picks_exactly_that_many_deadline_jobs() {
    let t = crate::golden_sample();
    for (fraction, want) in [("0.2", 600), ("0.333", 999), ("1", 3000), ("0", 0)] {
        let out = run_seeded(&t, &format!("dbf:fraction={fraction},share_mode=exact"), 5);
        assert_eq!(out.metrics.deadline.expect("dbf reports deadlines").jobs, want, "fraction {fraction}");
    }
    let drawn = run_seeded(&t, "dbf:fraction=0.2", 5).metrics.deadline.expect("deadlines").jobs;
    let expected = (1..=3000u64).filter(|&id| driven(5, t.jobs[id as usize - 1].id, 0.2)).count();
    assert_eq!(drawn, expected);
}
