//! Hand-computed schedules. Each case's expected start times were worked
//! out on paper from the policy's definition (the reasoning is in the
//! comment above each trace); none was copied from the program's output.

use schedlab::engine::Time;
use schedlab::workload::{read_swf, ReadOptions};

use crate::support::{run, starts, trace, which, Row};

struct Case {
    name: &'static str,
    procs: u32,
    rows: &'static [Row],
    policy: &'static str,
    starts: &'static [Time],
}

// P = 10. Jobs 1 and 2 fill the machine exactly at t=0; 3 waits for 2 (t=5).
// Job 4 (whole machine) arrives at t=1 and needs 1 and 3, which both end at
// t=10; a job arriving at the very second others end (job 5, t=13) starts
// then, because completions are applied before arrivals.
const FILL: &[Row] = &[(0, 10, 6, 20, 1), (0, 5, 4, 5, 1), (0, 5, 1, 5, 1), (1, 3, 10, 3, 1), (13, 2, 10, 2, 1)];

// P = 10. 1 runs [0,100) on 8; 2 (6 procs) is blocked: shadow 100 (1's
// estimate), extra 10 - 6 = 4. 3 (2 procs, ends 92 <= 100) backfills at t=2.
// 4 (estimate 200, does not end by the shadow) fits no processor at t=3;
// at t=92, when 3 ends, it backfills on 2 of the 4 extra processors.
// At t=100, 2 starts, and 5 starts on the 2 processors left.
const SHADOW: &[Row] =
    &[(0, 100, 8, 100, 1), (1, 50, 6, 50, 2), (2, 90, 2, 90, 3), (3, 20, 2, 200, 4), (4, 500, 2, 500, 5)];

// P = 10, strict fairness. 1 (5 procs, to t=100) and 2 (3 procs, to t=50)
// start at 0. 3 (7 procs) is blocked: shadow 100, extra 3. 4 (3 procs) does
// not fit at t=2 (2 free). 5 (2 procs, long) backfills at t=3 on extra
// processors. At t=100, 3 starts; 4 is then the blocked head and 1 free +
// 2 held by lower-priority job 5 would suffice: its fair start is 100, but
// EASY starts it at 200 when 3 ends: a 100 s strict-fairness delay.
// CBF instead reserves 3 at [100,200), 4 at [50,150), 5 at [150,1150).
const FAIRNESS: &[Row] =
    &[(0, 100, 5, 100, 1), (0, 50, 3, 50, 2), (1, 100, 7, 100, 3), (2, 100, 3, 100, 4), (3, 1000, 2, 1000, 5)];

// P = 10. Jobs 1 and 2 both end at the shadow time t=100, so all 10
// processors count: extra = 10 - 5 = 5 (not 2 + 4 - 5 = 1), and the long
// 2-processor job 4 backfills at t=2.
const SHADOW_TIE: &[Row] = &[(0, 100, 4, 100, 1), (0, 100, 4, 100, 2), (1, 50, 5, 50, 3), (2, 1000, 2, 1000, 4)];

// P = 10. Two backfill candidates arrive together while 2 (whole machine)
// waits for 1 (to t=100) with 2 processors idle. In priority order 3 (60 s)
// goes first, and 4 (30 s) follows when 3 ends at 62 (62 + 30 <= 100).
// Shortest first, 4 goes at t=2 and 3 follows at 32 (32 + 60 <= 100).
const ORDER: &[Row] = &[(0, 100, 8, 100, 1), (1, 100, 10, 100, 2), (2, 60, 2, 60, 3), (2, 30, 2, 30, 4)];

// P = 10. 1 ends at 50 though its estimate says 100. With estimates the
// head's shadow is 100 and 3 (estimate 200) cannot backfill; with exact
// runtimes the shadow is 50 and 3 (40 s) fits before it.
const ESTIMATES: &[Row] = &[(0, 50, 8, 100, 1), (1, 100, 10, 100, 2), (2, 40, 2, 200, 3)];

// P = 10. Early completion: 1 ends at 20 of an estimated 100. CBF had
// reserved 2 and 3 at [100,150) and 4 at [150,160); compression moves 2 and
// 3 to t=20 and 4 to [70,80); when 2 and 3 end early at 50, 4 moves to 50.
const EARLY: &[Row] = &[(0, 20, 10, 100, 1), (1, 30, 5, 50, 2), (2, 30, 5, 50, 3), (3, 10, 10, 10, 4)];

// P = 10. FCFS never lets 3 pass 2, although 3 would fit at t=2.
const STRICT: &[Row] = &[(0, 100, 8, 100, 1), (1, 10, 5, 10, 2), (2, 10, 1, 10, 3)];

// P = 10, the Last model. User 1's job 1 ran 25 s of an estimated 100
// (accuracy 0.25). User 1's job 4 (estimate 200) is then predicted
// 200 × 0.25 = 50 s: 32 + 50 <= 130 (the shadow of head 3, when 2 ends), so
// EASY-Last backfills it at t=32. With estimates it waits until 3 ends (230).
const LAST: &[Row] = &[(0, 25, 1, 100, 1), (30, 100, 8, 100, 2), (31, 100, 10, 100, 3), (32, 40, 2, 200, 1)];

// Same, but job 4 really runs 120 s: predicted to end at 82, it is still
// running then, so its expected end becomes 32 + 200 = 232 (correction
// rule). When 2 ends at 130, head 3 cannot start (4 holds 2 processors)
// and starts when 4 ends at 152, after its reservation at 130.
const LAST_LATE: &[Row] = &[(0, 25, 1, 100, 1), (30, 100, 8, 100, 2), (31, 100, 10, 100, 3), (32, 120, 2, 200, 1)];

// P = 10, the Last model, an overcommitment with an arrival in the same
// second. User 1's job 1 runs 10 s of an estimated 100 (accuracy 0.1), so
// its job 2 (estimate 100, really 100 s) starts at 20 predicted 10 s. Job 3
// (user 2, 10 s) arrives at 25 and is planned at [30,40). At 30, 2 outlives
// its prediction and is expected until its estimate, 120, which overlaps
// 3's slot; job 4 (user 3, 10 s) arrives in that same second. The plan is
// rebuilt: 3 at [120,130), then 4 at [130,140), once; a second placement of
// 4 would have found [130,140) taken by its own first one and put it at 140.
const OVERCOMMIT: &[Row] = &[(0, 10, 10, 100, 1), (20, 100, 10, 100, 1), (25, 10, 10, 10, 2), (30, 10, 10, 10, 3)];

const CASES: &[Case] = &[
    Case { name: "fill/fcfs", procs: 10, rows: FILL, policy: "fcfs", starts: &[0, 0, 5, 10, 13] },
    Case { name: "fill/easy", procs: 10, rows: FILL, policy: "easy", starts: &[0, 0, 5, 10, 13] },
    Case { name: "fill/cbf", procs: 10, rows: FILL, policy: "cbf", starts: &[0, 0, 5, 10, 13] },
    Case { name: "shadow/easy", procs: 10, rows: SHADOW, policy: "easy", starts: &[0, 100, 2, 92, 100] },
    // FCFS: at t=100, 2, 3 and 4 fill the machine; 5 follows 4 at 120.
    Case { name: "shadow/fcfs", procs: 10, rows: SHADOW, policy: "fcfs", starts: &[0, 100, 100, 100, 120] },
    // CBF: 2 reserved [100,150); 3 fits now, [2,92); 4 (estimate 200) gets
    // [92,292), where 2 processors stay free beside 2; 5 gets [100,600) on
    // the 2 processors 2 leaves at t=100. The same starts as EASY here.
    Case { name: "shadow/cbf", procs: 10, rows: SHADOW, policy: "cbf", starts: &[0, 100, 2, 92, 100] },
    Case { name: "fairness/easy", procs: 10, rows: FAIRNESS, policy: "easy", starts: &[0, 0, 100, 200, 3] },
    Case { name: "fairness/cbf", procs: 10, rows: FAIRNESS, policy: "cbf", starts: &[0, 0, 100, 50, 150] },
    Case { name: "shadow-tie/easy", procs: 10, rows: SHADOW_TIE, policy: "easy", starts: &[0, 0, 100, 2] },
    Case { name: "order/easy-priority", procs: 10, rows: ORDER, policy: "easy", starts: &[0, 100, 2, 62] },
    Case {
        name: "order/easy-shortest",
        procs: 10,
        rows: ORDER,
        policy: "easy:order=shortest",
        starts: &[0, 100, 32, 2],
    },
    Case { name: "estimates/easy", procs: 10, rows: ESTIMATES, policy: "easy", starts: &[0, 50, 150] },
    Case { name: "estimates/easy-exact", procs: 10, rows: ESTIMATES, policy: "easy@exact", starts: &[0, 50, 2] },
    Case { name: "early/cbf", procs: 10, rows: EARLY, policy: "cbf", starts: &[0, 20, 20, 50] },
    Case { name: "early/easy", procs: 10, rows: EARLY, policy: "easy", starts: &[0, 20, 20, 50] },
    Case { name: "strict/fcfs", procs: 10, rows: STRICT, policy: "fcfs", starts: &[0, 100, 100] },
    Case { name: "strict/easy", procs: 10, rows: STRICT, policy: "easy", starts: &[0, 100, 2] },
    Case { name: "last/easy-last", procs: 10, rows: LAST, policy: "easy@last", starts: &[0, 30, 130, 32] },
    Case { name: "last/easy", procs: 10, rows: LAST, policy: "easy", starts: &[0, 30, 130, 230] },
    Case { name: "last-late/easy-last", procs: 10, rows: LAST_LATE, policy: "easy@last", starts: &[0, 30, 152, 32] },
    Case { name: "overcommit/cbf-last", procs: 10, rows: OVERCOMMIT, policy: "cbf@last", starts: &[0, 20, 120, 130] },
    // With no deadline-driven job, DBF is CBF, its rebuild included.
    Case {
        name: "overcommit/dbf-last",
        procs: 10,
        rows: OVERCOMMIT,
        policy: "dbf:fraction=0@last",
        starts: &[0, 20, 120, 130],
    },
];

#[test]
fn hand_computed_schedules() {
    for case in CASES {
        let t = trace(case.procs, case.rows);
        let out = run(&t, case.policy);
        assert_eq!(starts(&out.record), case.starts, "case {}", case.name);
    }
}

#[test]
fn easy_fairness_audit_counts_the_delay_of_job_4() {
    let out = run(&trace(10, FAIRNESS), "easy");
    assert_eq!(which(&out.record, |r| r.backfilled), vec![5]);
    assert_eq!(which(&out.record, |r| r.blocked), vec![3, 4]);
    assert_eq!(out.record.jobs[3].fair_start, Some(100));
    let f = &out.metrics.fairness;
    assert_eq!((f.blocked, f.delayed, f.max_delay), (2, 1, 100));
    assert_eq!(f.mean_delay, 100.0);
    assert_eq!(out.metrics.backfilled, 1);
}

#[test]
fn cbf_on_the_fairness_trace_delays_nobody() {
    let out = run(&trace(10, FAIRNESS), "cbf");
    assert_eq!(which(&out.record, |r| r.backfilled), vec![4]);
    assert_eq!(which(&out.record, |r| r.blocked), vec![3, 5]);
    assert_eq!(out.metrics.fairness.delayed, 0);
    let reservations: Vec<Option<Time>> = out.record.jobs.iter().map(|r| r.first_reservation).collect();
    assert_eq!(reservations, vec![Some(0), Some(0), Some(100), Some(50), Some(150)]);
}

#[test]
fn easy_records_the_shadow_time_as_the_heads_reservation() {
    let out = run(&trace(10, SHADOW), "easy");
    assert_eq!(out.record.jobs[1].first_reservation, Some(100));
    assert_eq!(which(&out.record, |r| r.backfilled), vec![3, 4]);
    assert_eq!(which(&out.record, |r| r.blocked), vec![2]);
    let late = run(&trace(10, LAST_LATE), "easy@last");
    assert_eq!(late.record.jobs[2].first_reservation, Some(130), "reservation from the prediction");
}

/// Metrics of the SHADOW schedule under EASY, by hand:
/// waits 0, 99, 0, 89, 96; runtimes 100, 50, 90, 20, 500.
/// BSD = (w + max(r,10)) / max(r,10): 1, 149/50 = 2.98, 1, 109/20 = 5.45,
/// 596/500 = 1.192. MBS = 11.622 / 5 = 2.3244.
/// MWBS = (8·1 + 6·2.98 + 2·1 + 2·5.45 + 2·1.192) / 20 = 41.164 / 20 = 2.0582.
#[test]
fn metrics_of_a_hand_computed_schedule() {
    let m = run(&trace(10, SHADOW), "easy").metrics;
    assert_eq!(m.jobs, 5);
    assert!((m.mbs - 2.3244).abs() < 1e-12, "{}", m.mbs);
    assert!((m.mwbs - 2.0582).abs() < 1e-12, "{}", m.mwbs);
    assert_eq!(m.mean_wait, (99 + 89 + 96) as f64 / 5.0);
    assert_eq!((m.median_wait, m.max_wait), (89, 99));
    // Last end: job 5 at 100 + 500 = 600; work = 800 + 300 + 180 + 40 + 1000.
    assert_eq!(m.makespan, 600);
    assert!((m.utilization - 2320.0 / 6000.0).abs() < 1e-12);
    // Categories (1 h, 8 procs): every job is short; job 1 (8 procs) is narrow.
    let sn = &m.categories[0];
    assert_eq!((sn.name, sn.jobs), ("SN", 5));
    // Blocked job 2 has 6 processors > 10/4: a "big" blocked job.
    assert_eq!((m.blocked_groups[0].group.as_str(), m.blocked_groups[0].jobs), ("big", 1));
    assert!((m.blocked_groups[0].mbs - 2.98).abs() < 1e-12);
}

/// Kill at the estimate goes through ingestion: a job that ran 150 s of a
/// 100 s request is recorded as running 100 s and ends at its walltime, so
/// the next job starts at 100.
#[test]
fn a_job_is_killed_at_its_estimate() {
    let text = "; MaxProcs: 4\n\
                1 0 -1 150 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n\
                2 5 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n";
    let loaded = read_swf(text.as_bytes(), &ReadOptions::default()).expect("valid trace");
    assert_eq!(loaded.trace.jobs[0].runtime, 100);
    for policy in ["fcfs", "easy", "cbf"] {
        let out = run(&loaded.trace, policy);
        assert_eq!(starts(&out.record), vec![0, 100], "{policy}");
        assert_eq!(out.record.jobs[0].end, 100, "{policy}");
    }
}

// P = 10 under EASY-Last. 1 (1 proc, runs 10 of 100 s) ends at 10: its
// user ran 10 % of the estimate. 2 (same user, 6 procs, 200 s) starts at
// 20 predicted 200 × 10 % = 20 s. 3 (8 procs) arrives at 21, blocked with
// shadow 40. At 50 (the next event) 2 has outlived its prediction, and 4 (4
// procs, its own user: predicted as its estimate) arrives, fitting the 4
// idle processors; 2 extra at the shadow time whatever the rule. What EASY
// expects of 2 decides:
// - estimate: 2 ends at 20 + 200 = 220: 4 ends by then, backfilled at 50;
// - double: 2 has run 30 s, expected at 20 + 60 = 80: a 30 s job 4 (ends
//   80) is backfilled, a 40 s one (ends 90) is not;
// - stale: 2 may end any second, expected at 51: neither is.
// 2 really ends at 220; 3 then starts (to 320) and a 4 that was not
// backfilled starts at 320.
const OVERRUN_40: &[Row] = &[(0, 10, 1, 100, 1), (20, 200, 6, 200, 1), (21, 100, 8, 100, 2), (50, 40, 4, 40, 3)];
const OVERRUN_30: &[Row] = &[(0, 10, 1, 100, 1), (20, 200, 6, 200, 1), (21, 100, 8, 100, 2), (50, 30, 4, 30, 3)];

#[test]
fn the_overrun_rule_decides_what_easy_backfills_around_an_overdue_job() {
    let cases: &[(&[Row], &str, Time)] = &[
        (OVERRUN_40, "easy@last", 50),
        (OVERRUN_40, "easy:overrun=estimate@last", 50),
        (OVERRUN_40, "easy:overrun=double@last", 320),
        (OVERRUN_40, "easy:overrun=stale@last", 320),
        (OVERRUN_30, "easy:overrun=double@last", 50),
        (OVERRUN_30, "easy:overrun=stale@last", 320),
    ];
    for &(rows, spec, job_4) in cases {
        let out = run(&trace(10, rows), spec);
        assert_eq!(starts(&out.record), vec![0, 20, 220, job_4], "{spec}");
    }
}

// Job 2 (all 10 processors) runs 100,000 s but its user's last job ran
// 10 s, so Last predicts 10: from 30 on its prediction is stale. Job 3
// (10 processors) then has its slot at "the next second" at every pass,
// and a wake-up timer there woke the scheduler every second until 2 ended
// at 100,020: 100,000 passes. Now the passes are the events' seconds:
// arrivals at 0, 20, 25, 40, 60; completions at 10, 100,020, 100,120,
// 100,170, 100,180; and 30, the wake-up at 2's predicted end, when it
// turns stale.
const STALE_OVERRUN: &[Row] = &[
    (0, 10, 1, 1_000_000, 1),
    (20, 100_000, 10, 1_000_000, 1),
    (25, 100, 10, 100, 2),
    (40, 50, 5, 50, 3),
    (60, 10, 10, 10, 4),
];

#[test]
fn a_stale_prediction_wakes_the_scheduler_at_events_not_every_second() {
    let out = run(&trace(10, STALE_OVERRUN), "cbf:overrun=stale@last");
    assert_eq!(starts(&out.record), vec![0, 20, 100_020, 100_120, 100_170]);
    assert_eq!(out.record.passes, 11);
    for spec in ["dbf:overrun=stale@last", "slack:overrun=stale@last"] {
        let out = run(&trace(10, STALE_OVERRUN), spec);
        assert!(out.record.passes <= 2 * 11, "{spec}: {} passes", out.record.passes);
    }
}

/// A stress case for the live order by priority (EASY's backfill within
/// the shadow time under learning predictions): the 100,000-job horizon
/// backlog of `scripts/make_horizon_backlog.py`. Job 1 holds 64 of 128
/// processors until 1,000,000 s; job 2 needs all 128, so its shadow time
/// is 1,000,000 s and no processor is extra. The 90,000 long jobs fit by
/// size but are predicted at least 2,000,000 s (their users have no
/// history before the shadow time, so their prediction is their estimate),
/// so none may start before job 2. The 9,998 one-processor short jobs are
/// predicted at most 1,999 s (their users' runtimes equal their
/// estimates), so they backfill, 64 at a time, and all of them, about
/// 9,998 × 1,500 / 64 ≈ 234,000 s of work, end before 1,000,000 s.
#[test]
fn the_horizon_backlog_backfills_only_the_short_jobs_under_learning_predictions() {
    let long = 90_000usize;
    let mut rows: Vec<Row> = vec![(0, 1_000_000, 64, 1_000_000, 1), (0, 1_000, 128, 1_000, 1)];
    rows.extend((0..long as i64).map(|i| {
        let estimate = 2_000_000 + (i * 7919) % 2_000_000;
        (0, estimate / 2, 1 + (i % 32) as u32, estimate, 2 + (i % 1000) as i32)
    }));
    rows.extend((0..(100_000 - long - 2) as i64).map(|i| {
        let runtime = 1_000 + (i * 7) % 1_000;
        (0, runtime, 1, runtime, 2001 + (i % 100) as i32)
    }));
    let t = trace(128, &rows);
    for spec in ["easy@last", "easy@tsafrir"] {
        let out = run(&t, spec);
        assert!(out.checked, "{spec}");
        let starts: Vec<Time> = out.record.jobs.iter().map(|r| r.first_start).collect();
        assert_eq!(starts[1], 1_000_000, "{spec}: job 2 starts when job 1 ends");
        assert!(starts[2..2 + long].iter().all(|&s| s >= 1_000_000), "{spec}: a long job backfilled");
        let last_short = starts[2 + long..].iter().copied().max();
        assert!(last_short.is_some_and(|s| s < 1_000_000), "{spec}: a short job waited for job 2");
    }
}
