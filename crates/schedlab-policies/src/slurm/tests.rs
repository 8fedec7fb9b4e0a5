//! Hand-computed schedules of the `slurm` policy, one rule each, on one
//! node of 64 cores unless said otherwise. Times are seconds; a job's
//! limit is its estimate rounded up to whole minutes.

use schedlab_engine::params::Params;
use schedlab_engine::{check, run, Control, Overrun, RunConfig, RuntimeSource, Time};
use schedlab_workload::Job;

use super::fairshare::Tree;
use super::*;
use crate::Categories;

/// A job: submit, runtime, cores, estimate, user, group.
type Row = (Time, Time, u32, Time, i32, i32);

fn jobs(rows: &[Row]) -> Vec<Job> {
    rows.iter()
        .enumerate()
        .map(|(i, &(submit, runtime, size, estimate, user, group))| Job {
            id: i as u64 + 1,
            submit,
            runtime,
            size,
            estimate,
            user,
            group,
            queue: -1,
            partition: -1,
            status: 1,
        })
        .collect()
}

fn policy(params: &[(&str, &str)]) -> Slurm {
    let given: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let values = Params::resolve(INFO.params, &given).unwrap_or_else(|e| panic!("{e}"));
    let settings = PolicySettings {
        source: RuntimeSource::Estimate,
        seed: 0,
        calibration: None,
        categories: Categories::default(),
    };
    Slurm::new(&SlurmParams::read(&values), &settings)
}

/// A run on `procs` processors with the estimates as the runtime source.
fn config(procs: u32) -> RunConfig {
    RunConfig { procs, source: RuntimeSource::Estimate, overrun: Overrun::Estimate, seed: 0, progress_every: 0 }
}

/// Every loop each second, reservations to the second (the settings of the real-Slurm cases).
const EVERY_SECOND: [(&str, &str); 3] = [("bf_interval", "1"), ("bf_resolution", "1"), ("sched_interval", "1")];

/// The start of each job under `params`, the run checked.
fn starts(procs: u32, rows: &[Row], params: &[(&str, &str)]) -> Vec<Time> {
    let jobs = jobs(rows);
    let mut p = policy(params);
    let record = run(&jobs, &config(procs), &mut p, &mut |_| Control::Continue).unwrap_or_else(|e| panic!("{e}"));
    check(&jobs, &record, &p.guarantees()).unwrap_or_else(|e| panic!("{e}"));
    record.jobs.iter().map(|r| r.first_start).collect()
}

fn with<'a>(base: &[(&'a str, &'a str)], more: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    base.iter().chain(more).copied().collect()
}

/// J1 holds 60 of the 64 cores until 300. J2 (62 cores) is blocked; the
/// backfill cycle at 10 reserves the node for it from 300 (J1's end) to
/// 360. J3 (1 core, a 10-minute limit) arrives at 20: 4 cores are idle,
/// and EASY would start it on the 2 cores J2 leaves over, but the
/// reservation holds the whole node from 300 and J3's limit ends at 620,
/// so it is reserved after J2 instead, at 360. At 300 J1 ends and the
/// main scheduler starts J2 and then J3, which fits beside it.
#[test]
fn a_reservation_takes_the_whole_node() {
    let rows = [(0, 300, 60, 300, 1, 1), (10, 60, 62, 60, 1, 1), (20, 60, 1, 600, 1, 1)];
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 300, 300]);
}

/// J1 (32 cores until 30) and J2 (32 cores until 100, a two-minute limit)
/// start at 0. J3 (64 cores) waits: the main scheduler stops at it, and
/// the backfill cycle reserves the node for it from 120 (J1's and J2's
/// limits end in one batch). J4 (32 cores for 10 s, a one-minute limit)
/// waits behind J3 until J1's cores are free, and then backfills, since
/// it ends by 120. The cycle sees J1's cores free one second after J1
/// ends (`bf_end_lag`, the node's COMPLETING second): J4 starts at 31,
/// and at 30 with no lag. The main scheduler sees ends at once: J3 starts
/// at 100, when J2 ends.
#[test]
fn the_backfill_cycle_sees_ended_jobs_one_second_late() {
    let rows = [(0, 30, 32, 60, 1, 1), (0, 100, 32, 120, 1, 1), (1, 60, 64, 60, 1, 1), (2, 10, 32, 60, 1, 1)];
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 0, 100, 31]);
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &[("bf_end_lag", "0")])), [0, 0, 100, 30]);
}

/// With `bf_window=1` (a minute), J2's start at 300 is past the window at
/// every cycle before it, so it gets no reservation, and J3 (1 core, 10
/// minutes) backfills at once; with the default window (a day) J2's
/// reservation stops J3, which then waits for J2 (all 64 cores) to end.
#[test]
fn bf_window_cuts_a_reservation_off() {
    let rows = [(0, 300, 60, 300, 1, 1), (10, 60, 64, 60, 1, 1), (20, 60, 1, 600, 1, 1)];
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &[("bf_window", "1")])), [0, 300, 20]);
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 300, 360]);
}

/// Running jobs end (at their limits) at 120 and 180. For J3 (34 cores)
/// `_will_run_test` takes away the jobs ending by 180 together (first
/// barrier: 150, the multiple of 30 after 120, plus a window of 30), so
/// J3's reservation is at 180, not at 120 when enough cores are in fact
/// free. J4 (4 cores, ending by 130) therefore backfills at 10, which it
/// could not do before a reservation at 120. J1 really ends at 120, and
/// the main scheduler starts J3 then, as it ignores reservations.
#[test]
fn will_run_batches_ends_in_thirty_second_windows() {
    let rows = [(0, 120, 30, 120, 1, 1), (0, 180, 30, 180, 1, 1), (5, 60, 34, 60, 1, 1), (10, 60, 4, 120, 1, 1)];
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 0, 120, 10]);
}

/// J1 (63 cores from 10, a 3-minute limit) is expected to end at 190; J2
/// (64 cores) is reserved from 190, which `bf_resolution=60` rounds down to
/// 180 in the map. J3 (1 core, 2 minutes) arrives at 65: its limit ends at
/// 185, past 180, so it waits (J1 really ends at 140, J2 runs until 200,
/// then J3). With a resolution of a second the map starts at 190 and J3
/// backfills at 65.
#[test]
fn bf_resolution_rounds_the_reservation_down() {
    let rows = [(10, 130, 63, 130, 1, 1), (20, 60, 64, 60, 1, 1), (65, 60, 1, 120, 1, 1)];
    let coarse = [("bf_interval", "1"), ("sched_interval", "1"), ("bf_resolution", "60")];
    assert_eq!(starts(64, &rows, &coarse), [10, 140, 200]);
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [10, 140, 65]);
}

/// `bf_max_job_test=1`: only J2, the first job, is tested; J3, which
/// would backfill before J2's reservation, waits for the main scheduler.
/// `bf_max_job_user=1` does the same when J2 and J3 belong to one user,
/// and not when they do not.
#[test]
fn backfill_limits_stop_the_cycle() {
    let rows = [(0, 300, 60, 300, 1, 1), (10, 60, 64, 60, 1, 1), (20, 30, 1, 60, 1, 1)];
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 300, 20]);
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &[("bf_max_job_test", "1")])), [0, 300, 360]);
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &[("bf_max_job_user", "1")])), [0, 300, 360]);
    let other_user = [rows[0], rows[1], (20, 30, 1, 60, 2, 1)];
    assert_eq!(starts(64, &other_user, &with(&EVERY_SECOND, &[("bf_max_job_user", "1")])), [0, 300, 20]);
}

/// `bf_min_age_reserve=1000`: J2 has waited less, so backfill reserves
/// nothing for it and the main scheduler does not close the partition
/// behind it; J3 starts at once (by default it waits for J2, as in
/// `bf_window_cuts_a_reservation_off`).
#[test]
fn young_jobs_reserve_nothing() {
    let rows = [(0, 300, 60, 300, 1, 1), (10, 60, 64, 60, 1, 1), (20, 60, 1, 600, 1, 1)];
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &[("bf_min_age_reserve", "1000")])), [0, 300, 20]);
}

/// `default_queue_depth=0`: the pass when J1 ends at 100 looks at one job
/// (`job_depth++ > 0` stops at the second), so J2 starts and J3 waits for
/// the full pass at the next `sched_interval` (120). Backfill, every 1000
/// s after its first cycle at 10, does not run in between.
#[test]
fn the_queue_depth_leaves_jobs_to_the_full_pass() {
    let rows = [(0, 100, 64, 100, 1, 1), (10, 100, 32, 100, 1, 1), (20, 100, 32, 100, 1, 1)];
    let slow = [("bf_interval", "1000")];
    assert_eq!(starts(64, &rows, &with(&slow, &[("default_queue_depth", "0")])), [0, 100, 120]);
    assert_eq!(starts(64, &rows, &slow), [0, 100, 100]);
}

/// With `sched_interval=60`, a job submitted at 1 waits for the
/// background loop's pass `batch_sched_delay` (3 s) after its last, at 0:
/// it starts at 3, or at 1 with no delay. Backfill, which last found an
/// empty queue at 0, would not run before 30.
#[test]
fn submissions_wait_for_the_batch_delay() {
    let rows = [(0, 1000, 1, 1000, 1, 1), (1, 100, 8, 100, 1, 1)];
    assert_eq!(starts(64, &rows, &[]), [0, 3]);
    assert_eq!(starts(64, &rows, &[("batch_sched_delay", "0")]), [0, 1]);
}

/// Job size, favouring small jobs, weight 1000 on one node of 64 cores:
/// J2 (48 cores) has (64 − 48) / 64 / 2 = 0.125, priority 125; J3 (32)
/// 0.25, 250. When J1 ends at 100 they do not both fit: multifactor starts
/// J3 first, basic J2.
#[test]
fn size_factor_orders_the_queue() {
    let rows = [(0, 100, 64, 100, 1, 1), (10, 100, 48, 100, 1, 1), (20, 100, 32, 100, 1, 1)];
    let size =
        [("PriorityType", "priority/multifactor"), ("PriorityWeightJobSize", "1000"), ("PriorityFavorSmall", "YES")];
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &size)), [0, 200, 100]);
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 100, 200]);
}

#[test]
fn priorities_are_truncated_weighted_sums() {
    let w = Weights {
        age: 1000,
        fairshare: 2000,
        job_size: 300,
        partition: 7,
        qos: 5,
        max_age: 600,
        favor_small: false,
        size_relative: false,
        classic: false,
    };
    // Age 150/600 = 0.25 → 250; fair-share 0.5 → 1000; size (1 + 16/64)/2
    // = 0.625 → 187.5; partition 1 → 7; QOS 0.
    let f = priority::Factors { age: 0.25, fairshare: 0.5, job_size: 0.625, partition: 1.0, qos: 0.0 };
    assert_eq!(priority::multifactor(&w, &f), 1444);
    let zero = priority::Factors { age: 0.0, fairshare: 0.0, job_size: 0.0, partition: 0.0, qos: 0.0 };
    assert_eq!(priority::multifactor(&w, &zero), 1, "never below 1");
    let job = jobs(&[(0, 10, 16, 10, 1, 1)])[0];
    let mut tree = Tree::new([(1, 1)].into_iter(), &Default::default());
    let f = priority::factors(&w, &job, tree.user(1, 1), &mut tree, 64, 150);
    assert_eq!((f.age, f.job_size, f.partition), (0.25, 0.625, 1.0));
    let f = priority::factors(&w, &job, tree.user(1, 1), &mut tree, 64, 6000);
    assert_eq!(f.age, 1.0, "capped at PriorityMaxAge");
}

/// Accounts 1 (users 1 and 2) and 2 (user 3), one share each, beside the
/// user root under the root (as on every Slurm cluster): four users, three
/// shares at the top. Usage: user 1 100, user 3 50. Fair Tree: root (no
/// usage, S/U infinite) ranks first (4 of 4); account 2's level
/// fair-share is (1/3) / (50/150) = 1, account 1's (1/3) / (100/150) =
/// 0.5, so user 3 ranks next (3/4); in account 1, user 2 (no usage) ranks
/// 2 (2/4), user 1 last (1/4).
///
/// Classic: shares_norm 1/6 for users 1 and 2, 1/3 for user 3; effective
/// usage: user 1 2/3 + (2/3 − 2/3)/2 = 2/3, user 2 0 + (2/3 − 0)/2 = 1/3,
/// user 3 1/3; factors 2^(−4) = 0.0625, 2^(−2) = 0.25, 2^(−1) = 0.5.
#[test]
fn fair_share_factors_by_hand() {
    let pairs = [(1, 1), (1, 2), (2, 3)];
    let mut tree = Tree::new(pairs.into_iter(), &Default::default());
    tree.charge(tree.user(1, 1), 100.0);
    tree.charge(tree.user(2, 3), 50.0);
    tree.compute_fair_tree();
    let ft: Vec<f64> = pairs.iter().map(|&(g, u)| tree.fair_tree_factor(tree.user(g, u))).collect();
    assert_eq!(ft, [0.25, 0.5, 0.75]);
    tree.refresh_classic();
    let classic: Vec<f64> = pairs.iter().map(|&(g, u)| tree.classic_factor(tree.user(g, u))).collect();
    for (got, want) in classic.iter().zip([0.0625, 0.25, 0.5]) {
        assert!((got - want).abs() < 1e-12, "{classic:?}");
    }
}

/// Shares weigh the level: with account 1 given 3 shares, account 2 and
/// the user root one, account 1's level fair-share is (3/5) / (100/150) =
/// 0.9 and account 2's (1/5) / (50/150) = 0.6: after root (4/4), account
/// 1's users rank first (user 2 3/4, user 1 2/4), user 3 last (1/4).
#[test]
fn shares_change_the_ranking() {
    let pairs = [(1, 1), (1, 2), (2, 3)];
    let shares = fairshare::parse_shares("1=3").unwrap();
    let mut tree = Tree::new(pairs.into_iter(), &shares);
    tree.charge(tree.user(1, 1), 100.0);
    tree.charge(tree.user(2, 3), 50.0);
    tree.compute_fair_tree();
    let ft: Vec<f64> = pairs.iter().map(|&(g, u)| tree.fair_tree_factor(tree.user(g, u))).collect();
    assert_eq!(ft, [0.5, 0.75, 0.25]);
    assert!(fairshare::parse_shares("1/x=3").is_err());
    assert!(fairshare::parse_shares("1=3,1=4").is_err());
}

/// Fair-share in a run, with no decay (`PriorityDecayHalfLife=0`) and a
/// decay run every minute: user 1 (account 1) runs J1 on all 64 cores
/// from 0 to 120; at 60 it has used 3840 core-seconds and user 2 (account
/// 2) none, so root and account 2 tie (no usage) and user 2 shares root's
/// rank (factor 3/3) while user 1 is last (1/3). J2 (user 1, at 70) gets
/// priority 333 and J3 (user 2, at 80) 1000: when J1 ends, J3 starts
/// first. Under basic priority J2 does.
#[test]
fn fair_share_puts_the_light_user_first() {
    let rows = [(0, 120, 64, 120, 1, 1), (70, 60, 64, 60, 1, 1), (80, 60, 64, 60, 2, 2)];
    let fs = [
        ("PriorityType", "priority/multifactor"),
        ("PriorityWeightFairshare", "1000"),
        ("PriorityDecayHalfLife", "0"),
        ("PriorityCalcPeriod", "1"),
    ];
    assert_eq!(starts(64, &rows, &with(&EVERY_SECOND, &fs)), [0, 180, 120]);
    assert_eq!(starts(64, &rows, &EVERY_SECOND), [0, 120, 180]);
}

/// Decay with a half-life of 10 minutes: Slurm's factor per second is
/// 1 − 0.693/600 = 0.998845, and a job of 10 cores running the 60 s
/// between two decay runs adds 60 × 0.998845^60 × 10 = 559.80 (0.998845^60
/// = e^(60 ln 0.998845) = e^(−0.069340) = 0.933010), which the next run
/// multiplies by the same 0.933010.
#[test]
fn usage_decays_by_slurms_factor() {
    let rows = [(0, 120, 10, 120, 1, 1), (1, 60, 64, 60, 2, 2)];
    let mut p = policy(&[
        ("PriorityType", "priority/multifactor"),
        ("PriorityWeightFairshare", "1000"),
        ("PriorityDecayHalfLife", "10"),
        ("PriorityCalcPeriod", "1"),
        // Without the lag at ends, so that J2 ends at 180 as counted above.
        ("bf_end_lag", "0"),
        // Limits enforced, so that J1's last minute is charged when it ends.
        ("AccountingStorageEnforce", "limits"),
    ]);
    let jobs = jobs(&rows);
    run(&jobs, &config(64), &mut p, &mut |_| Control::Continue).unwrap();
    let m = p.multifactor.as_ref().unwrap();
    let tree = m.tree.as_ref().unwrap();
    // Runs at 60 (the first: nothing decays; 60 s charged: 559.806), at
    // 120 (J1 ends there first, charging its second minute, 559.806; then
    // everything decays by 0.933009) and at 180, when J2 (user 2) ends,
    // another decay by 0.933009.
    let user1 = tree.usage_of(tree.user(1, 1));
    let want = (559.806 + 559.806) * 0.933009 * 0.933009;
    assert!((user1 - want).abs() < 0.05, "{user1} vs {want}");
}

/// Runs `rows` on 64 cores under multifactor fair-share with a half-life
/// of 2 minutes and a run of the decay thread each minute, `params`
/// replacing or adding to those: the starts, the record's count of events
/// and the policy after the run.
fn long_run(rows: &[Row], params: &[(&str, &str)]) -> (Vec<Time>, u64, Slurm) {
    let base = [
        ("PriorityType", "priority/multifactor"),
        ("PriorityWeightFairshare", "1000"),
        ("PriorityWeightAge", "100"),
        ("PriorityDecayHalfLife", "2"),
        ("PriorityCalcPeriod", "1"),
    ];
    let base = base.iter().filter(|(k, _)| !params.iter().any(|(given, _)| given == k));
    let mut p = policy(&base.chain(params).copied().collect::<Vec<_>>());
    let jobs = jobs(rows);
    let record = run(&jobs, &config(64), &mut p, &mut |_| Control::Continue).unwrap_or_else(|e| panic!("{e}"));
    check(&jobs, &record, &p.guarantees()).unwrap_or_else(|e| panic!("{e}"));
    (record.jobs.iter().map(|r| r.first_start).collect(), record.events, p)
}

/// J1 holds 60 cores for 10^9 s (31 years) while J2, of 64, waits: a run
/// a minute would be 16.7 million. Within a few hundred runs J1's usage
/// reaches its fixed point (each run decays by 0.707 and charges the
/// same), and since no waiting job fits the 4 free cores no run can start
/// one: the runs are skipped until J1 ends.
#[test]
fn settled_decay_runs_are_skipped() {
    let rows = [(0, 1_000_000_000, 60, 1_000_000_000, 1, 1), (10, 60, 64, 60, 2, 2)];
    let (starts, events, _) = long_run(&rows, &[]);
    assert_eq!(starts, [0, 1_000_000_000], "J2 starts at the pass a job end makes");
    assert!(events < 2_000, "{events} events");
}

/// A year without jobs between J1 and J2, half-life 30 days: no timer
/// wakes the decay thread in it; its runs are made when J2 arrives. J1
/// (10 cores, 120 s) is charged 60 × f^60 × 10 at the run at 60 and again
/// when it ends at 120 (limits enforced), f = 1 − 0.693/2,592,000; the runs from 120 to
/// Y + 120 decay that by f^(Y + 60) in all, Y the year: J2 ends at Y + 60,
/// but the backfill cycle sees it until Y + 61 (`bf_end_lag`), so the
/// thread runs once more, at Y + 120.
#[test]
fn idle_stretches_are_made_up_at_the_next_arrival() {
    let year = 365 * 86_400;
    let rows = [(0, 120, 10, 120, 1, 1), (year, 60, 64, 60, 2, 2)];
    let (starts, events, p) =
        long_run(&rows, &[("PriorityDecayHalfLife", "30-0"), ("AccountingStorageEnforce", "limits")]);
    assert_eq!(starts, [0, year]);
    assert!(events < 100, "{events} events");
    let tree = p.multifactor.as_ref().and_then(|m| m.tree.as_ref()).unwrap();
    let f: f64 = 1.0 - 0.693 / 2_592_000.0;
    let want = 1200.0 * f.powi(60) * f.powf((year + 60) as f64);
    let got = tree.usage_of(tree.user(1, 1));
    assert!((got - want).abs() < want * 1e-9, "{got} vs {want}");
}

/// With monthly resets, the settled runs stop at the first run of each
/// month: J1 runs from day 0 to day 100, so the last reset is at
/// 1970-04-01, day 90.
#[test]
fn skipped_runs_stop_at_a_usage_reset() {
    let day = 86_400;
    let rows = [(0, 100 * day, 60, 100 * day, 1, 1), (10, 60, 64, 60, 2, 2)];
    let (starts, events, p) = long_run(&rows, &[("PriorityUsageResetPeriod", "MONTHLY")]);
    assert_eq!(starts[1], 100 * day);
    assert!(events < 5_000, "{events} events");
    assert_eq!(p.multifactor.as_ref().unwrap().last_reset, Some(90 * day));
}

/// A job's last stretch, from the decay thread's last run to its end, is
/// charged only when limits are enforced. J1 (user 1, account 1, all 64
/// cores) runs from 0 to 50, before the thread's first run at 60; J2
/// (user 2, account 2, 8 cores) then runs from 50 to 200 and is charged
/// 10 × 8 = 80 at 60 and 480 at 120 and at 180 (no decay: half-life 0).
/// J3 (user 1) and J4 (user 2), 60 cores each, wait from 130 for J2's
/// cores. Without limits (Slurm's default) J1 is never charged: at 180
/// user 1 has no usage, so account 1 ties with the user root (S/U
/// infinite) and user 1 shares its rank (3/3) while user 2 is last
/// (1/3): J3 starts at 200, J4 when J3 ends at 260. With limits J1's
/// 50 × 64 = 3200 is charged at 50; account 1's level fair-share
/// (1/3)/(3200/4240) is below account 2's (1/3)/(1040/4240), so user 2
/// ranks 2/3 and user 1 1/3: J4 first.
#[test]
fn the_last_stretch_is_charged_only_with_limits() {
    let rows = [(0, 50, 64, 50, 1, 1), (1, 150, 8, 150, 2, 2), (130, 60, 60, 60, 1, 1), (131, 60, 60, 60, 2, 2)];
    let fs = [
        ("PriorityType", "priority/multifactor"),
        ("PriorityWeightFairshare", "1000"),
        ("PriorityDecayHalfLife", "0"),
        ("PriorityCalcPeriod", "1"),
    ];
    let base = with(&EVERY_SECOND, &fs);
    assert_eq!(starts(64, &rows, &base), [0, 50, 200, 260]);
    assert_eq!(starts(64, &rows, &with(&base, &[("AccountingStorageEnforce", "associations")])), [0, 50, 200, 260]);
    assert_eq!(
        starts(64, &rows, &with(&base, &[("AccountingStorageEnforce", "associations,limits")])),
        [0, 50, 260, 200]
    );
}

/// The decay thread runs at its phase within each `PriorityCalcPeriod`.
/// J1 (user 1, all 64 cores) runs from 0 to 50; J2 (user 1) and J3 (user
/// 2), 64 cores each, wait from 10 and 20. At phase 0 the first run is at
/// 60, after J1's end, which is never charged (no limits): when J1 ends
/// the two users still tie (every factor 1 since no run has ranked
/// anyone, the same priority), and the lower job id, J2, starts at 50, J3
/// at 110. At phase 30 the run at 30 charges J1 30 × 64 and ranks user 1
/// last, so J3 starts first. Phase 90 is phase 30 (taken modulo the
/// period).
#[test]
fn the_decay_thread_runs_at_its_phase() {
    let rows = [(0, 50, 64, 50, 1, 1), (10, 60, 64, 60, 1, 1), (20, 60, 64, 60, 2, 2)];
    let fs = [
        ("PriorityType", "priority/multifactor"),
        ("PriorityWeightFairshare", "1000"),
        ("PriorityDecayHalfLife", "0"),
        ("PriorityCalcPeriod", "1"),
    ];
    let base = with(&EVERY_SECOND, &fs);
    assert_eq!(starts(64, &rows, &base), [0, 50, 110]);
    assert_eq!(starts(64, &rows, &with(&base, &[("decay_phase", "30")])), [0, 110, 50]);
    assert_eq!(starts(64, &rows, &with(&base, &[("decay_phase", "90")])), [0, 110, 50]);
}
