//! Sweeps, shards and their merge, presets and the schedule view.

use serde_json::Value;

use crate::{json, ok, sample, schedlab, stderr, temp_dir};

/// Removes every host-measured `elapsed_ms`, at any depth.
fn strip_elapsed(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("elapsed_ms");
            map.values_mut().for_each(strip_elapsed);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_elapsed),
        _ => {}
    }
}

/// A sweep run as three shards and merged equals the sweep run whole,
/// timing fields aside; a missing or doubled shard is refused.
#[test]
fn sharded_sweeps_merge_into_the_unsharded_result() {
    let sample = sample();
    let base = [
        "sweep",
        &sample,
        "--policy",
        "easy",
        "--policy",
        "pv-easy:mode=checkpoint",
        "--predictor",
        "virtual",
        "--sweep",
        "error=0:40:20",
        "--repeat",
        "2",
        "--seed",
        "4",
        "--json",
        "-q",
    ];
    let mut whole = json(&base);
    let dir = temp_dir("shards");
    let mut files = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard]);
        let path = dir.join(format!("shard{i}.json"));
        std::fs::write(&path, ok(&args)).expect("temp file");
        files.push(path.to_string_lossy().into_owned());
    }
    let mut merge: Vec<&str> = vec!["merge", "--json"];
    merge.extend(files.iter().map(String::as_str));
    let mut merged = json(&merge);
    strip_elapsed(&mut whole);
    strip_elapsed(&mut merged);
    assert_eq!(whole, merged);
    assert_eq!(whole["points"].as_array().map(Vec::len), Some(2 * 3 * 2));
    assert_eq!(whole["summary"].as_array().map(Vec::len), Some(2 * 3));
    let missing = schedlab(&["merge", &files[0], &files[1]]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("points are missing"), "{}", stderr(&missing));
    let doubled = schedlab(&["merge", &files[0], &files[0], &files[1], &files[2]]);
    assert!(stderr(&doubled).contains("appears in more than one shard"), "{}", stderr(&doubled));
    merge_budget_counts_memory(&files);
}

/// `--max-bytes` bounds the memory the merge holds (its points, kept
/// compactly as the files stream), not the bytes it reads: a bound below
/// what the first point takes refuses the first file, naming it, and the
/// default takes every file.
fn merge_budget_counts_memory(files: &[String]) {
    let mut args = vec!["merge", "--max-bytes", "1K"];
    args.extend(files.iter().map(String::as_str));
    let o = schedlab(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let expected = format!(
        "{}: shard 1: the points read so far hold more than 1024 bytes of memory, the most this merge may hold \
         (1 points kept); --max-bytes raises it",
        files[0]
    );
    assert!(stderr(&o).contains(&expected), "{}", stderr(&o));
    args.drain(1..3);
    assert!(schedlab(&args).status.success());
}

/// Without `--sweep`, `sweep` runs each run `--repeat` times (the page's
/// experiments without a sweep), FCFS once since it draws nothing from the
/// seed; `--wait-ecdf` keeps the wait ECDF of each run's first repetition,
/// a curve from 0 to 1.
#[test]
fn a_sweep_without_a_swept_parameter_and_with_wait_ecdfs() {
    let sample = sample();
    let doc = json(&[
        "sweep",
        &sample,
        "--policy",
        "fcfs",
        "--policy",
        "dbf",
        "--repeat",
        "2",
        "--seed",
        "3",
        "--wait-ecdf",
        "--json",
        "-q",
    ]);
    assert_eq!(doc["experiment"]["wait_ecdf"], true);
    assert!(doc["experiment"].get("sweep").is_none());
    let points = doc["points"].as_array().expect("points");
    assert_eq!(points.len(), 1 + 2);
    for p in points {
        let first = p["seed"] == 3;
        let ecdf = p.get("wait_ecdf").and_then(Value::as_array);
        assert_eq!(ecdf.is_some(), first, "only the first repetition keeps its ECDF: {p}");
        if let Some(e) = ecdf {
            let last = e.last().and_then(|x| x[1].as_f64());
            assert_eq!(last, Some(1.0), "an ECDF ends at 1");
        }
    }
    let values: Vec<&Value> = doc["summary"].as_array().expect("summary").iter().map(|r| &r["value"]).collect();
    assert_eq!(values, [&Value::Null, &Value::Null]);
    let plain = json(&["sweep", &sample, "--policy", "fcfs", "--json", "-q"]);
    assert!(plain["experiment"].get("wait_ecdf").is_none() && plain["points"][0].get("wait_ecdf").is_none());
}

/// `--repeat 3` with EASY and DBF: EASY draws nothing from the seed and
/// runs once (one seed, no interval), DBF runs with seeds 4, 5 and 6, and
/// the table says why EASY has no interval.
#[test]
fn runs_without_randomness_run_once_and_the_table_says_so() {
    let sample = sample();
    let args = ["sweep", &sample, "--policy", "easy", "--policy", "dbf", "--repeat", "3", "--seed", "4", "-q"];
    let doc = json(&[&args[..], &["--json"]].concat());
    let seeds: Vec<&Value> = doc["points"].as_array().expect("points").iter().map(|p| &p["seed"]).collect();
    assert_eq!(seeds, [4, 4, 5, 6]);
    assert_eq!(doc["summary"][0]["seeds"], serde_json::json!([4]));
    assert_eq!(doc["summary"][0]["ci95"]["mbs"], Value::Null, "one run has no interval, not ± 0");
    assert_eq!(doc["summary"][1]["seeds"], serde_json::json!([4, 5, 6]));
    assert_eq!(doc["note"], "EASY uses no randomness: run once");
    let table = ok(&args);
    assert!(table.lines().any(|l| l == "EASY uses no randomness: run once"), "{table}");
    let run = ok(&["run", &sample, "--policy", "cbf", "--repeat", "3", "-q"]);
    assert!(run.contains("repeat          1 run, seed 0"), "{run}");
    assert!(run.contains("Conservative backfilling uses no randomness: run once"), "{run}");
}

/// The reservation-depth preset sweeps `backfill` from depth 1 to all beside
/// EASY. Depth 1 in FCFS order is EASY's schedule (docs/policies.md), so its
/// MBS, MWBS and plan changes equal EASY's; every depth has a row with the
/// plan changes. Nothing is asserted about how cost grows with the depth:
/// a deeper plan can settle sooner, so it need not grow.
#[test]
fn the_depth_preset_meets_easy_at_depth_one() {
    let sample = sample();
    let doc = json(&["reproduce", "reservation-depth", &sample, "--json", "-q"]);
    let summary = doc["sections"][0]["result"]["summary"].as_array().expect("summary").clone();
    let row = |label: &str, value: Option<&str>| {
        summary
            .iter()
            .find(|r| r["label"] == label && r["value"].as_str() == value)
            .unwrap_or_else(|| panic!("no row {label} {value:?}"))
    };
    let (easy, depth1) = (row("easy", None), row("backfill", Some("1")));
    for metric in ["mbs", "mwbs", "reservation_changes"] {
        assert_eq!(easy["mean"][metric], depth1["mean"][metric], "{metric}");
    }
    let depths: Vec<&str> =
        summary.iter().filter(|r| r["label"] == "backfill").filter_map(|r| r["value"].as_str()).collect();
    assert_eq!(depths, ["1", "2", "4", "8", "16", "32", "64", "all"]);
    for r in &summary {
        assert!(r["mean"]["reservation_changes"].is_number(), "{}: no plan changes", r["label"]);
    }
    assert!(row("backfill", Some("all"))["mean"]["reservation_changes"].as_f64() > Some(0.0));
}

/// A preset's JSON names the preset and holds, per section, a complete
/// experiment result whose summary has one row per run (and sweep value),
/// with every column's metric path present.
#[test]
fn a_preset_reproduces_with_its_structure() {
    let sample = sample();
    let doc = json(&["reproduce", "fairness-audit", &sample, "--json", "-q"]);
    assert_eq!(doc["preset"]["id"], "fairness-audit");
    let sections = doc["sections"].as_array().expect("sections");
    assert_eq!(sections.len(), 1);
    let summary = sections[0]["result"]["summary"].as_array().expect("summary");
    let labels: Vec<&str> = summary.iter().filter_map(|r| r["label"].as_str()).collect();
    assert_eq!(labels, vec!["easy", "easy@last"]);
    for column in doc["preset"]["sections"][0]["columns"].as_array().expect("columns") {
        let path = column.as_str().expect("a metric path");
        let mut v = &summary[0]["mean"];
        for part in path.split('.') {
            v = &v[part];
        }
        assert!(v.is_number(), "{path} missing from the summary");
    }
    let unknown = schedlab(&["reproduce", "no-such-preset", &sample]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("unknown preset `no-such-preset` (known: pv-easy-vs-easy"),
        "{}",
        stderr(&unknown)
    );
}

/// `--gantt` writes the schedule view as SVG: the same bytes every time,
/// text inside, one box per run for a short window, columns for a long one.
#[test]
fn gantt_writes_the_schedule_view_as_svg() {
    let dir = temp_dir("gantt");
    let (s, day, all) = (sample(), dir.join("day.svg"), dir.join("all.svg"));
    let (day_s, all_s) = (day.display().to_string(), all.display().to_string());
    ok(&["run", &s, "--policy", "pv-easy", "--gantt", &day_s, "--window", "10d:11d", "-q"]);
    let svg = std::fs::read_to_string(&day).expect("svg");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for text in ["PV-EASY on kth-sp2-first3000.swf", "processors", "utilisation", "waiting jobs", "d10"] {
        assert!(svg.contains(text), "{text}");
    }
    // Runs of the day as boxes in the four class colours (blue, orange,
    // green, vermillion), each also in the legend.
    for colour in ["#0072B2", "#E69F00", "#009E73", "#D55E00"] {
        assert!(svg.matches(&format!("fill=\"{colour}\"")).count() > 1, "{colour}");
    }
    ok(&["run", &s, "--policy", "pv-easy", "--gantt", &all_s, "--window", "864000:950400", "-q"]);
    assert_eq!(std::fs::read_to_string(&all).expect("svg"), svg, "the same window in seconds, the same bytes");
    // The whole run: 3000 jobs are drawn one by one (under the limit).
    ok(&["run", &s, "--policy", "easy", "--gantt", &all_s, "-q"]);
    let whole = std::fs::read_to_string(&all).expect("svg");
    assert!(whole.matches("<rect").count() > 3000);
}

/// Composable backfilling from the command line: a preset and a formula
/// run, a bad formula names its column and exits non-zero, `policies`
/// lists the presets, and a sweep of the depth runs every value (`all`
/// included).
#[test]
fn composable_backfilling_runs_presets_formulas_and_depth_sweeps() {
    let sample = crate::sample();
    let first = ["--first", "300", "--json", "-q"];
    let run = |extra: &[&str]| {
        let mut args = vec!["run", sample.as_str(), "--policy", "backfill"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&first);
        crate::json(&args)
    };
    let easy = crate::json(&["run", &sample, "--policy", "easy", "--first", "300", "--json", "-q"]);
    let ours = run(&["--param", "depth=1", "--param", "order=fcfs"]);
    assert_eq!(ours["metrics"], easy["metrics"], "depth 1 in FCFS order is EASY");
    let formula = run(&["--param", "order=-(wait / requested)^3 * procs", "--param", "depth=all"]);
    let wfp3 = run(&["--param", "order=wfp3", "--param", "depth=all"]);
    assert_eq!(formula["metrics"], wfp3["metrics"], "the preset is its formula");
    let bad = crate::schedlab(&["run", &sample, "--policy", "backfill", "--param", "order=(wiat / requested)^3"]);
    assert!(!bad.status.success());
    let message = crate::stderr(&bad);
    assert!(message.contains("unknown variable `wiat` at column 2; did you mean `wait`?"), "{message}");
    let upper = crate::schedlab(&["run", &sample, "--policy", "backfill", "--param", "order=WFP3"]);
    let message = crate::stderr(&upper);
    assert!(
        message.contains(
            "unknown variable `WFP3` at column 1; preset names are lower case: did you mean the preset `wfp3`?"
        ),
        "{message}"
    );
    let policies = crate::ok(&["policies"]);
    for line in ["backfill  Composable backfilling", "wfp3      -(wait / requested)^3 * procs", "wait      seconds"] {
        assert!(policies.contains(line), "`schedlab policies` lacks {line:?}");
    }
    let sweep = crate::json(&[
        "sweep",
        &sample,
        "--policy",
        "backfill:order=saf",
        "--sweep",
        "depth=0,1,all",
        "--first",
        "300",
        "--json",
        "-q",
    ]);
    let values: Vec<&str> = sweep["summary"].as_array().unwrap().iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["0", "1", "all"]);
}
