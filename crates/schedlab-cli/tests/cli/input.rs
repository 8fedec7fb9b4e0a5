//! Bad input of every kind, warnings, and the files a command reads and writes.

use std::path::Path;

use serde_json::Value;

use crate::{fixture, json, ok, sample, schedlab, stderr, stdout, temp_dir};

#[test]
fn bad_input_gives_one_line_and_an_exit_code() {
    let s = sample();
    let dir = temp_dir("bad").display().to_string();
    let no_dir_csv = format!("{dir}/missing-dir/jobs.csv");
    let dir_o = format!("{dir}/o");
    let damaged_gz = temp_dir("damaged").join("damaged.swf.gz").display().to_string();
    let mut gz = std::fs::read(fixture("kth-sp2-first3000.swf.gz")).expect("fixture");
    gz[0] = 0;
    std::fs::write(&damaged_gz, gz).expect("damaged copy");
    let (empty, no_job) = (fixture("empty.swf"), fixture("no-valid-job.swf"));
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["stats", "no-such-trace.swf"], 2, "no-such-trace.swf"),
        (vec!["stats", &empty], 2, "empty.swf: the input is empty"),
        (vec!["stats", &no_job], 2, "no valid job"),
        (vec!["stats", &dir], 2, "is a directory"),
        (vec!["stats", &s, "--time-range", "5"], 2, "--time-range `5`"),
        (vec!["stats", &s, "--time-range", "9:3"], 2, "--time-range `9:3`"),
        (vec!["stats", &s, "--time-range", "a:b"], 2, "--time-range"),
        (vec!["stats", &s, "--load-factor", "-1"], 2, "--load-factor"),
        (vec!["stats", &s, "--load-factor", "x"], 2, "--load-factor"),
        (vec!["stats", &s, "--first", "5", "--time-range", "0:10"], 2, "cannot be used together"),
        (vec!["stats", &s, "--max-bytes", "1000"], 2, "larger than the limit of 1000 bytes"),
        (vec!["stats", &s, "--max-bytes", "lots"], 2, "--max-bytes"),
        (vec!["stats", &s, "--queue", "7"], 2, "queue_filtered 3000"),
        (vec!["run", "no-such-trace.swf", "--policy", "easy"], 2, "no-such-trace.swf"),
        (vec!["run", &s, "--policy", "nope"], 2, "unknown policy `nope`"),
        (vec!["run", &s, "--policy", "easy", "--param", "order"], 2, "parameter `order` has no `=`"),
        (vec!["run", &s, "--policy", "easy", "--param", "order=longest"], 2, "`longest` is not one of"),
        (vec!["run", &s, "--policy", "easy", "--param", "speed=3"], 2, "unknown parameter `speed`"),
        (
            vec!["run", &s, "--policy", "easy", "--param", "order=shortest", "--param", "order=priority"],
            2,
            "given twice",
        ),
        (vec!["run", &s, "--policy", "easy", "--predictor", "virtual", "--param", "error=200"], 2, "outside [0, 100]"),
        (vec!["run", &s, "--policy", "easy", "--predictor", "psychic"], 2, "unknown predictor `psychic`"),
        (vec!["run", &s, "--policy", "fcfs", "--predictor", "last"], 2, "does not use runtime predictions"),
        (vec!["run", &s, "--policy", "easy", "--bsd-threshold", "0"], 2, "threshold"),
        (vec!["run", &s, "--policy", "easy", "--skip-percent", "60"], 2, "skip percentage"),
        (vec!["run", &s, "--policy", "easy", "--short-runtime", "-5"], 2, "category limits"),
        (vec!["run", &s, "--policy", "easy", "--jobs-csv", &no_dir_csv], 2, "jobs.csv"),
        (vec!["run", &s, "--policy", "easy", "--swf-out", &dir], 2, "is a directory"),
        (vec!["run", &s, "--policy", "easy", "--jobs-csv", &s], 2, "is the input"),
        (
            vec!["run", &s, "--policy", "easy", "--swf-out", &dir_o, "--jobs-csv", &dir_o],
            2,
            "is also the output of --jobs-csv",
        ),
        (vec!["run", &s, "--policy", "easy", "-o", &s], 2, "--output"),
        (vec!["run", &s, "--policy", "easy", "--gantt", &s], 2, "is the input"),
        (vec!["run", &s, "--policy", "easy", "--window", "0:1d"], 2, "--gantt"),
        (vec!["run", &s, "--policy", "easy", "--gantt", &dir_o, "--window", "3d:1d"], 2, "its end must come after"),
        (vec!["run", &s, "--policy", "easy", "--gantt", &dir_o, "--window", "1d"], 2, "write FROM:TO"),
        (vec!["run", &s, "--policy", "easy", "--gantt", &dir_o, "--window", "1y:2y"], 2, "`1y` is not a time"),
        (
            vec!["run", &s, "--policy", "easy", "--gantt", &dir_o, "--repeat", "2"],
            2,
            "cannot be combined with --repeat",
        ),
        (vec!["compare", &s, "--policy", "easy", "--output", &s], 2, "is the input"),
        (vec!["stats", &s, "--output", &s], 2, "is the input"),
        (vec!["stats", &s, "--load-factor", "1e-12"], 2, "load factor 1e-12 stretches the 3621984 s"),
        (vec!["run", &s, "--policy", "easy", "--load-factor", "1e-12"], 2, "past the limit of 1099511627776 s (2^40)"),
        (vec!["stats", &s, "--time-range", "0:9223372036854775807"], 2, "within ±1099511627776 s"),
        (vec!["stats", &s, "--procs", "2147483649"], 2, "--procs 2147483649 is above the limit of 2147483648"),
        (
            vec!["stats", &s, "--max-jobs", "100"],
            2,
            "more than 100 jobs, the job limit (refused at line 109); --max-jobs raises",
        ),
        (vec!["run", &s, "--policy", "easy", "--max-jobs", "2999"], 2, "more than 2999 jobs"),
        (
            vec!["run", &s, "--policy", "dbf", "--param", "deadline_factor=1e300"],
            2,
            "`deadline_factor`: 1e300 is outside",
        ),
        (
            vec!["run", &s, "--policy", "easy", "--skip-percent", "1e300"],
            2,
            "skip percentage must be in [0, 50), got 1e300",
        ),
        (vec!["stats", &damaged_gz], 2, "looks like gzip with a damaged header"),
        (
            vec!["compare", &s, "--policy", "easy", "--param", "error=5"],
            2,
            "no run of the experiment has a parameter `error`",
        ),
        (vec!["compare", &s, "--policy", "easy:order"], 2, "policy `easy:order`"),
        (vec!["compare", &s, "--policy", "easy", "--policy", "bogus@last"], 2, "unknown policy `bogus`"),
        (vec!["compare", &s, "--policy", "easy@"], 2, "nothing after `@`"),
    ];
    for (args, code, fragment) in cases {
        let o = schedlab(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
        assert!(err.starts_with("schedlab: error: "), "{args:?}: {err}");
        assert!(err.contains(fragment), "{args:?}: `{fragment}` not in {err}");
        assert!(o.stdout.is_empty(), "{args:?}: printed {}", stdout(&o));
    }
    let sample_now = std::fs::read(&s).expect("sample");
    assert_eq!(sample_now.len(), 276_313, "no case may have touched the sample");
    assert!(!Path::new(&dir_o).exists(), "a refused output is never created");
}

#[test]
fn negative_values_to_whole_number_flags_say_they_must_be_positive() {
    let s = sample();
    let cases: [(&[&str], &str); 10] = [
        (&["stats", &s, "--procs", "-5"], "--procs <N>': -5 is not allowed: the value must be positive (1 or more)"),
        (&["stats", &s, "--procs", "0"], "--procs <N>': 0 is not allowed: the value must be positive (1 or more)"),
        (&["stats", &s, "--first", "0"], "--first <N>': 0 is not allowed: the value must be positive"),
        (&["stats", &s, "--first", "-5"], "--first <N>': -5 is not allowed: the value must be positive"),
        (&["stats", &s, "--max-jobs", "0"], "--max-jobs <N>': 0 is not allowed: the value must be positive"),
        (
            &["run", &s, "--policy", "easy", "--seed", "-1"],
            "--seed <N>': -1 is not allowed: the value must be 0 or more",
        ),
        (&["run", &s, "--policy", "easy", "--narrow-size", "-8"], "--narrow-size <N>': -8 is not allowed"),
        (&["run", &s, "--policy", "easy", "--repeat", "-5"], "--repeat <N>': -5 is not in 1..=10000"),
        (&["sweep", &s, "--policy", "easy", "--sweep", "order=priority", "--repeat", "-2"], "must be positive"),
        (&["stats", &s, "--procs", "99999999999999999999999999999999999999999999"], "is too large"),
    ];
    for (args, want) in cases {
        let o = schedlab(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: `{want}` not in {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// The issue's reproducer: `--jobs-csv` naming the input once emptied it.
#[test]
fn outputs_are_written_only_after_success_and_never_over_an_input() {
    let dir = temp_dir("outputs");
    let trace = dir.join("v.swf");
    std::fs::copy(sample(), &trace).expect("copy");
    let t = trace.display().to_string();
    let o = schedlab(&["run", &t, "--policy", "easy", "--jobs-csv", &t]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&trace).expect("trace"), std::fs::read(sample()).expect("sample"), "the input is intact");
    // A failed run leaves an existing output as it was and creates none.
    let csv = dir.join("jobs.csv");
    std::fs::write(&csv, "old").expect("old csv");
    let (c, swf) = (csv.display().to_string(), dir.join("s.swf").display().to_string());
    let o = schedlab(&["run", &t, "--policy", "easy", "--jobs-csv", &c, "--swf-out", &swf, "--max-jobs", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&csv).expect("csv"), "old");
    assert!(!Path::new(&swf).exists());
    // A successful run replaces both, and `--output` takes the report.
    let report = dir.join("run.json").display().to_string();
    let stdout_text =
        ok(&["run", &t, "--policy", "easy", "--jobs-csv", &c, "--swf-out", &swf, "--json", "-o", &report]);
    assert!(stdout_text.is_empty(), "the report went to --output: {stdout_text}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
    assert_eq!(doc["metrics"]["jobs"], 3000);
    assert_eq!(std::fs::read_to_string(&csv).expect("csv").lines().count(), 3001);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("schedlab-tmp")), "no temporary file left: {names:?}");
    // merge refuses to write over one of its shards.
    let shard = dir.join("shard.json").display().to_string();
    ok(&[
        "sweep",
        &t,
        "--policy",
        "easy",
        "--sweep",
        "order=priority,shortest",
        "--first",
        "50",
        "--json",
        "-o",
        &shard,
        "-q",
    ]);
    let before = std::fs::read(&shard).expect("shard");
    let o = schedlab(&["merge", &shard, "--json", "--output", &shard]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--output") && stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&shard).expect("shard"), before);
    let merged = dir.join("merged.json").display().to_string();
    ok(&["merge", &shard, "--json", "--output", &merged]);
    assert!(std::fs::metadata(&merged).expect("merged").len() > 0);
    std::fs::remove_dir_all(&dir).ok();
}

/// A trace whose header gives an unusable machine size, two jobs sharing a
/// number, every job submitted at t = 0.
fn odd_trace(dir: &Path) -> String {
    let path = dir.join("odd.swf");
    let line = |id: u64, size: u32| format!("{id} 0 -1 100 {size} -1 -1 {size} 100 -1 1 1 1 -1 1 1 -1 -1\n");
    let text = format!("; MaxProcs: 1099511627776\n{}{}{}", line(1, 4), line(1, 8), line(2, 2));
    std::fs::write(&path, text).expect("odd trace");
    path.display().to_string()
}

#[test]
fn header_warnings_reach_every_command_and_the_result_document() {
    let dir = temp_dir("warnings");
    let t = odd_trace(&dir);
    let want = [
        "header MaxProcs `1099511627776` is above the limit of 2147483648 processors (2^31); ignored",
        "the header's MaxProcs and MaxNodes are unusable (see above): machine size set to the largest job, 8 processors",
        "1 job has the job number of an earlier job (e.g. job 1); all are kept and run as distinct jobs",
    ];
    let commands: [&[&str]; 4] = [
        &["run", &t, "--policy", "easy"],
        &["run", &t, "--policy", "easy", "--json"],
        &["compare", &t, "--policy", "easy", "--policy", "fcfs"],
        &["sweep", &t, "--policy", "easy", "--sweep", "order=priority,shortest", "-q"],
    ];
    for args in commands {
        let o = schedlab(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        for w in want {
            let err = stderr(&o);
            let line = err.lines().find(|l| l.contains(w)).unwrap_or_else(|| panic!("{args:?}: `{w}` not in {err}"));
            assert!(line.starts_with("schedlab: warning: odd.swf: "), "{args:?}: {line}");
        }
    }
    let doc = json(&["run", &t, "--policy", "easy", "--json"]);
    let warnings: Vec<&str> =
        doc["trace"]["warnings"].as_array().expect("warnings").iter().filter_map(Value::as_str).collect();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    for (got, w) in warnings.iter().zip(want) {
        assert!(got.contains(w), "`{w}` not in `{got}`");
    }
    assert_eq!(doc["trace"]["cleaning"]["duplicate_ids"], 1);
    // Every job at t = 0: the offered load has no rate, so it is null.
    assert_eq!(doc["trace"]["stats"]["offered_load"], Value::Null);
    let text = ok(&["stats", &t]);
    assert!(text.contains("  offered load           undefined (every job is submitted in the same second)"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn runs_say_when_the_papers_simulate_the_trace_on_another_machine() {
    // A copy of the sample named like the PWA's CTC-SP2 file: the
    // PV-EASY papers simulate CTC-SP2 on 430 processors, the header
    // says 100 (the sample is KTH's), so a plain run says which size it
    // used; a run given a size says nothing.
    let dir = temp_dir("paper-machine");
    let ctc = dir.join("CTC-SP2-copy.swf");
    std::fs::copy(sample(), &ctc).expect("copy");
    let ctc = ctc.display().to_string();
    let note = "simulated on 100 processors (the header's); the PV-EASY and selective-reservation papers \
                simulate its 430 batch processors (give a machine size of 430 to match them)";
    let o = schedlab(&["run", &ctc, "--policy", "fcfs"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("schedlab: note: CTC-SP2-copy.swf: {note}")), "{}", stderr(&o));
    let doc = json(&["run", &ctc, "--policy", "fcfs", "--json"]);
    assert!(doc["trace"]["warnings"].as_array().expect("warnings").iter().any(|w| w.as_str() == Some(note)), "{doc}");
    let o = schedlab(&["run", &ctc, "--policy", "fcfs", "--procs", "430"]);
    assert!(!stderr(&o).contains("note"), "{}", stderr(&o));
    // The slack paper's KTH-SP2 has 128 processors: its preset uses them
    // on the sample (KTH's first 3000 jobs) unless told otherwise.
    let o = schedlab(&["reproduce", "slack-factor", &sample(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("simulated on 128 processors, the paper's machine"), "{}", stderr(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(doc["sections"][0]["result"]["trace"]["procs"], 128);
    let o = schedlab(&["reproduce", "slack-factor", &sample(), "--json", "--procs", "100"]);
    let doc: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(doc["sections"][0]["result"]["trace"]["procs"], 100);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compressed_and_cr_only_traces_read_like_the_plain_sample_head() {
    let dir = temp_dir("formats");
    let sample_text = std::fs::read_to_string(sample()).expect("sample");
    let head: String = sample_text.split_inclusive('\n').take(60).collect();
    let plain = dir.join("head.swf");
    std::fs::write(&plain, &head).expect("head");
    let cr = dir.join("head-cr.swf");
    std::fs::write(&cr, head.replace('\n', "\r")).expect("cr");
    let want = json(&["stats", &plain.display().to_string(), "--json"]);
    assert_eq!(want["jobs"], 52);
    for file in ["kth-head60.swf.bz2", "kth-head60.swf.xz", "kth-head60.swf.zst", "kth-head60.swf.zz"] {
        let v = json(&["stats", &fixture(file), "--json"]);
        assert_eq!((&v["sha256"], &v["jobs"]), (&want["sha256"], &want["jobs"]), "{file}");
    }
    let v = json(&["stats", &cr.display().to_string(), "--json"]);
    assert_eq!((&v["jobs"], &v["lines"]), (&want["jobs"], &want["lines"]), "CR line endings");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn usage_errors_are_clap_s_with_exit_2() {
    let s = sample();
    for args in
        [vec!["run", &s], vec!["stats"], vec!["nope"], vec!["stats", &s, "--procs", "many"], vec!["compare", &s]]
    {
        let o = schedlab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn bad_lines_are_reported_not_fatal() {
    let out = ok(&["stats", &fixture("bad-field.swf")]);
    assert!(out.contains("bad_lines"), "{out}");
    assert!(out.contains("line 7, field 4 (run time)"), "{out}");
    let v = json(&["stats", &fixture("short-line.swf"), "--json"]);
    assert_eq!(v["cleaning"]["bad_lines"], 1);
    assert_eq!(v["bad_lines"][0]["line"], 6);
}

#[test]
fn stats_json_has_the_required_keys() {
    let v = json(&["stats", &sample(), "--json"]);
    for key in [
        "name",
        "sha256",
        "header",
        "jobs",
        "procs",
        "first_submit",
        "last_submit",
        "duration",
        "offered_load",
        "mean_parallelism",
        "mean_runtime",
        "mean_estimate_accuracy",
        "users",
        "queues",
        "simulated",
        "cleaning",
        "bad_lines",
        "warnings",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    // Runtimes are only ever cut: the trace as recorded runs at least as
    // long as the simulated one, by the seconds cut.
    let (recorded, simulated) = (&v, &v["simulated"]);
    let cut = simulated["runtime_cut"].as_f64().expect("runtime_cut");
    let gap = (recorded["mean_runtime"].as_f64().unwrap() - simulated["mean_runtime"].as_f64().unwrap()) * 3000.0;
    assert!((gap - cut).abs() < 1e-6, "{gap} {cut}");
    assert_eq!(simulated["runtime_capped"], v["cleaning"]["runtime_capped"]);
    assert_eq!(v["jobs"], 3000);
    assert_eq!(v["procs"], 100);
    let load = v["offered_load"].as_f64().expect("offered_load");
    assert!(load > 0.0 && load < 1.0, "offered_load is a fraction: {load}");
    let cleaning = v["cleaning"].as_object().expect("cleaning object");
    for reason in [
        "blank_lines",
        "bad_lines",
        "fractional_rounded",
        "unknown_submit",
        "unknown_runtime",
        "unknown_size",
        "status_filtered",
        "queue_filtered",
        "partition_filtered",
        "oversized_dropped",
        "unsorted",
        "window_filtered",
        "oversized_clamped",
        "no_estimate",
        "runtime_capped",
    ] {
        assert!(cleaning[reason].is_u64(), "cleaning.{reason}");
    }
    let text = ok(&["stats", &sample()]);
    assert!(text.contains("offered load") && text.contains("runtime_capped"), "{text}");
    assert!(!text.contains("unknown_submit"), "zero counts are not listed: {text}");
}

#[test]
fn gzip_and_plain_traces_are_the_same_trace() {
    let plain = json(&["stats", &sample(), "--json"]);
    let gz = json(&["stats", &fixture("kth-sp2-first3000.swf.gz"), "--json"]);
    assert_eq!(plain["sha256"], gz["sha256"]);
    assert_eq!(plain["jobs"], gz["jobs"]);
}

#[test]
fn workload_options_reach_the_reader() {
    let s = sample();
    let first = json(&["stats", &s, "--json", "--first", "100"]);
    assert_eq!(first["jobs"], 100);
    assert_eq!(first["cleaning"]["window_filtered"], 2900);
    let small = json(&["stats", &s, "--json", "--procs", "16"]);
    assert_eq!(small["procs"], 16);
    assert!(small["cleaning"]["oversized_dropped"].as_u64() > Some(0));
    let clamped = json(&["stats", &s, "--json", "--procs", "16", "--clamp-oversized"]);
    assert_eq!(clamped["jobs"], 3000);
    let base = json(&["stats", &s, "--json"]);
    let fast = json(&["stats", &s, "--json", "--load-factor", "2"]);
    // The load factor changes what is simulated, not the trace as recorded.
    let (d1, d2) = (base["duration"].as_f64().unwrap(), fast["simulated"]["duration"].as_f64().unwrap());
    assert!((d2 - d1 / 2.0).abs() <= 1.0, "{d1} {d2}");
    assert_eq!((&fast["duration"], &fast["simulated"]["load_factor"]), (&base["duration"], &serde_json::json!(2.0)));
    let range = json(&["stats", &s, "--json", "--time-range", "0:86400"]);
    assert!(range["jobs"].as_u64() < Some(3000));
    let status = json(&["stats", &s, "--json", "--drop-status", "0"]);
    assert!(status["cleaning"]["status_filtered"].as_u64() > Some(0));
}
