//! Slack-based priority backfilling (Talby and Feitelson 1999).
//!
//! A conservative-style profile in which every waiting job has a planned
//! start `te`, a priority `p` and a slack `s` (seconds it may still be
//! delayed). Arrivals and early ends price candidate schedules and keep the
//! cheapest one that overdraws no slack. The formulas, as implemented (the
//! paper's text extraction garbles them; our reading is stated where it
//! matters):
//!
//! - **Priority** (§2.2): `p = (UP + PP + SP) / 3`, with user, political and
//!   scheduler priorities in [0, 1]. `SP = 1/2` on arrival. A job whose
//!   political priority is −1 (its user exceeded a quota) has `p = −1`
//!   (our reading: the paper says `PP = −1` "causes the job to have
//!   infinite slack", which `(UP + PP + SP) / 3` alone could not reach).
//! - **Initial slack**: `s0 = (1 − p) × SF × AWT` for `p > −1`, infinite
//!   for `p = −1`.
//! - **Scheduler priority, once, after placement**: `SP = min((te − now) /
//!   (2 × AWT), 1)`; `p` and `s0` are recomputed from it and the current
//!   slack starts at the new `s0`. The job is not moved again for it.
//! - **Price of a schedule** (§2.1) in which the new job `j` starts at `te`
//!   and jobs `j1 … jk` move by `t1 … tk` seconds (negative = earlier):
//!   `price = (te − now)^θt × n_j^θu + Σ cost(ji, ti, j)`, infinite if any
//!   delay overdraws a slack (`ti > 0` and `ti > si`; such a schedule is
//!   rejected). Staying put or moving earlier is always allowed, even for a
//!   job whose slack a rebuild has driven negative (see below).
//! - **Cost** (§2.3): `cost(ji, ti, j) = sign(ti) × ni^θu × |ti|^θt ×
//!   (pi / pj)^θp × (s0i / si)^θf`. Our reading of the garbled formula:
//!   the four weights θu, θt, θp, θf ∈ [0, 1] are *exponents* — with a
//!   product, constant factors would cancel out of every comparison, and
//!   the paper's θp = 1, θu = θt = θf = 0.2 experiment would change nothing.
//!   With all weights 1 (the default) it is the plain product. Guards, ours:
//!   priorities enter the ratio as max(p, 0.01) (a zero or negative
//!   priority must not divide); `si` enters as max(si, 1 s); with an
//!   infinite initial slack the slack ratio is 1. An early end prices
//!   "remove" schedules with a timeless dummy job: no own term and a
//!   priority ratio of 1.
//! - After the cheapest schedule is applied, every moved job's slack drops
//!   by its move: `si = si − ti`. Ties in price go to the schedule that
//!   moves fewer jobs, then to the earlier candidate.
//!
//! **Candidate schedules** (§2.4). Insert: the CBF placement (nothing
//! moves; always finite); and for each candidate slot `ts` (now, then the
//! planned starts of waiting jobs in time order), the jobs planned at or
//! after `ts` (`D`) are taken out, `j` takes the earliest slot at or after
//! `ts`, and `D` is put back, each job at its earliest slot, in the order
//! of the heuristic — AST ascending planned start (default), AAT ascending
//! arrival, DU descending `n × t` (processors × planned runtime), DC
//! descending `cost(ji, 1, j)`, DP descending priority then arrival. Remove
//! (a job ended early): nothing moves (price 0); a full compression of
//! every waiting job in planned-start order (never later, always feasible,
//! what CBF would do); and the same bounded candidates as insert without a
//! new job.
//!
//! **Bound.** Trying every slot is quadratic in the queue per arrival. A
//! candidate slot is tried only if at most `max_moved` (default 16) waiting
//! jobs are planned at or after it, and at most `max_slots` (default 8) such
//! slots, the earliest first. Effect: with a longer queue a new job can
//! displace only the last `max_moved` planned jobs (or take a hole, as in
//! CBF), so the policy drifts towards CBF under heavy load; with
//! `max_moved = 0` it *is* CBF with the same priority bookkeeping.
//!
//! **Guarantee** (what the checker verifies, with `estimate` or `exact`):
//! a job never starts later than its planned start at placement plus its
//! initial slack (after the SP recomputation), because every accepted move
//! satisfies `ti ≤ si`, so `te − te_first = s0 − s ≤ s0`. That bound is
//! what the policy records as the job's reservation (`Sim::reserve`), so
//! the engine's `NoLaterThanFirstReservation` check applies to it.

use std::cmp::Reverse;

use schedlab_engine::params::ParamSet;
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Time};

mod cost;

use cost::{initial_slack, move_cost, own_cost, priority, scheduler_priority, Moved, Weights};

use crate::book::{Book, Slot};
use crate::{ParamCondition, PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "slack",
    name: "Slack-based priority backfilling",
    description: "Conservative-style backfilling where each job may be delayed by up to its slack, \
                  (1 − priority) × SF × AWT: arrivals and early ends try candidate schedules, price them by \
                  processors × delay weighted by relative priority and used slack, reject any that overdraws \
                  a slack, and keep the cheapest. Supports user and political priorities. Talby and Feitelson 1999.",
    params: SlackParams::SPECS,
    uses_runtime_source: true,
    default_source: "estimate",
    uses_seed: false,
    on_nodes: crate::OnNodes::Refuses("its cost function and profile count processors"),
    build: |values, s| build(SlackParams::read(values), s),
    needs_calibration: |values| SlackParams::read(values).awt <= 0.0,
    conditions: &[
        ParamCondition { param: "k", when: "scenario", is: &["every-kth"] },
        ParamCondition { param: "high", when: "scenario", is: &["every-kth"] },
    ],
};

schedlab_engine::param_choice! {
    /// The order in which moved jobs are put back.
    enum Heuristic {
        Ast = "ast",
        Aat = "aat",
        Du = "du",
        Dc = "dc",
        Dp = "dp",
    }
}

schedlab_engine::param_choice! {
    /// Who gets a high priority.
    enum Scenario {
        Equal = "equal",
        EveryKth = "every-kth",
    }
}

schedlab_engine::param_set! {
    struct SlackParams {
        sf: Float { min: 0.0, max: 1000.0, default: 3.0 },
            name: "Slack factor", description: "SF: a job's initial slack is (1 − p) × SF × AWT.";
        awt: Float { min: 0.0, max: 1e9, default: 0.0 },
            name: "Average wait time",
            description: "AWT in seconds; 0 = the mean wait of a CBF run of the same trace (computed and reported).",
            unit: "s";
        w_util: Float { min: 0.0, max: 1.0, default: 1.0 },
            name: "Weight θu", description: "Exponent of a moved job's processors in its cost.";
        w_time: Float { min: 0.0, max: 1.0, default: 1.0 },
            name: "Weight θt", description: "Exponent of the delay in a cost.";
        w_priority: Float { min: 0.0, max: 1.0, default: 1.0 },
            name: "Weight θp", description: "Exponent of the priority ratio in a cost.";
        w_fair: Float { min: 0.0, max: 1.0, default: 1.0 },
            name: "Weight θf", description: "Exponent of the used-slack ratio s0/s in a cost.";
        heuristic: Choice<Heuristic> { default: Heuristic::Ast },
            name: "Heuristic",
            description: "Order in which moved jobs are put back: ast (planned start), aat (arrival), du (processors × runtime, descending), dc (cost of one second, descending), dp (priority, descending).";
        scenario: Choice<Scenario> { default: Scenario::Equal },
            name: "Priorities",
            description: "equal: every job has user and political priority 0; every-kth: every k-th job (in submission order) gets `high` for both (paper §3.3).";
        k: Int { min: 0, max: 1_000_000, default: 5 },
            name: "k", description: "With every-kth: which jobs get the high priority (k = 5: jobs 5, 10, 15, …).";
        high: Float { min: 0.0, max: 1.0, default: 1.0 },
            name: "High priority", description: "With every-kth: their user and political priority each.";
        max_slots: Int { min: 0, max: 10_000, default: 8 },
            name: "Candidate slots", description: "At most this many candidate slots are priced per event.";
        max_moved: Int { min: 0, max: 100_000, default: 16 },
            name: "Movable jobs",
            description: "A candidate slot is tried only if at most this many jobs are planned at or after it.";
    }
}

#[derive(Clone, Copy, Debug)]
struct Config {
    sf: f64,
    awt: f64,
    weights: Weights,
    heuristic: Heuristic,
    /// Every k-th job gets `high`; 0 = equal priorities.
    every_kth: u64,
    high: f64,
    max_slots: usize,
    max_moved: usize,
}

impl Config {
    /// Whether job `j` (priority order) is one of every k-th jobs that get
    /// `high` (jobs k, 2k, … counted from 1).
    fn is_high(&self, j: u64) -> bool {
        self.every_kth > 0 && (j + 1).is_multiple_of(self.every_kth)
    }
}

fn build(p: SlackParams, s: &PolicySettings) -> Box<dyn Policy> {
    let awt = if p.awt > 0.0 { p.awt } else { s.calibration.as_ref().map_or(0.0, |c| c.mean_wait) };
    let config = Config {
        sf: p.sf,
        // A zero AWT (an idle trace) would divide SP by zero; one second
        // keeps the formulas defined and gives (almost) no slack.
        awt: awt.max(1.0),
        weights: Weights { u: p.w_util, t: p.w_time, p: p.w_priority, f: p.w_fair },
        heuristic: p.heuristic,
        every_kth: if p.scenario == Scenario::EveryKth { p.k as u64 } else { 0 },
        high: p.high,
        max_slots: p.max_slots as usize,
        max_moved: p.max_moved as usize,
    };
    Box::new(Slack {
        config,
        upper_bound: s.source.is_upper_bound(),
        book: Book::default(),
        state: Vec::new(),
        by_start: Vec::new(),
        planned_after: 0,
        moved: Vec::new(),
        old: Vec::new(),
        placed: 0,
        candidates: Vec::new(),
        prices: Vec::new(),
    })
}

#[derive(Clone, Copy, Debug, Default)]
struct JobState {
    /// UP + PP.
    given: f64,
    political: f64,
    priority: f64,
    initial_slack: f64,
    slack: f64,
}

/// A priced candidate: lower price first, then fewer moved jobs.
#[derive(Clone, Copy, Debug)]
struct Priced {
    price: f64,
    moved: usize,
}

impl Priced {
    fn better_than(&self, other: &Priced) -> bool {
        (self.price, self.moved) < (other.price, other.moved)
    }
}

/// The cheapest of the priced candidates (`None` for infeasible ones),
/// or `None` when staying put (priced `stay`) is: the first strictly
/// better one in the candidates' order wins a tie.
fn cheapest(stay: Priced, prices: &[Option<Priced>]) -> Option<usize> {
    let mut best = (None, stay);
    for (i, p) in prices.iter().enumerate() {
        if let Some(p) = p {
            if p.better_than(&best.1) {
                best = (Some(i), *p);
            }
        }
    }
    best.0
}

/// Which jobs a candidate moves and where the newcomer goes (besides
/// staying put: nothing moves, and a newcomer takes the CBF placement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Candidate {
    /// Full compression in planned-start order (remove only).
    Compress,
    /// Jobs planned at or after this time move; the newcomer goes there.
    At(Time),
}

struct Slack {
    config: Config,
    upper_bound: bool,
    book: Book,
    state: Vec<JobState>,
    /// Waiting jobs planned after now, by (planned start, job): all of them
    /// or the last ones (see `collect_by_start`).
    by_start: Vec<(Time, JobIdx)>,
    /// How many waiting jobs are planned after now.
    planned_after: usize,
    /// The moved set of the candidate being priced, in heuristic order.
    moved: Vec<JobIdx>,
    /// Their slots before the candidate.
    old: Vec<Slot>,
    /// How many of them the candidate being built has set down.
    placed: usize,
    /// The candidates of the event being decided, and their prices once
    /// built (kept between events so that no event allocates them).
    candidates: Vec<Candidate>,
    prices: Vec<Option<Priced>>,
}

impl Policy for Slack {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        if self.state.is_empty() {
            self.state = vec![JobState::default(); sim.jobs().len()];
        }
        let changes = self.book.begin(sim, happened);
        if changes.overcommitted {
            self.rebuild(sim);
        } else if changes.early {
            self.remove(sim);
        }
        for &j in &happened.arrived {
            self.insert(sim, j);
        }
        self.book.start_due(sim)?;
        self.book.set_wake(sim)
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        crate::common::reservation_guarantee(self.upper_bound)
    }

    fn high_priority_jobs(&self) -> Option<Vec<bool>> {
        let c = &self.config;
        (c.every_kth > 0 && c.high > 0.0).then(|| (0..self.state.len() as u64).map(|j| c.is_high(j)).collect())
    }
}

impl Slack {
    fn insert(&mut self, sim: &mut Sim<'_>, j: JobIdx) {
        self.arrive_priority(j);
        self.choose(sim, Some(j));
        self.settle(sim, j);
    }

    fn remove(&mut self, sim: &mut Sim<'_>) {
        self.choose(sim, None);
    }

    /// User and political priority from the scenario, SP = 1/2, and the
    /// initial slack from them.
    fn arrive_priority(&mut self, j: JobIdx) {
        let c = &self.config;
        let high = c.is_high(u64::from(j));
        let level = if high { c.high } else { 0.0 };
        let p = priority(level, level, 0.5);
        let s0 = initial_slack(p, c.sf, c.awt);
        self.state[j as usize] =
            JobState { given: 2.0 * level, political: level, priority: p, initial_slack: s0, slack: s0 };
    }

    /// SP from the planned wait, once; then p and s0 again, the slack
    /// restarts at s0, and the guaranteed bound is recorded.
    fn settle(&mut self, sim: &mut Sim<'_>, j: JobIdx) {
        let Some(slot) = self.book.slot(j) else { return };
        let c = &self.config;
        let st = &mut self.state[j as usize];
        let sp = scheduler_priority(slot.start - sim.now(), c.awt);
        let p = if st.political <= -1.0 { -1.0 } else { (st.given + sp) / 3.0 };
        st.priority = p;
        st.initial_slack = initial_slack(p, c.sf, c.awt);
        st.slack = st.initial_slack;
        if st.initial_slack.is_finite() {
            let bound = slot.start.saturating_add(st.initial_slack.floor().min(1e15) as Time);
            sim.reserve(j, bound);
        }
    }

    /// Prices every candidate and applies the cheapest.
    ///
    /// Each candidate is built in the book, priced and taken back, except
    /// the last one built when it wins: that one stays as built. Since each
    /// is taken back whole, the order in which they are built changes no
    /// price, so a compression (the dearest to build) is built last; ties
    /// still go by the candidates' order. A winner built earlier is built
    /// again (a build is deterministic, so it gives the schedule priced).
    fn choose(&mut self, sim: &Sim<'_>, newcomer: Option<JobIdx>) {
        self.collect_by_start(sim, newcomer.is_none());
        let stay = match newcomer {
            Some(j) => {
                let duration = sim.prediction(j);
                let start = self.book.earliest(sim.now(), duration, sim.job(j).size);
                Priced { price: own_cost(start - sim.now(), sim.job(j).size, &self.config.weights), moved: 0 }
            }
            None => Priced { price: 0.0, moved: 0 },
        };
        self.candidates.clear();
        let compress = newcomer.is_none() && self.planned_after > 0;
        if compress {
            self.candidates.push(Candidate::Compress);
        }
        self.push_slots(sim.now());
        let n = self.candidates.len();
        self.prices.clear();
        self.prices.resize(n, None);
        for step in 0..n {
            let i = if compress { (step + 1) % n } else { step };
            self.prices[i] = self.build(sim, newcomer, self.candidates[i]);
            if step + 1 == n && self.prices[i].is_some() && cheapest(stay, &self.prices) == Some(i) {
                self.keep();
                return;
            }
            self.take_back(sim, newcomer);
        }
        // The trials left the planned jobs as they were, so `by_start`
        // still holds.
        match cheapest(stay, &self.prices) {
            Some(i) => {
                let built = self.build(sim, newcomer, self.candidates[i]);
                debug_assert!(built.is_some(), "the chosen candidate was feasible");
                self.keep();
            }
            None => {
                if let Some(j) = newcomer {
                    self.book.place(sim, j, sim.now());
                }
            }
        }
    }

    /// Appends the candidate slots to `candidates`: now and the distinct
    /// planned starts at or after which at most `max_moved` jobs are
    /// planned, earliest first, at most `max_slots` of them.
    fn push_slots(&mut self, now: Time) {
        let c = &self.config;
        let n = self.planned_after;
        // `by_start` holds the last of the n planned jobs; job i of all n is
        // its entry i - skipped.
        let skipped = n - self.by_start.len();
        let out = &mut self.candidates;
        let before = out.len();
        if n <= c.max_moved && c.max_slots > 0 {
            out.push(Candidate::At(now));
        }
        let first = n.saturating_sub(c.max_moved);
        for i in first..n {
            if out.len() - before >= c.max_slots {
                break;
            }
            let k = i - skipped;
            let t = self.by_start[k].0;
            if (i == 0 || self.by_start[k - 1].0 != t) && t > now {
                out.push(Candidate::At(t));
            }
        }
    }

    /// Waiting jobs planned after now, by (planned start, job), from the
    /// book's index: all of them when `all` (a full compression moves every
    /// one), else only the last `max_moved + 1`, which is all that candidate
    /// slots and their moved sets read. `planned_after` counts all of them.
    fn collect_by_start(&mut self, sim: &Sim<'_>, all: bool) {
        let now = sim.now();
        let planned = self.book.planned();
        let later = planned.range((now + 1, 0)..);
        self.by_start.clear();
        if all {
            self.by_start.extend(later.copied());
        } else {
            self.by_start.extend(later.rev().take(self.config.max_moved + 1).copied());
            self.by_start.reverse();
        }
        self.planned_after = planned.len() - planned.range(..(now + 1, 0)).count();
    }

    /// The moved set of a candidate, in the heuristic's order.
    fn moved_set(&mut self, sim: &Sim<'_>, newcomer: Option<JobIdx>, c: Candidate) {
        self.moved.clear();
        match c {
            Candidate::Compress => {
                self.moved.extend(self.by_start.iter().map(|&(_, j)| j));
                return;
            }
            Candidate::At(ts) => {
                let from = self.by_start.partition_point(|&(t, _)| t < ts);
                self.moved.extend(self.by_start[from..].iter().map(|&(_, j)| j));
            }
        }
        let pj = newcomer.map(|j| self.state[j as usize].priority);
        let w = self.config.weights;
        let book = &self.book;
        let state = &self.state;
        match self.config.heuristic {
            Heuristic::Ast => {} // by_start is already in planned-start order
            Heuristic::Aat => self.moved.sort_unstable(),
            Heuristic::Du => self.moved.sort_by_key(|&i| {
                let d = book.slot(i).map_or(0, |s| s.duration);
                (Reverse(i128::from(sim.job(i).size) * i128::from(d)), i)
            }),
            Heuristic::Dc => {
                let key = |i: JobIdx| {
                    let st = &state[i as usize];
                    let m = Moved {
                        size: sim.job(i).size,
                        priority: st.priority,
                        initial_slack: st.initial_slack,
                        slack: st.slack,
                    };
                    move_cost(&m, 1, pj, &w).unwrap_or(f64::INFINITY)
                };
                self.moved.sort_by(|&a, &b| key(b).total_cmp(&key(a)).then(a.cmp(&b)));
            }
            Heuristic::Dp => self
                .moved
                .sort_by(|&a, &b| state[b as usize].priority.total_cmp(&state[a as usize].priority).then(a.cmp(&b))),
        }
    }

    /// Builds candidate `c` in the book and prices it; the caller then keeps
    /// it or takes it back. `None` if it overdraws a slack (it was then
    /// built only up to the job that overdraws).
    fn build(&mut self, sim: &Sim<'_>, newcomer: Option<JobIdx>, c: Candidate) -> Option<Priced> {
        let now = sim.now();
        self.moved_set(sim, newcomer, c);
        self.book.checkpoint();
        self.old.clear();
        // Without a newcomer, a candidate that puts its jobs back in
        // planned-start order is a compression of the jobs it moves.
        if newcomer.is_none() && (c == Candidate::Compress || self.config.heuristic == Heuristic::Ast) {
            return Some(self.build_compression(sim));
        }
        for i in 0..self.moved.len() {
            let slot = self.book.lift(sim, self.moved[i]);
            self.old.push(slot);
        }
        let w = self.config.weights;
        let mut priced = Priced { price: 0.0, moved: 0 };
        let mut pj = None;
        if let Some(j) = newcomer {
            let from = if let Candidate::At(ts) = c { ts } else { now };
            let start = self.book.place(sim, j, from);
            priced.price += own_cost(start - now, sim.job(j).size, &w);
            pj = Some(self.state[j as usize].priority);
        }
        self.placed = 0;
        for k in 0..self.moved.len() {
            let (j, old) = (self.moved[k], self.old[k]);
            let size = sim.job(j).size;
            let start = self.book.earliest(now, old.duration, size);
            self.book.set_down(sim, j, Slot { start, duration: old.duration });
            self.placed += 1;
            let st = &self.state[j as usize];
            let m = Moved { size, priority: st.priority, initial_slack: st.initial_slack, slack: st.slack };
            let cost = move_cost(&m, start - old.start, pj, &w)?;
            priced.price += cost;
            priced.moved += usize::from(start != old.start);
        }
        Some(priced)
    }

    /// Builds a compression of the moved jobs, which are in planned-start
    /// order and start no earlier than any other planned job (every one of
    /// them taken out, then each put back at its earliest slot in that
    /// order), without taking out the jobs that cannot start earlier, and
    /// prices it.
    ///
    /// Jobs earlier in that order only move earlier, so each job's old slot
    /// stays free for it, and below its old start the profile does not
    /// depend on the jobs after it, which start no earlier. So whether it
    /// can start earlier is the book's compression check
    /// ([`Book::can_move`]) in the profile as it stands; if not, it stays
    /// where it is, as it would after being taken out and put back. A job
    /// that can is taken out, together with every later job whose slot
    /// begins before its own ends (its search reads the profile only up to
    /// there), and placed. The moves, prices and profile are those of
    /// taking every job out first; a compression that moves nothing then
    /// touches no part of the profile.
    fn build_compression(&mut self, sim: &Sim<'_>) -> Priced {
        let now = sim.now();
        for i in 0..self.moved.len() {
            let slot = self.book.slot(self.moved[i]).expect("a planned job has a slot");
            self.old.push(slot);
        }
        let w = self.config.weights;
        let mut priced = Priced { price: 0.0, moved: 0 };
        // The jobs before `lifted` are out of the profile or handled.
        let mut lifted = 0;
        self.placed = 0;
        for k in 0..self.moved.len() {
            let (j, old) = (self.moved[k], self.old[k]);
            let size = sim.job(j).size;
            let start = if k >= lifted && !self.book.can_move(now, old, size) {
                old.start
            } else {
                lifted = lifted.max(k);
                let end = old.start.saturating_add(old.duration);
                while lifted < self.moved.len() && (lifted == k || self.old[lifted].start < end) {
                    self.book.lift(sim, self.moved[lifted]);
                    lifted += 1;
                }
                let start = self.book.earliest(now, old.duration, size);
                self.book.set_down(sim, j, Slot { start, duration: old.duration });
                start
            };
            debug_assert!(start <= old.start, "a compression moves job {j} later");
            self.placed += 1;
            let st = &self.state[j as usize];
            let m = Moved { size, priority: st.priority, initial_slack: st.initial_slack, slack: st.slack };
            // A compression never moves a job later, so no slack is overdrawn.
            priced.price += move_cost(&m, start - old.start, None, &w).unwrap_or(0.0);
            priced.moved += usize::from(start != old.start);
        }
        priced
    }

    /// Keeps the candidate just built: the moved jobs are filed under their
    /// new slots and each one's slack drops by its move.
    fn keep(&mut self) {
        self.book.commit();
        for k in 0..self.moved.len() {
            let (j, old) = (self.moved[k], self.old[k]);
            self.book.refile(j, old);
            let new = self.book.slot(j).expect("just placed").start;
            self.state[j as usize].slack -= (new - old.start) as f64;
        }
    }

    /// Takes the candidate just built back: the newcomer leaves its slot
    /// and every moved job gets its old one; at once when the profile can
    /// roll back, else placement by placement.
    fn take_back(&mut self, sim: &Sim<'_>, newcomer: Option<JobIdx>) {
        if self.book.rollback() {
            if let Some(j) = newcomer {
                self.book.forget(j);
            }
            for k in 0..self.moved.len() {
                self.book.put_back(self.moved[k], self.old[k]);
            }
            return;
        }
        if let Some(j) = newcomer {
            self.book.unplace(sim, j);
        }
        for k in 0..self.moved.len() {
            let j = self.moved[k];
            if k < self.placed {
                self.book.lift(sim, j);
            }
            self.book.set_down(sim, j, self.old[k]);
        }
    }

    /// After an overcommitment (runtimes that fall short): every waiting
    /// job is placed again in planned-start order; slacks are charged for
    /// the moves (no guarantee is claimed for such sources), which can leave
    /// a slack negative: that job may then no longer be delayed, but may
    /// still stay or move earlier.
    fn rebuild(&mut self, sim: &Sim<'_>) {
        let mut order: Vec<(Time, JobIdx)> =
            sim.waiting().iter().filter_map(|&j| self.book.slot(j).map(|s| (s.start, j))).collect();
        order.sort_unstable();
        self.book.reset(sim);
        for (old, j) in order {
            let start = self.book.place(sim, j, sim.now());
            self.state[j as usize].slack -= (start - old) as f64;
        }
    }
}
