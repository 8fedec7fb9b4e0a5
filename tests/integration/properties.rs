//! Property tests over random traces: the run checker holds for every
//! policy and runtime source, and each policy's guarantee holds, verified
//! here again by the test's own code rather than only by the checker.

use proptest::prelude::*;
use schedlab::engine::{Control, RunRecord};
use schedlab::experiment::{self, RunOutcome};
use schedlab::workload::Trace;

use crate::support::{request, trace, Row};

const SPECS: &[&str] = &[
    "fcfs",
    "easy",
    "easy@exact",
    "easy@last",
    "easy@tsafrir",
    "easy:error=40@virtual",
    "easy:order=shortest",
    "easy:order=shortest@exact",
    "easy:order=shortest@tsafrir",
    "easy:order=shortest,error=90@virtual",
    "cbf",
    "cbf@exact",
    "cbf@last",
    "cbf@tsafrir",
    "cbf:error=60@virtual",
    "slack",
    "slack@exact",
    "slack:heuristic=dc,scenario=every-kth,k=3@last",
    "slack:heuristic=du,sf=1,max_moved=4",
    "selective",
    "selective:variant=sel-d",
    "selective@exact",
    "selective:threshold=1.5@tsafrir",
    "dbf",
    "dbf:fraction=0.8,min_deadline=100,deadline_factor=2",
    "dbf:fraction=0.5,error=30@virtual",
    "dbf:fraction=0.5,share_mode=exact",
    "easy:overrun=stale@last",
    "cbf:overrun=double@tsafrir",
    "easy:order=shortest,error=60,overrun=double@virtual",
    "backfill",
    "backfill:depth=0,order=saf",
    "backfill:depth=2,order=wfp3@exact",
    "backfill:depth=3,order=sjf@last",
    "backfill:depth=all,order=unicep,overrun=stale@tsafrir",
    "backfill:depth=all,order=f1",
    "backfill:depth=2,order=predicted * procs - free,direction=highest,error=40@virtual",
    "backfill:fill=none,order=sjf",
    "backfill:fill=hold,order=wfp3@last",
    "slurm",
    "slurm:bf_interval=1,bf_resolution=1,sched_interval=1",
    "slurm:bf_interval=7,bf_resolution=5,sched_interval=13,batch_sched_delay=0,bf_window=2,bf_max_job_test=3",
    "slurm:bf_interval=1,bf_resolution=1,bf_min_age_reserve=30,bf_max_job_user=1,default_queue_depth=1",
    "slurm:PriorityType=priority/multifactor,PriorityWeightAge=1000,PriorityWeightFairshare=5000,PriorityWeightJobSize=300,PriorityMaxAge=5,PriorityCalcPeriod=1,PriorityDecayHalfLife=3,bf_interval=1,bf_resolution=1",
    "slurm:PriorityType=priority/multifactor,PriorityWeightFairshare=5000,PriorityFlags=NO_FAIR_TREE,PriorityCalcPeriod=1,PriorityDecayHalfLife=0,PriorityUsageResetPeriod=DAILY",
    "slurm:PriorityType=priority/multifactor,PriorityWeightJobSize=1000,PriorityFavorSmall=YES,PriorityFlags=SMALL_RELATIVE_TO_TIME",
    "slurm:PriorityType=priority/multifactor,PriorityWeightAge=100,PriorityWeightFairshare=5000,PriorityCalcPeriod=1,PriorityDecayHalfLife=3,decay_phase=17,AccountingStorageEnforce=limits,bf_interval=1,bf_resolution=1",
];

/// Random traces: bursts of simultaneous arrivals, jobs up to the whole
/// machine, zero-length jobs, exact and generous estimates, a few users so
/// that history-based predictors have something to learn from.
pub(crate) fn traces() -> impl Strategy<Value = Trace> {
    (1u32..=16).prop_flat_map(|procs| {
        let job = (0i64..3, 0i64..40, 0i64..300, 1u32..=procs, 0i64..3, 0i64..400, 0i32..4);
        proptest::collection::vec(job, 1..40).prop_map(move |raw| {
            let mut submit = 0;
            let rows: Vec<Row> = raw
                .into_iter()
                .map(|(burst, gap, runtime, size, exactness, slack, user)| {
                    submit += if burst == 0 { 0 } else { gap };
                    let estimate = if exactness == 0 { runtime.max(1) } else { runtime + slack + 1 };
                    (submit, runtime, size, estimate, user)
                })
                .collect();
            trace(procs, &rows)
        })
    })
}

pub(crate) fn run_checked(t: &Trace, spec: &str, seed: u64) -> Result<RunOutcome, String> {
    let mut req = request(spec);
    req.seed = seed;
    let settings = experiment::resolve(&req).map_err(|e| e.to_string())?;
    experiment::run(t, &settings, &mut |_| Control::Continue).map_err(|e| format!("{spec}: {e}"))
}

fn starts_in_priority_order(r: &RunRecord) -> bool {
    r.jobs.windows(2).all(|w| w[0].first_start <= w[1].first_start)
}

fn no_start_after_first_reservation(r: &RunRecord) -> bool {
    r.jobs.iter().all(|j| j.first_reservation.is_none_or(|res| j.first_start <= res))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_policy_passes_the_run_checker(t in traces(), seed in 0u64..1000) {
        for spec in SPECS {
            let out = run_checked(&t, spec, seed);
            prop_assert!(out.is_ok(), "{}", out.err().unwrap_or_default());
        }
    }

    #[test]
    fn fcfs_starts_jobs_in_priority_order(t in traces()) {
        let out = run_checked(&t, "fcfs", 0).map_err(TestCaseError::fail)?;
        prop_assert!(starts_in_priority_order(&out.record));
    }

    #[test]
    fn easy_with_estimates_starts_its_blocked_head_by_its_reservation(t in traces()) {
        for spec in ["easy", "easy:order=shortest", "easy@exact"] {
            let out = run_checked(&t, spec, 0).map_err(TestCaseError::fail)?;
            let r = &out.record;
            prop_assert!(no_start_after_first_reservation(r), "{spec}");
            // Only blocked heads get a reservation under EASY.
            prop_assert!(r.jobs.iter().all(|j| j.first_reservation.is_none() || j.blocked), "{spec}");
        }
    }

    #[test]
    fn cbf_with_estimates_never_starts_a_job_after_its_first_reservation(t in traces()) {
        for spec in ["cbf", "cbf@exact"] {
            let out = run_checked(&t, spec, 0).map_err(TestCaseError::fail)?;
            prop_assert!(out.record.jobs.iter().all(|j| j.first_reservation.is_some()), "{spec}: every job is placed");
            prop_assert!(no_start_after_first_reservation(&out.record), "{spec}");
        }
    }

    #[test]
    fn fcfs_never_delays_anyone_unfairly(t in traces()) {
        // FCFS runs no lower-priority job while a higher one waits, so both
        // strict-fairness audits (the head's and every job's) must read zero.
        let out = run_checked(&t, "fcfs", 0).map_err(TestCaseError::fail)?;
        prop_assert_eq!(out.metrics.fairness.delayed, 0);
        prop_assert_eq!(out.metrics.fairness_all.delayed, 0);
        prop_assert_eq!(out.metrics.backfilled, 0);
    }
}

/// PV-EASY in every preemption mode and with several runtime sources.
const PV_EASY: &[&str] = &[
    "pv-easy",
    "pv-easy@estimate",
    "pv-easy@exact",
    "pv-easy:error=50@virtual",
    "pv-easy:mode=checkpoint,interval=40,cost=7",
    "pv-easy:mode=checkpoint,interval=100,cost=0@tsafrir",
    "pv-easy:mode=suspend,slowdown=5,cost=9",
    "pv-easy:mode=suspend,slowdown=20,cost=0@exact",
    "pv-easy:venture=off",
    "pv-easy:venture=off,mode=checkpoint,interval=40,cost=7@estimate",
    "pv-easy:overrun=stale@last",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The checker (which verifies strict fairness itself for PV-EASY) holds,
    /// the fairness audit reads zero and no reservation is violated.
    #[test]
    fn pv_easy_is_strictly_fair_in_every_mode(t in traces(), seed in 0u64..1000) {
        for spec in PV_EASY {
            let out = run_checked(&t, spec, seed).map_err(TestCaseError::fail)?;
            prop_assert_eq!(out.metrics.fairness.delayed, 0, "{}", spec);
            prop_assert_eq!(out.metrics.reservation_violations.count, 0, "{}", spec);
        }
    }
}
