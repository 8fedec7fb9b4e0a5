//! Every error in the user's terms: the thing at fault, the value (cut
//! short), the rule, and where.

use crate::{sample, schedlab, stderr, temp_dir};

#[test]
fn errors_name_the_value_and_the_rule_it_breaks() {
    let s = sample();
    let gantt = temp_dir("messages").join("g.svg").display().to_string();
    let huge = "x".repeat(100_000);
    let window = |w: &'static str| vec!["run", &s, "--policy", "easy", "--gantt", &gantt, "--window", w];
    let sweep = |extra: &[&'static str]| {
        let mut args = vec!["sweep", s.as_str(), "--policy", "easy", "--sweep", "order=priority,shortest", "-q"];
        args.extend(extra);
        args
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["sweep", &s, "--policy", "nope", "--sweep", "order=priority,shortest"],
            "error: unknown policy `nope` (known: fcfs, easy",
        ),
        (window("0:1099511627777"), "`1099511627777` is beyond the time limit of ±2^40 s"),
        (window("0:1e20"), "`1e20` is beyond the time limit of ±2^40 s"),
        (window("1.7e308:1e309"), "`1.7e308` is beyond the time limit of ±2^40 s"),
        (window("0.1:0.2"), "time window `0.1:0.2`: it is shorter than a second (0 s to 0 s in whole seconds)"),
        (window("-5d:x"), "time window `-5d:x`: `x` is not a time"),
        (sweep(&["--shard", "-1/3"]), "shard -1/3: the index I must be 1 or more (shards are numbered from 1)"),
        (sweep(&["--shard", "0/0"]), "shard 0/0: the count N must be 1 or more"),
        (sweep(&["--shard", "4/3"]), "shard 4/3: the index I must be at most the count N"),
        (vec!["stats", &s, "--max-bytes", "-1"], "--max-bytes `-1`: expected a number of bytes"),
        (
            vec!["run", &s, "--policy", "pv-easy", "--param", "interval=99999999999999999999999"],
            "parameter `interval`: 99999999999999999999999 is outside [1, 10000000]",
        ),
        (
            vec!["run", &s, "--policy", &huge],
            "unknown policy `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (100000 characters)` (known:",
        ),
        (
            vec!["sweep", &s, "--policy", &huge, "--sweep", "order=a,b"],
            "error: unknown policy `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (100000 characters)` (known:",
        ),
    ];
    for (args, expected) in cases {
        let o = schedlab(&args);
        let err = stderr(&o);
        let shown: Vec<&str> = args.iter().map(|a| if a.len() > 50 { "<long>" } else { a }).collect();
        assert_eq!(o.status.code(), Some(2), "{shown:?}: {err}");
        assert!(err.contains(expected), "{shown:?}:\n  got: {err}\n  expected: {expected}");
        assert!(err.len() < 300, "{shown:?}: the message is {} bytes long", err.len());
    }
}

/// Text after a gzip trace is not a corrupt stream: the message says what
/// follows the stream.
#[test]
fn text_after_a_gzip_trace_is_named() {
    let dir = temp_dir("appended");
    let path = dir.join("appended.swf.gz");
    let mut bytes = std::fs::read(crate::fixture("kth-sp2-first3000.swf.gz")).expect("fixture");
    bytes.extend(b"junk after the trace\n");
    std::fs::write(&path, bytes).expect("temp file");
    let o = schedlab(&["stats", &path.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let expected =
        "the gzip stream ends after line 3008 of the text, and the file goes on with bytes that are not gzip \
                    (`junk after the trace\\n`)";
    assert!(stderr(&o).contains(expected), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

/// A negative start is a window like any other, given with or without `=`.
#[test]
fn a_window_may_start_before_zero() {
    let dir = temp_dir("negative-window");
    let gantt = dir.join("g.svg").display().to_string();
    let o = schedlab(&[
        "run",
        &sample(),
        "--policy",
        "easy",
        "--first",
        "100",
        "--gantt",
        &gantt,
        "--window",
        "-5d:1d",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&gantt).expect("svg").starts_with("<svg"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A tiny parameter value is echoed as `1e-300`, not with 300 digits.
#[test]
fn parameter_values_are_echoed_short() {
    let o = schedlab(&["run", &sample(), "--policy", "slack", "--param", "sf=1e-300", "--first", "50", "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    let policy = text.lines().next().expect("the policy line");
    assert!(policy.contains(" sf=1e-300 "), "{policy}");
}

/// Whatever flag carries a long text, the message quotes it in the short
/// form with its length: a 100,000-character `--param depth`, swept value,
/// swept parameter, `--sweep`, run label or `--repeat` was echoed whole
/// (100 KB or 200 KB of error line).
#[test]
fn every_long_text_is_quoted_short_whatever_the_flag() {
    let s = sample();
    let digits = "9".repeat(100_000);
    let huge = "x".repeat(100_000);
    let (depth, swept, range) = (format!("depth={digits}"), format!("depth={huge}"), format!("depth=1:{huge}"));
    let (name, label) = (format!("{huge}=1,2"), format!("backfill@{huge}"));
    let (param, spec) = (format!("{huge}=1"), format!("easy:{huge}"));
    let cases: Vec<Vec<&str>> = vec![
        vec!["run", &s, "--policy", "backfill", "--param", &depth],
        vec!["sweep", &s, "--policy", "backfill", "--sweep", &swept],
        vec!["sweep", &s, "--policy", "backfill", "--sweep", &name],
        vec!["sweep", &s, "--policy", "backfill", "--sweep", &range],
        vec!["sweep", &s, "--policy", "backfill", "--sweep", "depth=1,2", "--param", &param],
        vec!["sweep", &s, "--policy", &label, "--sweep", "depth=1,2"],
        vec!["run", &s, "--policy", "easy", "--repeat", &huge],
        vec!["compare", &s, "--policy", "easy", "--policy", &spec],
        vec!["reproduce", &huge, &s],
        vec!["run", &s, "--policy", "easy", "--nodes", &huge],
    ];
    for args in cases {
        let o = schedlab(&args);
        let err = stderr(&o);
        let shown: Vec<&str> = args.iter().map(|a| if a.len() > 50 { "<long>" } else { a }).collect();
        assert_eq!(o.status.code(), Some(2), "{shown:?}: {} bytes", err.len());
        assert!(err.len() < 600, "{shown:?}: the message is {} bytes long", err.len());
        assert!(err.contains("… (1000"), "{shown:?}: {err}");
    }
}
