//! Trace statistics (docs/semantics.md, "Reading a trace"): the trace as its log records
//! it, and separately what the simulation uses once cleaning has changed
//! jobs (runtimes capped at estimates, estimates filled in, sizes clamped,
//! the load factor), with how many jobs were changed and by how much.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::clean::{AsRecorded, CleaningReport};
use crate::job::Trace;

/// What a trace looks like before any simulation. The top-level figures
/// describe the kept jobs as the log records them (the figures a paper
/// quotes for its trace); `simulated` those the simulator replays.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceStats {
    /// Number of jobs.
    pub jobs: u64,
    /// Machine size P.
    pub procs: u32,
    #[serde(flatten)]
    pub recorded: Figures,
    /// Distinct known user ids (field 12 ≥ 0).
    pub users: u64,
    /// Distinct known queues (field 15 ≥ 0).
    pub queues: u64,
    /// The same figures for the jobs as the simulation replays them, and
    /// what cleaning changed to get them.
    pub simulated: Simulated,
}

/// The figures of a set of jobs on a machine of P processors.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Earliest submit time, seconds.
    pub first_submit: i64,
    /// Latest submit time, seconds.
    pub last_submit: i64,
    /// last_submit − first_submit, seconds.
    pub duration: i64,
    /// Σ(runtime × size) / (P × duration), a fraction (0.7 = 70 %). `None`
    /// (JSON `null`) when every job is submitted in the same second: the
    /// work then arrives at once and has no rate to compare with the
    /// machine's (see `docs/decisions.md`).
    pub offered_load: Option<f64>,
    /// Mean job size, processors.
    pub mean_parallelism: f64,
    /// Mean run time, seconds.
    pub mean_runtime: f64,
    /// Mean of runtime / estimate (1 = perfect estimates; an unknown
    /// estimate counts as perfect).
    pub mean_estimate_accuracy: f64,
    /// Σ runtime × size, processor-seconds. Summed exactly, reported as a
    /// float so that JSON and JavaScript read it as a plain number (exact
    /// up to 2^53 processor-seconds, far beyond any real log).
    pub total_work: f64,
}

/// The simulated jobs' figures and what cleaning changed.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Simulated {
    #[serde(flatten)]
    pub figures: Figures,
    /// Jobs whose runtime was cut to their estimate.
    pub runtime_capped: u64,
    /// Seconds cut from their runtimes in all.
    pub runtime_cut: f64,
    /// Jobs without an estimate, given max(runtime, 1).
    pub no_estimate: u64,
    /// Jobs larger than the machine, run on the whole machine.
    pub oversized_clamped: u64,
    /// Inter-arrival times were divided by this.
    pub load_factor: f64,
}

/// Statistics of a trace that no cleaning changed (a generated one): the
/// figures as recorded and as simulated are the same.
pub fn stats(trace: &Trace) -> TraceStats {
    let sums = AsRecorded::of(trace.jobs.iter(), 1.0);
    let figures = Figures::of(&sums, trace.procs);
    let simulated = Simulated { figures: figures.clone(), load_factor: 1.0, ..Simulated::default() };
    combine(trace, figures, simulated)
}

/// Statistics of a trace read from a log: as recorded from the cleaning
/// report, as simulated from the cleaned jobs.
pub fn stats_with_cleaning(trace: &Trace, report: &CleaningReport) -> TraceStats {
    let sums = AsRecorded::of(trace.jobs.iter(), 1.0);
    let people = Distinct {
        users: distinct(trace.jobs.iter().map(|j| j.user)),
        queues: distinct(trace.jobs.iter().map(|j| j.queue)),
    };
    from_sums(trace.procs, &sums, report, people)
}

/// How many distinct known users and queues the kept jobs have.
pub(crate) struct Distinct {
    pub users: u64,
    pub queues: u64,
}

/// The statistics from the sums over the simulated jobs (`simulated`, load
/// factor applied) and the cleaning report, which holds the sums as
/// recorded and the counts of what cleaning changed.
pub(crate) fn from_sums(procs: u32, simulated: &AsRecorded, report: &CleaningReport, people: Distinct) -> TraceStats {
    let changed = Simulated {
        figures: Figures::of(simulated, procs),
        runtime_capped: report.runtime_capped,
        runtime_cut: (report.as_recorded.runtime - simulated.runtime).max(0.0),
        no_estimate: report.no_estimate,
        oversized_clamped: report.oversized_clamped,
        load_factor: report.as_recorded.load_factor,
    };
    TraceStats {
        jobs: simulated.jobs,
        procs,
        recorded: Figures::of(&report.as_recorded, procs),
        users: people.users,
        queues: people.queues,
        simulated: changed,
    }
}

fn combine(trace: &Trace, recorded: Figures, simulated: Simulated) -> TraceStats {
    TraceStats {
        jobs: trace.jobs.len() as u64,
        procs: trace.procs,
        recorded,
        users: distinct(trace.jobs.iter().map(|j| j.user)),
        queues: distinct(trace.jobs.iter().map(|j| j.queue)),
        simulated,
    }
}

impl Figures {
    fn of(sums: &AsRecorded, procs: u32) -> Self {
        let n = sums.jobs.max(1) as f64;
        let duration = sums.last_submit.saturating_sub(sums.first_submit);
        let capacity = f64::from(procs) * duration as f64;
        Figures {
            first_submit: sums.first_submit,
            last_submit: sums.last_submit,
            duration,
            offered_load: (capacity > 0.0).then(|| sums.work / capacity),
            mean_parallelism: sums.size / n,
            mean_runtime: sums.runtime / n,
            mean_estimate_accuracy: sums.accuracy / n,
            total_work: sums.work,
        }
    }
}

fn distinct(ids: impl Iterator<Item = i32>) -> u64 {
    ids.filter(|&id| id >= 0).collect::<BTreeSet<_>>().len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{Job, SwfExtra};

    fn job(id: u64, submit: i64, runtime: i64, size: u32, estimate: i64, user: i32, queue: i32) -> Job {
        Job { id, submit, runtime, size, estimate, user, group: -1, queue, partition: -1, status: 1 }
    }

    fn trace(procs: u32, jobs: Vec<Job>) -> Trace {
        let extras = vec![SwfExtra::unknown(-1); jobs.len()];
        Trace { procs, jobs, extras, cluster: None }
    }

    #[test]
    fn hand_computed() {
        let t =
            trace(10, vec![job(1, 0, 100, 2, 200, 1, 0), job(2, 50, 50, 4, 50, 2, -1), job(3, 100, 0, 1, 10, 1, 3)]);
        let s = stats(&t);
        let f = &s.recorded;
        assert_eq!((s.jobs, s.procs, f.first_submit, f.last_submit, f.duration), (3, 10, 0, 100, 100));
        assert_eq!(f.total_work, 400.0);
        assert!(f.offered_load.is_some_and(|x| (x - 0.4).abs() < 1e-12), "{:?}", f.offered_load);
        assert!((f.mean_parallelism - 7.0 / 3.0).abs() < 1e-12);
        assert!((f.mean_runtime - 50.0).abs() < 1e-12);
        assert!((f.mean_estimate_accuracy - 0.5).abs() < 1e-12);
        assert_eq!((s.users, s.queues), (2, 2));
        assert_eq!(s.simulated.figures, s.recorded, "nothing was cleaned");
        assert_eq!(s.simulated.load_factor, 1.0);
    }

    /// P = 10. Job 1: 100 s of 60 requested on 2 processors (capped to 60);
    /// job 2: 50 s, no estimate, on 4; job 3: 10 s of 20 on 1, submitted
    /// at 100; load factor 2.
    /// As recorded: Σ runtime 160, mean 53.33; work 200 + 200 + 10 = 410 over
    /// 10 × 100: load 0.41; accuracy (100/60 + 1 + 0.5) / 3.
    /// Simulated: runtimes 60, 50, 10 (40 s cut from one job), mean 40; work
    /// 120 + 200 + 10 = 330 over 10 × 50 (submits 0, 50): load 0.66.
    #[test]
    fn recorded_and_simulated_figures_differ_by_what_cleaning_changed() {
        let text = "; MaxProcs: 10\n1 0 -1 100 2 -1 -1 2 60 -1 1 1 -1 -1 -1 -1 -1 -1\n\
                    2 0 -1 50 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n\
                    3 100 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1\n";
        let opts = crate::ReadOptions { load_factor: 2.0, ..crate::ReadOptions::default() };
        let l = crate::read_swf(text.as_bytes(), &opts).expect("valid");
        let s = stats_with_cleaning(&l.trace, &l.report);
        let (r, m) = (&s.recorded, &s.simulated);
        assert_eq!((r.first_submit, r.last_submit, r.duration, r.total_work), (0, 100, 100, 410.0));
        assert!((r.mean_runtime - 160.0 / 3.0).abs() < 1e-12);
        assert!(r.offered_load.is_some_and(|x| (x - 0.41).abs() < 1e-12), "{:?}", r.offered_load);
        assert!((r.mean_estimate_accuracy - (100.0 / 60.0 + 1.5) / 3.0).abs() < 1e-12);
        assert_eq!((m.figures.duration, m.figures.total_work, m.figures.mean_runtime), (50, 330.0, 40.0));
        assert!(m.figures.offered_load.is_some_and(|x| (x - 0.66).abs() < 1e-12), "{:?}", m.figures.offered_load);
        assert_eq!((m.runtime_capped, m.runtime_cut, m.no_estimate, m.load_factor), (1, 40.0, 1, 2.0));
        assert_eq!(r.mean_parallelism, m.figures.mean_parallelism);
    }

    #[test]
    fn zero_duration_and_empty() {
        let s = stats(&trace(4, vec![job(1, 7, 10, 1, 10, 1, 1)]));
        assert_eq!((s.recorded.duration, s.recorded.offered_load), (0, None));
        // Many jobs, all at t = 0: work, but no rate to compare with P.
        let s = stats(&trace(4, (1..=5).map(|i| job(i, 0, 100, 2, 100, 1, 1)).collect()));
        assert_eq!((s.recorded.duration, s.recorded.total_work, s.recorded.offered_load), (0, 1000.0, None));
        let s = stats(&trace(4, vec![]));
        assert_eq!((s.jobs, s.procs, s.recorded.offered_load, s.recorded.first_submit), (0, 4, None, 0));
    }
}
