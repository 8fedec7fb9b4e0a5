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
    let request = RunRequest { policy: policy.into(), params: pairs(params), ..Default::default() };
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

#[test]
fn counts() {
    let (c, r) = counted(|| command_line_run("backfill", &[("order", FORMULA), ("depth", "2")]));
    eprintln!(
        "cli backfill: compiled {} ({} of the formula), depth read {}",
        c.len(),
        times(&c, FORMULA),
        times(&r, "depth")
    );
    let (c, r) = counted(|| command_line_run("slack", &[("sf", "2.5"), ("awt", "5000")]));
    eprintln!("cli slack: compiled {}, sf read {}", c.len(), times(&r, "sf"));
    let one = Experiment { runs: vec![spec("backfill", &[("order", FORMULA)])], ..Default::default() };
    let (c, _) = counted(|| experiment(one));
    eprintln!("python run backfill: compiled {} ({} of the formula)", c.len(), times(&c, FORMULA));
    for runs in [1, 2, 4] {
        let e = Experiment {
            runs: (0..runs).map(|d| spec("backfill", &[("order", FORMULA), ("depth", &d.to_string())])).collect(),
            ..Default::default()
        };
        let (c, _) = counted(|| experiment(e));
        eprintln!("experiment of {runs} backfill runs: compiled {} ({} of the formula)", c.len(), times(&c, FORMULA));
        let e = Experiment {
            runs: (0..runs).map(|d| spec("slack", &[("sf", "2.5"), ("awt", &(5000 + d).to_string())])).collect(),
            ..Default::default()
        };
        let (_, r) = counted(|| experiment(e));
        eprintln!("experiment of {runs} slack runs: sf read {}", times(&r, "sf"));
        let e = Experiment {
            runs: vec![spec("backfill", &[("order", FORMULA)])],
            sweep: Some(Sweep::parse(&format!("depth=0:{}:1", runs - 1)).unwrap()),
            ..Default::default()
        };
        let (c, r) = counted(|| experiment(e));
        eprintln!(
            "sweep of depth over {runs} values: compiled {} ({} of the formula), depth read {}",
            c.len(),
            times(&c, FORMULA),
            times(&r, "depth")
        );
        let e = Experiment {
            runs: vec![spec("slack", &[("awt", "5000")])],
            sweep: Some(Sweep::parse(&format!("sf=1:{runs}:1")).unwrap()),
            ..Default::default()
        };
        let (_, r) = counted(|| experiment(e));
        eprintln!("sweep of sf over {runs} values: sf read {}", times(&r, "sf"));
    }
}
