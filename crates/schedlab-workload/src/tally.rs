//! The statistics of an SWF trace taken while it streams: every cleaning
//! rule that `clean_rows` applies to the list of jobs is applied here to one
//! job at a time, and only sums, counts and the sets the figures need are
//! kept, so that `schedlab stats` on ten million jobs needs no more memory
//! than on ten thousand.
//!
//! Each rule has a form that needs no other job: the sort only counts the
//! jobs out of order (the figures do not depend on the order), the load
//! factor maps the earliest and the latest submit time as it would map
//! every job (it keeps their order), and repeated job numbers are found in
//! runs of consecutive numbers. A window needs the jobs in order, so a
//! window is read the usual way (`read_stats`).

use std::collections::{BTreeMap, BTreeSet};

use crate::clean::{check_horizon, check_load_factor, filled_estimate, scaled_submit, CleaningReport, Row, Sums};
use crate::error::SwfError;
use crate::header::Header;
use crate::options::{Oversize, ReadOptions};
use crate::read::{given_machine_size, machine_size, Gathered, Rows};
use crate::stats::{from_sums, Distinct, TraceStats};

/// Running sums over the jobs kept so far.
pub(crate) struct Tally {
    oversize: Oversize,
    /// The machine size the options or the header give; unknown until the
    /// header has been read, and then only if they give one.
    machine: Option<u32>,
    /// Jobs taken, for the job limit (before the oversize rule, as a list
    /// of jobs counts them).
    taken: usize,
    largest: Option<u32>,
    oversized_dropped: u64,
    unsorted: u64,
    /// The largest (submit, job number) seen, to count the jobs out of order.
    latest: (i64, u64),
    recorded: Sums,
    simulated: Sums,
    oversized_clamped: u64,
    no_estimate: u64,
    runtime_capped: u64,
    /// Σ requested times once filled in, for the time-line check.
    estimates: i128,
    users: BTreeSet<i32>,
    queues: BTreeSet<i32>,
    ids: IdRuns,
}

impl Tally {
    pub(crate) fn new(opts: &ReadOptions) -> Self {
        Tally {
            oversize: opts.oversize,
            machine: opts.machine_size,
            taken: 0,
            largest: None,
            oversized_dropped: 0,
            unsorted: 0,
            latest: (i64::MIN, 0),
            recorded: Sums::default(),
            simulated: Sums::default(),
            oversized_clamped: 0,
            no_estimate: 0,
            runtime_capped: 0,
            estimates: 0,
            users: BTreeSet::new(),
            queues: BTreeSet::new(),
            ids: IdRuns::default(),
        }
    }

    /// One job through the rules of `clean_rows`, in their order.
    fn take(&mut self, (job, _): &Row) {
        self.largest = self.largest.max(Some(job.size));
        let too_large = self.machine.filter(|&p| job.size > p);
        if self.oversize == Oversize::Drop && too_large.is_some() {
            self.oversized_dropped += 1;
            return;
        }
        let key = (job.submit, job.id);
        if key < self.latest {
            self.unsorted += 1;
        } else {
            self.latest = key;
        }
        self.recorded.add(job);
        self.ids.insert(job.id);
        for (set, id) in [(&mut self.users, job.user), (&mut self.queues, job.queue)] {
            if id >= 0 {
                set.insert(id);
            }
        }
        let mut job = *job;
        if let Some(p) = too_large {
            job.size = p;
            self.oversized_clamped += 1;
        }
        if job.estimate <= 0 {
            job.estimate = filled_estimate(&job);
            self.no_estimate += 1;
        }
        if job.runtime > job.estimate {
            job.runtime = job.estimate;
            self.runtime_capped += 1;
        }
        self.estimates += i128::from(job.estimate);
        self.simulated.add(&job);
    }
}

impl Rows for Tally {
    fn push(&mut self, row: Row, times: u64) {
        self.taken += times as usize;
        for _ in 0..times {
            self.take(&row);
        }
    }

    fn count(&self) -> usize {
        self.taken
    }

    fn header_read(&mut self, header: &Header) {
        self.machine = given_machine_size(self.machine, header);
    }
}

impl Gathered<Tally> {
    /// The statistics, the header and the report, as `Gathered::finish`
    /// and `stats_with_cleaning` give them for the list of the same jobs.
    pub(crate) fn finish(mut self, opts: &ReadOptions) -> Result<(TraceStats, Header, CleaningReport), SwfError> {
        let t = self.rows;
        let machine = machine_size(opts, &self.header, t.largest, self.no_machine_size, &mut self.warnings);
        let r = &mut self.report;
        (r.oversized_dropped, r.unsorted) = (t.oversized_dropped, t.unsorted);
        r.as_recorded = t.recorded.finish(opts.load_factor);
        (r.oversized_clamped, r.no_estimate, r.runtime_capped) = (t.oversized_clamped, t.no_estimate, t.runtime_capped);
        let mut simulated = t.simulated.finish(1.0);
        if t.recorded.jobs() > 0 {
            let (first, last) = (t.recorded.first_submit, t.recorded.last_submit);
            check_load_factor(first, last, opts.load_factor)?;
            simulated.first_submit = scaled_submit(first, first, opts.load_factor);
            simulated.last_submit = scaled_submit(last, first, opts.load_factor);
        }
        check_horizon(simulated.last_submit, t.estimates)?;
        let (count, example) = t.ids.repeated();
        self.warnings.extend(r.duplicate_ids_warning(count, example));
        r.warn_all(self.warnings);
        if t.recorded.jobs() == 0 {
            return Err(SwfError::AllJobsDropped { job_lines: r.job_lines, summary: r.summary() });
        }
        r.jobs_kept = t.recorded.jobs();
        let people = Distinct { users: t.users.len() as u64, queues: t.queues.len() as u64 };
        Ok((from_sums(machine, &simulated, r, people), self.header, self.report))
    }
}

/// The job numbers seen, as runs of consecutive numbers (first → last), so
/// that a trace numbered 1, 2, 3, … holds one run whatever its length; and
/// how many numbers came again, with the smallest of them.
#[derive(Default)]
struct IdRuns {
    runs: BTreeMap<u64, u64>,
    repeated: u64,
    smallest_repeated: Option<u64>,
}

impl IdRuns {
    fn insert(&mut self, id: u64) {
        let before = self.runs.range(..=id).next_back().map(|(&first, &last)| (first, last));
        if before.is_some_and(|(_, last)| id <= last) {
            self.repeated += 1;
            self.smallest_repeated = Some(self.smallest_repeated.map_or(id, |s| s.min(id)));
            return;
        }
        let first = match before {
            Some((first, last)) if last + 1 == id => first,
            _ => id,
        };
        let last = id.checked_add(1).and_then(|next| self.runs.remove(&next)).unwrap_or(id);
        self.runs.insert(first, last);
    }

    /// The count of job numbers an earlier job had, and the smallest.
    fn repeated(&self) -> (u64, Option<u64>) {
        (self.repeated, self.smallest_repeated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_and_repeats_are_counted() {
        let mut ids = IdRuns::default();
        for id in [5, 3, 4, 7, 6, 4, u64::MAX, u64::MAX, 3] {
            ids.insert(id);
        }
        // 3..=7 became one run, u64::MAX its own.
        assert_eq!(ids.runs.iter().map(|(&a, &b)| (a, b)).collect::<Vec<_>>(), vec![(3, 7), (u64::MAX, u64::MAX)]);
        assert_eq!(ids.repeated(), (3, Some(3)));
    }
}
