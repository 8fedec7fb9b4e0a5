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
        if self.layout.is_some() {
            return self.main_pass_on_nodes(sim, full);
        }
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
                self.start_job(sim, j, None)?;
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
    /// (`priority_p_job_end`) only if limits are enforced, since slurmctld
    /// calls that only from `_adjust_limit_usage`, which returns first
    /// otherwise; without them the stretch since the decay thread's last
    /// run is never charged (the thread skips ended jobs). The backfill
    /// cycle sees the job's cores free `bf_end_lag` later.
    pub(super) fn end(&mut self, sim: &Sim<'_>, j: JobIdx) {
        if let Some(run) = self.running.end(j, sim.now() + self.s.bf_end_lag) {
            if let Some(m) = self.multifactor.as_mut().filter(|m| m.charge_at_end) {
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

    /// Runs of the decay thread before `now` that no timer woke: those
    /// that fell while nothing ran or waited, and those skipped once the
    /// usage settled (see `next_decay_timer`). They are made one by one
    /// until the usage settles (while idle, once it has decayed to zero);
    /// settled runs leave the usage alone, so of those before `now` (or
    /// before a usage reset, which is run) only the last is made, for the
    /// priorities at its time. A stretch of years thus costs the runs
    /// the usage takes to settle, not one per period.
    pub(super) fn catch_up_decay(&mut self, sim: &Sim<'_>, now: Time) {
        while let Some(m) = self.multifactor.as_mut() {
            let Some(t) = m.next_run.filter(|&t| t < now) else { break };
            let period = m.calc_period;
            if m.usage_settled {
                let until = m.next_reset.map_or(now, |r| r.min(now));
                let last = first_run_at_or_after(t, period, until).unwrap_or(Time::MAX) - period;
                if last > t {
                    m.last_ran = Some(last - period);
                    m.next_run = Some(last);
                }
            }
            self.decay_run(sim);
        }
        // A full pass that a skipped run asked for before `now` would have
        // found no job to start (no waiting job fitted), and left nothing.
        if self.clock.main_due.is_some_and(|(d, full)| full && d < now) {
            self.clock.main_due = None;
        }
    }

    pub(super) fn decay_if_due(&mut self, sim: &Sim<'_>, now: Time) {
        if self.multifactor.as_ref().and_then(|m| m.next_run) == Some(now) {
            self.decay_run(sim);
        }
    }

    /// When a timer must wake the decay thread: at its next run while jobs
    /// run or wait, until the usage has settled. Then no run can start a
    /// job if no waiting job fits the free processors: the runs are made
    /// up at the next event (`catch_up_decay`), usage resets included.
    /// Otherwise, if the runs file the jobs as they are, only a usage
    /// reset changes anything before a job arrives, starts or ends: the
    /// timer is set for the first run at or after it.
    pub(super) fn next_decay_timer(&self, free: u32) -> Option<Time> {
        let m = self.multifactor.as_ref()?;
        let next = m.next_run?;
        if self.is_idle() || (m.usage_settled && !self.queue.any_fits(free)) {
            None
        } else if m.usage_settled && m.order_settled {
            first_run_at_or_after(next, m.calc_period, m.next_reset?)
        } else {
            Some(next)
        }
    }

    /// A job arrived, started or ended: the decay thread's next run may
    /// differ from its last.
    pub(super) fn unsettle(&mut self) {
        if let Some(m) = &mut self.multifactor {
            m.usage_settled = false;
            m.order_settled = false;
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
    ///
    /// The usage has settled when the run, one period after the last,
    /// charged every running job for the whole period and left the usage
    /// as it found it (decay and charges balance to the last bit): the
    /// next run starts from the same usage and decays and charges the
    /// same. The order has settled when besides no priority changed and
    /// every waiting job's age factor is at its cap.
    fn decay_run(&mut self, sim: &Sim<'_>) {
        let Some(m) = &mut self.multifactor else { return };
        let Some(t) = m.next_run else { return };
        let previous = m.last_ran;
        m.next_run = Some(t + m.calc_period);
        reset_if_due(m, t);
        let tree = m.tree.as_mut().expect("the tree is built at the first pass");
        let before = tree.usage().to_vec();
        if m.weights.classic {
            tree.refresh_classic();
        }
        let decayed = decay_to(m, t);
        let recompute = decayed || !m.weights.classic;
        if recompute {
            for (_, run) in self.running.iter() {
                charge(m, run, t);
            }
        }
        let tree = m.tree.as_mut().expect("built");
        if !m.weights.classic {
            tree.compute_fair_tree();
        }
        let usage_kept = tree.usage() == before.as_slice();
        m.last_ran = Some(t);
        let whole_period = previous == Some(t - m.calc_period)
            && self.running.iter().all(|(_, run)| previous.is_some_and(|p| run.start <= p));
        m.usage_settled = usage_kept && whole_period;
        m.order_settled = false;
        if recompute {
            let (moved, aging) = reprioritise(m, &mut self.queue, sim, t);
            m.order_settled = !moved && !aging;
            if moved {
                self.clock.bf_dirty = true;
                self.main_full_after(t);
            }
        }
    }
}

/// Decays all usage by `decay_factor^Δt` since the decay thread's last
/// run (`_apply_decay`); whether there was a last run before `t`.
fn decay_to(m: &mut Multifactor, t: Time) -> bool {
    match m.last_ran {
        Some(last) if t > last => {
            let real = libm::pow(m.decay_factor, (t - last) as f64).max(f64::MIN_POSITIVE);
            if m.decay_factor != 1.0 {
                m.tree.as_mut().expect("the tree is built at the first pass").decay(real);
            }
            true
        }
        _ => false,
    }
}

/// The first run of a thread that runs at `t` and every `period` after,
/// at or after `until`; `None` past the clock's range.
fn first_run_at_or_after(t: Time, period: Time, until: Time) -> Option<Time> {
    if until <= t {
        return Some(t);
    }
    let periods = (until - t - 1) / period + 1;
    t.checked_add(periods.checked_mul(period)?)
}

/// Files every waiting job again under its priority at `t`: whether any
/// moved, and whether any job's age factor is still below its cap (so its
/// priority may change at the next run).
fn reprioritise(m: &mut Multifactor, queue: &mut Queue, sim: &Sim<'_>, t: Time) -> (bool, bool) {
    let mut moved = false;
    let mut aging = false;
    for j in queue.jobs() {
        let p = job_priority(m, sim, j, t);
        moved |= queue.update(j, p);
        aging |= m.weights.age > 0 && t - sim.job(j).submit < m.weights.max_age;
    }
    (moved, aging)
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
    // Every boundary up to `t` is passed, as runs after a stretch of
    // idle time (folded into one) would have passed them one by one.
    let mut next = *m.next_reset.get_or_insert_with(|| calendar::next_reset(m.reset, last, t));
    while t >= next {
        m.tree.as_mut().expect("built").reset();
        m.last_reset = Some(next);
        next = calendar::next_reset(m.reset, next, t);
        m.next_reset = Some(next);
    }
}

mod calendar {
    //! Civil dates in UTC (the workload crate's, Howard Hinnant's
    //! algorithms), for the usage resets.

    use super::{ResetPeriod, Time};

    const DAY: Time = 86_400;

    use schedlab_workload::{civil_from_days as civil, days_from_civil as days};

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
