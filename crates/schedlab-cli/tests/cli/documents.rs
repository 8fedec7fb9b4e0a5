//! The documents and tables commands print: `run`, `compare`, `policies`.

use serde_json::Value;

use crate::{fixture, json, ok, sample, schedlab, stderr, temp_dir};

fn without_elapsed(mut v: Value) -> String {
    v.as_object_mut().expect("object").remove("elapsed_ms").expect("elapsed_ms present");
    serde_json::to_string(&v).expect("json")
}

#[test]
fn run_json_has_every_key_and_is_deterministic() {
    let s = sample();
    let args =
        ["run", &s, "--policy", "easy", "--predictor", "virtual", "--param", "error=30", "--seed", "7", "--json"];
    let a = json(&args);
    for key in ["policy", "params", "predictor", "seed", "trace", "elapsed_ms", "events", "metrics"] {
        assert!(a.get(key).is_some(), "missing {key}");
    }
    for key in ["name", "sha256", "jobs", "procs"] {
        assert!(a["trace"].get(key).is_some(), "missing trace.{key}");
    }
    for key in
        ["jobs", "mbs", "mwbs", "mean_wait", "max_wait", "utilization", "makespan", "backfilled", "blocked", "fairness"]
    {
        assert!(a["metrics"].get(key).is_some(), "missing metrics.{key}");
    }
    for key in ["blocked", "delayed", "mean_delay", "max_delay"] {
        assert!(a["metrics"]["fairness"].get(key).is_some(), "missing metrics.fairness.{key}");
    }
    assert_eq!(
        (a["policy"].as_str(), a["predictor"].as_str(), a["seed"].as_u64()),
        (Some("easy"), Some("virtual"), Some(7))
    );
    assert_eq!(a["params"]["error"], 30.0);
    assert_eq!(a["trace"]["jobs"], 3000);
    assert_eq!(a["check"], "passed");
    let b = json(&args);
    assert_eq!(without_elapsed(a), without_elapsed(b), "two runs differ");
    let other_seed = json(&["run", &s, "--policy", "easy", "--predictor", "virtual", "--seed", "8", "--json"]);
    assert_eq!(other_seed["seed"], 8);
}

#[test]
fn run_text_shows_the_main_metrics() {
    let out = ok(&["run", &sample(), "--policy", "cbf", "--quiet"]);
    for word in [
        "policy",
        "cbf",
        "predictor",
        "MBS",
        "MWBS",
        "mean wait",
        "median wait",
        "p95 wait",
        "max wait",
        "utilization",
        "makespan",
        "backfilled",
        "blocked",
        "fairness",
        "check           passed",
    ] {
        assert!(out.contains(word), "`{word}` missing in {out}");
    }
    let unchecked = ok(&["run", &sample(), "--policy", "fcfs", "--no-check"]);
    assert!(unchecked.contains("check           skipped"), "{unchecked}");
}

#[test]
fn output_files_parse() {
    let dir = temp_dir("out");
    let (csv, swf) = (dir.join("jobs.csv"), dir.join("schedule.swf"));
    let s = sample();
    ok(&[
        "run",
        &s,
        "--policy",
        "easy",
        "--param",
        "order=shortest",
        "--jobs-csv",
        csv.to_str().unwrap(),
        "--swf-out",
        swf.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&csv).expect("csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    assert_eq!(header.len(), 16);
    let (submit, start, wait) = (col(&header, "submit"), col(&header, "start"), col(&header, "wait"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3000);
    assert!(rows.iter().all(|r| r.len() == 16));
    let loaded = schedlab_workload::read_swf(std::fs::File::open(&swf).expect("swf"), &Default::default())
        .expect("swf-out parses");
    assert_eq!(loaded.trace.jobs.len(), 3000);
    assert_eq!(loaded.trace.procs, 100);
    assert_eq!(loaded.report.bad_lines_total, 0);
    let sim_waits: Vec<i64> = loaded.trace.extras.iter().map(|e| e.wait).collect();
    let csv_waits: Vec<i64> =
        rows.iter().map(|r| r[start].parse::<i64>().unwrap() - r[submit].parse::<i64>().unwrap()).collect();
    assert_eq!(sim_waits, csv_waits, "SWF field 3 is the simulated wait");
    assert!(rows.iter().all(|r| r[wait].parse::<i64>().unwrap() >= 0));
}

fn col(header: &[&str], name: &str) -> usize {
    header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"))
}

#[test]
fn compare_prints_one_row_per_policy_in_order() {
    let s = sample();
    let specs = ["fcfs", "easy", "easy:order=shortest@tsafrir", "cbf", "easy@virtual"];
    let mut args = vec!["compare", s.as_str(), "--param", "error=20"];
    for p in &specs {
        args.extend(["--policy", p]);
    }
    let out = ok(&args);
    let lines: Vec<&str> = out.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("policy")).expect("table header");
    for key in ["MBS", "MWBS", "mean wait", "max wait", "util", "backfilled", "blocked", "delayed", "seconds"] {
        assert!(lines[header].contains(key), "{key}");
    }
    let rows = &lines[header + 2..];
    assert_eq!(rows.len(), specs.len(), "{out}");
    for (row, spec) in rows.iter().zip(specs) {
        assert!(row.starts_with(&format!("{spec} ")), "{row} is not {spec}");
        assert!(row.ends_with("passed"), "{row}");
    }
    args.push("--json");
    let v = json(&args);
    let runs = v["runs"].as_array().expect("runs");
    let labels: Vec<&str> = runs.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels, specs);
    assert_eq!(runs[2]["params"]["order"], "shortest");
    assert_eq!(runs[2]["predictor"], "tsafrir");
    assert_eq!(runs[4]["params"]["error"], 20.0);
    assert!(runs[1]["params"].get("error").is_none(), "error only goes to policies that know it");
    // The same run alone gives the same metrics as inside the comparison.
    let alone = json(&["run", &s, "--policy", "cbf", "--json"]);
    assert_eq!(alone["metrics"], runs[3]["metrics"]);
}

#[test]
fn compare_compares_runs_on_the_jobs_regular_under_each_dbf_run() {
    let s = sample();
    let args = ["compare", s.as_str(), "--policy", "cbf", "--policy", "dbf:fraction=0.3", "--policy", "easy"];
    let mut with = args.to_vec();
    with.extend(["--regular-comparison", "--json"]);
    let v = json(&with);
    let comparisons = v["regular_comparison"].as_array().expect("one comparison per dbf run");
    assert_eq!(comparisons.len(), 1);
    let c = &comparisons[0];
    assert_eq!(c["under"], 1);
    // The runs without deadlines in the order given, then the dbf run.
    let compared: Vec<u64> = c["runs"].as_array().unwrap().iter().map(|m| m["run"].as_u64().unwrap()).collect();
    assert_eq!(compared, [0, 2, 1]);
    let regular = v["runs"][1]["metrics"]["deadline"]["regular_jobs"].as_u64().unwrap();
    let jobs = c["jobs"].as_u64().unwrap();
    assert!(jobs > 0 && jobs <= regular, "{jobs} of {regular} regular jobs");
    // The regular jobs left out waited 0 under the dbf run too, so under it
    // the compared jobs' total wait is the total wait of its regular jobs
    // (the run's own metric).
    let dbf = &v["runs"][1]["metrics"]["deadline"];
    let total_regular = dbf["regular_mean_wait"].as_f64().unwrap() * regular as f64;
    let total_compared = c["runs"][2]["mean_wait"].as_f64().unwrap() * jobs as f64;
    assert!(
        (total_regular - total_compared).abs() < 1e-6 * total_regular.max(1.0),
        "{total_regular} vs {total_compared}"
    );
    let text = ok(&[&args[..], &["--regular-comparison"]].concat());
    assert!(text.contains("jobs regular under dbf:fraction=0.3 that waited in a compared run"), "{text}");
    assert!(json(&[&args[..], &["--json"]].concat()).get("regular_comparison").is_none());
    // Without a run with deadlines: the runs' table all the same, and a
    // warning that says why there is no comparison.
    let o = schedlab(&["compare", s.as_str(), "--policy", "cbf", "--policy", "easy", "--regular-comparison", "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: --regular-comparison") && stderr(&o).contains("no run has deadlines"),
        "{}",
        stderr(&o)
    );
    let table = String::from_utf8(o.stdout).expect("utf-8");
    assert!(table.lines().any(|l| l.starts_with("easy ")) && !table.contains("jobs regular under"), "{table}");
}

/// With every job given a deadline (`fraction=1`) no job is regular: the
/// means over the regular jobs are undefined, `null` in JSON and
/// "undefined (no jobs)" in text, never 0 or -0.
#[test]
fn means_over_no_regular_jobs_are_undefined() {
    let s = sample();
    let args = ["compare", s.as_str(), "--policy", "easy", "--policy", "dbf:fraction=1", "--regular-comparison"];
    let v = json(&[&args[..], &["--json"]].concat());
    let c = &v["regular_comparison"][0];
    assert_eq!(c["jobs"], 0);
    for m in c["runs"].as_array().expect("compared runs") {
        assert_eq!((&m["mean_wait"], &m["mean_stretch"]), (&Value::Null, &Value::Null), "{m}");
    }
    let deadline = &v["runs"][1]["metrics"]["deadline"];
    assert_eq!(deadline["regular_jobs"], 0);
    for key in ["regular_mean_wait", "regular_mean_stretch", "regular_max_stretch"] {
        assert_eq!(deadline[key], Value::Null, "{key}");
    }
    let text = ok(&args);
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("jobs regular under")).skip(3).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows.iter().all(|r| r.matches("undefined (no jobs)").count() == 2 && !r.contains("0.0")), "{text}");
    let run = ok(&["run", s.as_str(), "--policy", "dbf", "--param", "fraction=1"]);
    assert!(run.contains("regular jobs: mean wait undefined (no jobs), mean stretch undefined (no jobs)"), "{run}");
}

#[test]
fn policies_lists_every_policy_and_parameter() {
    let v = json(&["policies", "--json"]);
    let ids: Vec<&str> = v["policies"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["fcfs", "easy", "cbf", "pv-easy", "slack", "selective", "dbf", "backfill", "slurm"]);
    let backfill = &v["policies"][7];
    let kinds: Vec<&str> = backfill["params"].as_array().unwrap().iter().map(|p| p["type"].as_str().unwrap()).collect();
    // depth, order, direction, fill.
    assert_eq!(kinds, ["intor", "text", "choice", "choice"]);
    let orders: Vec<&str> = v["orders"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(orders, ["fcfs", "sjf", "ljf", "smallest", "largest", "saf", "wfp3", "unicep", "f1", "f2", "f3", "f4"]);
    let easy = &v["policies"][1];
    assert_eq!(easy["params"][0]["key"], "order");
    assert_eq!(easy["params"][0]["type"], "choice");
    let sources: Vec<&str> = v["predictors"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(sources, ["estimate", "exact", "last", "tsafrir", "virtual"]);
    let text = ok(&["policies"]);
    for word in ["fcfs", "easy", "cbf", "order=<priority|shortest", "error=<number in [0, 100] %", "tsafrir"] {
        assert!(text.contains(word), "`{word}` missing");
    }
}

#[test]
fn sacct_dumps_and_batsim_workloads_are_read_wherever_swf_is() {
    let dump = fixture("slurm/sacct-rules.txt");
    let stats = json(&["stats", &dump, "--procs", "16", "--json"]);
    assert_eq!(stats["format"], "sacct");
    assert_eq!((stats["jobs"].as_u64(), stats["cleaning"]["steps_folded"].as_u64()), (Some(7), Some(3)));
    assert_eq!(stats["slurm"]["users"], serde_json::json!(["alice", "bob", "carol", "dave"]));
    let text = ok(&["stats", &dump, "--procs", "16"]);
    assert!(text.contains("format                  Slurm accounting dump"), "{text}");
    assert!(text.contains("  cancelled_before_start 5\n"), "{text}");
    assert!(text.contains("  users                 1 alice, 2 bob, 3 carol, 4 dave\n"), "{text}");
    let swf_stats = json(&["stats", &sample(), "--json"]);
    assert!(swf_stats.get("format").is_none() && swf_stats.get("slurm").is_none(), "SWF documents are unchanged");

    let dir = temp_dir("batsim");
    let csv = |name: &str| dir.join(name).display().to_string();
    for (input, out) in [("batsim/workload-v4.json", "v4.csv"), ("batsim/source.swf", "swf.csv")] {
        ok(&["run", &fixture(input), "--policy", "cbf", "--batsim-jobs", &csv(out)]);
    }
    let v4 = std::fs::read_to_string(csv("v4.csv")).expect("v4 csv");
    assert_eq!(v4, std::fs::read_to_string(csv("swf.csv")).expect("swf csv"));
    assert!(v4.starts_with("job_id,workload_name,profile,submission_time,"), "{v4}");
    assert_eq!(v4.lines().count(), 7, "a header and six jobs");
    let o = schedlab(&["run", &sample(), "--repeat", "2", "--batsim-jobs", &csv("r.csv")]);
    assert!(!o.status.success() && stderr(&o).contains("--batsim-jobs"), "{}", stderr(&o));
}

/// `--slurm-conf`: its scheduler and priority lines become the `slurm`
/// policy's parameters (a `--param` wins), and every other line or option
/// is named on stderr with its line and why; without SlurmDBD the age
/// weight drops to 0 as Slurm drops it. Its four nodes make the machine.
#[test]
fn slurm_conf_sets_the_slurm_policy_and_says_what_it_ignored() {
    let conf = fixture("slurm/site.conf");
    let args = [
        "run",
        &sample(),
        "--first",
        "200",
        "--policy",
        "slurm",
        "--slurm-conf",
        &conf,
        "--param",
        "bf_window=60",
        "--json",
    ];
    let o = crate::schedlab(&args);
    assert!(o.status.success(), "{}", crate::stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&crate::stdout(&o)).unwrap();
    let params = &doc["params"];
    assert_eq!(params["bf_window"], 60, "--param wins over the file");
    assert_eq!(params["bf_max_job_test"], 100);
    assert_eq!(params["PriorityType"], "priority/multifactor");
    assert_eq!(params["PriorityFavorSmall"], "YES");
    assert_eq!(params["PriorityWeightJobSize"], 500);
    assert_eq!(params["PriorityWeightAge"], 0);
    let err = crate::stderr(&o);
    for line in [
        "site.conf:2: ClusterName=demo ignored",
        "site.conf:4: bf_continue ignored",
        "site.conf:4: kill_invalid_depend ignored",
        "PriorityWeightAge ignored: set to 0",
    ] {
        assert!(err.contains(line), "{line} not in\n{err}");
    }
    assert!(!err.contains("NodeName"), "the machine reads the node line: {err}");
    assert_eq!(doc["trace"]["machine"]["nodes"], 4, "the run is on the file's four nodes");
    let missing = crate::schedlab(&["run", &sample(), "--policy", "slurm", "--slurm-conf", "/nonexistent/slurm.conf"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(crate::stderr(&missing).contains("--slurm-conf /nonexistent/slurm.conf"), "{}", crate::stderr(&missing));
}
