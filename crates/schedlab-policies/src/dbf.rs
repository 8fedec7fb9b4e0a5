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
//! Which jobs are deadline-driven: job number `id` is when
//! SplitMix64(seed ⊕ id × φ64) draws below `fraction` — one draw per job,
//! keyed by the seed and the job's number, so filtering a trace does not
//! reshuffle the others. Deadline = submit + max(`min_deadline`,
//! `deadline_factor` × estimate) (paper §5: 24 h and 10).
//!
//! Guarantee (with `estimate` or `exact`): no job starts later than its
//! first reservation, which is recorded only for L0 allocations; the
//! checker verifies it. Deadline violations are counted by the metrics
//! (`metrics.deadline`), from the deadlines this policy reports.

use schedlab_engine::params::{ParamKind, ParamSpec};
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, SplitMix64, Time};

use crate::book::Book;
use crate::{never_calibrate, PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "dbf",
    name: "Deadline-based backfilling",
    description: "Conservative backfilling where a share of the jobs are deadline-driven: their allocations stay \
                  tentative and are moved back, up to their deadline, whenever a regular job arrives \
                  (Algorithm 1), so regular jobs start earlier. Regular jobs keep CBF's guarantee. \
                  Gaussier et al. 2018.",
    params: &[
        ParamSpec {
            key: "fraction",
            name: "Deadline-driven share",
            description: "Share of the jobs that are deadline-driven, drawn per job from the seed and the job number.",
            kind: ParamKind::Float { min: 0.0, max: 1.0, default: 0.2 },
            unit: None,
        },
        ParamSpec {
            key: "min_deadline",
            name: "Minimum deadline",
            description: "A deadline-driven job's deadline is at least this long after its submission.",
            kind: ParamKind::Int { min: 0, max: 100_000_000, default: 86_400 },
            unit: Some("s"),
        },
        ParamSpec {
            key: "deadline_factor",
            name: "Deadline factor",
            description:
                "A deadline-driven job's deadline is at least this many times its estimate after its submission.",
            kind: ParamKind::Float { min: 0.0, max: 1e6, default: 10.0 },
            unit: None,
        },
    ],
    uses_runtime_source: true,
    default_source: "estimate",
    build,
    needs_calibration: never_calibrate,
    conditions: &[],
};

fn build(s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Dbf {
        rule: DeadlineRule {
            fraction: s.params.number("fraction"),
            min_deadline: s.params.number("min_deadline") as Time,
            factor: s.params.number("deadline_factor"),
            seed: s.seed,
        },
        upper_bound: s.source.is_upper_bound(),
        deadlines: Vec::new(),
        book: Book::default(),
        l1: Vec::new(),
        tmp: Vec::new(),
        order: Vec::new(),
    })
}

/// Which jobs are deadline-driven, and their deadlines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeadlineRule {
    pub fraction: f64,
    pub min_deadline: Time,
    pub factor: f64,
    pub seed: u64,
}

impl DeadlineRule {
    /// The deadline of job number `id`, or `None` for a regular job.
    pub fn deadline(&self, id: u64, submit: Time, estimate: Time) -> Option<Time> {
        let key = self.seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if SplitMix64::new(key).next_f64() >= self.fraction {
            return None;
        }
        let scaled = (self.factor * estimate as f64).ceil().min(1e15) as Time;
        Some(submit.saturating_add(self.min_deadline.max(scaled)))
    }
}

struct Dbf {
    rule: DeadlineRule,
    upper_bound: bool,
    /// Per job, its deadline if it is deadline-driven.
    deadlines: Vec<Option<Time>>,
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
            self.rebuild(sim);
        } else if changes.early {
            self.compress(sim);
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

    fn deadlines(&self) -> Option<Vec<Option<Time>>> {
        Some(self.deadlines.clone())
    }
}

impl Dbf {
    fn assign_deadlines(&mut self, sim: &Sim<'_>) {
        self.deadlines = sim.jobs().iter().map(|j| self.rule.deadline(j.id, j.submit, j.estimate)).collect();
    }

    fn misses_deadline(&self, j: JobIdx) -> bool {
        match (self.deadlines[j as usize], self.book.slot(j)) {
            (Some(d), Some(s)) => s.start + s.duration > d,
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
    fn compress(&mut self, sim: &mut Sim<'_>) {
        self.order.clear();
        self.order.extend_from_slice(sim.waiting());
        self.book.compress(sim, &self.order);
    }

    /// After an overcommitment (runtimes that fall short): L0 jobs in
    /// priority order, then L1 jobs, are placed again from scratch.
    fn rebuild(&mut self, sim: &mut Sim<'_>) {
        self.book.reset(sim);
        self.order.clear();
        let l1 = &self.l1;
        self.order.extend(sim.waiting().iter().copied().filter(|j| l1.binary_search(j).is_err()));
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

    #[test]
    fn deadlines_follow_the_rule_and_the_share() {
        let rule = DeadlineRule { fraction: 1.0, min_deadline: 86_400, factor: 10.0, seed: 7 };
        // max(24 h, 10 × 3600) = 86,400; max(24 h, 10 × 36,000) = 360,000.
        assert_eq!(rule.deadline(1, 100, 3600), Some(86_500));
        assert_eq!(rule.deadline(2, 100, 36_000), Some(360_100));
        let none = DeadlineRule { fraction: 0.0, ..rule };
        assert_eq!(none.deadline(1, 100, 3600), None);
        let fifth = DeadlineRule { fraction: 0.2, ..rule };
        let chosen = (1..=10_000u64).filter(|&id| fifth.deadline(id, 0, 1).is_some()).count();
        assert!((1800..2200).contains(&chosen), "{chosen} of 10,000");
    }
}
