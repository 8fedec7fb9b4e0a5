use proptest::prelude::*;
use schedlab_engine::params::{Checked, Params};
use schedlab_engine::{check, run, Control, EngineError, Overrun, RunConfig, RuntimeSource, Time};
use schedlab_profile::Profile;
use schedlab_workload::Job;

use super::*;
use crate::Categories;

/// Jobs from (submit, runtime, size, estimate), numbered 1, 2, … in order.
fn jobs(rows: &[(Time, Time, u32, Time)]) -> Vec<Job> {
    let job = |(i, &(submit, runtime, size, estimate)): (usize, &(Time, Time, u32, Time))| Job {
        id: i as u64 + 1,
        submit,
        runtime,
        size,
        estimate,
        user: (i % 3) as i32,
        group: -1,
        queue: -1,
        partition: -1,
        status: 1,
    };
    rows.iter().enumerate().map(job).collect()
}

/// A policy of `params` with `source`.
fn backfill(params: &[(&str, &str)], source: RuntimeSource) -> Backfill {
    let given: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let values = Params::resolve(INFO.params, &given).unwrap_or_else(|e| panic!("{e}"));
    let settings = PolicySettings { source, seed: 0, calibration: None, categories: Categories::default() };
    Backfill::new(&BackfillParams::read(&values), &settings)
}

fn config(procs: u32, source: RuntimeSource) -> RunConfig {
    RunConfig { procs, source, overrun: Overrun::Estimate, seed: 0, progress_every: 0 }
}

/// First starts of a run of `params` on `rows`, checked.
fn starts(procs: u32, rows: &[(Time, Time, u32, Time)], params: &[(&str, &str)]) -> Result<Vec<Time>, EngineError> {
    let jobs = jobs(rows);
    let mut policy = backfill(params, RuntimeSource::Estimate);
    let record = run(&jobs, &config(procs, RuntimeSource::Estimate), &mut policy, &mut |_| Control::Continue)?;
    check(&jobs, &record, &policy.guarantees()).unwrap_or_else(|e| panic!("{e}"));
    Ok(record.jobs.iter().map(|r| r.first_start).collect())
}

/// Ten processors. J1 (6 processors, 100 s) starts at 0; J2 (8, 50 s)
/// is blocked and reserved at 100, when J1 ends, leaving 2 extra
/// processors; J3 (9, 100 s) is blocked too; J4 (2, 200 s) fits now.
///
/// EASY (depth 1) backfills J4 at 3 on the extra processors, since only J2
/// holds a reservation; J3 then waits for J4 and starts at 203.
/// At depth 2, J3 is reserved at 150 (after J2, as 9 processors are not
/// free before), and J4, running until 203, would take 2 of the 10 at 150:
/// it would delay J3, so it waits. At 100 J2 starts, J3 stays reserved at
/// 150 and J4 is reserved at 250 (1 processor is free while J3 runs); J3
/// starts at 150 and J4 at 250.
#[test]
fn a_second_reservation_stops_a_backfill_that_easy_allows() {
    let rows = [(0, 100, 6, 100), (1, 50, 8, 50), (2, 100, 9, 100), (3, 200, 2, 200)];
    assert_eq!(starts(10, &rows, &[("depth", "1")]).unwrap(), vec![0, 100, 203, 3]);
    assert_eq!(starts(10, &rows, &[("depth", "2")]).unwrap(), vec![0, 100, 150, 250]);
    assert_eq!(starts(10, &rows, &[("depth", "all")]).unwrap(), vec![0, 100, 150, 250]);
}

/// Depth 0 is first fit: J3 (4 processors, 500 s) starts at 2 on the 4
/// idle processors although it delays blocked J2 to 502; EASY keeps J2's
/// reservation at 100 (J3 would end after it and needs more than the 2
/// extra processors).
#[test]
fn depth_zero_is_first_fit() {
    let rows = [(0, 100, 6, 100), (1, 50, 8, 50), (2, 500, 4, 500)];
    assert_eq!(starts(10, &rows, &[("depth", "0")]).unwrap(), vec![0, 502, 2]);
    assert_eq!(starts(10, &rows, &[("depth", "1")]).unwrap(), vec![0, 100, 150]);
}

/// Four processors, J1 holds all of them until 10; J2 (1 processor) and
/// J3 (4) wait. `1 / (procs - 1)` gives J2 1/0 = +∞ and J3 1/3, so J3
/// goes first and J2 follows at 20; `log(procs - 1)` gives J2 log 0 = −∞,
/// first; `highest` turns that round.
#[test]
fn division_by_zero_and_log_of_zero_are_ordered() {
    let rows = [(0, 10, 4, 10), (1, 10, 1, 10), (1, 10, 4, 10)];
    assert_eq!(starts(4, &rows, &[("order", "1 / (procs - 1)")]).unwrap(), vec![0, 20, 10]);
    assert_eq!(starts(4, &rows, &[("order", "log(procs - 1)")]).unwrap(), vec![0, 10, 20]);
    let highest = [("order", "log(procs - 1)"), ("direction", "highest")];
    assert_eq!(starts(4, &rows, &highest).unwrap(), vec![0, 20, 10]);
}

#[test]
fn a_nan_score_stops_the_run_naming_job_time_and_formula() {
    let rows = [(0, 10, 4, 10), (5, 10, 1, 10)];
    let err = starts(4, &rows, &[("order", "log(procs - 1) * 0")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the order formula `log(procs - 1) * 0` gives NaN for job 2 at t=5; a NaN score cannot be ordered"
    );
}

/// A dynamic order (longest wait first, i.e. FCFS written with `wait`)
/// gives the schedule of the static FCFS order.
#[test]
fn a_formula_of_the_wait_is_scored_again_at_every_pass() {
    let rows = [(0, 100, 6, 100), (1, 50, 8, 50), (2, 100, 9, 100), (3, 200, 2, 200), (4, 30, 3, 30)];
    for depth in ["0", "1", "2", "all"] {
        let fcfs = starts(10, &rows, &[("depth", depth)]).unwrap();
        let by_wait = starts(10, &rows, &[("depth", depth), ("order", "-wait")]).unwrap();
        assert_eq!(by_wait, fcfs, "depth {depth}");
    }
}

/// Wraps the policy and checks, after every pass, that the reservations
/// the pass made still fit together with every running job (those it
/// backfilled included) in a profile built afresh from the machine's
/// expected ends: no backfilled job delays a reservation of its pass.
struct Probe {
    policy: Backfill,
    passes_with_reservations: usize,
}

impl Policy for Probe {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.policy.schedule(sim, happened)?;
        assert!(self.policy.plan.len() <= self.policy.depth);
        let mut profile = Profile::new(sim.now(), sim.procs());
        for (end, j) in sim.running() {
            profile.allocate(sim.now(), end - sim.now(), sim.job(j).size);
        }
        for &(j, start, duration) in &self.policy.plan {
            assert!(sim.is_waiting(j), "job {j} is reserved and waiting");
            assert!(start > sim.now(), "a reservation lies in the future");
            profile.allocate(start, duration, sim.job(j).size);
            assert!(!profile.is_overcommitted(), "at t={}, job {j} reserved at {start} is delayed", sim.now());
        }
        self.passes_with_reservations += usize::from(!self.policy.plan.is_empty());
        Ok(())
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        self.policy.guarantees()
    }
}

const ORDERS: [&str; 6] = ["fcfs", "sjf", "saf", "largest", "wfp3", "-wait * procs + free - queued"];
const DEPTHS: [&str; 5] = ["0", "1", "2", "3", "all"];
const SOURCES: [RuntimeSource; 3] = [RuntimeSource::Estimate, RuntimeSource::Last, RuntimeSource::Exact];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn no_backfilled_job_delays_a_reservation_of_its_pass(
        rows in prop::collection::vec((0i64..40, 0i64..60, 1u32..=8, 0i64..60), 1..40),
        order in 0..ORDERS.len(),
        depth in 0..DEPTHS.len(),
        source in 0..SOURCES.len(),
        stale in any::<bool>(),
    ) {
        let mut rows = rows;
        for r in &mut rows {
            r.3 = r.1 + r.3 + 1;
        }
        rows.sort_by_key(|r| r.0);
        let jobs = jobs(&rows);
        let source = SOURCES[source];
        let policy = backfill(&[("order", ORDERS[order]), ("depth", DEPTHS[depth])], source);
        let mut probe = Probe { policy, passes_with_reservations: 0 };
        let mut config = config(8, source);
        if stale {
            config.overrun = Overrun::Stale;
        }
        let record = run(&jobs, &config, &mut probe, &mut |_| Control::Continue).expect("the run completes");
        check(&jobs, &record, &probe.guarantees()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if DEPTHS[depth] == "0" {
            prop_assert_eq!(probe.passes_with_reservations, 0);
        }
    }
}

/// Ten processors; J1 (6 processors, 100 s) starts at 0 and J2 (8, 50 s)
/// is blocked until 100. J3 (2 processors, 10 s) fits in the 4 idle ones
/// and ends long before 100: EASY backfills it at 2. In strict order
/// (`fill=none`) nothing passes J2, so J3 waits for J2: J2 runs 100–150 on
/// 8 processors, leaving 2, where J3 starts at 100.
#[test]
fn strict_order_lets_no_job_pass_the_blocked_one() {
    let rows = [(0, 100, 6, 100), (1, 50, 8, 50), (2, 10, 2, 10)];
    assert_eq!(starts(10, &rows, &[("depth", "1")]).unwrap(), vec![0, 100, 2]);
    assert_eq!(starts(10, &rows, &[("fill", "none")]).unwrap(), vec![0, 100, 100]);
    // The depth does not apply in strict order.
    assert_eq!(starts(10, &rows, &[("fill", "none"), ("depth", "all")]).unwrap(), vec![0, 100, 100]);
}

/// Strict order by requested time (SJF) re-sorts at each pass, with scores
/// fixed at arrival or computed again (`requested + 0 * wait`): four
/// processors, J1 (4 processors, 100 s) holds all; J2 (3, 50 s) arrives at
/// 1, J3 (2, 20 s) at 2 and J4 (1, 30 s) at 3. At 100 the order is J3
/// (20 s), J4 (30 s), J2 (50 s): J3 and J4 start on 3 of the 4, and J2,
/// next, does not fit in the 1 left; when J3 ends at 120, 3 are free and
/// J2 starts. (In FCFS order J2 would have started first, at 100.)
#[test]
fn strict_order_follows_the_score() {
    let rows = [(0, 100, 4, 100), (1, 50, 3, 50), (2, 20, 2, 20), (3, 30, 1, 30)];
    for order in ["sjf", "requested + 0 * wait"] {
        let params = [("fill", "none"), ("order", order)];
        assert_eq!(starts(4, &rows, &params).unwrap(), vec![0, 120, 100, 100], "{order}");
    }
}

/// `fill=hold` keeps the job that did not fit first until it starts. Four
/// processors, SJF order: J1 (4 processors, 100 s) holds all; J2 (3, 50 s)
/// arrives at 1 and is blocked; J3 (2, 20 s) arrives at 2 with a better
/// score. Under `none`, at 100 J3 goes first on 2 processors, J2 does not
/// fit in the 2 left and starts when J3 ends, at 120. Under `hold`, J2 was
/// the blocked job, so it starts first at 100 on 3 of the 4; J3 does not
/// fit in the 1 left and starts when J2 ends, at 150.
#[test]
fn hold_keeps_the_blocked_job_first_until_it_starts() {
    let rows = [(0, 100, 4, 100), (1, 50, 3, 50), (2, 20, 2, 20)];
    for order in ["sjf", "requested + 0 * wait"] {
        let none = [("fill", "none"), ("order", order)];
        let hold = [("fill", "hold"), ("order", order)];
        assert_eq!(starts(4, &rows, &none).unwrap(), vec![0, 120, 100], "{order}");
        assert_eq!(starts(4, &rows, &hold).unwrap(), vec![0, 100, 150], "{order}");
    }
}

const OVERRUNS: [Overrun; 3] = [Overrun::Estimate, Overrun::Stale, Overrun::Double];
const ALL_SOURCES: [RuntimeSource; 5] = [
    RuntimeSource::Estimate,
    RuntimeSource::Exact,
    RuntimeSource::Last,
    RuntimeSource::Tsafrir,
    RuntimeSource::Virtual { error_pct: 40.0 },
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// At depth 0 and 1 a pass plans from the running jobs alone (the
    /// shadow time and the extra processors); the same pass through a
    /// profile of every running job and reservation (the book, as at
    /// depth 2 and more) must give the same run record, reservations
    /// included, whatever the order, runtime source, overrun rule and fill
    /// (strict order plans at depth 1), with
    /// zero-length jobs and jobs that outlive their predictions among them.
    #[test]
    fn depth_one_without_a_profile_is_depth_one_with_one(
        rows in prop::collection::vec((0i64..40, 0i64..60, 1u32..=8, 0i64..60), 1..40),
        order in 0..ORDERS.len(),
        depth in 0..2usize,
        source in 0..ALL_SOURCES.len(),
        overrun in 0..OVERRUNS.len(),
        fill in 0..3usize,
    ) {
        let mut rows = rows;
        rows.sort_by_key(|r| r.0);
        let jobs = jobs(&rows);
        let source = ALL_SOURCES[source];
        let mut config = config(8, source);
        config.overrun = OVERRUNS[overrun];
        let fill = ["backfill", "none", "hold"][fill];
        let params = [("order", ORDERS[order]), ("depth", DEPTHS[depth]), ("fill", fill)];
        let mut fast = backfill(&params, source);
        prop_assert!(!fast.by_book);
        let mut profiled = backfill(&params, source);
        profiled.by_book = true;
        let a = run(&jobs, &config, &mut fast, &mut |_| Control::Continue);
        let b = run(&jobs, &config, &mut profiled, &mut |_| Control::Continue);
        prop_assert_eq!(a, b);
    }
}

/// Whether the order is first come, first served is decided by the
/// compiled formula, not its text: the preset's name and its formula
/// `submit` both give EASY's guarantee that the blocked job starts no later
/// than its first reservation; `-submit` and the highest-first direction
/// do not.
#[test]
fn fcfs_is_recognised_by_its_formula() {
    let keeps = |params: &[(&str, &str)]| {
        backfill(params, RuntimeSource::Estimate).guarantees().contains(&Guarantee::NoLaterThanFirstReservation)
    };
    assert!(keeps(&[("order", "fcfs")]));
    assert!(keeps(&[("order", " submit ")]));
    assert!(!keeps(&[("order", "-submit")]));
    assert!(!keeps(&[("order", "fcfs"), ("direction", "highest")]));
}

/// An order that does not compile, built without being resolved (which
/// checks it), fails the run at its first pass with the compiler's message
/// instead of running first come, first served in its place.
#[test]
fn an_order_that_does_not_compile_fails_the_run() {
    let jobs = jobs(&[(0, 10, 1, 10)]);
    let values = Params::resolve(INFO.params, &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut p = BackfillParams::read(&values);
    p.order = Checked::new("wait +", order_formula);
    let settings = PolicySettings {
        source: RuntimeSource::Estimate,
        seed: 0,
        calibration: None,
        categories: Categories::default(),
    };
    let mut policy = Backfill::new(&p, &settings);
    let config = config(4, RuntimeSource::Estimate);
    let e = run(&jobs, &config, &mut policy, &mut |_| Control::Continue).unwrap_err();
    assert!(matches!(&e, EngineError::Unbuildable { policy: "backfill", .. }), "{e}");
    assert!(e.to_string().starts_with("policy `backfill` cannot run with these parameters: "), "{e}");
}

/// Formulas of product form for the comparison of the merge with the
/// naive order: the presets, ties by construction (`now / requested`), job
/// parts of zero and of both signs (`procs - 4`), clock parts that pass
/// through zero and below (`wait - 50`, `free`, `queued - 3`), negative
/// powers (NaN where the wait is 0 and the job part is 0), and a sum
/// inside a job factor.
const CLOCKED_ORDERS: [&str; 10] = [
    "wfp3",
    "unicep",
    "now / requested",
    "-wait * (procs - 4)",
    "-(wait - 50) * procs / requested",
    "wait^-2 * (requested - 2)",
    "free * wait / procs",
    "(queued - 3) * wait * requested",
    "-(wait / (requested + procs))^3 * sqrt(procs)",
    "-log(wait) * procs",
];

/// Rows (submit, runtime, size, estimate) submitted in few distinct
/// seconds, so that the merge by second is used, with runtimes and
/// estimates from short lists, so that scores often tie.
fn clustered_rows() -> impl Strategy<Value = Vec<(Time, Time, u32, Time)>> {
    let row = (
        prop::sample::select(vec![0, 0, 0, 5, 5, 30, 31, 200]),
        prop::sample::select(vec![0, 1, 2, 3, 10, 60]),
        1u32..=8,
        prop::sample::select(vec![1, 1, 2, 3, 10]),
    )
        .prop_map(|(submit, runtime, size, ratio): (Time, Time, u32, Time)| {
            (submit, runtime, size, (runtime * ratio).max(1))
        });
    prop::collection::vec(row, 1..60).prop_map(|mut rows| {
        rows.sort_by_key(|r| r.0);
        rows
    })
}

/// The run record of `params` on `rows`, with the merge by second
/// (`always`: at every pass, however dear) or with every waiting job scored
/// at every pass.
fn clocked_record(
    rows: &[(Time, Time, u32, Time)],
    params: &[(&str, &str)],
    source: RuntimeSource,
    (clocked, always): (bool, bool),
) -> Result<schedlab_engine::RunRecord, EngineError> {
    let jobs = jobs(rows);
    let mut policy = backfill(params, source);
    assert!(policy.clocked, "{params:?} is of product form");
    policy.clocked = clocked;
    if always {
        policy.dear = 0;
    }
    let record = run(&jobs, &config(8, source), &mut policy, &mut |_| Control::Continue)?;
    assert_eq!(policy.clock.is_some(), clocked);
    check(&jobs, &record, &policy.guarantees()).unwrap_or_else(|e| panic!("{e}"));
    Ok(record)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The merge by second gives exactly the runs of the naive order
    /// (every waiting job scored at every pass): the same starts, the same
    /// reservations, the same NaN errors, for every order of product form,
    /// direction, depth and fill, under a fixed and a learning source,
    /// merging at every pass or only while merges pay.
    #[test]
    fn the_merge_by_second_decides_as_scoring_every_job(
        rows in clustered_rows(),
        order in prop::sample::select(CLOCKED_ORDERS.to_vec()),
        direction in prop::sample::select(vec!["lowest", "highest"]),
        depth in prop::sample::select(vec!["0", "1", "2", "8", "all"]),
        fill in prop::sample::select(vec!["backfill", "backfill", "none", "hold"]),
        learns in any::<bool>(),
        always in any::<bool>(),
    ) {
        let params = [("order", order), ("direction", direction), ("depth", depth), ("fill", fill)];
        let source = if learns { RuntimeSource::Last } else { RuntimeSource::Estimate };
        let naive = clocked_record(&rows, &params, source, (false, false));
        let merged = clocked_record(&rows, &params, source, (true, always));
        prop_assert_eq!(merged, naive);
    }
}

/// A longer case than the randomized one: 1,500 jobs in three seconds on
/// 64 processors (so the treaps are deep and a pass reaches few of the
/// waiting jobs), with estimates 1 to 10 times the runtime; WFP3 and
/// UNICEP at depth 8 decide exactly as scoring every job.
#[test]
fn a_long_backlog_is_merged_as_scoring_every_job_orders_it() {
    let mut rng = schedlab_engine::SplitMix64::new(7);
    let mut draw = |n: u64| rng.next_u64() % n;
    let mut rows: Vec<(Time, Time, u32, Time)> = (0..1500)
        .map(|_| {
            let runtime = 1 + draw(3600) as Time;
            let size = 1 << draw(7);
            (draw(3) as Time * 600, runtime, size, runtime * (1 + draw(10) as Time))
        })
        .collect();
    rows.sort_by_key(|r| r.0);
    for order in ["wfp3", "unicep"] {
        let params = [("order", order), ("depth", "8")];
        let record = |clocked| {
            let jobs = jobs(&rows);
            let mut policy = backfill(&params, RuntimeSource::Estimate);
            policy.clocked = clocked;
            policy.dear = 0;
            let config = config(64, RuntimeSource::Estimate);
            run(&jobs, &config, &mut policy, &mut |_| Control::Continue).expect("no NaN")
        };
        assert!(record(true) == record(false), "{order}: the merge moved a job");
    }
}

/// The FCFS order is found by its tree, without compiling `submit` at every
/// build: the test is the one the tree of the compiled formula gives.
#[test]
fn the_submit_order_is_known_by_its_tree() {
    for text in ["submit", "fcfs", " submit", "(submit)", "-submit", "submit + 0", "wait"] {
        let formula = order_formula(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(is_submit_order(&formula), formula.tree() == submit_order().tree(), "{text}");
    }
    assert!(is_submit_order(&order_formula("fcfs").unwrap()));
}
