//! The cleaning report and the cleaning passes that run once every job line
//! has been read (the per-line rules run in [`crate::read`]).

use serde::Serialize;

use crate::error::{short_number, BadLine, SwfError};
use crate::job::{Job, SwfExtra};
use crate::limits::{MAX_HORIZON, MAX_TIME};
use crate::options::{Oversize, ReadOptions, Window};

/// Bad lines kept in the report with their message; the rest are only counted.
pub const MAX_BAD_LINES_KEPT: usize = 10;

/// Most warnings kept; the rest are summed up in a last warning.
const MAX_WARNINGS: usize = 20;

/// What cleaning did to the trace, counted by reason. Nothing is dropped or
/// changed without being counted here.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CleaningReport {
    /// Lines that are valid job lines.
    pub job_lines: u64,
    /// Comment lines (`;`), in the header or after it.
    pub comment_lines: u64,
    /// Jobs in the cleaned trace.
    pub jobs_kept: u64,
    /// Empty or whitespace-only lines, skipped.
    pub blank_lines: u64,
    /// Lines skipped because they are not 18 valid numbers (reason `bad_lines`).
    pub bad_lines_total: u64,
    /// Jobs with a fractional time or size field, rounded to whole seconds/processors.
    pub fractional_rounded: u64,
    /// Jobs dropped: submit time negative (unknown).
    pub unknown_submit: u64,
    /// Jobs dropped: run time negative (unknown).
    pub unknown_runtime: u64,
    /// Jobs dropped: neither requested nor allocated processors positive.
    pub unknown_size: u64,
    /// Jobs dropped: a submit, run or requested time above 2^40 s.
    pub time_out_of_range: u64,
    /// Jobs dropped: more than 2^31 processors.
    pub size_out_of_range: u64,
    /// Jobs dropped because their status is in `drop_status`.
    pub status_filtered: u64,
    /// Jobs dropped because their queue is not in `queues`.
    pub queue_filtered: u64,
    /// Jobs dropped because their partition is not in `partitions`.
    pub partition_filtered: u64,
    /// Jobs dropped because they ask for more processors than the machine has.
    pub oversized_dropped: u64,
    /// Jobs found after a job that should come after them in (submit, job number) order.
    pub unsorted: u64,
    /// Jobs outside the window.
    pub window_filtered: u64,
    /// Jobs whose size was reduced to the machine size.
    pub oversized_clamped: u64,
    /// Jobs without a positive requested time, given max(run time, 1).
    pub no_estimate: u64,
    /// Jobs whose run time exceeded the requested time, cut to it.
    pub runtime_capped: u64,
    /// Jobs kept whose job number an earlier kept job already has.
    pub duplicate_ids: u64,
    /// What the reader of a Slurm accounting dump folded, expanded, counted
    /// and numbered; absent for the other formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slurm: Option<SlurmReport>,
    /// On a machine of nodes, the jobs that can never run on it, by
    /// reason; absent for the archive's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineReport>,
    /// The first [`MAX_BAD_LINES_KEPT`] bad lines, with line number and message.
    pub bad_lines: Vec<BadLine>,
    /// Things the user should know that are not counts (e.g. machine size guessed).
    pub warnings: Vec<String>,
    /// The kept jobs as the log records them, before the rules that change
    /// jobs (sizes clamped, estimates filled in, runtimes capped, the load
    /// factor), for the statistics of the trace as recorded.
    pub as_recorded: AsRecorded,
}

/// The rules only a Slurm accounting dump needs, and the numbers its
/// names became.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SlurmReport {
    /// Job step lines (`1234.batch`, `1234.0`) folded into their job.
    pub steps_folded: u64,
    /// Jobs made from the array records (`1234_[1-5]`) that stand for
    /// several tasks, one job per task.
    pub array_tasks: u64,
    /// Jobs dropped: cancelled before they started.
    pub cancelled_before_start: u64,
    /// Jobs whose time limit is unlimited or missing, left without an
    /// estimate (then filled in by `no_estimate`).
    pub no_time_limit: u64,
    /// User names by number: `users[0]` became user 1, in order of first
    /// appearance, as the Parallel Workloads Archive numbers its users.
    pub users: Vec<String>,
    /// Group names by number, the same way.
    pub groups: Vec<String>,
    /// Partition names by number (SWF field 16), the same way.
    pub partitions: Vec<String>,
    /// QOS names by number (SWF field 15, the queue), the same way.
    pub qos: Vec<String>,
}

/// What reading a trace for a machine of nodes did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MachineReport {
    /// Jobs dropped because they can never run on the machine, by reason
    /// (`asks for more gpu than partition `gpu`'s nodes have`), reasons in
    /// order; applied before the window, like the other rules that drop.
    pub no_fit: Vec<NoFitCount>,
    /// Distinct request shapes of the kept jobs.
    pub requests: u64,
}

/// Jobs dropped for one reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoFitCount {
    pub reason: String,
    pub jobs: u64,
}

impl MachineReport {
    /// Jobs dropped for any reason.
    pub fn dropped(&self) -> u64 {
        self.no_fit.iter().map(|n| n.jobs).sum()
    }
}

/// Gives every row its request on `machine`, dropping and counting the
/// rows that can never run on it; `names` are the trace's partition names
/// by number (a Slurm dump's), if it has them. Returns the report and the
/// distinct requests.
pub(crate) fn place_rows(
    rows: &mut Vec<Row>,
    machine: &crate::Machine,
    names: &[String],
) -> (MachineReport, Vec<crate::Request>) {
    let mut requests = crate::request::Requests::new(machine, names);
    let mut dropped: std::collections::BTreeMap<crate::NoFit, u64> = std::collections::BTreeMap::new();
    rows.retain_mut(|(job, extra)| match requests.of(job, extra) {
        Ok(i) => {
            extra.request = i;
            true
        }
        Err(why) => {
            *dropped.entry(why).or_default() += 1;
            false
        }
    });
    let no_fit = dropped.into_iter().map(|(why, jobs)| NoFitCount { reason: why.text(), jobs }).collect();
    (MachineReport { no_fit, requests: requests.list.len() as u64 }, requests.list)
}

/// Sums over the kept jobs as recorded (after the rules that drop or
/// select jobs, before those that change them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct AsRecorded {
    pub jobs: u64,
    /// Σ runtime, seconds.
    pub runtime: f64,
    /// Σ size, processors.
    pub size: f64,
    /// Σ runtime × size, processor-seconds.
    pub work: f64,
    /// Σ runtime / estimate, an unknown estimate counting as a perfect one.
    pub accuracy: f64,
    pub first_submit: i64,
    pub last_submit: i64,
    /// The load factor applied afterwards.
    pub load_factor: f64,
}

impl AsRecorded {
    /// The sums over `jobs`, summed exactly and reported as floats (exact
    /// up to 2^53, far beyond any real log).
    pub(crate) fn of<'a>(jobs: impl Iterator<Item = &'a Job>, load_factor: f64) -> Self {
        let mut sums = Sums::default();
        jobs.for_each(|job| sums.add(job));
        sums.finish(load_factor)
    }
}

/// The running sums behind [`AsRecorded`], exact in integers until the end.
#[derive(Clone, Debug)]
pub(crate) struct Sums {
    jobs: u64,
    runtime: u128,
    size: u128,
    work: u128,
    accuracy: f64,
    pub first_submit: i64,
    pub last_submit: i64,
}

impl Default for Sums {
    fn default() -> Self {
        Sums { jobs: 0, runtime: 0, size: 0, work: 0, accuracy: 0.0, first_submit: i64::MAX, last_submit: i64::MIN }
    }
}

impl Sums {
    pub(crate) fn add(&mut self, job: &Job) {
        let rt = job.runtime.max(0).unsigned_abs();
        self.runtime += u128::from(rt);
        self.size += u128::from(job.size);
        self.work += u128::from(rt) * u128::from(job.size);
        self.accuracy += rt as f64 / filled_estimate(job) as f64;
        self.first_submit = self.first_submit.min(job.submit);
        self.last_submit = self.last_submit.max(job.submit);
        self.jobs += 1;
    }

    pub(crate) fn jobs(&self) -> u64 {
        self.jobs
    }

    pub(crate) fn finish(&self, load_factor: f64) -> AsRecorded {
        let (first_submit, last_submit) = if self.jobs == 0 { (0, 0) } else { (self.first_submit, self.last_submit) };
        AsRecorded {
            jobs: self.jobs,
            runtime: self.runtime as f64,
            size: self.size as f64,
            work: self.work as f64,
            accuracy: self.accuracy,
            first_submit,
            last_submit,
            load_factor,
        }
    }
}

impl CleaningReport {
    /// Counts by reason, in the order the rules apply.
    pub fn counts(&self) -> Vec<(&'static str, u64)> {
        let mut counts = vec![("blank_lines", self.blank_lines), ("bad_lines", self.bad_lines_total)];
        if let Some(s) = &self.slurm {
            counts.extend([
                ("steps_folded", s.steps_folded),
                ("array_tasks", s.array_tasks),
                ("cancelled_before_start", s.cancelled_before_start),
                ("no_time_limit", s.no_time_limit),
            ]);
        }
        counts.extend([
            ("fractional_rounded", self.fractional_rounded),
            ("unknown_submit", self.unknown_submit),
            ("unknown_runtime", self.unknown_runtime),
            ("unknown_size", self.unknown_size),
            ("time_out_of_range", self.time_out_of_range),
            ("size_out_of_range", self.size_out_of_range),
            ("status_filtered", self.status_filtered),
            ("queue_filtered", self.queue_filtered),
            ("partition_filtered", self.partition_filtered),
        ]);
        if let Some(m) = &self.machine {
            counts.push(("no_fit", m.dropped()));
        }
        counts.extend([
            ("oversized_dropped", self.oversized_dropped),
            ("unsorted", self.unsorted),
            ("window_filtered", self.window_filtered),
            ("oversized_clamped", self.oversized_clamped),
            ("no_estimate", self.no_estimate),
            ("runtime_capped", self.runtime_capped),
            ("duplicate_ids", self.duplicate_ids),
        ]);
        counts
    }

    /// Non-zero counts as "reason n, reason n", for messages.
    pub fn summary(&self) -> String {
        let parts: Vec<String> =
            self.counts().into_iter().filter(|&(_, n)| n > 0).map(|(name, n)| format!("{name} {n}")).collect();
        if parts.is_empty() {
            "nothing counted".to_owned()
        } else {
            parts.join(", ")
        }
    }

    /// Counts a bad line, keeping the first few.
    pub(crate) fn bad_line(&mut self, bad: BadLine) {
        self.bad_lines_total += 1;
        if self.bad_lines.len() < MAX_BAD_LINES_KEPT {
            self.bad_lines.push(bad);
        }
    }

    /// Counts the kept jobs that share a job number with an earlier one, and
    /// says so: the run keeps them (a job number is only a name to the
    /// simulator), but per-job outputs then show two jobs under one number.
    pub(crate) fn duplicate_ids_warning(&mut self, count: u64, example: Option<u64>) -> Option<String> {
        self.duplicate_ids = count;
        let example = example?;
        let jobs = if count == 1 { "1 job has".to_owned() } else { format!("{count} jobs have") };
        Some(format!(
            "{jobs} the job number of an earlier job (e.g. job {example}); all are kept and run as distinct jobs"
        ))
    }

    /// Adds warnings, keeping at most a fixed number.
    pub(crate) fn warn_all(&mut self, warnings: impl IntoIterator<Item = String>) {
        let mut extra = 0u64;
        for w in warnings {
            if self.warnings.len() < MAX_WARNINGS {
                self.warnings.push(w);
            } else {
                extra += 1;
            }
        }
        if extra > 0 {
            self.warnings.push(format!("{extra} more warnings not shown"));
        }
    }
}

/// A job and its other SWF fields, while cleaning.
pub(crate) type Row = (Job, SwfExtra);

/// The number of rows whose job number an earlier row has, and the smallest
/// such number. Job numbers usually rise through a file, which costs one
/// pass to see; otherwise a sorted copy of the numbers is compared.
pub(crate) fn duplicate_ids(rows: &[Row]) -> (u64, Option<u64>) {
    if rows.windows(2).all(|w| w[0].0.id < w[1].0.id) {
        return (0, None);
    }
    let mut ids: Vec<u64> = rows.iter().map(|r| r.0.id).collect();
    ids.sort_unstable();
    let mut repeated = ids.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]);
    let first = repeated.next();
    (first.map_or(0, |_| 1 + repeated.count() as u64), first)
}

/// The passes after reading, in order: oversize drop, sort, window,
/// oversize clamp, estimates, load factor; then the time-line check.
pub(crate) fn clean_rows(
    rows: &mut Vec<Row>,
    machine: u32,
    opts: &ReadOptions,
    report: &mut CleaningReport,
) -> Result<(), SwfError> {
    if opts.oversize == Oversize::Drop {
        report.oversized_dropped += retain_count(rows, |r| r.0.size <= machine);
    }
    report.unsorted = sort_rows(rows);
    report.window_filtered = apply_window(rows, opts.window);
    report.as_recorded = AsRecorded::of(rows.iter().map(|r| &r.0), opts.load_factor);
    if opts.oversize == Oversize::Clamp {
        report.oversized_clamped = clamp_sizes(rows, machine);
    }
    fix_estimates(rows, report);
    if let (Some(first), Some(last)) = (rows.first(), rows.last()) {
        check_load_factor(first.0.submit, last.0.submit, opts.load_factor)?;
    }
    apply_load_factor(rows, opts.load_factor);
    let last = rows.last().map_or(0, |r| r.0.submit);
    check_horizon(last, rows.iter().map(|r| i128::from(r.0.estimate)).sum())
}

/// Refuses a load factor that would push the last submit time past
/// [`MAX_TIME`], before any time is scaled; `first` and `last` are the
/// earliest and latest submit times.
pub(crate) fn check_load_factor(first: i64, last: i64, factor: f64) -> Result<(), SwfError> {
    let span = last - first;
    let stretched = (span as f64 / factor).round();
    if first as f64 + stretched > MAX_TIME as f64 {
        return Err(SwfError::LoadFactorTooSmall {
            factor: short_number(factor),
            span,
            stretched: short_number(stretched),
        });
    }
    Ok(())
}

/// Refuses a trace whose last submit plus every requested time passes
/// [`MAX_HORIZON`]: no schedule of it can then end past 2^63 s, whatever
/// the order in which the jobs run, since a run never exceeds its request.
pub(crate) fn check_horizon(last: i64, estimates: i128) -> Result<(), SwfError> {
    let total = i128::from(last) + estimates;
    if total > i128::from(MAX_HORIZON) {
        return Err(SwfError::TimeLineTooLong { total: short_number(total as f64) });
    }
    Ok(())
}

/// Keeps the rows for which `keep` holds; returns how many were removed.
fn retain_count(rows: &mut Vec<Row>, keep: impl Fn(&Row) -> bool) -> u64 {
    let before = rows.len();
    rows.retain(|r| keep(r));
    (before - rows.len()) as u64
}

fn key(r: &Row) -> (i64, u64) {
    (r.0.submit, r.0.id)
}

/// Sorts by (submit, job number), stably; returns the number of rows that
/// came after a row with a larger key.
fn sort_rows(rows: &mut [Row]) -> u64 {
    let mut out_of_order = 0u64;
    let mut max = (i64::MIN, 0u64);
    for r in rows.iter() {
        let k = key(r);
        if k < max {
            out_of_order += 1;
        } else {
            max = k;
        }
    }
    if out_of_order > 0 {
        rows.sort_by_key(key);
    }
    out_of_order
}

/// Applies the window to sorted rows; returns how many were removed.
fn apply_window(rows: &mut Vec<Row>, window: Window) -> u64 {
    match window {
        Window::All => 0,
        Window::FirstJobs(n) => {
            let removed = rows.len().saturating_sub(n);
            rows.truncate(n);
            removed as u64
        }
        Window::TimeRange { from, to } => {
            let Some(first) = rows.first().map(|r| r.0.submit) else {
                return 0;
            };
            retain_count(rows, |r| {
                let rel = i128::from(r.0.submit) - i128::from(first);
                i128::from(from) <= rel && rel < i128::from(to)
            })
        }
    }
}

fn clamp_sizes(rows: &mut [Row], machine: u32) -> u64 {
    let mut clamped = 0;
    for r in rows.iter_mut().filter(|r| r.0.size > machine) {
        r.0.size = machine;
        clamped += 1;
    }
    clamped
}

/// A job's estimate, an unknown one (≤ 0) becoming max(runtime, 1).
pub(crate) fn filled_estimate(job: &Job) -> i64 {
    if job.estimate <= 0 {
        job.runtime.max(1)
    } else {
        job.estimate
    }
}

/// Unknown estimates become max(runtime, 1); runtimes are cut to estimates.
fn fix_estimates(rows: &mut [Row], report: &mut CleaningReport) {
    for (job, _) in rows.iter_mut() {
        if job.estimate <= 0 {
            job.estimate = filled_estimate(job);
            report.no_estimate += 1;
        }
        if job.runtime > job.estimate {
            job.runtime = job.estimate;
            report.runtime_capped += 1;
        }
    }
}

/// new submit = first + round((submit − first) / factor); then re-sorts,
/// since rounding can make jobs tie and ties go by job number.
fn apply_load_factor(rows: &mut [Row], factor: f64) {
    if factor == 1.0 {
        return;
    }
    let Some(first) = rows.first().map(|r| r.0.submit) else {
        return;
    };
    for (job, _) in rows.iter_mut() {
        job.submit = scaled_submit(job.submit, first, factor);
    }
    sort_rows(rows);
}

/// A submit time after the load factor: first + round((submit − first) / factor).
pub(crate) fn scaled_submit(submit: i64, first: i64, factor: f64) -> i64 {
    // The sum is at most MAX_TIME: `check_load_factor` refused more.
    first + ((submit - first) as f64 / factor).round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u64, submit: i64, runtime: i64, size: u32, estimate: i64) -> Row {
        let job = Job { id, submit, runtime, size, estimate, user: 1, group: 1, queue: 1, partition: 1, status: 1 };
        let extra = SwfExtra { wait: 0, ..SwfExtra::unknown(i64::from(size)) };
        (job, extra)
    }

    fn ids(rows: &[Row]) -> Vec<u64> {
        rows.iter().map(|r| r.0.id).collect()
    }

    #[test]
    fn counts_are_in_fixed_order() {
        let names: Vec<&str> = CleaningReport::default().counts().iter().map(|c| c.0).collect();
        assert_eq!(names.first(), Some(&"blank_lines"));
        assert_eq!(names.last(), Some(&"duplicate_ids"));
        assert_eq!(names.len(), 18);
    }

    #[test]
    fn sort_counts_and_is_stable() {
        let mut rows = vec![row(3, 10, 1, 1, 1), row(1, 5, 1, 1, 1), row(2, 10, 1, 1, 1), row(2, 10, 2, 1, 1)];
        assert_eq!(sort_rows(&mut rows), 3);
        assert_eq!(ids(&rows), vec![1, 2, 2, 3]);
        assert_eq!(rows[1].0.runtime, 1, "equal keys keep file order");
        assert_eq!(sort_rows(&mut rows), 0);
    }

    #[test]
    fn windows() {
        let base: Vec<Row> = (0..10).map(|i| row(i, 100 + 10 * i as i64, 1, 1, 1)).collect();
        let cases = [
            (Window::All, vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0),
            (Window::FirstJobs(3), vec![0, 1, 2], 7),
            (Window::FirstJobs(30), (0..10).collect(), 0),
            (Window::TimeRange { from: 10, to: 40 }, vec![1, 2, 3], 7),
            (Window::TimeRange { from: -5, to: 1 }, vec![0], 9),
        ];
        for (w, want, removed) in cases {
            let mut rows = base.clone();
            assert_eq!(apply_window(&mut rows, w), removed, "{w:?}");
            assert_eq!(ids(&rows), want, "{w:?}");
        }
    }

    #[test]
    fn estimates_and_caps() {
        let mut rows = vec![row(1, 0, 50, 1, -1), row(2, 0, 0, 1, 0), row(3, 0, 90, 1, 60), row(4, 0, 30, 1, 60)];
        let mut rep = CleaningReport::default();
        fix_estimates(&mut rows, &mut rep);
        let got: Vec<(i64, i64)> = rows.iter().map(|r| (r.0.runtime, r.0.estimate)).collect();
        assert_eq!(got, vec![(50, 50), (0, 1), (60, 60), (30, 60)]);
        assert_eq!((rep.no_estimate, rep.runtime_capped), (2, 1));
    }

    #[test]
    fn load_factor_scales_and_resorts() {
        let mut rows = vec![row(5, 100, 1, 1, 1), row(2, 103, 1, 1, 1), row(1, 104, 1, 1, 1)];
        apply_load_factor(&mut rows, 2.0);
        let got: Vec<(u64, i64)> = rows.iter().map(|r| (r.0.id, r.0.submit)).collect();
        // 103 → 100 + round(1.5) = 102, 104 → 102: tie, job 1 before job 2.
        assert_eq!(got, vec![(5, 100), (1, 102), (2, 102)]);
    }

    #[test]
    fn load_factor_may_not_stretch_past_the_time_limit() {
        let err = check_load_factor(0, 100_000, 1e-12).expect_err("1e-12 stretches 1e5 s to 1e17 s");
        assert_eq!(
            err.to_string(),
            "load factor 1e-12 stretches the 100000 s between the first and the last submit to 1e17 s, \
             which puts the last submit past the limit of 1099511627776 s (2^40)"
        );
        // 100,000 s / 2^40 s is the smallest factor that keeps the last
        // submit in range when the first is at 0; a later first leaves less.
        assert!(check_load_factor(0, 100_000, 100_000.0 / MAX_TIME as f64).is_ok());
        assert!(check_load_factor(0, 100_000, 0.99 * 100_000.0 / MAX_TIME as f64).is_err());
        assert!(check_load_factor(MAX_TIME - 10, MAX_TIME, 1.0).is_ok());
        assert!(check_load_factor(MAX_TIME - 10, MAX_TIME, 0.5).is_err(), "10 s become 20 s, 10 s past 2^40");
    }

    #[test]
    fn horizon_is_the_last_submit_plus_every_request() {
        let last = MAX_HORIZON - 2 * MAX_TIME;
        assert!(check_horizon(last, 2 * i128::from(MAX_TIME)).is_ok());
        let err = check_horizon(last + 1, 2 * i128::from(MAX_TIME)).expect_err("one second past 2^62");
        assert!(err.to_string().contains("past the limit of 4611686018427387904 s (2^62)"), "{err}");
    }

    #[test]
    fn duplicate_job_numbers_are_counted() {
        let cases: [(&[u64], u64, Option<u64>); 5] = [
            (&[1, 2, 3], 0, None),
            (&[3, 1, 2], 0, None),
            (&[1, 2, 2, 3], 1, Some(2)),
            (&[5, 5, 5, 1, 1], 3, Some(1)),
            (&[], 0, None),
        ];
        for (ids, count, example) in cases {
            let rows: Vec<Row> = ids.iter().map(|&id| row(id, 0, 1, 1, 1)).collect();
            assert_eq!(duplicate_ids(&rows), (count, example), "{ids:?}");
        }
    }

    #[test]
    fn oversize_drop_and_clamp() {
        let base = vec![row(1, 0, 1, 4, 1), row(2, 1, 1, 9, 1)];
        let mut rows = base.clone();
        let mut rep = CleaningReport::default();
        clean_rows(&mut rows, 8, &ReadOptions::default(), &mut rep).expect("clean");
        assert_eq!((ids(&rows), rep.oversized_dropped), (vec![1], 1));
        let mut rows = base;
        let mut rep = CleaningReport::default();
        let opts = ReadOptions { oversize: Oversize::Clamp, ..Default::default() };
        clean_rows(&mut rows, 8, &opts, &mut rep).expect("clean");
        assert_eq!((rows[1].0.size, rep.oversized_clamped, rep.oversized_dropped), (8, 1, 0));
    }

    #[test]
    fn warnings_are_bounded() {
        let mut rep = CleaningReport::default();
        rep.warn_all((0..25).map(|i| format!("w{i}")));
        assert_eq!(rep.warnings.len(), MAX_WARNINGS + 1);
        assert_eq!(rep.warnings.last().map(String::as_str), Some("5 more warnings not shown"));
    }
}
