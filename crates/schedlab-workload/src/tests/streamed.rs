//! `read_stats` sums an SWF trace while it streams; these tests hold it to
//! the statistics of the cleaned list of jobs that `read_swf` returns, rule
//! by rule: the same figures, counts, warnings and errors.

use proptest::prelude::*;

use super::*;
use crate::*;

/// A job line with its user and queue.
fn line(id: u64, submit: i64, runtime: i64, size: i64, estimate: i64, user: i32, queue: i32) -> String {
    format!("{id} {submit} 0 {runtime} {size} -1 -1 {size} {estimate} -1 1 {user} 1 -1 {queue} 1 -1 -1")
}

/// What both ways of reading give, or the error both give.
fn both(text: &str, opts: &ReadOptions) -> Result<(Summary, TraceStats, Loaded), (String, String)> {
    let streamed = read_stats(text.as_bytes(), opts);
    let listed = read_swf(text.as_bytes(), opts);
    match (streamed, listed) {
        (Ok(s), Ok(l)) => {
            let whole = stats_with_cleaning(&l.trace, &l.report);
            Ok((s, whole, l))
        }
        (s, l) => Err((
            s.map(|_| "read".into()).unwrap_or_else(|e| e.to_string()),
            l.map(|_| "read".into()).unwrap_or_else(|e| e.to_string()),
        )),
    }
}

/// The mean estimate accuracy is a float sum, taken in file order while
/// streaming and in submit order from the list; for an unsorted trace they
/// may differ in the last bits, so it is compared within 1e-12 and then
/// set aside, and everything else must be equal.
fn assert_same(text: &str, opts: &ReadOptions) {
    let (mut s, mut whole, l) = match both(text, opts) {
        Ok(x) => x,
        Err((streamed, listed)) => {
            assert_eq!(streamed, listed, "{text}");
            return;
        }
    };
    let mut report = l.report.clone();
    for (a, b) in [
        (&mut s.stats.recorded.mean_estimate_accuracy, &mut whole.recorded.mean_estimate_accuracy),
        (&mut s.stats.simulated.figures.mean_estimate_accuracy, &mut whole.simulated.figures.mean_estimate_accuracy),
        (&mut s.report.as_recorded.accuracy, &mut report.as_recorded.accuracy),
    ] {
        assert!((*a - *b).abs() <= 1e-12 * b.abs().max(1.0), "{a} vs {b}\n{text}");
        *a = *b;
    }
    assert_eq!(s.stats, whole, "{text}");
    assert_eq!(s.report, report, "{text}");
    assert_eq!((&s.header, &s.sha256, s.bytes, s.lines, s.format), (&l.header, &l.sha256, l.bytes, l.lines, l.format));
}

/// Out of order, a repeated job number, an oversized job, a job with no
/// estimate and one that ran past it, two users and a queue unknown.
fn mixed(header: &str) -> String {
    let jobs = [
        line(3, 100, 50, 2, 100, 1, 0),
        line(1, 10, 10, 4, 5, 2, -1),
        line(2, 10, 30, 16, 60, 1, 3),
        line(3, 400, 7, 1, -1, 3, 3),
        line(9, 50, 20, 8, 40, -1, 0),
    ];
    format!("{header}{}\n", jobs.join("\n"))
}

#[test]
fn every_rule_gives_what_the_list_of_jobs_gives() {
    let drop = ReadOptions::default();
    let clamp = ReadOptions { oversize: Oversize::Clamp, ..ReadOptions::default() };
    let scaled = ReadOptions { load_factor: 3.0, ..clamp.clone() };
    let procs = ReadOptions { machine_size: Some(4), ..ReadOptions::default() };
    for header in ["; MaxProcs: 8\n", "; MaxNodes: 8\n", "", "; MaxProcs: 1\n"] {
        for opts in [&drop, &clamp, &scaled, &procs] {
            assert_same(&mixed(header), opts);
        }
    }
}

/// Hand-computed on `mixed` with MaxProcs 8: job 2 (16 processors) is
/// dropped; job 1 comes after job 3 (submit 10 after 100), job 9 after
/// job 3 too: 2 out of order. Job number 3 comes again. Users 1, 2, 3;
/// queues 0 and 3. Job 1 ran 10 s of 5 (capped); the second job 3 has no
/// estimate (given 7 s).
#[test]
fn hand_computed_counts() {
    let s = read_stats(mixed("; MaxProcs: 8\n").as_bytes(), &ReadOptions::default()).expect("read");
    let r = &s.report;
    assert_eq!((r.oversized_dropped, r.unsorted, r.duplicate_ids, r.jobs_kept), (1, 2, 1, 4));
    assert_eq!((r.runtime_capped, r.no_estimate), (1, 1));
    assert_eq!((s.stats.jobs, s.stats.procs, s.stats.users, s.stats.queues), (4, 8, 3, 2));
    // As recorded: 50×2 + 10×4 + 7×1 + 20×8 = 307; simulated: job 1 cut to 5 s, 287.
    assert_eq!((s.stats.recorded.total_work, s.stats.simulated.figures.total_work), (307.0, 287.0));
    assert_eq!((s.stats.recorded.first_submit, s.stats.recorded.last_submit), (10, 400));
    assert!(
        r.warnings.iter().any(|w| w.contains("1 job has the job number of an earlier job (e.g. job 3)")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn errors_are_the_same() {
    // Every job dropped as too large.
    assert_same(&format!("; MaxProcs: 1\n{}\n", line(1, 0, 1, 2, 1, 1, 1)), &ReadOptions::default());
    // A load factor that stretches the submits past 2^40 s.
    let far = format!("; MaxProcs: 4\n{}\n{}\n", line(1, 0, 1, 1, 1, 1, 1), line(2, 1_000_000, 1, 1, 1, 1, 1));
    assert_same(&far, &ReadOptions { load_factor: 1e-9, ..ReadOptions::default() });
    // The job limit counts the jobs as the list does, before the size rule.
    assert_same(&mixed("; MaxProcs: 8\n"), &ReadOptions { max_jobs: 4, ..ReadOptions::default() });
}

#[test]
fn a_window_and_other_formats_read_the_same_way() {
    assert_same(&mixed("; MaxProcs: 8\n"), &ReadOptions { window: Window::FirstJobs(2), ..ReadOptions::default() });
    let sample = std::fs::read_to_string(SAMPLE).expect("sample");
    assert_same(&sample, &ReadOptions::default());
    assert_same(&sample, &ReadOptions { load_factor: 1.7, oversize: Oversize::Clamp, ..ReadOptions::default() });
}

fn job_line() -> impl Strategy<Value = String> {
    (0u64..12, 0i64..1000, -1i64..100, 0i64..12, -1i64..100, -1i32..3, -1i32..3).prop_map(
        |(id, submit, runtime, size, estimate, user, queue)| line(id, submit, runtime, size, estimate, user, queue),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn streamed_statistics_match_the_list(
        header in prop_oneof![Just(""), Just("; MaxProcs: 6\n"), Just("; MaxNodes: 3\n")],
        lines in prop::collection::vec(job_line(), 1..40),
        clamp in any::<bool>(),
        machine in prop::option::of(1u32..10),
        load_factor in prop_oneof![Just(1.0), 0.3f64..4.0],
    ) {
        let text = format!("{header}{}\n", lines.join("\n"));
        let oversize = if clamp { Oversize::Clamp } else { Oversize::Drop };
        assert_same(&text, &ReadOptions { oversize, machine_size: machine, load_factor, ..ReadOptions::default() });
    }
}
