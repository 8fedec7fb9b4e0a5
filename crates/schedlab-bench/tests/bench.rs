//! End-to-end tests of `schedlab-bench`: the per-trace table and its bad
//! input (the queue stress and the schedule view's costs are measured in
//! BENCHMARKS.md; they share the child process and the checks tested here).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(name: &str) -> String {
    root().join("tests/fixtures").join(name).display().to_string()
}

/// A fresh empty directory for one test.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("schedlab-bench-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schedlab-bench"))
        .args(args)
        .env_remove("SCHEDLAB_TRACES")
        .output()
        .expect("run schedlab-bench")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let o = bench(args);
    assert!(o.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("utf-8 stdout")
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

#[test]
fn bench_measures_each_trace_and_policy() {
    let dir = temp_dir("bench");
    std::fs::copy(root().join("samples/kth-sp2-first3000.swf"), dir.join("KTH-first.swf")).expect("copy");
    std::fs::copy(fixture("kth-sp2-first3000.swf.gz"), dir.join("CTC-SP2-pretend.swf.gz")).expect("copy");
    std::fs::write(dir.join("README.md"), "not a trace").expect("write");
    let d = dir.to_str().unwrap();
    let v = json(&["--traces", d, "--repeat", "1", "--policy", "easy", "--policy", "cbf@last", "--json", "-q"]);
    let rows = v.as_array().expect("array");
    let kinds: Vec<(&str, &str)> =
        rows.iter().map(|r| (r["kind"].as_str().unwrap(), r["trace"].as_str().unwrap())).collect();
    assert_eq!(
        kinds,
        [
            ("parse", "CTC-SP2-pretend.swf.gz"),
            ("run", "CTC-SP2-pretend.swf.gz"),
            ("run", "CTC-SP2-pretend.swf.gz"),
            ("parse", "KTH-first.swf"),
            ("run", "KTH-first.swf"),
            ("run", "KTH-first.swf"),
        ]
    );
    assert_eq!(rows[0]["procs"], 430, "built-in CTC-SP2 machine size");
    assert_eq!(rows[3]["procs"], 100);
    for r in rows.iter().filter(|r| r["kind"] == "run") {
        assert!(r["error"].is_null(), "{r}");
        assert_eq!(r["jobs"], 3000);
        assert!(r["events"].as_u64() >= Some(6000));
        assert!(r["seconds"].as_f64() > Some(0.0));
        assert_eq!(r["check"], "passed");
    }
    let mapped = json(&["--traces", d, "--repeat", "1", "--policy", "fcfs", "--procs-map", "KTH=64", "--json", "-q"]);
    let kth = mapped.as_array().unwrap().iter().find(|r| r["trace"] == "KTH-first.swf").unwrap().clone();
    assert_eq!(kth["procs"], 64);
    let text = ok(&["--traces", d, "--repeat", "1", "--policy", "easy", "-q"]);
    assert!(text.contains("CTC-SP2-pretend.swf.gz: simulated on 430 processors"), "{text}");
    assert!(text.contains("jobs/s") && text.contains("peak MB"), "{text}");
}

/// Two whole-machine jobs submitted at once, the first ending at half its
/// estimate. By hand, under CBF: the first is reserved at 0 and the second
/// at 100 (the first's estimate) on arrival, and when the first ends at 50
/// compression moves the second to 50: three reservation changes. FCFS
/// reserves nothing. The same trace gives the mean waiting jobs at a pass.
#[test]
fn one_counts_the_reservation_changes() {
    let dir = temp_dir("changes");
    let trace = dir.join("two.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 4\n\
         1 0 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n\
         2 0 0 10 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n",
    )
    .expect("write");
    let t = trace.to_str().unwrap();
    let changes = |policy: &str| json(&["one", t, "--policy", policy])["reservation_changes"].as_u64();
    assert_eq!(changes("cbf"), Some(3));
    assert_eq!(changes("fcfs"), Some(0));
    // Under FCFS the first job runs 0–50 and the second 50–60: at the
    // passes of times 0, 50 and 60, 2, 1 and 0 jobs wait (the second is
    // still waiting when the pass at 50 begins), a mean of 1.
    assert_eq!(json(&["one", t, "--policy", "fcfs"])["mean_waiting"].as_f64(), Some(1.0));
}

#[test]
fn bad_input_gives_one_line_and_an_exit_code() {
    let dir = temp_dir("bad").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "SCHEDLAB_TRACES"),
        (vec!["--traces", "/no/such/dir"], "/no/such/dir"),
        (vec!["--traces", &dir], "no trace"),
        (vec!["--traces", &dir, "--policy", "nope"], "unknown policy `nope`"),
        (vec!["--traces", &dir, "--procs-map", "CTC=0"], "--procs-map"),
    ];
    for (args, fragment) in cases {
        let o = bench(&args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
        assert!(err.contains("error: ") && err.contains(fragment), "{args:?}: `{fragment}` not in {err}");
        assert!(o.stdout.is_empty(), "{args:?}: printed {}", String::from_utf8_lossy(&o.stdout));
    }
}
