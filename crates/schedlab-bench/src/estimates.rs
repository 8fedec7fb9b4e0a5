//! Estimates that are wrong the way users' are, for the queue stress's
//! synthetic backlogs.
//!
//! The Lublin–Feitelson model has no user estimates, so a backlog with
//! exact estimates never sees a job end early and never compresses a plan:
//! the conservative family's worst case stays hidden. Here each synthetic
//! job's requested time is its runtime times an estimate-to-runtime ratio
//! drawn from a real trace (HPC2N in the queue stress): from the trace's
//! jobs whose runtime lies in the same power-of-two class as the synthetic
//! job's, so that short jobs get the large over-estimates real short jobs
//! have and long jobs the modest ones. A class the trace lacks borrows the
//! nearest class it has (the lower one on a tie).
//!
//! Cleaning caps a real job's runtime at its request, so every ratio is at
//! least 1; a product is still kept at least the runtime, so that no
//! synthetic job overruns and the backlog tests the plan rather than the
//! overrun rules. The draws use their own seeded generator, so a backlog
//! is a function of its size, the ratio trace and the seed alone.

use schedlab_engine::SplitMix64;
use schedlab_workload::Trace;

/// Runtime classes: floor(log2(runtime)) for runtimes of 1 s to 2^63 s.
const CLASSES: usize = 64;

/// Estimate-to-runtime ratios of a real trace, by runtime class.
#[derive(Debug)]
pub struct RatioTable {
    /// `classes[k]`: the ratios of the trace's jobs with floor(log2(runtime))
    /// = k, sorted so the table does not depend on the trace's job order.
    classes: Vec<Vec<f64>>,
}

impl RatioTable {
    /// The table of `trace`'s jobs that have a positive runtime and a
    /// positive estimate; `None` when it has no such job.
    pub fn from_trace(trace: &Trace) -> Option<RatioTable> {
        let mut classes = vec![Vec::new(); CLASSES];
        for job in trace.jobs.iter().filter(|j| j.runtime > 0 && j.estimate > 0) {
            classes[class_of(job.runtime)].push(job.estimate as f64 / job.runtime as f64);
        }
        for ratios in &mut classes {
            ratios.sort_by(f64::total_cmp);
        }
        classes.iter().any(|c| !c.is_empty()).then_some(RatioTable { classes })
    }

    /// The ratios a job of `runtime` seconds draws from: its class's, or the
    /// nearest class's that is not empty.
    fn ratios_for(&self, runtime: i64) -> &[f64] {
        let k = class_of(runtime);
        (0..CLASSES)
            .flat_map(|d| [k.checked_sub(d), k.checked_add(d).filter(|&c| c < CLASSES)])
            .flatten()
            .map(|c| self.classes[c].as_slice())
            .find(|r| !r.is_empty())
            .unwrap_or(&[])
    }

    /// Sets every job's estimate of `trace` to its runtime times a ratio
    /// drawn for its runtime class (at least its runtime), with draws from
    /// `seed`.
    pub fn apply(&self, trace: &mut Trace, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        for job in &mut trace.jobs {
            let ratios = self.ratios_for(job.runtime);
            if ratios.is_empty() || job.runtime <= 0 {
                continue;
            }
            let ratio = ratios[(rng.next_u64() % ratios.len() as u64) as usize];
            let estimate = (job.runtime as f64 * ratio).ceil();
            // The cast saturates, so a far-tail product cannot wrap.
            job.estimate = (estimate as i64).max(job.runtime);
        }
    }
}

/// floor(log2(runtime)) for a positive runtime; 0 for anything below 2 s.
fn class_of(runtime: i64) -> usize {
    if runtime < 2 {
        0
    } else {
        (63 - runtime.leading_zeros()) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_workload::{Job, SwfExtra};

    fn job(id: u64, runtime: i64, estimate: i64) -> Job {
        Job { id, submit: 0, runtime, size: 1, estimate, user: -1, group: -1, queue: -1, partition: -1, status: 1 }
    }

    fn trace(jobs: Vec<Job>) -> Trace {
        Trace {
            procs: 4,
            extras: jobs.iter().map(|j| SwfExtra::unknown(i64::from(j.size))).collect(),
            jobs,
            cluster: None,
        }
    }

    #[test]
    fn classes_are_powers_of_two() {
        assert_eq!(class_of(1), 0);
        assert_eq!(class_of(2), 1);
        assert_eq!(class_of(3), 1);
        assert_eq!(class_of(4), 2);
        assert_eq!(class_of(1023), 9);
        assert_eq!(class_of(1024), 10);
    }

    /// A source where 10 s jobs (class 3) asked for 100 s and 1000 s jobs
    /// (class 9) for 2000 s: a synthetic 12 s job (class 3) gets 120 s, a
    /// 600 s job (class 9) 1200 s, and a 5000 s job (class 12, empty) the
    /// nearest class's ratio, 2: 10,000 s.
    #[test]
    fn a_job_draws_from_its_runtime_class() {
        let source = trace(vec![job(1, 10, 100), job(2, 1000, 2000), job(3, 0, 50)]);
        let table = RatioTable::from_trace(&source).expect("two usable jobs");
        let mut backlog = trace(vec![job(1, 12, 12), job(2, 600, 600), job(3, 5000, 5000)]);
        table.apply(&mut backlog, 7);
        let estimates: Vec<i64> = backlog.jobs.iter().map(|j| j.estimate).collect();
        assert_eq!(estimates, [120, 1200, 10_000]);
    }

    /// A ratio below 1 (only a hand-made source has one) leaves the
    /// estimate at the runtime.
    #[test]
    fn an_under_estimate_becomes_exact() {
        let table = RatioTable::from_trace(&trace(vec![job(1, 100, 50)])).unwrap();
        let mut backlog = trace(vec![job(1, 70, 70)]);
        table.apply(&mut backlog, 1);
        assert_eq!(backlog.jobs[0].estimate, 70);
    }

    /// Two ratios in one class: over many jobs both are drawn, and the same
    /// seed gives the same estimates.
    #[test]
    fn draws_are_seeded() {
        let table = RatioTable::from_trace(&trace(vec![job(1, 100, 200), job(2, 100, 300)])).unwrap();
        let draw = |seed| {
            let mut backlog = trace((0..64).map(|i| job(i, 100, 100)).collect());
            table.apply(&mut backlog, seed);
            backlog.jobs.iter().map(|j| j.estimate).collect::<Vec<_>>()
        };
        let a = draw(3);
        assert!(a.contains(&200) && a.contains(&300));
        assert!(a.iter().all(|e| *e == 200 || *e == 300));
        assert_eq!(a, draw(3));
    }

    #[test]
    fn a_trace_without_usable_jobs_gives_no_table() {
        assert!(RatioTable::from_trace(&trace(vec![job(1, -1, 100), job(2, 10, -1)])).is_none());
    }
}
