//! The running jobs as Slurm's scheduler sees them: each holds its
//! processors until its start plus its time limit (`job_ptr->end_time`),
//! and the backfill cycle asks when a job of some size could start
//! (`_will_run_test` in src/plugins/select/cons_common/job_test.c).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use schedlab_engine::{JobIdx, Time};

use super::fairshare::Assoc;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub(crate) start: Time,
    /// Start plus the time limit: when Slurm expects the job to end.
    pub(crate) end: Time,
    pub(crate) size: u32,
    pub(crate) assoc: Assoc,
}

#[derive(Default)]
pub(crate) struct Running {
    jobs: BTreeMap<JobIdx, Run>,
    by_end: BTreeSet<(Time, JobIdx)>,
    /// Jobs that have ended but that the backfill cycle still sees
    /// running, with the instant it stops seeing them, in that order
    /// (every end is delayed by the same lag).
    ended: VecDeque<(Time, JobIdx)>,
    /// Their cores.
    ended_cores: u32,
    /// The batches of `will_run`, which depend on the expected ends alone:
    /// the end of each batch's last job, the processors freed by then and
    /// the jobs (in order of expected end) taken away by then. Made again
    /// after the running jobs change, when first asked.
    batches: std::cell::RefCell<Option<Vec<Batch>>>,
}

/// One batch of `_will_run_test`: the expected end of its last job, and
/// the processors and jobs (in order of expected end) taken away by then.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Batch {
    pub(crate) end: Time,
    pub(crate) freed: u64,
    pub(crate) jobs: usize,
}

/// The first window of `_will_run_test`, in seconds.
const TIME_WINDOW: Time = 30;

impl Running {
    pub(crate) fn insert(&mut self, j: JobIdx, run: Run) {
        self.by_end.insert((run.end, j));
        self.jobs.insert(j, run);
        self.batches.replace(None);
    }

    pub(crate) fn remove(&mut self, j: JobIdx) -> Option<Run> {
        let run = self.jobs.remove(&j)?;
        self.by_end.remove(&(run.end, j));
        self.batches.replace(None);
        Some(run)
    }

    /// The jobs still running (not those that ended and only look so).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (JobIdx, &Run)> {
        let ended: BTreeSet<JobIdx> = self.ended.iter().map(|&(_, j)| j).collect();
        self.jobs.iter().filter(move |(j, _)| !ended.contains(j)).map(|(&j, r)| (j, r))
    }

    /// A job ended; the backfill cycle sees it running until `visible`.
    pub(crate) fn end(&mut self, j: JobIdx, visible: Time) -> Option<Run> {
        let run = *self.jobs.get(&j)?;
        debug_assert!(self.ended.back().is_none_or(|&(t, _)| t <= visible));
        self.ended.push_back((visible, j));
        self.ended_cores += run.size;
        Some(run)
    }

    /// Forgets the ended jobs the backfill cycle sees by `now`; whether
    /// there were any.
    pub(crate) fn release(&mut self, now: Time) -> bool {
        let mut any = false;
        while let Some(&(t, j)) = self.ended.front().filter(|&&(t, _)| t <= now) {
            debug_assert!(t <= now);
            self.ended.pop_front();
            if let Some(run) = self.remove(j) {
                self.ended_cores -= run.size;
            }
            any = true;
        }
        any
    }

    /// When the next ended job stops being seen as running.
    pub(crate) fn next_release(&self) -> Option<Time> {
        self.ended.front().map(|&(t, _)| t)
    }

    /// The cores of the jobs that ended but are still seen running.
    pub(crate) fn ended_cores(&self) -> u32 {
        self.ended_cores
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// When a job of `size` processors could start, `free` being idle now,
    /// as `_will_run_test` answers: now if it fits; otherwise the running
    /// jobs are taken away in order of expected end, in batches (the
    /// first ends at the next multiple of 30 s after the first expected
    /// end plus a window of 30 s; the window then doubles until it holds
    /// the next end), and the job starts at the expected end of the last
    /// job of the first batch after which it fits. A batch can thus put
    /// the start a little later than the first instant enough processors
    /// are free. `None` if it never fits.
    pub(crate) fn will_run(&self, size: u32, free: u32, now: Time) -> Option<Time> {
        if size <= free {
            return Some(now);
        }
        let mut cache = self.batches.borrow_mut();
        let batches = cache.get_or_insert_with(|| self.make_batches());
        let need = u64::from(size - free);
        let i = batches.partition_point(|b| b.freed < need);
        let end = batches.get(i)?.end;
        Some(start_after(end, now))
    }

    /// The batches of `_will_run_test`, for a test on nodes.
    pub(crate) fn batches(&self) -> std::cell::Ref<'_, [Batch]> {
        if self.batches.borrow().is_none() {
            self.batches.replace(Some(self.make_batches()));
        }
        std::cell::Ref::map(self.batches.borrow(), |b| b.as_deref().unwrap_or(&[]))
    }

    /// The running jobs (those still seen running included) in order of
    /// expected end, the order of the batches.
    pub(crate) fn by_end(&self) -> impl Iterator<Item = JobIdx> + '_ {
        self.by_end.iter().map(|&(_, j)| j)
    }

    /// The jobs that ended but that the backfill cycle still sees running.
    pub(crate) fn lagging(&self) -> impl Iterator<Item = JobIdx> + '_ {
        self.ended.iter().map(|&(_, j)| j)
    }

    fn make_batches(&self) -> Vec<Batch> {
        let mut batches = Vec::new();
        let mut freed = 0u64;
        let mut iter = self.by_end.iter().peekable();
        let mut barrier: Option<Time> = None;
        let mut window = TIME_WINDOW;
        let mut jobs = 0;
        while let Some(&(end, j)) = iter.next() {
            jobs += 1;
            let barrier_at = *barrier.get_or_insert_with(|| end + (TIME_WINDOW - end.rem_euclid(TIME_WINDOW)));
            freed += u64::from(self.jobs[&j].size);
            let next = iter.peek().map(|&&(e, _)| e);
            if next.is_some_and(|n| n <= barrier_at + window) {
                continue;
            }
            // The batch ends with this job; the window doubles at least
            // once, and until it holds the next end.
            while let Some(n) = next {
                window *= 2;
                if n <= barrier_at + window {
                    break;
                }
            }
            batches.push(Batch { end, freed, jobs });
        }
        batches
    }
}

/// The start `_will_run_test` gives after a batch ending at `end`: that
/// end, or `_guess_job_end` for a job past its expected end, with Slurm's
/// defaults (`OverTimeLimit=0`, `KillWait=30`).
pub(crate) fn start_after(end: Time, now: Time) -> Time {
    if end > now {
        return end;
    }
    let guess = end + 30;
    if guess <= now {
        now + 1
    } else {
        guess
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn running(jobs: &[(Time, u32)]) -> Running {
        let mut r = Running::default();
        for (i, &(end, size)) in jobs.iter().enumerate() {
            r.insert(i as JobIdx, Run { start: 0, end, size, assoc: 0 });
        }
        r
    }

    /// Ends at 100, 105, 170 and 300, 16 processors each, none free. The
    /// first barrier is 120 (the multiple of 30 after 100) and the window
    /// 30: the first batch takes the jobs ending by 150, {100, 105}, so a
    /// 16-processor job starts at 105, not at 100; the window doubles to
    /// 60 (170 ≤ 180), the next batch is {170}; then 120 is too short for
    /// 300, 240 holds it.
    #[test]
    fn batches_follow_the_thirty_second_windows() {
        let r = running(&[(100, 16), (105, 16), (170, 16), (300, 16)]);
        assert_eq!(r.will_run(16, 0, 10), Some(105));
        assert_eq!(r.will_run(32, 0, 10), Some(105));
        assert_eq!(r.will_run(48, 0, 10), Some(170));
        assert_eq!(r.will_run(64, 0, 10), Some(300));
        assert_eq!(r.will_run(65, 0, 10), None);
        assert_eq!(r.will_run(8, 8, 10), Some(10), "fits now");
    }

    /// An end on a multiple of 30 moves the barrier a whole window on.
    #[test]
    fn an_end_on_the_barrier_opens_the_next_window() {
        let r = running(&[(90, 8), (150, 8), (151, 8)]);
        // Barrier 120, window 30: 150 ≤ 150 joins, 151 does not.
        assert_eq!(r.will_run(8, 0, 0), Some(150));
        assert_eq!(r.will_run(24, 0, 0), Some(151));
    }
}
