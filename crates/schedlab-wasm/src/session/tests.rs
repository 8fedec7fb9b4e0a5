use schedlab_engine::{Control, Progress};
use schedlab_workload::{read_swf, ReadOptions};

use super::*;
use crate::protocol::{GenerateMessage, ParamText, Registry, RunMessage, TraceOptions, BROWSER_MAX_JOBS};
use schedlab_experiment::Given;

const KTH: &[u8] = include_bytes!("../../../../samples/kth-sp2-first3000.swf");

fn go(_: schedlab_experiment::Phase, _: Progress) -> Control {
    Control::Continue
}

fn kth() -> Session {
    Session::open(KTH, "kth-sp2-first3000.swf".into(), TraceOptions::default()).unwrap()
}

fn request(policy: &str) -> RunMessage {
    RunMessage { policy: policy.into(), ..RunMessage::default() }
}

#[test]
fn a_session_reads_a_trace_and_summarises_it() {
    let s = kth();
    let summary = s.summary();
    assert_eq!(summary.identity.jobs, 3000);
    assert_eq!(summary.identity.procs, 100);
    assert_eq!(summary.identity.name, "kth-sp2-first3000.swf");
    assert_eq!(summary.header.max_procs, Some(100));
    let json = serde_json::to_value(&summary).unwrap();
    for key in ["identity", "header", "bad_lines", "warnings", "bytes", "lines"] {
        assert!(json.get(key).is_some(), "{key}");
    }
}

#[test]
fn runs_give_the_document() {
    let mut s = kth();
    let r = s.run(&request("easy"), &mut go).unwrap();
    assert_eq!(r.policy, "easy");
    assert_eq!(r.check, "passed");
    assert!(r.elapsed_ms.is_none());
    assert!(r.metrics.mbs >= 1.0);
}

#[test]
fn run_text_is_the_documents_pretty_json() {
    let mut s = kth();
    let mut m = request("easy");
    m.params.insert("error".into(), ParamText::Number(30.0));
    m.predictor = Some("virtual".into());
    m.seed = 3;
    let text = s.run_text(&m, &mut go).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["params"]["error"], 30.0);
    assert_eq!(doc["predictor"], "virtual");
    assert_eq!(doc["seed"], 3);
    assert!(text.starts_with("{\n  \"schema\": "));
    let again = s.run(&m, &mut go).unwrap();
    assert_eq!(serde_json::to_string_pretty(&again).unwrap(), text);
}

#[test]
fn errors_carry_the_cores_message() {
    let mut s = kth();
    let e = s.run(&request("esay"), &mut go).unwrap_err().message;
    assert!(e.starts_with("unknown policy `esay` (known: fcfs, easy"), "{e}");
    let mut m = request("easy");
    m.params.insert("ordr".into(), ParamText::Text("shortest".into()));
    let e = s.run(&m, &mut go).unwrap_err().message;
    assert!(e.starts_with("unknown parameter `ordr`"), "{e}");
    let m = RunMessage { predictor: Some("oracle".into()), ..request("easy") };
    assert!(s.run(&m, &mut go).unwrap_err().message.starts_with("unknown predictor `oracle`"));
    let m = RunMessage { seed: 1 << 60, ..request("easy") };
    assert!(s.run(&m, &mut go).unwrap_err().message.starts_with("seed must be at most"));
    let m = RunMessage { skip_percent: Some(60.0), ..request("easy") };
    assert!(s.run(&m, &mut go).unwrap_err().message.contains("skip percentage"));
    let e = Session::open(&b"not a trace\n"[..], "x".into(), TraceOptions::default()).err().unwrap().message;
    assert!(e.starts_with("no valid job in 1 lines"), "{e}");
    let bad = TraceOptions { machine_size: Some(0), ..TraceOptions::default() };
    assert!(Session::open(KTH, "x".into(), bad).err().unwrap().message.contains("machine_size"));
}

/// Each error says which part of the request was wrong, as the kind the
/// page reads from the thrown `Error` (`boundary::Thrown`).
#[test]
fn errors_carry_their_kind() {
    let mut s = kth();
    let kind = |r: Result<RunDocument, Error>| r.unwrap_err().kind;
    assert_eq!(kind(s.run(&request("esay"), &mut go)), ErrorKind::Policy);
    let mut m = request("easy");
    m.params.insert("ordr".into(), ParamText::Text("shortest".into()));
    assert_eq!(kind(s.run(&m, &mut go)), ErrorKind::Option);
    let m = RunMessage { seed: 1 << 60, ..request("easy") };
    assert_eq!(kind(s.run(&m, &mut go)), ErrorKind::Option);
    let open = |bytes: &[u8], o: TraceOptions| Session::open(bytes, "x".into(), o).err().unwrap().kind;
    assert_eq!(open(b"not a trace\n", TraceOptions::default()), ErrorKind::Trace);
    assert_eq!(open(KTH, TraceOptions { max_jobs: Some(5), ..TraceOptions::default() }), ErrorKind::Limit);
    assert_eq!(s.jobs_csv().unwrap_err().kind, ErrorKind::State);
    assert_eq!(crate::experiments::decode_link("v2=garbage").unwrap_err().kind, ErrorKind::Link);
}

#[test]
fn a_run_can_be_cancelled() {
    // Enough events for a progress report (every 16,384).
    let g = GenerateMessage { procs: 64, jobs: 20_000, ..GenerateMessage::default() };
    let bytes = schedlab_synth::generate_swf(&g.into()).unwrap();
    let mut s = Session::open(&bytes[..], "lublin".into(), TraceOptions::default()).unwrap();
    let mut calls = 0;
    let e = s
        .run(&request("fcfs"), &mut |_, _| {
            calls += 1;
            Control::Cancel
        })
        .unwrap_err();
    assert_eq!(calls, 1);
    assert_eq!(e.kind, ErrorKind::Cancelled);
    assert!(e.message.starts_with("the run was cancelled"), "{e}");
    assert!(s.jobs_csv().is_err());
}

#[test]
fn exports_of_the_last_run() {
    let mut s = kth();
    assert_eq!(s.jobs_csv().unwrap_err().message, "no run yet: run a policy on this trace first");
    assert!(s.schedule_swf().is_err());
    s.run(&request("fcfs"), &mut go).unwrap();
    let csv = s.jobs_csv().unwrap();
    assert_eq!(csv.lines().count(), 3001);
    assert!(csv.starts_with("job,user,size,submit,start,end,wait"));
    let swf = s.schedule_swf().unwrap();
    assert!(swf.contains("; Note: simulated schedule by schedlab") && swf.contains("policy fcfs"));
    let back = read_swf(swf.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(back.trace.jobs.len(), 3000);
    assert_eq!(back.trace.procs, 100);
}

/// The page drops a Slurm dump or a Batsim workload like an SWF file: the
/// session reads the bytes through the same reader, and the Batsim export
/// is the writer's on the run's layout. EASY on the v5 fixture, by hand:
/// job 6 (6 processors) waits for job 4 and starts at 400 on 0-5.
#[test]
fn other_formats_load_and_export_as_batsim_jobs() {
    let v5: &[u8] = include_bytes!("../../../../tests/fixtures/batsim/workload-v5.json");
    let mut s = Session::open(v5, "workload-v5.json".into(), TraceOptions::default()).unwrap();
    assert_eq!((s.summary().identity.jobs, s.summary().identity.procs), (6, 8));
    assert!(s.batsim_jobs_csv().is_err(), "no run yet");
    s.run(&request("easy"), &mut go).unwrap();
    let csv = s.batsim_jobs_csv().unwrap();
    assert!(csv.starts_with(schedlab_schedule::BATSIM_JOBS_COLUMNS));
    let last = csv.lines().last().unwrap();
    assert!(last.starts_with("6,w0,10,30.000000,6,20.000000,1,COMPLETED_SUCCESSFULLY,400.000000,"), "{last}");
    assert!(last.ends_with(",0-5,-1.000000,"), "{last}");
    let dump: &[u8] = include_bytes!("../../../../tests/fixtures/slurm/sacct-rules.txt");
    let s = Session::open(dump, "sacct-rules.txt".into(), TraceOptions::default()).unwrap();
    assert_eq!(s.summary().identity.cleaning.get("cancelled_before_start"), Some(&5));
}

#[test]
fn trace_options_are_the_experiments_workload_options() {
    let some: TraceOptions =
        serde_json::from_str(r#"{"machine_size":64,"window":{"first_jobs":100},"oversize":"clamp","queues":null}"#)
            .unwrap();
    let o = some.read_options();
    assert_eq!((o.machine_size, o.window), (Some(64), schedlab_workload::Window::FirstJobs(100)));
    let e = serde_json::from_str::<TraceOptions>(r#"{"machine_sise":64}"#).unwrap_err().to_string();
    assert!(e.contains("unknown field `machine_sise`"), "{e}");
    let s = Session::open(KTH, "k".into(), some).unwrap();
    assert_eq!(s.summary().identity.jobs, 100);
    assert_eq!(s.summary().identity.procs, 64);
}

#[test]
fn the_browser_reads_at_most_its_own_job_limit() {
    assert!(BROWSER_MAX_JOBS < ReadOptions::default().max_jobs);
    let s = Session::open(KTH, "k".into(), TraceOptions::default()).unwrap();
    assert_eq!(s.summary().identity.jobs, 3000, "the limit does not touch a normal trace");
    let lower = TraceOptions { max_jobs: Some(10), ..TraceOptions::default() };
    assert!(Session::open(KTH, "k".into(), lower).is_err(), "the options lower the limit");
}

/// A module whose memory has grown close to 4 GiB has room for few jobs:
/// with 768 × 100 bytes left, a trace of 3000 jobs is refused while it
/// streams, at its 101st job (line 109 of the sample), in a sentence that
/// says why.
#[test]
fn the_job_limit_is_what_the_memory_left_has_room_for() {
    use crate::protocol::{memory_job_budget, WASM_BYTES_PER_JOB, WASM_MAX_MEMORY};
    assert_eq!((memory_job_budget(0), memory_job_budget(WASM_MAX_MEMORY)), ((1 << 32) / 768, 0));
    assert!(memory_job_budget(64 << 20) > BROWSER_MAX_JOBS, "a fresh module keeps the 5 million limit");
    let nearly_full = WASM_MAX_MEMORY - 100 * WASM_BYTES_PER_JOB;
    let e = Session::open_in(KTH, "k".into(), TraceOptions::default(), nearly_full).err().expect("refused");
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(
        e.message,
        "the trace holds more than 100 jobs, as many as this tab's memory has room for: 4095 MB of its 4096 MB \
         are taken (refused at line 109); reload the page to free them"
    );
    // Room for exactly the trace's 3000 jobs.
    let s = Session::open_in(KTH, "k".into(), TraceOptions::default(), WASM_MAX_MEMORY - 3000 * WASM_BYTES_PER_JOB);
    assert_eq!(s.expect("3000 jobs fit").summary().identity.jobs, 3000);
}

#[test]
fn requests_refuse_unknown_keys_and_take_numbers_as_params() {
    let m: RunMessage = serde_json::from_str(r#"{"policy":"easy","params":{"order":"shortest"},"seed":2}"#).unwrap();
    assert_eq!(m.request().unwrap().params, vec![("order".to_owned(), Given::Text("shortest".to_owned()))]);
    let m: RunMessage = serde_json::from_str(r#"{"policy":"easy","params":{"error":12.5}}"#).unwrap();
    // A number stays a number: the run checks it as one, never reading its
    // text back.
    assert_eq!(m.request().unwrap().params, vec![("error".to_owned(), Given::Number(12.5))]);
    // The parameters keep the order they were given in, which the run's
    // label and title follow.
    let text = r#"{"policy":"backfill","params":{"order":"wfp3","depth":2}}"#;
    let m: RunMessage = serde_json::from_str(text).unwrap();
    let keys: Vec<String> = m.request().unwrap().params.into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["order", "depth"]);
    let twice = r#"{"policy":"easy","params":{"order":"shortest","order":"priority"}}"#;
    let e = serde_json::from_str::<RunMessage>(twice).unwrap_err().to_string();
    assert!(e.contains("parameter `order` is given twice"), "{e}");
    let e = serde_json::from_str::<RunMessage>(r#"{"policy":"easy","sed":2}"#).unwrap_err().to_string();
    assert!(e.contains("unknown field `sed`"), "{e}");
    assert!(serde_json::from_str::<RunMessage>(r#"{"params":{}}"#).unwrap_err().to_string().contains("policy"));
    let g: GenerateMessage = serde_json::from_str(r#"{"procs":64,"jobs":200}"#).unwrap();
    assert_eq!((g.procs, g.jobs, g.load, g.seed), (64, 200, 0.7, 1));
    assert!(serde_json::from_str::<GenerateMessage>(r#"{"nodes":64}"#).is_err());
}

#[test]
fn generated_traces_open_in_a_session() {
    let g: GenerateMessage = serde_json::from_str(r#"{"procs":64,"jobs":500,"load":0.8,"seed":7}"#).unwrap();
    let bytes = schedlab_synth::generate_swf(&g.into()).unwrap();
    let mut s = Session::open(&bytes[..], "lublin".into(), TraceOptions::default()).unwrap();
    assert_eq!(s.summary().identity.jobs, 500);
    assert!(s.run(&request("easy"), &mut go).is_ok());
}

#[test]
fn the_registry_lists_policies_and_sources() {
    let r = serde_json::to_value(Registry::new()).unwrap();
    let ids: Vec<&str> = r["policies"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert!(ids.starts_with(&["fcfs", "easy", "cbf"]), "{ids:?}");
    assert!(r["predictors"].as_array().unwrap().iter().any(|p| p["id"] == "virtual"));
    assert_eq!(r["progress_every"], 16384);
}

#[test]
fn two_runs_are_laid_out_side_by_side_and_queried() {
    use schedlab_schedule::{Grid, Measure, ScatterRect};
    let mut s = kth();
    let empty = s.schedules().0.view(0).err().unwrap();
    assert_eq!(empty.kind, ErrorKind::State);
    assert!(empty.message.contains("slot 0 is empty"), "{empty}");
    assert!(s.schedule_open(0).unwrap_err().message.contains("no run yet"));
    s.run(&request("easy"), &mut go).unwrap();
    let info = s.schedule_open(0).unwrap();
    assert_eq!((info.slot, info.procs, info.jobs, info.runs), (0, 100, 3000, 3000));
    assert!(info.label.starts_with("EASY") && info.view_bytes > 0 && info.record_bytes > 0);
    let (from, to) = info.span.unwrap();
    s.run(&request("fcfs"), &mut go).unwrap();
    s.schedule_open(1).unwrap();
    assert!(s.schedule_open(2).unwrap_err().message.contains("there are 2 slots"));
    let (schedules, jobs) = s.schedules();
    let day = schedules.window(jobs, 0, from + 86_400, from + 2 * 86_400, 10_000).unwrap();
    assert!(day.complete && !day.rects.is_empty());
    let grid = Grid { from, to, buckets: 500 };
    assert_eq!(schedules.buckets(0, &grid).unwrap().len(), 500);
    assert_eq!(schedules.series(jobs, 1, &grid).unwrap().head_wait.len(), 500);
    let first = schedules.job(jobs, 0, 0).unwrap();
    assert_eq!(first.id, jobs[0].id);
    assert_eq!(schedules.find(jobs, 0, jobs[7].id).unwrap(), Some(7));
    let scatter = schedules.scatter(jobs, Measure::Wait).unwrap();
    assert_eq!((scatter.x.len(), scatter.y.len()), (3000, 3000));
    // Every job lies in the whole plane.
    let all = ScatterRect { x_min: 0.0, x_max: f64::MAX, y_min: 0.0, y_max: f64::MAX };
    assert_eq!(schedules.select(jobs, Measure::Bsd, &all, 5).unwrap().total, 3000);
    let chart = schedules.chart(jobs, 0, &Grid { from, to: from + 86_400, buckets: 400 }).unwrap();
    let svg = schedlab_charts::try_to_svg(&chart, 1200, 700).unwrap();
    assert!(svg.contains("EASY") && svg.matches("<rect").count() > 10);
    assert!(schedules.replay(jobs, 1, from + 86_400, 20).unwrap().queue.len() <= 20);
    s.schedule_close(0).unwrap();
    assert!(s.schedules().0.scatter(s.schedules().1, Measure::Wait).is_err());
}

const FORMULA: &str = "predicted * procs / (wait + 1)";

/// The formulas compiled and the keys read from text while `f` ran.
fn counted(f: impl FnOnce()) -> (Vec<String>, Vec<&'static str>) {
    schedlab_priority::counters::take_compiled();
    schedlab_engine::params::counters::take_read();
    f();
    let read = schedlab_engine::params::counters::take_read();
    (schedlab_priority::counters::take_compiled(), read.into_iter().map(|(k, _)| k).collect())
}

/// A page's run compiles its formula once, and an experiment's points run
/// from the plan made once compile nothing again (on main: 3 compilations
/// for a run, 7 for each point, and the slack factor read 6 times a
/// point; on main the page's numbers were printed and read back twice a
/// run).
#[test]
fn the_page_compiles_a_formula_once_per_run() {
    let mut s = kth();
    let mut m = request("backfill");
    m.params.insert("order".into(), ParamText::Text(FORMULA.into()));
    m.params.insert("depth".into(), ParamText::Number(2.0));
    let (compiled, read) = counted(|| {
        s.run(&m, &mut go).unwrap();
    });
    assert_eq!(compiled, [FORMULA]);
    // The depth came as a number: no text of it is read.
    assert_eq!(read, ["order"]);
    let mut m = request("slack");
    m.params.insert("sf".into(), ParamText::Number(2.5));
    m.params.insert("awt".into(), ParamText::Number(5000.0));
    let (_, read) = counted(|| {
        s.run(&m, &mut go).unwrap();
    });
    assert!(read.is_empty(), "the slack factor and the AWT came as numbers: {read:?}");
    for runs in [1usize, 3] {
        let backfill = |d| format!(r#"{{"policy":"backfill","params":{{"order":"{FORMULA}","depth":"{d}"}}}}"#);
        let slack = |d| format!(r#"{{"policy":"slack","params":{{"sf":"2.5","awt":"{}"}}}}"#, 5000 + d);
        for (run, compiles) in [(&backfill as &dyn Fn(usize) -> String, runs), (&slack, 0)] {
            let list: Vec<String> = (0..runs).map(run).collect();
            let e: Experiment = serde_json::from_str(&format!(r#"{{"runs":[{}]}}"#, list.join(","))).unwrap();
            let (compiled, read) = counted(|| {
                for i in 0..runs as u64 {
                    s.run_point(&e, i, &mut go).unwrap();
                }
            });
            assert_eq!(compiled.len(), compiles, "{e:?}");
            let sf = read.iter().filter(|k| **k == "sf").count();
            assert_eq!(sf, if compiles == 0 { runs } else { 0 }, "{e:?}");
        }
    }
}
