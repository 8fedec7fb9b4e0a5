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
//! In strict order (`fill=none`) nothing backfills: the first job that does
//! not fit is reserved and every later one waits; `fill=hold` also keeps
//! that job first at later passes until it starts, as RLScheduler's
//! simulator does.
//!
//! Reservations last one pass: the next pass plans again from the running
//! jobs. This is not the papers' conservative backfilling (`cbf`), whose
//! reservations are kept from arrival and only ever compressed; here a
//! reservation can move later when a job of better score arrives or, at
//! depth 2 and more, when an earlier reservation moves into its slot.
//!
//! On a machine of nodes the pass plans in a profile of the nodes at every
//! depth (`on_nodes`), with orders fixed at arrival only.
//!
//! Costs, for q waiting jobs and p breakpoints of the profile:
//! - scores: a formula that reads only what is fixed while a job waits is
//!   computed once per job, at its arrival (O(log q) to file it); one that
//!   reads `wait`, `now`, `free` or `queued` through a product of factors
//!   (`schedlab_priority::ProductForm`: WFP3, UNICEP) is merged by
//!   submission second (`clock_order`): O(log q) per job filed, O(log s)
//!   per second with waiting jobs at each pass, and O(log q) per job the
//!   pass reaches, scored exactly; any other that changes while jobs wait
//!   (or `predicted` under a source that learns: `last`, `tsafrir`), and
//!   the product forms when the seconds are more than a quarter of the
//!   jobs, is computed again for every waiting job at every pass, into a
//!   heap: q evaluations of its code and O(q) per pass, then O(log q) per
//!   job taken from the heap, and the c jobs left that could fit in the
//!   idle processors sorted, O(c log c);
//! - the pass: each job started and each of the d reservations costs one
//!   step of the order (O(log q)) and a profile search and change
//!   (O(log p) each; `Profile`); with fixed scores the jobs after the d-th
//!   reservation are found in the score order of each size, pruned exactly
//!   by the least prediction against how long that size stays free
//!   (`score_order`): O(log q) per size that holds a better answer and
//!   O(1) per other size up to the idle processors, never a scan of the
//!   queue; the reservations are taken out of the profile at the end of
//!   the pass (d more changes). Depth `all` costs a step and a search per
//!   waiting job at every pass.

mod clock_order;
mod on_nodes;
mod score_order;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use schedlab_engine::params::{IntOr, ParamSet};
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Time};
use schedlab_priority::{find_preset, Columns, Expr, ExprKind, Formula, Var, Vars};

use crate::book::Book;
use crate::common::shadow;
use crate::node_book::NodeBook;
use crate::{PolicyInfo, PolicySettings};
use clock_order::{ClockOrder, ClockPass, Fit};
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
    params: BackfillParams::SPECS,
    uses_runtime_source: true,
    default_source: "estimate",
    uses_seed: false,
    // Orders that change while jobs wait are refused on nodes at the first
    // pass, with the reason (`on_nodes`).
    on_nodes: crate::OnNodes::Runs,
    build: |values, s| Box::new(Backfill::new(&BackfillParams::read(values), s)),
    needs_calibration: crate::never_calibrate,
    // The depth does not apply in strict order, but it stays an ordinary
    // field: a condition would make `fill` a switch, whose titles read
    // "backfill (depth 8)" instead of "depth 8".
    conditions: &[],
};

/// The formula an `order` value stands for: a preset's, or the text itself.
pub fn order_formula(text: &str) -> Result<Formula, String> {
    let text = text.trim();
    match find_preset(text) {
        Some(p) => Formula::compile(p.source),
        None => Formula::compile(text).map_err(|mut e| {
            if let Some(hint) = schedlab_priority::preset_hint(text) {
                e.hint = Some(hint);
            }
            e
        }),
    }
    .map_err(|e| e.to_string())
}

schedlab_engine::param_choice! {
    /// Which scores go first.
    pub(crate) enum Direction {
        Lowest = "lowest",
        Highest = "highest",
    }
}

schedlab_engine::param_choice! {
    /// What the jobs behind the reserved ones may do.
    pub(crate) enum Fill {
        Backfill = "backfill",
        None = "none",
        Hold = "hold",
    }
}

schedlab_engine::param_set! {
    pub(crate) struct BackfillParams {
        depth: IntOr { min: 0, max: 1_000_000, word: "all", default: "1" },
            name: "Reservation depth",
            description: "How many blocked jobs, in queue order, hold a reservation at each pass: 0 (first fit), 1 (EASY), … or all.";
        order: Text<Formula> { default: "fcfs", max_len: schedlab_priority::MAX_LENGTH, check: order_formula },
            name: "Queue order",
            description: "A preset (fcfs, sjf, ljf, smallest, largest, saf, wfp3, unicep, f1, f2, f3, f4) or a formula over wait, submit, now, requested, predicted, procs, user, group, queue, partition, machine, free and queued.";
        direction: Choice<Direction> { default: Direction::Lowest },
            name: "Direction",
            description: "Which scores go first: the lowest (every preset is written for this) or the highest.";
        fill: Choice<Fill> { default: Fill::Backfill },
            name: "Jobs behind the blocked ones",
            description: "backfill: they start when they delay none of the reservations; none: strict order, the first job that does not fit holds back every later one (no backfilling, the depth does not apply); hold: as none, and that job stays first until it starts, even when another's score passes it (RLScheduler's simulator).";
    }
}

struct Backfill {
    /// Reservations per pass (`usize::MAX` for all).
    depth: usize,
    /// No job passes the first one that does not fit (`fill=none` or `hold`).
    strict: bool,
    /// The job that does not fit stays first until it starts (`fill=hold`).
    holds: bool,
    /// That job, while it waits.
    held: Option<JobIdx>,
    formula: Formula,
    highest: bool,
    /// Scores change while jobs wait, so every pass computes them again.
    rescored: bool,
    /// They do through a product of clock factors only, so a pass merges
    /// the waiting jobs by submission second instead (`clock_order`).
    clocked: bool,
    /// That merge's order of the waiting jobs (made at the first pass).
    clock: Option<ClockOrder>,
    /// When a merge is too dear to repeat at once (`clock_order::DEAR`).
    dear: usize,
    /// FCFS order at depth 1 with runtimes that never fall short: EASY,
    /// whose blocked job never starts later than its first reservation.
    keeps_first_reservation: bool,
    /// Runtimes never fall short, so the plan's durations bound the jobs'.
    upper_bound: bool,
    /// Plans in a profile (depth 2 and more); at depth 0 and 1 a pass
    /// needs only the running jobs (see [`Shadow`]).
    by_book: bool,
    /// Running jobs until their expected ends, and, during a pass, its
    /// reservations (kept only `by_book`).
    book: Book,
    /// The same on a machine of nodes, at every depth (`on_nodes`).
    node_book: NodeBook,
    /// Without the book: the pass's reservation, once made.
    shadow: Option<Shadow>,
    /// The waiting jobs in score order, when scores are fixed at arrival
    /// (made at the first pass).
    queue: Option<ScoreOrder>,
    /// Scratch list of the waiting jobs' keys, when scores change.
    keys: Vec<Reverse<Key>>,
    /// The runtime source learns, so waiting jobs' predictions change.
    live: bool,
    /// Scratch stack of the formula's code.
    stack: Vec<f64>,
    /// Scratch list, columns and scores of the waiting jobs, when scores
    /// change.
    waiting: Vec<JobIdx>,
    columns: Columns,
    scores: Vec<f64>,
    /// The reservations of the last pass: (job, start, duration).
    plan: Vec<(JobIdx, Time, Time)>,
    /// Why the order could not be compiled, if it could not.
    unbuildable: Option<String>,
}

/// The first-come-first-served order: the score `submit`, lowest first.
fn submit_order() -> Formula {
    // A constant formula of the language: its compilation cannot fail.
    Formula::compile("submit").unwrap_or_else(|e| unreachable!("`submit` is a formula: {e}"))
}

/// Whether `formula` is `submit` (its tree is the tree of
/// [`submit_order`]), found without compiling that formula again.
fn is_submit_order(formula: &Formula) -> bool {
    *formula.tree() == Expr { kind: ExprKind::Var(Var::Submit), column: 1 }
}

/// A pass at depth 0 or 1 holds at most one reservation, made when its
/// first blocked job is met, and only running jobs come before it. A
/// profile of the running jobs only gains processors over time, so the
/// reservation is the shadow time of EASY (`common::shadow`), and after it
/// a job of `size` processors fits now iff it fits in the idle processors
/// and either ends by the reservation's start or `size` is within the
/// extra processors left then. That is what the profile would answer, at
/// the cost of EASY's walk of the running jobs instead of a profile kept
/// through every start and end (the tests compare the two).
#[derive(Clone, Copy, Debug)]
struct Shadow {
    /// The reservation's start.
    start: Time,
    /// Processors free at `start` beyond the reserved job's and those of
    /// the backfilled jobs still running then.
    extra: u32,
}

impl Policy for Backfill {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        if let Some(message) = &self.unbuildable {
            return Err(EngineError::Unbuildable { policy: INFO.id, message: message.clone() });
        }
        self.plan.clear();
        self.shadow = None;
        if sim.cluster().is_some() {
            return self.nodes_pass(sim, happened);
        }
        self.file_clocked(sim, happened);
        if self.by_book {
            self.book.begin(sim, happened);
        }
        if self.strict {
            self.strict_pass(sim, happened)?;
        } else if self.rescored {
            self.rescored_pass(sim)?;
        } else {
            self.indexed_pass(sim, happened)?;
        }
        if self.by_book {
            for &(j, _, _) in &self.plan {
                self.book.unplace(sim, j);
            }
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
    fn new(p: &BackfillParams, s: &PolicySettings) -> Self {
        let depth = match p.depth {
            IntOr::Int(d) => usize::try_from(d).unwrap_or(usize::MAX),
            IntOr::Word => usize::MAX,
        };
        // The order was compiled when the request was read; a value that
        // did not compile fails the run at its first pass with the
        // compiler's message rather than run in another order.
        let (formula, unbuildable) = match p.order.value() {
            Ok(f) => (Formula::clone(f), None),
            Err(message) => (submit_order(), Some(message.to_owned())),
        };
        let rescored = formula.is_time_dependent() || (formula.reads(Var::Predicted) && s.source.learns());
        let highest = p.direction == Direction::Highest;
        // A prediction that learns changes while a job waits but is no
        // clock factor: the merge would not see it change.
        let clocked = rescored && !(formula.reads(Var::Predicted) && s.source.learns());
        // FCFS is the order of the formula, whatever its text says.
        let fcfs = is_submit_order(&formula) && !highest;
        let strict = p.fill != Fill::Backfill;
        // In strict order the one blocked job holds the only reservation.
        let depth = if strict { 1 } else { depth };
        Backfill {
            depth,
            strict,
            holds: p.fill == Fill::Hold,
            held: None,
            highest,
            rescored,
            clocked,
            clock: None,
            dear: clock_order::DEAR,
            keeps_first_reservation: s.source.is_upper_bound() && depth == 1 && fcfs,
            upper_bound: s.source.is_upper_bound(),
            formula,
            by_book: depth > 1,
            book: Book::default(),
            node_book: NodeBook::default(),
            shadow: None,
            queue: None,
            keys: Vec::new(),
            stack: Vec::new(),
            waiting: Vec::new(),
            columns: Columns::default(),
            scores: Vec::new(),
            plan: Vec::new(),
            live: s.source.learns(),
            unbuildable,
        }
    }

    /// A pass with scores fixed at arrival: the arrivals are filed in the
    /// score order, which then gives the jobs in turn until `depth` hold a
    /// reservation and, after, the next job that can backfill.
    fn indexed_pass(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let mut queue = self.filed_arrivals(sim, happened)?;
        let mut after = None;
        while self.plan.len() < self.depth {
            let Some(key) = queue.next(after) else { break };
            after = Some(key);
            if self.start_or_reserve(sim, key.1)? {
                queue.remove(key.1);
            }
        }
        while sim.free() > 0 {
            let this = &*self;
            let mut horizon = |size: u32| this.free_for(sim, size);
            let current = |j: JobIdx| sim.prediction(j);
            let Some(key) = queue.next_fitting((after, None), sim.free(), &mut horizon, &current) else { break };
            queue.remove(key.1);
            self.start_now(sim, key.1)?;
            after = Some(key);
        }
        self.queue = Some(queue);
        Ok(())
    }

    /// A pass in strict order: jobs start in score order while they fit; the
    /// first that does not gets a reservation and holds back all the others.
    /// Under `fill=hold` that job stays first at later passes, whatever the
    /// scores say then, until it starts.
    fn strict_pass(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let mut queue = if self.rescored { None } else { Some(self.filed_arrivals(sim, happened)?) };
        if let Some(h) = self.held.take().filter(|&h| sim.is_waiting(h)) {
            if !self.start_or_reserve(sim, h)? {
                self.held = Some(h);
                self.queue = queue;
                return Ok(());
            }
            if let Some(queue) = &mut queue {
                queue.remove(h);
            }
        }
        let blocked = match &mut queue {
            Some(queue) => self.strict_in_order(sim, queue)?,
            None => self.strict_by_rescoring(sim)?,
        };
        self.held = blocked.filter(|_| self.holds);
        self.queue = queue;
        Ok(())
    }

    /// Starts jobs of the score order while they fit; the first that does
    /// not is reserved and returned.
    fn strict_in_order(&mut self, sim: &mut Sim<'_>, queue: &mut ScoreOrder) -> Result<Option<JobIdx>, EngineError> {
        while let Some((_, j)) = queue.next(None) {
            if !self.start_or_reserve(sim, j)? {
                return Ok(Some(j));
            }
            queue.remove(j);
        }
        Ok(None)
    }

    /// As `strict_in_order`, with every waiting job scored now.
    fn strict_by_rescoring(&mut self, sim: &mut Sim<'_>) -> Result<Option<JobIdx>, EngineError> {
        if let Some(mut pass) = self.begin_clocked(sim)? {
            while let Some(j) = self.next_clocked(sim, &mut pass, false)? {
                if !self.start_or_reserve(sim, j)? {
                    return Ok(Some(j));
                }
            }
            return Ok(None);
        }
        let mut heap = self.waiting_by_score(sim)?;
        let mut blocked = None;
        while let Some(Reverse((_, j))) = heap.pop() {
            if !self.start_or_reserve(sim, j)? {
                blocked = Some(j);
                break;
            }
        }
        self.keys = heap.into_vec();
        Ok(blocked)
    }

    /// A pass with scores that change while jobs wait: every waiting job is
    /// scored now into a heap, which gives the jobs in turn until `depth`
    /// hold a reservation; the rest that could fit in the idle processors
    /// are then sorted and tried in order.
    fn rescored_pass(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        if let Some(mut pass) = self.begin_clocked(sim)? {
            return self.clocked_pass(sim, &mut pass);
        }
        let mut heap = self.waiting_by_score(sim)?;
        while self.plan.len() < self.depth {
            let Some(Reverse((_, j))) = heap.pop() else { break };
            self.start_or_reserve(sim, j)?;
        }
        let mut rest = heap.into_vec();
        let free = sim.free();
        rest.retain(|Reverse((_, j))| sim.job(*j).size <= free);
        rest.sort_unstable_by_key(|&Reverse(key)| key);
        for &Reverse((_, j)) in &rest {
            let size = sim.job(j).size;
            if size <= sim.free() && self.free_for(sim, size) >= sim.prediction(j).max(1) {
                self.start_now(sim, j)?;
            }
        }
        self.keys = rest;
        Ok(())
    }

    /// Files this pass's arrivals in the merge by submission second, made
    /// at the first pass.
    fn file_clocked(&mut self, sim: &Sim<'_>, happened: &Happened) {
        if self.clocked && self.clock.is_none() {
            self.clock = ClockOrder::new(&self.formula, self.highest, sim.jobs().len(), self.live, self.dear);
            self.clocked = self.clock.is_some();
        }
        if let Some(order) = &mut self.clock {
            for &j in &happened.arrived {
                order.insert(sim, j);
            }
        }
    }

    /// The merge of this pass, when there is one and it pays.
    fn begin_clocked(&mut self, sim: &Sim<'_>) -> Result<Option<ClockPass>, EngineError> {
        match &mut self.clock {
            Some(order) => order.begin(sim, &self.formula),
            None => Ok(None),
        }
    }

    /// The next job of the merged order (the next that may fit now, when
    /// `fitting`).
    fn next_clocked(
        &mut self,
        sim: &Sim<'_>,
        pass: &mut ClockPass,
        fitting: bool,
    ) -> Result<Option<JobIdx>, EngineError> {
        let Some(mut order) = self.clock.take() else { return Ok(None) };
        let this = &*self;
        let mut horizon = |size: u32| this.free_for(sim, size);
        let fit = fitting.then_some(Fit { free: sim.free(), horizon: &mut horizon });
        let next = order.next(sim, &self.formula, pass, fit);
        self.clock = Some(order);
        next
    }

    /// `rescored_pass` in the merged order: the same decisions, scoring
    /// only the jobs the merge reaches.
    fn clocked_pass(&mut self, sim: &mut Sim<'_>, pass: &mut ClockPass) -> Result<(), EngineError> {
        while self.plan.len() < self.depth {
            let Some(j) = self.next_clocked(sim, pass, false)? else { break };
            self.start_or_reserve(sim, j)?;
        }
        while sim.free() > 0 {
            let Some(j) = self.next_clocked(sim, pass, true)? else { break };
            let size = sim.job(j).size;
            if size <= sim.free() && self.free_for(sim, size) >= sim.prediction(j).max(1) {
                self.start_now(sim, j)?;
            }
        }
        Ok(())
    }

    /// The score order with this pass's arrivals filed in it.
    fn filed_arrivals(&mut self, sim: &Sim<'_>, happened: &Happened) -> Result<ScoreOrder, EngineError> {
        let mut queue = self.queue.take().unwrap_or_else(|| ScoreOrder::new(sim.jobs().len(), self.live));
        for &j in &happened.arrived {
            let key = self.score(sim, j)?;
            queue.insert(j, key, sim.job(j).size, sim.prediction(j));
        }
        Ok(queue)
    }

    /// Every waiting job scored now, in a heap that gives the best first (in
    /// the scratch list's allocation).
    fn waiting_by_score(&mut self, sim: &Sim<'_>) -> Result<BinaryHeap<Reverse<Key>>, EngineError> {
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        self.score_all(sim, &mut keys)?;
        Ok(BinaryHeap::from(keys))
    }

    /// Starts `j` if it fits now without delaying a reservation made so far
    /// (true), or gives it its earliest slot in the profile as it stands.
    fn start_or_reserve(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<bool, EngineError> {
        if self.fits_now(sim, j) {
            self.start_now(sim, j)?;
            return Ok(true);
        }
        // The last reservation of a pass on a full machine constrains no
        // later job, so it is found without being put into the profile.
        let last = self.plan.len() + 1 == self.depth && sim.free() == 0;
        let start = if !self.by_book {
            self.reserve_by_shadow(sim, j)
        } else if last {
            self.book.earliest(sim.now(), sim.prediction(j), sim.job(j).size)
        } else {
            self.book.place(sim, j, sim.now())
        };
        sim.reserve(j, start);
        self.plan.push((j, start, sim.prediction(j)));
        Ok(false)
    }

    /// Whether waiting job `j` can start now without delaying a reservation
    /// made so far. Without the book none is made yet (the pass stops at
    /// its first), and the running jobs only give processors back, so a job
    /// fits iff it fits in the idle processors.
    fn fits_now(&self, sim: &Sim<'_>, j: JobIdx) -> bool {
        if self.by_book {
            self.book.fits_now(sim, j)
        } else {
            sim.job(j).size <= sim.free()
        }
    }

    /// How long from now `size` processors stay free without delaying the
    /// pass's reservations (0 if they are not free now).
    fn free_for(&self, sim: &Sim<'_>, size: u32) -> Time {
        if self.by_book {
            return self.book.free_for(sim, size);
        }
        match self.shadow {
            _ if size > sim.free() => 0,
            Some(s) if size > s.extra => s.start.saturating_sub(sim.now()),
            _ => Time::MAX,
        }
    }

    /// Starts waiting job `j` now for its prediction (the caller checked
    /// that it fits): in the book; or, when it will still run at the
    /// reservation's start, out of the extra processors it then fits in.
    fn start_now(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
        if let Some(order) = &mut self.clock {
            order.remove(j);
        }
        if self.by_book {
            return self.book.start_now(sim, j);
        }
        let prediction = sim.prediction(j);
        if let Some(s) = self.shadow.as_mut() {
            if prediction > s.start.saturating_sub(sim.now()) {
                s.extra = s.extra.saturating_sub(sim.job(j).size);
            }
        }
        sim.start_predicted(j, prediction)
    }

    /// The reservation of blocked job `j` from the running jobs alone (at
    /// depth 0 or 1 it is the pass's only one): the earliest time enough of
    /// them have ended, as a profile of them would give it.
    fn reserve_by_shadow(&mut self, sim: &Sim<'_>, j: JobIdx) -> Time {
        // Predictions are at least one second, so the reservation holds
        // its processors at its start, as it would in a profile.
        let (start, extra) = shadow(sim, sim.job(j).size);
        self.shadow = Some(Shadow { start, extra });
        start
    }

    /// The order keys of every waiting job now, in the queue's order, into
    /// `keys`; a NaN score stops the run at the first job that has one.
    /// The formula runs column-wise over the waiting jobs
    /// (`Formula::eval_all`, the same bits as one job at a time), and only
    /// the variables it reads are gathered: a prediction under a learning
    /// source costs a look at the user's history.
    fn score_all(&mut self, sim: &Sim<'_>, keys: &mut Vec<Reverse<Key>>) -> Result<(), EngineError> {
        // The queue is read once into a list: a walk of its ordered set
        // per variable cost more than the formula.
        let mut waiting = std::mem::take(&mut self.waiting);
        waiting.clear();
        waiting.extend(sim.waiting());
        self.columns.clear();
        for var in Var::ALL.into_iter().filter(|&v| self.formula.reads(v)) {
            gather(sim, &waiting, var, self.columns.column(var));
        }
        let mut scores = std::mem::take(&mut self.scores);
        self.formula.eval_all(&mut self.columns, waiting.len(), &mut scores);
        let result = waiting.iter().zip(&scores).try_for_each(|(&j, &score)| {
            keys.push(Reverse((self.key(sim, j, score)?, j)));
            Ok(())
        });
        self.scores = scores;
        self.waiting = waiting;
        result
    }

    /// The order key of waiting job `j` now; a NaN score stops the run.
    fn score(&mut self, sim: &Sim<'_>, j: JobIdx) -> Result<u64, EngineError> {
        let mut vars = Vars::default();
        for var in Var::ALL.into_iter().filter(|&v| self.formula.reads(v)) {
            vars.set(var, var_value(sim, j, var));
        }
        let score = self.formula.eval(&vars, &mut self.stack);
        self.key(sim, j, score)
    }

    /// The order key of a score of waiting job `j`; NaN stops the run.
    fn key(&self, sim: &Sim<'_>, j: JobIdx, score: f64) -> Result<u64, EngineError> {
        let job = sim.job(j);
        if score.is_nan() {
            let formula = self.formula.source().to_string();
            return Err(EngineError::NanScore { time: sim.now(), job: job.id, formula });
        }
        Ok(score_key(if self.highest { -score } else { score }))
    }
}

/// The values of `var` for the waiting `jobs` now, appended to `out`: one
/// loop per variable, so that the choice of variable is made once.
fn gather(sim: &Sim<'_>, jobs: &[JobIdx], var: Var, out: &mut Vec<f64>) {
    // Each arm is its own loop with the variable fixed, so the choice
    // folds away inside it.
    match var {
        Var::Wait => extend_with(out, jobs, |j| var_value(sim, j, Var::Wait)),
        Var::Submit => extend_with(out, jobs, |j| var_value(sim, j, Var::Submit)),
        Var::Now => extend_with(out, jobs, |j| var_value(sim, j, Var::Now)),
        Var::Requested => extend_with(out, jobs, |j| var_value(sim, j, Var::Requested)),
        Var::Predicted => extend_with(out, jobs, |j| var_value(sim, j, Var::Predicted)),
        Var::Procs => extend_with(out, jobs, |j| var_value(sim, j, Var::Procs)),
        Var::User => extend_with(out, jobs, |j| var_value(sim, j, Var::User)),
        Var::Group => extend_with(out, jobs, |j| var_value(sim, j, Var::Group)),
        Var::Queue => extend_with(out, jobs, |j| var_value(sim, j, Var::Queue)),
        Var::Partition => extend_with(out, jobs, |j| var_value(sim, j, Var::Partition)),
        Var::Machine => extend_with(out, jobs, |j| var_value(sim, j, Var::Machine)),
        Var::Free => extend_with(out, jobs, |j| var_value(sim, j, Var::Free)),
        Var::Queued => extend_with(out, jobs, |j| var_value(sim, j, Var::Queued)),
    }
}

/// Appends `value(j)` of each of `jobs` to `out` (one copy per `value`).
fn extend_with(out: &mut Vec<f64>, jobs: &[JobIdx], value: impl Fn(JobIdx) -> f64) {
    out.extend(jobs.iter().map(|&j| value(j)));
}

/// The value of `var` for waiting job `j` now.
#[inline(always)]
fn var_value(sim: &Sim<'_>, j: JobIdx, var: Var) -> f64 {
    let job = sim.job(j);
    match var {
        Var::Wait => (sim.now() - job.submit) as f64,
        Var::Submit => job.submit as f64,
        Var::Now => sim.now() as f64,
        Var::Requested => job.estimate as f64,
        Var::Predicted => sim.prediction(j) as f64,
        Var::Procs => f64::from(job.size),
        Var::User => f64::from(job.user),
        Var::Group => f64::from(job.group),
        Var::Queue => f64::from(job.queue),
        Var::Partition => f64::from(job.partition),
        Var::Machine => f64::from(sim.procs()),
        Var::Free => f64::from(sim.free()),
        Var::Queued => sim.waiting().len() as f64,
    }
}

#[cfg(test)]
mod tests;
