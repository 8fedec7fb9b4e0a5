//! The shipped real sample (the first 3000 jobs of the KTH SP2 log) under
//! FCFS, EASY (priority and shortest-first backfill order) and conservative
//! backfilling, with the user's estimates and with exact runtimes, compared
//! job by job with the independent naive simulators of `reference`.

use schedlab::engine::JobRecord;
use schedlab::workload::{read_swf, Job, ReadOptions, Trace};

use crate::reference::{reference_schedule, RefJob, RefPolicy, RefSource};
use crate::support::run;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/kth-sp2-first3000.swf");

/// (engine spec, reference policy, reference runtime source).
const CONFIGS: &[(&str, RefPolicy, RefSource)] = &[
    ("fcfs", RefPolicy::Fcfs, RefSource::Estimate),
    ("easy@estimate", RefPolicy::Easy { shortest: false }, RefSource::Estimate),
    ("easy@exact", RefPolicy::Easy { shortest: false }, RefSource::Exact),
    ("easy:order=shortest@estimate", RefPolicy::Easy { shortest: true }, RefSource::Estimate),
    ("easy:order=shortest@exact", RefPolicy::Easy { shortest: true }, RefSource::Exact),
    ("cbf@estimate", RefPolicy::Cbf, RefSource::Estimate),
    ("cbf@exact", RefPolicy::Cbf, RefSource::Exact),
];

fn sample() -> Trace {
    let file = std::fs::File::open(SAMPLE).unwrap_or_else(|e| panic!("{SAMPLE}: {e}"));
    let loaded = read_swf(file, &ReadOptions::default()).unwrap_or_else(|e| panic!("{SAMPLE}: {e}"));
    assert_eq!(loaded.trace.jobs.len(), 3000, "the sample holds 3000 jobs");
    loaded.trace
}

fn config(spec: &str) -> (RefPolicy, RefSource) {
    let &(_, p, s) = CONFIGS.iter().find(|c| c.0 == spec).expect("known config");
    (p, s)
}

/// The fields compared for every job, as (name, engine value, reference value).
fn fields(e: &JobRecord, r: &RefJob, reservations: bool) -> Vec<(&'static str, String, String)> {
    let mut v = vec![
        ("first_start", e.first_start.to_string(), r.start.to_string()),
        ("start", e.start.to_string(), r.start.to_string()),
        ("end", e.end.to_string(), r.end.to_string()),
        ("backfilled", e.backfilled.to_string(), r.backfilled.to_string()),
        ("blocked", e.blocked.to_string(), r.blocked.to_string()),
        ("fair_start", format!("{:?}", e.fair_start), format!("{:?}", r.fair_start)),
        ("starts", e.starts.to_string(), "1".to_string()),
    ];
    if reservations {
        v.push(("first_reservation", format!("{:?}", e.first_reservation), format!("{:?}", r.first_reservation)));
    }
    v
}

/// Runs the engine and the reference on the sample; panics naming the first
/// job on which they differ (and how many jobs differ in all).
fn check(spec: &str) {
    let trace = sample();
    let (policy, source) = config(spec);
    let engine = run(&trace, spec);
    let reference = reference_schedule(&trace.jobs, trace.procs, policy, source);
    assert_eq!(engine.record.jobs.len(), reference.len(), "{spec}: job count");
    let reservations = !matches!(policy, RefPolicy::Fcfs);
    let mut first: Option<String> = None;
    let mut differing = 0usize;
    for (i, (e, r)) in engine.record.jobs.iter().zip(&reference).enumerate() {
        let diffs: Vec<String> = fields(e, r, reservations)
            .into_iter()
            .filter(|(_, a, b)| a != b)
            .map(|(name, a, b)| format!("{name}: engine {a}, reference {b}"))
            .collect();
        if diffs.is_empty() {
            continue;
        }
        differing += 1;
        if first.is_none() {
            let j: &Job = &trace.jobs[i];
            first = Some(format!(
                "job index {i} (id {}, submit {}, runtime {}, estimate {}, size {}): {}",
                j.id,
                j.submit,
                j.runtime,
                j.estimate,
                j.size,
                diffs.join("; ")
            ));
        }
    }
    if let Some(first) = first {
        panic!("{spec}: {differing} of {} jobs differ from the reference; first: {first}", reference.len());
    }
}

#[test]
fn golden_fcfs() {
    check("fcfs");
}

#[test]
fn golden_easy_estimate() {
    check("easy@estimate");
}

#[test]
fn golden_easy_exact() {
    check("easy@exact");
}

#[test]
fn golden_easy_shortest_estimate() {
    check("easy:order=shortest@estimate");
}

#[test]
fn golden_easy_shortest_exact() {
    check("easy:order=shortest@exact");
}

#[test]
fn golden_cbf_estimate() {
    check("cbf@estimate");
}

#[test]
fn golden_cbf_exact() {
    check("cbf@exact");
}

/// (MBS, MWBS) of a schedule, bounded slowdown with a 10 s threshold,
/// computed here from the reference schedule alone.
fn bounded_slowdowns(jobs: &[Job], sched: &[RefJob]) -> (f64, f64) {
    let (mut sum, mut weighted, mut weight) = (0.0f64, 0.0f64, 0.0f64);
    for (j, r) in jobs.iter().zip(sched) {
        let wait = r.end - j.submit - j.runtime;
        let bound = j.runtime.max(10) as f64;
        let bsd = (wait as f64 + bound) / bound;
        sum += bsd;
        weighted += bsd * f64::from(j.size);
        weight += f64::from(j.size);
    }
    (sum / jobs.len() as f64, weighted / weight)
}

#[test]
fn golden_mbs_and_mwbs_match_the_reference() {
    let trace = sample();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    let mut failures = Vec::new();
    for &(spec, policy, source) in CONFIGS {
        let reference = reference_schedule(&trace.jobs, trace.procs, policy, source);
        let (mbs, mwbs) = bounded_slowdowns(&trace.jobs, &reference);
        let m = run(&trace, spec).metrics;
        assert_eq!(m.jobs, trace.jobs.len(), "{spec}: every job counts");
        if !close(m.mbs, mbs) || !close(m.mwbs, mwbs) {
            failures.push(format!("{spec}: engine MBS {} MWBS {}, reference MBS {mbs} MWBS {mwbs}", m.mbs, m.mwbs));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
