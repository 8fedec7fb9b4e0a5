//! Deadline-based backfilling, DBF (Gaussier, Lelong, Reis and Trystram
//! 2018): conservative backfilling with two waiting lists.
//!
//! - L0 holds *definitive* allocations: regular jobs, and deadline-driven
//!   jobs that could not keep their deadline. They behave exactly as CBF
//!   reservations: placed once, recorded (`Sim::reserve`), and only ever
//!   moved earlier.
//! - L1 holds *tentative* allocations of deadline-driven jobs, which may
//!   move (later too) as long as they still end by their deadline.
//!
//! A deadline-driven job arriving gets the earliest CBF slot among all
//! allocations; if it ends by its deadline (start + planned runtime ≤
//! deadline) it joins L1, otherwise it is treated as a regular arrival.
//! A regular arrival Jr runs the paper's Algorithm 1:
//! 1. cancel every L1 allocation; Ltmp = {Jr}; allocate Jr, then L1 in
//!    submission order;
//! 2. while some L1 job misses its deadline, move the earliest-submitted
//!    such job to Ltmp, cancel Ltmp and L1, and allocate Ltmp in submission
//!    order, then L1 (lines 9–21);
//! 3. if some Ltmp job still misses its deadline, let Smax be the latest
//!    submit time among those, move every L1 job submitted before Smax to
//!    Ltmp, and allocate again (lines 22–35);
//! 4. Ltmp jobs starting now start; the others join L0 with a definitive
//!    allocation (lines 36–43); L1 jobs starting now start (lines 44–48).
//!
//! When a job ends early, every waiting job (L0 and L1, in priority order)
//! gives back its slot and takes the earliest one now free, which is never
//! later, so compression keeps both L0's guarantee and L1's deadlines.
//!
//! Which jobs are deadline-driven: each job number `id` gets one draw,
//! SplitMix64(seed ⊕ id × φ64), keyed by the seed and the job's number, so
//! filtering a trace does not reshuffle the others. With `share_mode=draw`
//! (the default) a job is deadline-driven when its draw is below
//! `fraction`, so the share varies around `fraction` from seed to seed;
//! with `share_mode=exact` the round(`fraction` × jobs) jobs with the
//! lowest draws are (ties by priority), exactly the share the paper's
//! table states. Deadline = submit + max(`min_deadline`,
//! `deadline_factor` × estimate) (paper §5: 24 h and 10).
//!
//! Guarantee (with `estimate` or `exact`): no job starts later than its
//! first reservation, which is recorded only for L0 allocations; the
//! checker verifies it. Deadline violations are counted by the metrics
//! (`metrics.deadline`), from the deadlines this policy reports.

use schedlab_engine::params::ParamSet;
use schedlab_engine::{
    Deadline, DeadlineKind, EngineError, Guarantee, Happened, JobIdx, Policy, Sim, SplitMix64, Time,
};

use crate::book::Book;
use crate::{never_calibrate, PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "dbf",
    name: "Deadline-based backfilling",
    description: "Conservative backfilling where a share of the jobs are deadline-driven: their allocations stay \
                  tentative and are moved back, up to their deadline, whenever a regular job arrives \
                  (Algorithm 1), so regular jobs start earlier. Regular jobs keep CBF's guarantee. \
                  Gaussier et al. 2018.",
    params: DbfParams::SPECS,
    uses_runtime_source: true,
    default_source: "estimate",
    uses_seed: true,
    on_nodes: crate::OnNodes::Refuses("its profile plans processors, not nodes"),
    build: |values, s| build(DbfParams::read(values), s),
    needs_calibration: never_calibrate,
    conditions: &[],
};

schedlab_engine::param_choice! {
    /// How the deadline-driven jobs are chosen.
    pub(crate) enum ShareMode {
        Draw = "draw",
        Exact = "exact",
    }
}

schedlab_engine::param_set! {
    pub(crate) struct DbfParams {
        fraction: Float { min: 0.0, max: 1.0, default: 0.2 },
            name: "Deadline-driven share",
            description: "Share of the jobs that are deadline-driven, drawn per job from the seed and the job number.";
        min_deadline: Int { min: 0, max: 100_000_000, default: 86_400 },
            name: "Minimum deadline",
            description: "A deadline-driven job's deadline is at least this long after its submission.",
            unit: "s";
        deadline_factor: Float { min: 0.0, max: 1e6, default: 10.0 },
            name: "Deadline factor",
            description:
                "A deadline-driven job's deadline is at least this many times its estimate after its submission.";
        share_mode: Choice<ShareMode> { default: ShareMode::Draw },
            name: "Share",
            description: "draw: each job is deadline-driven with probability `fraction` (one draw per job); exact: exactly round(fraction × jobs) jobs are, those with the lowest draws.";
    }
}

fn build(p: DbfParams, s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Dbf {
        rule: DeadlineRule {
            fraction: p.fraction,
            min_deadline: p.min_deadline,
            factor: p.deadline_factor,
            seed: s.seed,
            exact_share: p.share_mode == ShareMode::Exact,
        },
        upper_bound: s.source.is_upper_bound(),
        deadlines: Vec::new(),
        book: Book::default(),
        l1: Vec::new(),
        tmp: Vec::new(),
        order: Vec::new(),
    })
}

/// What the deadline rule reads of a job.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JobTimes {
    pub id: u64,
    pub submit: Time,
    pub estimate: Time,
}

/// Which jobs are deadline-driven, and their deadlines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeadlineRule {
    pub fraction: f64,
    pub min_deadline: Time,
    pub factor: f64,
    pub seed: u64,
    /// Exactly round(fraction × jobs) deadline-driven jobs, rather than
    /// each job with probability `fraction`.
    pub exact_share: bool,
}

impl DeadlineRule {
    /// Job number `id`'s draw in [0, 1).
    fn draw(&self, id: u64) -> f64 {
        SplitMix64::new(self.seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_f64()
    }

    /// The deadline of a deadline-driven job, and which term set it (the
    /// minimum on a tie).
    fn deadline_of(&self, job: &JobTimes) -> Deadline {
        let scaled = (self.factor * job.estimate as f64).ceil().min(1e15) as Time;
        let kind = if scaled > self.min_deadline { DeadlineKind::Scaled } else { DeadlineKind::Minimum };
        Deadline { at: job.submit.saturating_add(self.min_deadline.max(scaled)), kind }
    }

    /// Per job (in priority order), its deadline, or `None` for a regular job.
    pub fn deadlines(&self, jobs: &[JobTimes]) -> Vec<Option<Deadline>> {
        let draws: Vec<f64> = jobs.iter().map(|j| self.draw(j.id)).collect();
        let driven: Vec<bool> = if self.exact_share {
            let wanted = (self.fraction * jobs.len() as f64).round() as usize;
            let mut order: Vec<usize> = (0..jobs.len()).collect();
            order.sort_unstable_by(|&a, &b| draws[a].total_cmp(&draws[b]).then(a.cmp(&b)));
            let mut driven = vec![false; jobs.len()];
            for &k in order.iter().take(wanted) {
                driven[k] = true;
            }
            driven
        } else {
            draws.iter().map(|&d| d < self.fraction).collect()
        };
        jobs.iter().zip(driven).map(|(j, d)| d.then(|| self.deadline_of(j))).collect()
    }
}

struct Dbf {
    rule: DeadlineRule,
    upper_bound: bool,
    /// Per job, its deadline if it is deadline-driven.
    deadlines: Vec<Option<Deadline>>,
    book: Book,
    /// Tentative deadline-driven jobs, in submission (priority) order.
    l1: Vec<JobIdx>,
    /// Algorithm 1's Ltmp, in submission order.
    tmp: Vec<JobIdx>,
    order: Vec<JobIdx>,
}

impl Policy for Dbf {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        if self.deadlines.is_empty() {
            self.assign_deadlines(sim);
        }
        let changes = self.book.begin(sim, happened);
        self.l1.retain(|&j| sim.is_waiting(j));
        if changes.overcommitted {
            self.rebuild(sim, happened);
        } else if changes.early {
            self.compress(sim);
        }
        if changes.overcommitted || changes.early {
            self.reserve_definitive(sim);
        }
        for &j in &happened.arrived {
            self.arrive(sim, j);
        }
        self.book.start_due(sim)?;
        self.l1.retain(|&j| sim.is_waiting(j));
        self.book.set_wake(sim)
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        crate::common::reservation_guarantee(self.upper_bound)
    }

    fn deadlines(&self) -> Option<Vec<Option<Deadline>>> {
        Some(self.deadlines.clone())
    }
}

impl Dbf {
    fn assign_deadlines(&mut self, sim: &Sim<'_>) {
        let jobs: Vec<JobTimes> =
            sim.jobs().iter().map(|j| JobTimes { id: j.id, submit: j.submit, estimate: j.estimate }).collect();
        self.deadlines = self.rule.deadlines(&jobs);
    }

    fn misses_deadline(&self, j: JobIdx) -> bool {
        match (self.deadlines[j as usize], self.book.slot(j)) {
            (Some(d), Some(s)) => s.start + s.duration > d.at,
            _ => false,
        }
    }

    fn arrive(&mut self, sim: &mut Sim<'_>, j: JobIdx) {
        if self.deadlines[j as usize].is_some() {
            self.book.place(sim, j, sim.now());
            if !self.misses_deadline(j) {
                // Tentative: L1 is kept in submission order, and arrivals
                // come in that order.
                self.l1.push(j);
                return;
            }
            self.book.unplace(sim, j);
        }
        self.algorithm_1(sim, j);
    }

    /// The paper's Algorithm 1 for a regular arrival `jr`.
    fn algorithm_1(&mut self, sim: &mut Sim<'_>, jr: JobIdx) {
        self.cancel_l1(sim);
        self.tmp.clear();
        self.tmp.push(jr);
        self.book.place(sim, jr, sim.now());
        self.allocate_l1(sim);
        while let Some(pos) = self.l1.iter().position(|&j| self.misses_deadline(j)) {
            let j = self.l1.remove(pos);
            insert_sorted(&mut self.tmp, j);
            self.reallocate(sim);
        }
        let late_submit = self.tmp.iter().filter(|&&j| self.misses_deadline(j)).map(|&j| sim.job(j).submit).max();
        if let Some(smax) = late_submit {
            let (early, rest): (Vec<JobIdx>, Vec<JobIdx>) =
                self.l1.iter().copied().partition(|&j| sim.job(j).submit < smax);
            self.l1 = rest;
            for j in early {
                insert_sorted(&mut self.tmp, j);
            }
            self.reallocate(sim);
        }
        // Ltmp jobs become definitive (L0); those due now start in this
        // pass's `start_due`, others keep their reservation.
        for &j in &self.tmp {
            if let Some(slot) = self.book.slot(j) {
                sim.reserve(j, slot.start);
            }
        }
    }

    /// Cancels Ltmp and L1, then allocates Ltmp and L1, each in submission
    /// order.
    fn reallocate(&mut self, sim: &mut Sim<'_>) {
        for &j in &self.tmp {
            self.book.unplace(sim, j);
        }
        self.cancel_l1(sim);
        for i in 0..self.tmp.len() {
            let j = self.tmp[i];
            self.book.place(sim, j, sim.now());
        }
        self.allocate_l1(sim);
    }

    fn cancel_l1(&mut self, sim: &Sim<'_>) {
        for &j in &self.l1 {
            self.book.unplace(sim, j);
        }
    }

    fn allocate_l1(&mut self, sim: &Sim<'_>) {
        for i in 0..self.l1.len() {
            let j = self.l1[i];
            self.book.place(sim, j, sim.now());
        }
    }

    /// Every waiting job, in priority order, moves to the earliest slot now
    /// free (never a later one).
    /// Leaves in `order` the jobs it moved, in priority order.
    fn compress(&mut self, sim: &mut Sim<'_>) {
        self.order.clear();
        self.book.compress(sim, &mut self.order);
    }

    /// Records the slots of the definitive (L0) jobs, which a compression
    /// or a rebuild may have moved; tentative (L1) jobs hold no reservation.
    /// Only the jobs in `order` (those the compression moved, or every
    /// waiting job after a rebuild) can hold a slot other than their
    /// recorded reservation.
    fn reserve_definitive(&mut self, sim: &mut Sim<'_>) {
        let l1 = &self.l1;
        self.order.retain(|j| l1.binary_search(j).is_err());
        crate::common::reserve_planned(sim, &self.book, &self.order);
    }

    /// After an overcommitment (runtimes that fall short): L0 jobs in
    /// priority order, then L1 jobs, are placed again from scratch. This
    /// pass's arrivals are not: `arrive` places them afterwards.
    fn rebuild(&mut self, sim: &mut Sim<'_>, happened: &Happened) {
        self.book.reset(sim);
        self.order.clear();
        let l1 = &self.l1;
        self.order.extend(crate::common::waiting_before(sim, happened).filter(|j| l1.binary_search(j).is_err()));
        self.order.extend_from_slice(&self.l1);
        self.book.place_all(sim, &self.order);
    }
}

/// Inserts `j` keeping `list` in submission (priority) order.
fn insert_sorted(list: &mut Vec<JobIdx>, j: JobIdx) {
    let pos = list.partition_point(|&x| x < j);
    list.insert(pos, j);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: u64, submit: Time, estimate: Time) -> JobTimes {
        JobTimes { id, submit, estimate }
    }

    #[test]
    fn deadlines_follow_the_rule_and_the_share() {
        let rule = DeadlineRule { fraction: 1.0, min_deadline: 86_400, factor: 10.0, seed: 7, exact_share: false };
        // max(24 h, 10 × 3600) = 86,400; max(24 h, 10 × 8640) = 86,400 (a
        // tie: the minimum); max(24 h, 10 × 36,000) = 360,000.
        let at = |at, kind| Some(Deadline { at, kind });
        assert_eq!(
            rule.deadlines(&[job(1, 100, 3600), job(2, 100, 8640), job(3, 100, 36_000)]),
            vec![
                at(86_500, DeadlineKind::Minimum),
                at(86_500, DeadlineKind::Minimum),
                at(360_100, DeadlineKind::Scaled)
            ]
        );
        let none = DeadlineRule { fraction: 0.0, ..rule };
        assert_eq!(none.deadlines(&[job(1, 100, 3600)]), vec![None]);
        let jobs: Vec<JobTimes> = (1..=10_000u64).map(|id| job(id, 0, 1)).collect();
        let fifth = DeadlineRule { fraction: 0.2, ..rule };
        let drawn = fifth.deadlines(&jobs);
        let chosen = drawn.iter().filter(|d| d.is_some()).count();
        assert!((1800..2200).contains(&chosen), "{chosen} of 10,000");
        assert_ne!(chosen, 2000, "this seed's draws do not give exactly the share");
        // Exact share: 2000 jobs, those with the lowest draws, so every job
        // drawn below 0.2 is among them or every chosen job is.
        let exact = DeadlineRule { exact_share: true, ..fifth }.deadlines(&jobs);
        assert_eq!(exact.iter().filter(|d| d.is_some()).count(), 2000);
        let both = drawn.iter().zip(&exact).filter(|(a, b)| a.is_some() && b.is_some()).count();
        assert_eq!(both, chosen.min(2000));
        // round(0.25 × 7) = 2 of 7.
        let seven = DeadlineRule { fraction: 0.25, exact_share: true, ..rule }.deadlines(&jobs[..7]);
        assert_eq!(seven.iter().filter(|d| d.is_some()).count(), 2);
    }
}
