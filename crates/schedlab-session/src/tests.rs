//! The session on a trace small enough to schedule by hand, and its
//! errors' kinds.

use schedlab_engine::{Control, Progress};
use schedlab_experiment::{Experiment, RunRequest, RunSpec, WorkloadOptions};

use schedlab_metrics::{Metric, MetricKey};

use crate::{ErrorKind, Export, Phase, Session};

/// Four processors. Job 1 takes 3 of them for 100 s from t=0; job 2 needs
/// all 4 and arrives at t=10; job 3 needs 1 for 50 s and arrives at t=20.
/// Under FCFS job 2 waits for job 1 (starts at 100, ends at 200) and job 3
/// waits behind job 2 (starts at 200); under EASY job 3 fits beside job 1
/// and ends (t=70) before job 2's reservation at 100, so it starts at once.
const TRACE: &str = "; MaxProcs: 4\n\
    1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 1 -1 -1 -1\n\
    2 10 -1 100 4 -1 -1 4 100 -1 1 2 1 -1 1 -1 -1 -1\n\
    3 20 -1 50 1 -1 -1 1 50 -1 1 3 1 -1 1 -1 -1 -1\n";

fn session() -> Session {
    Session::load(TRACE.as_bytes(), "three.swf", WorkloadOptions::default()).unwrap()
}

fn go(_: Phase, _: Progress) -> Control {
    Control::Continue
}

fn starts(s: &Session, policy: &str) -> Vec<i64> {
    let run = s.run(&RunRequest { policy: policy.into(), ..Default::default() }, &mut go).unwrap();
    let csv = s.export_text(&run, Export::JobsCsv).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let start = header.iter().position(|h| *h == "start").unwrap();
    lines.map(|l| l.split(',').nth(start).unwrap().parse().unwrap()).collect()
}

#[test]
fn runs_schedule_the_trace_as_by_hand() {
    let s = session();
    assert_eq!(s.identity().jobs, 3);
    assert_eq!(s.identity().procs, 4);
    assert_eq!(starts(&s, "fcfs"), [0, 100, 200]);
    assert_eq!(starts(&s, "easy"), [0, 100, 20]);
}

#[test]
fn every_export_of_a_run_is_made() {
    let s = session();
    let run = s.run(&RunRequest { policy: "easy".into(), ..Default::default() }, &mut go).unwrap();
    assert_eq!(run.title(), "EASY");
    let swf = s.export_text(&run, Export::ScheduleSwf).unwrap();
    // Job 3's line: submitted at 20, waited 0 s, ran 50 s.
    assert!(swf.lines().any(|l| l.split_whitespace().take(4).eq(["3", "20", "0", "50"])), "{swf}");
    let batsim = s.export_text(&run, Export::BatsimJobs).unwrap();
    assert_eq!(batsim.lines().count(), 4, "{batsim}");
    assert!(s.schedule_svg(&run, None).unwrap().starts_with("<svg"));
    let doc = s.document(&run, None);
    assert_eq!((doc.policy, doc.check), ("easy", "passed"));
}

#[test]
fn an_experiment_runs_every_point_once_planned() {
    let s = session();
    let e = Experiment::of(vec![RunSpec::parse("fcfs").unwrap(), RunSpec::parse("easy").unwrap()]);
    let plan = s.plan(e).unwrap();
    let mut seen = Vec::new();
    let result = s
        .run_experiment(&plan, None, &mut |i, report| {
            seen.push((i, report.is_some()));
            Control::Continue
        })
        .unwrap();
    // Each point is announced (no report) before its run's reports.
    assert_eq!(seen, [(0, false), (0, true), (1, false), (1, true)]);
    assert_eq!(result.points.len(), 2);
    assert_eq!(result.summary.len(), 2);
    // Mean wait: FCFS (0 + 90 + 180) / 3 = 90 s; EASY (0 + 90 + 0) / 3 = 30 s.
    let wait = |run: usize| result.summary[run].mean.value(MetricKey::Fixed(Metric::MeanWait)).number();
    assert_eq!((wait(0), wait(1)), (Some(90.0), Some(30.0)));
    assert_eq!(s.point(&plan, 2).unwrap_err().kind(), ErrorKind::State);
    let cancelled = s.run_experiment(&plan, None, &mut |i, _| if i == 1 { Control::Cancel } else { Control::Continue });
    assert_eq!(cancelled.unwrap_err().kind(), ErrorKind::Cancelled);
}

#[test]
fn an_experiment_must_read_the_trace_as_the_session_did() {
    let s = session();
    let mut e = Experiment::of(vec![RunSpec::parse("fcfs").unwrap()]);
    e.workload.machine_size = Some(8);
    let err = s.plan(e.clone()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Experiment);
    assert!(err.message().contains("workload options"), "{err}");
    // The job limit is the host's and never changes a result.
    e.workload = WorkloadOptions { max_jobs: Some(10), ..WorkloadOptions::default() };
    assert!(s.plan(e).is_ok());
}

#[test]
fn errors_say_what_kind_of_input_was_wrong() {
    let bad_trace = Session::load(&b"not a trace\n"[..], "x.swf", WorkloadOptions::default());
    assert_eq!(bad_trace.err().map(|e| e.kind()), Some(ErrorKind::Trace));
    let limited = WorkloadOptions { max_jobs: Some(2), ..WorkloadOptions::default() };
    let too_many = Session::load(TRACE.as_bytes(), "three.swf", limited);
    let too_many = too_many.err().unwrap();
    assert_eq!(too_many.kind(), ErrorKind::Limit);
    assert_eq!(too_many.refused(), Some(crate::Refused::Jobs { limit: 2, line: 4 }));
    let s = session();
    let run = |policy: &str, params: &[(&str, &str)]| {
        let params = params.iter().map(|(k, v)| (k.to_string(), (*v).into())).collect();
        s.run(&RunRequest { policy: policy.into(), params, ..Default::default() }, &mut go).err().map(|e| e.kind())
    };
    assert_eq!(run("nope", &[]), Some(ErrorKind::Policy));
    assert_eq!(run("backfill", &[("order", "wait +")]), Some(ErrorKind::Option));
}
