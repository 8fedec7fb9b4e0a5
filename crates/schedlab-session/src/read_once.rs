//! How many times a request's formula is compiled and its numbers are read
//! from text, on each path a front end takes: the command line's run, an
//! experiment (Python's `sweep`, the command line's `sweep`, the page's
//! form) and Python's `run` (a plan of one point).

use schedlab_engine::params::counters::take_read;
use schedlab_engine::Control;
use schedlab_experiment::{resolve, Experiment, RunRequest, RunSpec, Sweep, WorkloadOptions};
use schedlab_priority::counters::take_compiled;

use crate::Session;

/// Four processors, three jobs (the one of `tests.rs`).
const TRACE: &str = "; MaxProcs: 4\n\
    1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 1 -1 -1 -1\n\
    2 10 -1 100 4 -1 -1 4 100 -1 1 2 1 -1 1 -1 -1 -1\n\
    3 20 -1 50 1 -1 -1 1 50 -1 1 3 1 -1 1 -1 -1 -1\n";

const FORMULA: &str = "predicted * procs / (wait + 1)";

fn session() -> Session {
    Session::load(TRACE.as_bytes(), "three.swf", WorkloadOptions::default()).unwrap()
}

/// What `f` compiled and read: (sources compiled, keys read from text).
fn counted(f: impl FnOnce()) -> (Vec<String>, Vec<&'static str>) {
    take_compiled();
    take_read();
    f();
    (take_compiled(), take_read().into_iter().map(|(k, _)| k).collect())
}

fn times(list: &[impl AsRef<str>], item: &str) -> usize {
    list.iter().filter(|x| x.as_ref() == item).count()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn spec(policy: &str, params: &[(&str, &str)]) -> RunSpec {
    RunSpec { policy: policy.into(), params: schedlab_experiment::ParamList(pairs(params)), predictor: None }
}

/// The command line's `schedlab run`: resolve, run, document.
fn command_line_run(policy: &str, params: &[(&str, &str)]) {
    let s = session();
    let request = RunRequest {
        policy: policy.into(),
        params: schedlab_experiment::given_texts(pairs(params)),
        ..Default::default()
    };
    let settings = resolve(&request).unwrap();
    let run = s.run_resolved(settings, &mut |_, _| Control::Continue).unwrap();
    s.document(&run, None);
}

/// Python's `run` and the page's experiment: a plan, then its points.
fn experiment(e: Experiment) {
    let s = session();
    let plan = s.plan(e).unwrap();
    s.run_experiment(&plan, None, &mut |_, _| Control::Continue).unwrap();
}

/// Python's `run()`: a plan of one point, the point, `run_point`.
fn python_run(e: Experiment) {
    let s = session();
    let plan = s.plan(e).unwrap();
    let point = s.point(&plan, 0).unwrap();
    let run = s.run_point(&plan, &point, &mut |_, _| Control::Continue).unwrap();
    s.document(&run, None);
}

/// One run from the command line or Python compiles its formula once and
/// reads each number once (on main: the command line compiled it 3 times
/// and read `depth` twice; Python's `run()` compiled it 7 times and read
/// `depth` 6 times, its `run_experiment` of one run compiled it 11 times).
#[test]
fn one_run_compiles_its_formula_once() {
    let given = [("order", FORMULA), ("depth", "2")];
    let (compiled, read) = counted(|| command_line_run("backfill", &given));
    assert_eq!(compiled, [FORMULA]);
    assert_eq!(read, ["order", "depth"]);
    let (compiled, read) = counted(|| command_line_run("slack", &[("sf", "2.5"), ("awt", "5000")]));
    assert_eq!((compiled.len(), read), (0, vec!["sf", "awt"]));
    let python = Experiment { runs: vec![spec("backfill", &given)], ..Default::default() };
    let (compiled, read) = counted(|| python_run(python.clone()));
    assert_eq!(compiled, [FORMULA]);
    assert_eq!(read, ["order", "depth"]);
    let (compiled, read) = counted(|| experiment(python));
    assert_eq!(compiled, [FORMULA]);
    assert_eq!(read, ["order", "depth"]);
    let python = Experiment { runs: vec![spec("slack", &[("sf", "2.5"), ("awt", "5000")])], ..Default::default() };
    let (_, read) = counted(|| python_run(python));
    assert_eq!(read, ["sf", "awt"]);
}

/// An experiment reads each run's request once when it is planned: its
/// points, titles and results read no text again (on main each point of R
/// runs compiled the formula 11 times and read the slack factor 10 times).
#[test]
fn an_experiment_reads_each_run_once() {
    for runs in [1, 2, 4] {
        let e = Experiment {
            runs: (0..runs).map(|d| spec("backfill", &[("order", FORMULA), ("depth", &d.to_string())])).collect(),
            ..Default::default()
        };
        let (compiled, _) = counted(|| experiment(e));
        assert_eq!(compiled, vec![FORMULA; runs], "{runs} runs");
        let e = Experiment {
            runs: (0..runs).map(|d| spec("slack", &[("sf", "2.5"), ("awt", &(5000 + d).to_string())])).collect(),
            repeat: 3,
            ..Default::default()
        };
        let (_, read) = counted(|| experiment(e));
        assert_eq!(times(&read, "sf"), runs, "{runs} runs");
    }
}

/// A range's values reach the runs as numbers, and a list's values are each
/// checked once: the sweep reads no number from text and compiles each
/// formula once, however many points take it.
#[test]
fn a_sweep_reads_its_values_once() {
    let e = Experiment {
        runs: vec![spec("backfill", &[("order", FORMULA)]), spec("backfill", &[("order", "wfp3")])],
        sweep: Some(Sweep::parse("depth=0:3:1").unwrap()),
        ..Default::default()
    };
    let (compiled, read) = counted(|| experiment(e));
    let wfp3 = schedlab_priority::find_preset("wfp3").unwrap().source;
    assert_eq!(compiled, [FORMULA, wfp3]);
    assert_eq!(read, ["order", "order"]);
    let e = Experiment {
        runs: vec![spec("slack", &[("awt", "5000")])],
        sweep: Some(Sweep::parse("sf=1:4:0.5").unwrap()),
        ..Default::default()
    };
    let (_, read) = counted(|| experiment(e));
    assert_eq!(read, ["awt"]);
    let orders = format!("order=fcfs,{FORMULA},sjf");
    let e = Experiment {
        runs: vec![spec("backfill", &[("depth", "2")])],
        sweep: Some(Sweep::parse(&orders).unwrap()),
        repeat: 2,
        ..Default::default()
    };
    let (compiled, _) = counted(|| experiment(e));
    // The run's default order, then each value of the list once.
    assert_eq!(compiled, ["submit", "submit", FORMULA, "requested"]);
}
