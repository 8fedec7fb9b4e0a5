//! Composable backfilling: a queue order and a reservation depth, with any
//! runtime source (docs/policies.md, "Composable backfilling").
//!
//! The order is a score per job, a formula of `schedlab-priority` (one of
//! its presets or the user's own), lowest first unless `direction` is
//! `highest`; ties go by submission, then job number. At each pass the
//! waiting jobs are taken in that order: a job that fits now, without
//! delaying any reservation made so far in the pass, starts; one that does
//! not gets a reservation (its earliest slot in a profile of the running
//! jobs, the jobs started and the reservations made before it), until
//! `depth` jobs hold one. After that, every other job starts only if it
//! fits now and delays none of those reservations. Depth 0 is plain first
//! fit; depth 1 is EASY (for the `fcfs` order, the same schedule as
//! `easy`); depth `all` plans every waiting job at every pass.
//!
//! Reservations last one pass: the next pass plans again from the running
//! jobs. This is not the papers' conservative backfilling (`cbf`), whose
//! reservations are kept from arrival and only ever compressed; here a
//! reservation can move later when a job of better score arrives or, at
//! depth 2 and more, when an earlier reservation moves into its slot.
//!
//! Costs, for q waiting jobs and p breakpoints of the profile:
//! - scores: a formula that reads only what is fixed while a job waits is
//!   computed once per job, at its arrival (O(log q) to file it); one that
//!   reads `wait`, `now`, `free` or `queued`, or `predicted` under a source
//!   that learns (`last`, `tsafrir`), is computed again for every waiting
//!   job at every pass: O(q log q) per pass plus q evaluations of its code;
//! - the pass: each job started and each of the d reservations costs one
//!   step of the order (O(log q)) and a profile search and change
//!   (O(log p) each; `engine::Profile`); the jobs after the d-th
//!   reservation are found by a walk of the score order pruned by least
//!   size and least prediction (`score_order`), never by a scan of the
//!   queue; the reservations are taken out of the profile at the end of
//!   the pass (d more changes). Depth `all` costs a step and a search per
//!   waiting job at every pass.

mod score_order;

use schedlab_engine::params::{ParamKind, ParamSpec, TextCheck};
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Time};
use schedlab_priority::{find_preset, Formula, Var, Vars};

use crate::book::Book;
use crate::{PolicyInfo, PolicySettings};
use score_order::{score_key, Key, ScoreOrder};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "backfill",
    name: "Composable backfilling",
    description: "A queue order and a reservation depth, as production schedulers are configured: at each pass \
                  jobs are taken in order of a score (a preset such as fcfs, sjf, saf, wfp3, unicep or f1, or \
                  a formula you write); jobs start while they fit, the first `depth` jobs that do not fit get \
                  reservations, and any other job starts only if it delays none of them. Depth 0 is first fit, \
                  depth 1 is EASY; depth `all` re-plans every waiting job at each pass, which is not the \
                  papers' conservative backfilling (cbf keeps each reservation from arrival and only \
                  compresses it).",
    params: &[
        ParamSpec {
            key: "depth",
            name: "Reservation depth",
            description: "How many blocked jobs, in queue order, hold a reservation at each pass: 0 (first fit), 1 (EASY), … or all.",
            kind: ParamKind::IntOr { min: 0, max: 1_000_000, word: "all", default: "1" },
            unit: None,
        },
        ParamSpec {
            key: "order",
            name: "Queue order",
            description: "A preset (fcfs, sjf, ljf, smallest, largest, saf, wfp3, unicep, f1, f2, f3, f4) or a formula over wait, submit, now, requested, predicted, procs, user, group, queue, partition, machine, free and queued.",
            kind: ParamKind::Text { default: "fcfs", max_len: schedlab_priority::MAX_LENGTH, check: TextCheck(check_order) },
            unit: None,
        },
        ParamSpec {
            key: "direction",
            name: "Direction",
            description: "Which scores go first: the lowest (every preset is written for this) or the highest.",
            kind: ParamKind::Choice { options: &["lowest", "highest"], default: "lowest" },
            unit: None,
        },
    ],
    uses_runtime_source: true,
    default_source: "estimate",
    build,
    needs_calibration: crate::never_calibrate,
    conditions: &[],
};

/// The formula an `order` value stands for: a preset's, or the text itself.
pub fn order_formula(text: &str) -> Result<Formula, String> {
    let text = text.trim();
    match find_preset(text) {
        Some(p) => Formula::compile(p.source),
        None => Formula::compile(text),
    }
    .map_err(|e| e.to_string())
}

fn check_order(text: &str) -> Result<(), String> {
    order_formula(text).map(|_| ())
}

fn build(s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Backfill::new(s))
}

impl Backfill {
    fn new(s: &PolicySettings) -> Self {
        let depth = match s.params.get("depth") {
            Some(schedlab_engine::params::ParamValue::Int(d)) => usize::try_from(*d).unwrap_or(usize::MAX),
            _ => usize::MAX,
        };
        // The parameter was checked when it was resolved; an order that no
        // longer compiles cannot reach here, and FCFS is the order's default.
        let formula =
            order_formula(s.params.text("order")).unwrap_or_else(|_| order_formula("fcfs").expect("a preset"));
        let rescored = formula.is_time_dependent() || (formula.reads(Var::Predicted) && s.source.learns());
        let highest = s.params.choice("direction") == "highest";
        let fcfs = s.params.text("order").trim() == "fcfs" && !highest;
        Backfill {
            depth,
            highest,
            rescored,
            keeps_first_reservation: s.source.is_upper_bound() && depth == 1 && fcfs,
            upper_bound: s.source.is_upper_bound(),
            formula,
            book: Book::default(),
            queue: None,
            stack: Vec::new(),
            plan: Vec::new(),
            live: s.source.learns(),
        }
    }
}

struct Backfill {
    /// Reservations per pass (`usize::MAX` for all).
    depth: usize,
    formula: Formula,
    highest: bool,
    /// Scores change while jobs wait, so every pass computes them again.
    rescored: bool,
    /// FCFS order at depth 1 with runtimes that never fall short: EASY,
    /// whose blocked job never starts later than its first reservation.
    keeps_first_reservation: bool,
    /// Runtimes never fall short, so the plan's durations bound the jobs'.
    upper_bound: bool,
    /// Running jobs until their expected ends, and this pass's reservations.
    book: Book,
    queue: Option<ScoreOrder>,
    live: bool,
    /// Scratch stack of the formula's code.
    stack: Vec<f64>,
    /// The reservations of the last pass: (job, start, duration).
    plan: Vec<(JobIdx, Time, Time)>,
}

impl Policy for Backfill {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.book.begin(sim, happened);
        self.file(sim, happened)?;
        self.plan.clear();
        let mut after = None;
        while self.plan.len() < self.depth {
            let Some(key) = self.queue().next(after) else { break };
            after = Some(key);
            if self.book.fits_now(sim, key.1) {
                self.start(sim, key.1)?;
            } else {
                self.reserve(sim, key.1);
            }
        }
        self.backfill(sim, after)?;
        for &(j, _, _) in &self.plan {
            self.book.unplace(sim, j);
        }
        Ok(())
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        let mut g = crate::common::reservation_guarantee(self.keeps_first_reservation);
        // With scores that change while jobs wait, a second pass in the same
        // second (after a job of zero length ends) may drop a reservation
        // the log still shows for that second; the checker could not tell.
        if self.upper_bound && !self.rescored {
            g.push(Guarantee::ReservationsFitTheirPass);
        }
        g
    }
}

impl Backfill {
    fn queue(&self) -> &ScoreOrder {
        self.queue.as_ref().expect("filed at the start of the pass")
    }

    /// Files this pass's arrivals with their scores, or, when scores change
    /// while jobs wait, every waiting job with its score now.
    fn file(&mut self, sim: &Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let live = self.live;
        self.queue.get_or_insert_with(|| ScoreOrder::new(sim.jobs().len(), live));
        if self.rescored {
            for &j in sim.waiting() {
                let key = self.score(sim, j)?;
                self.queue.as_mut().expect("made above").insert(sim, j, key);
            }
        } else {
            for &j in &happened.arrived {
                let key = self.score(sim, j)?;
                self.queue.as_mut().expect("made above").insert(sim, j, key);
            }
        }
        Ok(())
    }

    /// The order key of waiting job `j` now; a NaN score stops the run.
    fn score(&mut self, sim: &Sim<'_>, j: JobIdx) -> Result<u64, EngineError> {
        let job = sim.job(j);
        let mut vars = Vars::default();
        vars.set(Var::Wait, (sim.now() - job.submit) as f64)
            .set(Var::Submit, job.submit as f64)
            .set(Var::Now, sim.now() as f64)
            .set(Var::Requested, job.estimate as f64)
            .set(Var::Predicted, sim.prediction(j) as f64)
            .set(Var::Procs, f64::from(job.size))
            .set(Var::User, f64::from(job.user))
            .set(Var::Group, f64::from(job.group))
            .set(Var::Queue, f64::from(job.queue))
            .set(Var::Partition, f64::from(job.partition))
            .set(Var::Machine, f64::from(sim.procs()))
            .set(Var::Free, f64::from(sim.free()))
            .set(Var::Queued, sim.waiting().len() as f64);
        let score = self.formula.eval(&vars, &mut self.stack);
        if score.is_nan() {
            let formula = self.formula.source().to_string();
            return Err(EngineError::NanScore { time: sim.now(), job: job.id, formula });
        }
        Ok(score_key(if self.highest { -score } else { score }))
    }

    fn start(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
        if let Some(q) = self.queue.as_mut() {
            q.remove(j);
        }
        self.book.start_now(sim, j)
    }

    /// Gives `j` its earliest slot in the profile as it stands.
    fn reserve(&mut self, sim: &mut Sim<'_>, j: JobIdx) {
        let start = self.book.place(sim, j, sim.now());
        sim.reserve(j, start);
        self.plan.push((j, start, sim.prediction(j)));
    }

    /// After the last reservation: in score order, every job that fits now
    /// and delays no reservation starts.
    fn backfill(&mut self, sim: &mut Sim<'_>, mut after: Option<Key>) -> Result<(), EngineError> {
        while sim.free() > 0 {
            let (book, free) = (&self.book, sim.free());
            let fits = |size: u32, prediction: Time| size <= free && book.free_for(sim, size) >= prediction.max(1);
            let Some(key) = self.queue().next_fitting(sim, after, &fits) else { break };
            self.start(sim, key.1)?;
            after = Some(key);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
