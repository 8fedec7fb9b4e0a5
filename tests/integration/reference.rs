//! Naive, independent reference simulators for FCFS, EASY and conservative
//! backfilling, used by `golden` as a check of the real engine.
//!
//! Written from the written definitions only (docs/semantics.md and the golden
//! test's brief), never from the engine or the policies' code, and on
//! purpose with a different, simple structure: plain vectors of job
//! indices, scanned linearly; the free processor count, the next event
//! time, EASY's shadow time and CBF's availability profile are recomputed
//! from scratch whenever they are needed. O(n²) is fine for the 3000-job
//! sample.
//!
//! Semantics, in short:
//! - At each distinct event time `now`: completions at `now` (processors
//!   freed), then arrivals at `now` (in priority order), then one pass. A
//!   job started at `now` with runtime 0 completes at `now` in a new batch
//!   at the same time: its completion is applied and another pass is run.
//! - The runtime prediction is the estimate or the runtime, clamped to
//!   [1, estimate]; a running job is expected to end at start + prediction.
//! - FCFS: start waiting jobs in priority order while the first one fits.
//! - EASY: the same, then the head's shadow time S and extra processors,
//!   then backfill the other waiting jobs that fit when backfilling begins
//!   (priority order, or shortest prediction first then priority): start a
//!   candidate if it fits now and either ends by S or fits in the extra
//!   processors (which it then uses up).
//! - CBF: every waiting job holds a reservation [s, s + prediction) in a
//!   profile that also holds running jobs until their expected ends. If a
//!   job completed before its expected end in this batch, compress: in
//!   priority order each waiting job with a future reservation is removed
//!   and re-placed at its earliest fit. Then arrivals are placed at their
//!   earliest fit, in priority order, then every job whose reservation is
//!   `now` starts. Reservation times are event times.
//! - Blocked: first waiting job at the end of some pass. Backfilled: started
//!   while a job of higher priority was waiting. Fair start: the first pass
//!   end at which the job is the first waiting job and free processors plus
//!   those held by running jobs of lower priority suffice.

use schedlab::workload::Job;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefPolicy {
    Fcfs,
    /// `shortest`: backfill candidates by prediction ascending, then
    /// priority; otherwise in priority order.
    Easy {
        shortest: bool,
    },
    Cbf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefSource {
    Estimate,
    Exact,
}

/// What the reference schedule says about one job (same order as the input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefJob {
    pub start: i64,
    pub end: i64,
    pub backfilled: bool,
    pub blocked: bool,
    pub fair_start: Option<i64>,
    pub first_reservation: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    NotArrived,
    Waiting,
    Running,
    Done,
}

struct Naive<'a> {
    jobs: &'a [Job],
    procs: i64,
    policy: RefPolicy,
    pred: Vec<i64>,
    state: Vec<State>,
    /// Job indices, kept in ascending (priority) order.
    waiting: Vec<usize>,
    /// Job indices, in the order they started.
    running: Vec<usize>,
    /// CBF: the current reservation start of each waiting job.
    resv: Vec<Option<i64>>,
    out: Vec<RefJob>,
}

pub fn reference_schedule(jobs: &[Job], procs: u32, policy: RefPolicy, source: RefSource) -> Vec<RefJob> {
    let pred = jobs
        .iter()
        .map(|j| {
            let raw = match source {
                RefSource::Estimate => j.estimate,
                RefSource::Exact => j.runtime,
            };
            raw.max(1).min(j.estimate.max(1))
        })
        .collect();
    let mut sim = Naive {
        jobs,
        procs: i64::from(procs),
        policy,
        pred,
        state: vec![State::NotArrived; jobs.len()],
        waiting: Vec::new(),
        running: Vec::new(),
        resv: vec![None; jobs.len()],
        out: vec![
            RefJob {
                start: -1,
                end: -1,
                backfilled: false,
                blocked: false,
                fair_start: None,
                first_reservation: None
            };
            jobs.len()
        ],
    };
    for j in jobs {
        assert!(i64::from(j.size) <= sim.procs && j.size > 0, "job {} does not fit the machine", j.id);
        assert!(j.runtime >= 0 && j.runtime <= j.estimate, "job {}: runtime outside [0, estimate]", j.id);
    }
    sim.run();
    assert!(sim.state.iter().all(|&s| s == State::Done), "reference: some job never completed");
    sim.out
}

impl Naive<'_> {
    fn size(&self, j: usize) -> i64 {
        i64::from(self.jobs[j].size)
    }

    fn expected_end(&self, j: usize) -> i64 {
        self.out[j].start + self.pred[j]
    }

    fn free(&self) -> i64 {
        self.procs - self.running.iter().map(|&r| self.size(r)).sum::<i64>()
    }

    fn next_event(&self) -> Option<i64> {
        let arrivals =
            (0..self.jobs.len()).filter(|&j| self.state[j] == State::NotArrived).map(|j| self.jobs[j].submit);
        let ends = self.running.iter().map(|&r| self.out[r].end);
        let reservations = self.waiting.iter().filter_map(|&w| self.resv[w]);
        arrivals.chain(ends).chain(reservations).min()
    }

    fn run(&mut self) {
        let mut last = i64::MIN;
        while let Some(now) = self.next_event() {
            assert!(now > last, "reference: time went back from {last} to {now}");
            last = now;
            let mut first_batch = true;
            loop {
                // Completions at `now`.
                let mut early = false;
                let mut still = Vec::new();
                for &r in &self.running {
                    if self.out[r].end == now {
                        self.state[r] = State::Done;
                        if self.out[r].end < self.expected_end(r) {
                            early = true;
                        }
                    } else {
                        still.push(r);
                    }
                }
                self.running = still;
                // Arrivals at `now` (only in the first batch of this time).
                let mut arrivals = Vec::new();
                if first_batch {
                    for j in 0..self.jobs.len() {
                        if self.state[j] == State::NotArrived && self.jobs[j].submit == now {
                            self.state[j] = State::Waiting;
                            self.waiting.push(j);
                            arrivals.push(j);
                        }
                    }
                    self.waiting.sort_unstable();
                }
                first_batch = false;
                match self.policy {
                    RefPolicy::Fcfs => self.start_while_head_fits(now),
                    RefPolicy::Easy { shortest } => self.easy_pass(now, shortest),
                    RefPolicy::Cbf => self.cbf_pass(now, early, &arrivals),
                }
                self.end_of_pass(now);
                // A zero-length job started now completes now, in a new batch.
                if !self.running.iter().any(|&r| self.out[r].end == now) {
                    break;
                }
            }
        }
    }

    fn start(&mut self, j: usize, now: i64) {
        assert_eq!(self.state[j], State::Waiting);
        assert!(self.size(j) <= self.free(), "reference: job {} started without room", self.jobs[j].id);
        self.waiting.retain(|&w| w != j);
        self.state[j] = State::Running;
        self.running.push(j);
        self.resv[j] = None;
        let o = &mut self.out[j];
        o.start = now;
        o.end = now + self.jobs[j].runtime;
        o.backfilled = self.waiting.iter().any(|&w| w < j);
    }

    fn end_of_pass(&mut self, now: i64) {
        let Some(&h) = self.waiting.first() else {
            return;
        };
        self.out[h].blocked = true;
        if self.out[h].fair_start.is_none() {
            let lower: i64 = self.running.iter().filter(|&&r| r > h).map(|&r| self.size(r)).sum();
            if self.free() + lower >= self.size(h) {
                self.out[h].fair_start = Some(now);
            }
        }
    }

    fn start_while_head_fits(&mut self, now: i64) {
        while let Some(&h) = self.waiting.first() {
            if self.size(h) > self.free() {
                break;
            }
            self.start(h, now);
        }
    }

    fn easy_pass(&mut self, now: i64, shortest: bool) {
        self.start_while_head_fits(now);
        let Some(&h) = self.waiting.first() else {
            return;
        };
        let free = self.free();
        let need = self.size(h);
        // Shadow time: the smallest expected end E of a running job such
        // that free + sizes of running jobs expected to end by E >= need.
        let avail_at = |e: i64| -> i64 {
            free + self.running.iter().filter(|&&r| self.expected_end(r) <= e).map(|&r| self.size(r)).sum::<i64>()
        };
        let shadow = self
            .running
            .iter()
            .map(|&r| self.expected_end(r))
            .filter(|&e| avail_at(e) >= need)
            .min()
            .expect("reference: a blocked head always has a shadow time");
        let mut extra = avail_at(shadow) - need;
        if self.out[h].first_reservation.is_none() {
            self.out[h].first_reservation = Some(shadow);
        }
        let mut candidates: Vec<usize> =
            self.waiting.iter().copied().filter(|&w| w != h && self.size(w) <= free).collect();
        if shortest {
            candidates.sort_by_key(|&w| (self.pred[w], w));
        }
        for c in candidates {
            let f = self.free();
            if f == 0 {
                break;
            }
            if self.size(c) > f {
                continue;
            }
            if now + self.pred[c] <= shadow {
                self.start(c, now);
            } else if self.size(c) <= extra {
                extra -= self.size(c);
                self.start(c, now);
            }
        }
    }

    fn cbf_pass(&mut self, now: i64, early: bool, arrivals: &[usize]) {
        if early {
            for w in self.waiting.clone() {
                if let Some(s) = self.resv[w] {
                    if s > now {
                        self.resv[w] = None;
                        let t = self.earliest_fit(w, now);
                        assert!(t <= s, "reference: compression moved job {} later", self.jobs[w].id);
                        self.resv[w] = Some(t);
                    }
                }
            }
        }
        for &a in arrivals {
            let t = self.earliest_fit(a, now);
            self.resv[a] = Some(t);
            if self.out[a].first_reservation.is_none() {
                self.out[a].first_reservation = Some(t);
            }
        }
        for w in self.waiting.clone() {
            let s = self.resv[w].expect("reference: every waiting CBF job holds a reservation");
            assert!(s >= now, "reference: job {} missed its reservation {s} (now {now})", self.jobs[w].id);
            if s == now {
                self.start(w, now);
            }
        }
    }

    /// The earliest t >= now such that job `j`'s size is free throughout
    /// [t, t + prediction), given the running jobs (until their expected
    /// ends) and every other waiting job's reservation.
    fn earliest_fit(&self, j: usize, now: i64) -> i64 {
        // Busy intervals [lo, hi), clipped to start no earlier than now.
        let mut busy: Vec<(i64, i64, i64)> = Vec::new();
        for &r in &self.running {
            busy.push((now, self.expected_end(r), self.size(r)));
        }
        for &w in &self.waiting {
            if w == j {
                continue;
            }
            if let Some(s) = self.resv[w] {
                busy.push((s.max(now), s + self.pred[w], self.size(w)));
            }
        }
        busy.retain(|&(lo, hi, _)| hi > lo);
        // Breakpoints of the free-processor step function, from now on.
        let mut points: Vec<i64> = vec![now];
        for &(lo, hi, _) in &busy {
            points.push(lo);
            points.push(hi);
        }
        points.sort_unstable();
        points.dedup();
        let free_at = |t: i64| -> i64 {
            self.procs - busy.iter().filter(|&&(lo, hi, _)| lo <= t && t < hi).map(|&(_, _, s)| s).sum::<i64>()
        };
        let free: Vec<i64> = points.iter().map(|&t| free_at(t)).collect();
        let (need, dur) = (self.size(j), self.pred[j]);
        // Scan the segments [points[i], points[i+1]) keeping the start of the
        // current run of segments with enough free processors.
        let mut run_start: Option<i64> = None;
        for i in 0..points.len() {
            if free[i] < need {
                run_start = None;
                continue;
            }
            let c = *run_start.get_or_insert(points[i]);
            let seg_end = points.get(i + 1).copied().unwrap_or(i64::MAX);
            if seg_end >= c.saturating_add(dur) {
                return c;
            }
        }
        unreachable!("reference: the profile is empty after its last breakpoint");
    }
}

/// The reference itself, on small traces whose schedules were worked out
/// by hand (most come from `schedules.rs`, whose comments give the
/// reasoning).
#[cfg(test)]
mod tests {
    use super::{reference_schedule, RefJob, RefPolicy, RefSource};
    use crate::support::{trace, Row};

    fn sched(procs: u32, rows: &[Row], policy: RefPolicy, source: RefSource) -> Vec<RefJob> {
        reference_schedule(&trace(procs, rows).jobs, procs, policy, source)
    }

    fn starts(s: &[RefJob]) -> Vec<i64> {
        s.iter().map(|r| r.start).collect()
    }

    /// 1-based job numbers whose flag is set.
    fn which(s: &[RefJob], f: impl Fn(&RefJob) -> bool) -> Vec<usize> {
        s.iter().enumerate().filter(|(_, r)| f(r)).map(|(i, _)| i + 1).collect()
    }

    const EASY_PRIO: RefPolicy = RefPolicy::Easy { shortest: false };
    const EASY_SJF: RefPolicy = RefPolicy::Easy { shortest: true };

    // P = 10. 1 runs [0,100) on 8; 2 (6 procs) is blocked: shadow 100,
    // extra 4. 3 (ends 92 <= 100) backfills at 2; 4 (estimate 200) does not
    // fit at 3 (0 free) and takes 2 of the 4 extra processors at 92; at 100
    // 2 starts and 5 starts on the 2 processors left.
    const SHADOW: &[Row] =
        &[(0, 100, 8, 100, 1), (1, 50, 6, 50, 2), (2, 90, 2, 90, 3), (3, 20, 2, 200, 4), (4, 500, 2, 500, 5)];
    // P = 10. Priority order: 3 (60 s) at 2, 4 at 62; shortest first: 4 at
    // 2, 3 at 32.
    const ORDER: &[Row] = &[(0, 100, 8, 100, 1), (1, 100, 10, 100, 2), (2, 60, 2, 60, 3), (2, 30, 2, 30, 4)];
    // P = 10. 1 ends at 50 of an estimated 100: with estimates 3 (estimate
    // 200) cannot backfill before head 2's shadow 100; with exact runtimes
    // the shadow is 50 and 3 (40 s) fits before it.
    const ESTIMATES: &[Row] = &[(0, 50, 8, 100, 1), (1, 100, 10, 100, 2), (2, 40, 2, 200, 3)];
    // P = 10, see `schedules.rs`: EASY delays 4 by 100 s after its fair start
    // 100 (1 free + 2 held by lower-priority 5); CBF reserves 3 at 100, 4 at
    // 50 and 5 at 150.
    const FAIRNESS: &[Row] =
        &[(0, 100, 5, 100, 1), (0, 50, 3, 50, 2), (1, 100, 7, 100, 3), (2, 100, 3, 100, 4), (3, 1000, 2, 1000, 5)];
    // P = 10. CBF: 1 ends at 20 of 100; compression moves 2 and 3 from 100
    // to 20 and 4 from 150 to 70; when 2 and 3 end at 50 (of 50), 4 moves to 50.
    const EARLY: &[Row] = &[(0, 20, 10, 100, 1), (1, 30, 5, 50, 2), (2, 30, 5, 50, 3), (3, 10, 10, 10, 4)];
    // P = 10. A zero-length job holding the whole machine: 1 starts at 0 and
    // completes at 0 in a second batch, after which 2 starts, still at 0.
    // 2 was the head at the end of the first pass (blocked), when nothing of
    // lower priority ran: no fair start.
    const ZERO: &[Row] = &[(0, 0, 10, 10, 1), (0, 5, 10, 5, 1)];

    #[test]
    fn reference_easy_hand_computed() {
        let s = sched(10, SHADOW, EASY_PRIO, RefSource::Estimate);
        assert_eq!(starts(&s), [0, 100, 2, 92, 100]);
        assert_eq!(which(&s, |r| r.backfilled), [3, 4]);
        assert_eq!(which(&s, |r| r.blocked), [2]);
        assert_eq!(s[1].first_reservation, Some(100));
        assert_eq!(starts(&sched(10, ORDER, EASY_PRIO, RefSource::Estimate)), [0, 100, 2, 62]);
        assert_eq!(starts(&sched(10, ORDER, EASY_SJF, RefSource::Estimate)), [0, 100, 32, 2]);
        assert_eq!(starts(&sched(10, ESTIMATES, EASY_PRIO, RefSource::Estimate)), [0, 50, 150]);
        assert_eq!(starts(&sched(10, ESTIMATES, EASY_PRIO, RefSource::Exact)), [0, 50, 2]);
        let f = sched(10, FAIRNESS, EASY_PRIO, RefSource::Estimate);
        assert_eq!(starts(&f), [0, 0, 100, 200, 3]);
        assert_eq!(which(&f, |r| r.backfilled), [5]);
        assert_eq!(which(&f, |r| r.blocked), [3, 4]);
        assert_eq!((f[2].fair_start, f[3].fair_start), (None, Some(100)));
    }

    #[test]
    fn reference_cbf_hand_computed() {
        let f = sched(10, FAIRNESS, RefPolicy::Cbf, RefSource::Estimate);
        assert_eq!(starts(&f), [0, 0, 100, 50, 150]);
        let reservations: Vec<Option<i64>> = f.iter().map(|r| r.first_reservation).collect();
        assert_eq!(reservations, [Some(0), Some(0), Some(100), Some(50), Some(150)]);
        assert_eq!(which(&f, |r| r.backfilled), [4]);
        assert_eq!(which(&f, |r| r.blocked), [3, 5]);
        let e = sched(10, EARLY, RefPolicy::Cbf, RefSource::Estimate);
        assert_eq!(starts(&e), [0, 20, 20, 50]);
        assert_eq!(
            e.iter().map(|r| r.first_reservation).collect::<Vec<_>>(),
            [Some(0), Some(100), Some(100), Some(150)]
        );
        // With exact runtimes nothing ends early: 2 and 3 reserved at 20, 4 at 50.
        let x = sched(10, EARLY, RefPolicy::Cbf, RefSource::Exact);
        assert_eq!(starts(&x), [0, 20, 20, 50]);
        assert_eq!(x.iter().map(|r| r.first_reservation).collect::<Vec<_>>(), [Some(0), Some(20), Some(20), Some(50)]);
        assert_eq!(starts(&sched(10, SHADOW, RefPolicy::Cbf, RefSource::Estimate)), [0, 100, 2, 92, 100]);
    }

    #[test]
    fn reference_fcfs_and_zero_length_jobs() {
        let s = sched(10, SHADOW, RefPolicy::Fcfs, RefSource::Estimate);
        assert_eq!(starts(&s), [0, 100, 100, 100, 120]);
        assert_eq!(s.iter().map(|r| r.end).collect::<Vec<_>>(), [100, 150, 190, 120, 620]);
        assert_eq!(which(&s, |r| r.backfilled), Vec::<usize>::new());
        // Blocked: 2 (t=1..100), then 5 (t=100..120).
        assert_eq!(which(&s, |r| r.blocked), [2, 5]);
        for policy in [RefPolicy::Fcfs, EASY_PRIO, RefPolicy::Cbf] {
            let z = sched(10, ZERO, policy, RefSource::Estimate);
            assert_eq!(starts(&z), [0, 0], "{policy:?}");
            assert_eq!(which(&z, |r| r.blocked), [2], "{policy:?}");
            assert_eq!(z[1].fair_start, None, "{policy:?}");
        }
    }
}
