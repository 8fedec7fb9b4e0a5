//! When each of Slurm's loops runs, the main scheduler's pass, and the
//! decay thread's runs (usage, fair-share, priorities).

use schedlab_engine::{EngineError, JobIdx, Sim, Time};

use super::priority::{self, Queue};
use super::running::Run;
use super::{Multifactor, ResetPeriod, Slurm};

impl Slurm {
    /// A submission asks the background loop for a pass
    /// (`queue_job_scheduler`); it makes one once `batch_sched_delay` has
    /// passed since its last (`_slurmctld_background`,
    /// src/slurmctld/controller.c), unless its full pass every
    /// `sched_interval`, which also counts as its last, comes first.
    pub(super) fn main_after_submit(&mut self, now: Time) {
        let si = self.s.sched_interval;
        let previous = now.div_euclid(si) * si;
        let cadence = if previous == now { now } else { previous + si };
        let last = self.clock.last_batch.map_or(previous, |b| b.max(previous));
        let batch = now.max(last + self.s.batch_delay);
        let due = if cadence <= batch { (cadence, true) } else { (batch, false) };
        self.clock.main_due = Some(match self.clock.main_due {
            Some(d) if d.0 < due.0 => d,
            Some(d) if d.0 == due.0 => (d.0, d.1 || due.1),
            _ => due,
        });
    }

    /// A full pass at the next `sched_interval` after `now`.
    fn main_full_after(&mut self, now: Time) {
        let si = self.s.sched_interval;
        let next = now.div_euclid(si) * si + si;
        if self.clock.main_due.is_none_or(|d| d.0 > next) {
            self.clock.main_due = Some((next, true));
        }
    }

    /// Runs the main scheduler if it is due: at once when jobs ended (the
    /// epilog's `schedule(false)`), or for a pending pass.
    pub(super) fn main_scheduler(&mut self, sim: &mut Sim<'_>, jobs_ended: bool) -> Result<(), EngineError> {
        let now = sim.now();
        let mut run = jobs_ended.then_some(false);
        if let Some((_, full)) = self.clock.main_due.filter(|d| d.0 <= now) {
            self.clock.main_due = None;
            if !full {
                self.clock.last_batch = Some(now);
            }
            run = Some(run.unwrap_or(false) || full);
        }
        if let Some(full) = run {
            if self.main_pass(sim, full)? {
                self.main_full_after(now);
            }
        }
        Ok(())
    }

    /// `_schedule`: jobs in priority order start while they fit; the first
    /// that does not closes the (one) partition for the rest of the pass,
    /// unless it has waited less than `bf_min_age_reserve`. A pass that is
    /// not full looks at `default_queue_depth` jobs (the test is
    /// `job_depth++ > def_job_limit`, so one more). Whether it stopped at
    /// that depth with jobs left to look at.
    fn main_pass(&mut self, sim: &mut Sim<'_>, full: bool) -> Result<bool, EngineError> {
        let now = sim.now();
        let mut depth = 0usize;
        let mut after = None;
        while let Some(key) = self.queue.next_after(after) {
            after = Some(key);
            if !full {
                if depth > self.s.queue_depth {
                    return Ok(true);
                }
                depth += 1;
            }
            let j = key.1;
            let job = sim.job(j);
            if job.size <= sim.free() {
                self.start_job(sim, j)?;
            } else if !(self.s.bf_min_age_reserve > 0 && now - job.submit < self.s.bf_min_age_reserve) {
                break;
            }
        }
        Ok(false)
    }

    /// Runs the backfill cycle if its time has come: the first instant of
    /// its cadence at or after a change (`bf_interval` after the last
    /// cycle, on the same beat while jobs wait), or, after a cycle that
    /// found no job, `bf_interval` after it or at the change, whichever
    /// is later (`backfill_agent`'s `_more_work`).
    pub(super) fn backfill_if_due(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        let now = sim.now();
        if self.clock.bf_dirty && self.clock.bf_due.is_none() {
            let bf = self.s.bf_interval;
            self.clock.bf_due = Some(match self.clock.bf_last {
                None => now,
                Some(last) if self.clock.bf_polling => now.max(last + bf),
                Some(last) => last + ((now - last + bf - 1) / bf).max(1) * bf,
            });
        }
        if self.clock.bf_due.is_some_and(|t| t <= now) {
            self.clock.bf_due = None;
            let out = self.cycle(sim)?;
            self.clock.bf_last = Some(now);
            self.clock.bf_polling = !out.tested;
            // A cycle that started jobs may decide more at the next (its
            // reservations are made again beside them, and its limits
            // reach further down the queue); one that started none
            // decides the same until something changes, even if it
            // stopped at a limit, since the next tests the same jobs.
            self.clock.bf_dirty = out.started;
            if self.clock.bf_dirty {
                self.clock.bf_due = Some(now + self.s.bf_interval);
            }
        }
        Ok(())
    }

    /// A job's priority when it is submitted (`priority_p_set`).
    pub(super) fn priority_at_submit(&mut self, sim: &Sim<'_>, j: JobIdx) -> u32 {
        let now = sim.now();
        match &mut self.multifactor {
            None => priority::basic(j),
            Some(m) => job_priority(m, sim, j, now),
        }
    }

    /// A job ended: the usage of its last stretch is charged
    /// (`priority_p_job_end`); the backfill cycle sees its cores free
    /// `bf_end_lag` later.
    pub(super) fn end(&mut self, sim: &Sim<'_>, j: JobIdx) {
        if let Some(run) = self.running.end(j, sim.now() + self.s.bf_end_lag) {
            if let Some(m) = &mut self.multifactor {
                charge(m, &run, sim.now());
            }
        }
    }

    /// Ends the backfill cycle sees from `now` on: a change for it
    /// (`last_job_update`, which `_more_work` compares with the last
    /// cycle).
    pub(super) fn release_ended(&mut self, now: Time) {
        if self.running.release(now) {
            self.clock.bf_dirty = true;
        }
    }

    /// Runs of the decay thread that fell while nothing ran or waited, so
    /// no timer was set for them: only decay and resets happen there.
    pub(super) fn catch_up_decay(&mut self, sim: &Sim<'_>, now: Time) {
        while self.multifactor.as_ref().and_then(|m| m.next_run).is_some_and(|t| t < now) {
            self.decay_run(sim);
        }
    }

    pub(super) fn decay_if_due(&mut self, sim: &Sim<'_>, now: Time) {
        if self.multifactor.as_ref().and_then(|m| m.next_run) == Some(now) {
            self.decay_run(sim);
        }
    }

    /// One run of the decay thread (`_decay_thread`,
    /// priority_multifactor.c): a usage reset if one is due; decay of all
    /// usage by `decay_factor^Δt` since the last run (`_apply_decay`);
    /// the running jobs' usage since then (`_apply_new_usage`); Fair
    /// Tree's factors (`fair_tree_decay`); every waiting job's priority
    /// (`decay_apply_weighted_factors`). The classic formula computes the
    /// accounts' effective usage first, before this run's usage, and
    /// recomputes nothing on its first run, as Slurm does.
    fn decay_run(&mut self, sim: &Sim<'_>) {
        let Some(m) = &mut self.multifactor else { return };
        let Some(t) = m.next_run else { return };
        m.next_run = Some(t + m.calc_period);
        reset_if_due(m, t);
        let tree = m.tree.as_mut().expect("the tree is built at the first pass");
        if m.weights.classic {
            tree.refresh_classic();
        }
        let decayed = match m.last_ran {
            Some(last) if t > last => {
                let real = libm::pow(m.decay_factor, (t - last) as f64).max(f64::MIN_POSITIVE);
                if m.decay_factor != 1.0 {
                    tree.decay(real);
                }
                true
            }
            _ => false,
        };
        let recompute = decayed || !m.weights.classic;
        if recompute {
            for (_, run) in self.running.iter() {
                charge(m, run, t);
            }
        }
        if !m.weights.classic {
            m.tree.as_mut().expect("built").compute_fair_tree();
        }
        m.last_ran = Some(t);
        if recompute && reprioritise(m, &mut self.queue, sim, t) {
            self.clock.bf_dirty = true;
            self.main_full_after(t);
        }
    }
}

/// Files every waiting job again under its priority at `t`; whether any
/// moved.
fn reprioritise(m: &mut Multifactor, queue: &mut Queue, sim: &Sim<'_>, t: Time) -> bool {
    let mut moved = false;
    for j in queue.jobs() {
        let p = job_priority(m, sim, j, t);
        moved |= queue.update(j, p);
    }
    moved
}

fn job_priority(m: &mut Multifactor, sim: &Sim<'_>, j: JobIdx, now: Time) -> u32 {
    let job = sim.job(j);
    let tree = m.tree.as_mut().expect("the tree is built at the first pass");
    let assoc = tree.user(job.group, job.user);
    let f = priority::factors(&m.weights, job, assoc, tree, sim.procs(), now);
    priority::multifactor(&m.weights, &f)
}

/// `_apply_new_usage` from the decay thread's last run (or the job's
/// start) to `to`: `Δ × decay_factor^Δ × cpus`, charged to the job's
/// user, account and the root.
fn charge(m: &mut Multifactor, run: &Run, to: Time) {
    if m.weights.fairshare == 0 {
        return;
    }
    let from = m.last_ran.map_or(run.start, |l| l.max(run.start));
    let delta = (to - from).max(0) as f64;
    let amount = delta * libm::pow(m.decay_factor, delta) * f64::from(run.size);
    if let Some(tree) = &mut m.tree {
        tree.charge(run.assoc, amount);
    }
}

/// `PriorityUsageResetPeriod`, checked at each run of the decay thread
/// (`_next_reset`): NOW resets once at the first run; the others at the
/// next calendar boundary after the last reset, the simulated clock read
/// as UTC seconds since 1970.
fn reset_if_due(m: &mut Multifactor, t: Time) {
    if m.reset == ResetPeriod::None {
        return;
    }
    let Some(last) = m.last_reset else {
        m.last_reset = Some(t);
        if m.reset == ResetPeriod::Now {
            m.tree.as_mut().expect("built").reset();
        }
        return;
    };
    if m.reset == ResetPeriod::Now {
        return;
    }
    let next = *m.next_reset.get_or_insert_with(|| calendar::next_reset(m.reset, last, t));
    if t >= next {
        m.tree.as_mut().expect("built").reset();
        m.last_reset = Some(next);
        m.next_reset = Some(calendar::next_reset(m.reset, next, t));
    }
}

mod calendar {
    //! Civil dates in UTC (Howard Hinnant's algorithms), for the usage
    //! resets.

    use super::{ResetPeriod, Time};

    const DAY: Time = 86_400;

    fn civil(days: i64) -> (i64, u32, u32) {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        (yoe + era * 400 + i64::from(m <= 2), m, d)
    }

    fn days(y: i64, m: u32, d: u32) -> i64 {
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let m = i64::from(m);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// `_next_reset(period, last_reset)` at `now`.
    pub(super) fn next_reset(period: ResetPeriod, last: Time, now: Time) -> Time {
        let day = last.div_euclid(DAY);
        let midnight = day * DAY;
        let (y, m, _) = civil(day);
        match period {
            ResetPeriod::Daily => {
                let mut t = midnight + DAY;
                while t + DAY < now {
                    t += DAY;
                }
                t
            }
            ResetPeriod::Weekly => {
                // 1970-01-01 was a Thursday (tm_wday 4).
                let wday = (day + 4).rem_euclid(7);
                let mut t = midnight + DAY * (7 - wday);
                while t + 7 * DAY < now {
                    t += 7 * DAY;
                }
                t
            }
            ResetPeriod::Monthly => {
                let (y, m) = if m < 12 { (y, m + 1) } else { (y + 1, 1) };
                days(y, m, 1) * DAY
            }
            ResetPeriod::Quarterly => {
                let (y, m) = match m {
                    1..=3 => (y, 4),
                    4..=6 => (y, 7),
                    7..=9 => (y, 10),
                    _ => (y + 1, 1),
                };
                days(y, m, 1) * DAY
            }
            ResetPeriod::Yearly => days(y + 1, 1, 1) * DAY,
            ResetPeriod::None | ResetPeriod::Now => Time::MAX,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn boundaries_fall_on_calendar_days() {
            // 2024-02-10 12:00 UTC, a Saturday.
            let t = days(2024, 2, 10) * DAY + 43_200;
            assert_eq!(civil(days(2024, 2, 29)), (2024, 2, 29));
            assert_eq!(next_reset(ResetPeriod::Daily, t, t), days(2024, 2, 11) * DAY);
            assert_eq!(next_reset(ResetPeriod::Weekly, t, t), days(2024, 2, 11) * DAY, "Sunday");
            assert_eq!(next_reset(ResetPeriod::Monthly, t, t), days(2024, 3, 1) * DAY);
            assert_eq!(next_reset(ResetPeriod::Quarterly, t, t), days(2024, 4, 1) * DAY);
            assert_eq!(next_reset(ResetPeriod::Yearly, t, t), days(2025, 1, 1) * DAY);
            assert_eq!(civil(0), (1970, 1, 1));
        }
    }
}
