//! The waiting queue under a formula of product form
//! (`schedlab_priority::ProductForm`: WFP3, UNICEP, any product of factors
//! that read only a job's fixed values or only the pass's clock), in the
//! exact order of the scores computed in `f64` at each pass, without
//! scoring every waiting job.
//!
//! The jobs are filed by submission second and, within a second, by their
//! job part times the formula's sign and the direction: at a pass where a
//! second's clock part is positive, that is the order of the lower bounds
//! of their scores (`ProductForm::lower_bound`), and each bound is within
//! about 10^-14 of the score. A pass merges the seconds in a heap of
//! candidates: a second is there under the bound of its next job in that
//! order, and a job under its exact key (score, then job index) once it has
//! been scored. The least candidate is either a scored job, which no job
//! still unscored can precede (its key is below every bound left), and is
//! the next job of the order; or a second, whose next job is then scored
//! and the second filed again under the bound of the job after. So a pass
//! scores the jobs it takes plus those whose score lies within the bound's
//! slack of them, O(log q) each, and pays O(log s) per second with waiting
//! jobs to start.
//!
//! Scores are exact, computed by the formula's own code with the pass's
//! values, so the order is the one that scoring every job would give, ties
//! included (a randomized test compares the two). The jobs whose job part
//! is not a normal number, and every job of a second whose clock part is
//! not positive or not normal (its jobs' scores could be zero, infinite or
//! NaN there), are scored at the start of the pass as the naive order
//! would; a NaN among them stops the run naming the first such job, and
//! no other job can score NaN. When the seconds with waiting jobs are more
//! than a quarter of the jobs (a real trace's queue, whose jobs mostly
//! arrive in seconds of their own), a merge would cost about what scoring
//! every job costs, so the policy scores them all for that pass instead
//! (the order is the same). So it does when the last merged pass scored
//! more than a sixteenth of the waiting jobs one by one (scores that tie
//! exactly, as `-log(wait) * procs` gives every job of a size, are all
//! scored before the first of them is taken), for a number of passes that
//! doubles, up to [`MOST_PASSES_UNMERGED`], while merges stay that dear:
//! a job scored alone costs about as much as sixteen scored column-wise.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use schedlab_engine::{EngineError, JobIdx, Sim, Time};
use schedlab_priority::{Formula, Part, ProductForm, Var, Vars};

use super::score_order::{score_key, Key, ScoreOrder};
use super::var_value;

/// A job's filing: its submission second (or [`EXACT`]) and the key of its
/// job part in the order of its bounds.
type Filing = (Time, u64);
type Filed = (Filing, JobIdx);

/// The second of the jobs without a job part, scored at every pass.
const EXACT: Time = Time::MIN;

/// The filing key of such jobs (any key above 0 would do: see
/// [`start_of`]).
const EXACT_KEY: u64 = u64::MAX;

/// The heap's mark of a scored job; other candidates name a second.
const SCORED: u32 = u32::MAX;

/// A merged pass that scores more than one waiting job in this many did
/// not pay.
pub(crate) const DEAR: usize = 16;

/// The most passes scored in full between two merged passes that did not
/// pay.
const MOST_PASSES_UNMERGED: u32 = 1024;

/// A position before every job of `second`: no score's key is 0
/// (`score_key` gives 0 to one NaN only), nor is [`EXACT_KEY`].
fn start_of(second: Time) -> Filed {
    ((second, 0), 0)
}

/// A position after every job of `second`.
fn end_of(second: Time) -> Filed {
    ((second.saturating_add(1), 0), 0)
}

pub(crate) struct ClockOrder {
    form: ProductForm,
    /// 1 when the lowest score goes first, −1 when the highest does.
    direction: f64,
    queue: ScoreOrder<Filing>,
    /// Each filed job's job part, NaN when it has none.
    parts: Vec<f64>,
    /// Waiting jobs per second.
    seconds: BTreeMap<Time, u32>,
    stack: Vec<f64>,
    /// Jobs scored one by one in the last merged pass, and the jobs then
    /// waiting (see the module's documentation).
    scored: usize,
    waited: usize,
    /// Passes to score in full before the next merge, and how many the
    /// next merge that does not pay will add.
    unmerged: u32,
    backoff: u32,
    /// [`DEAR`], or 0 to merge whatever a merge costs (tests).
    dear: usize,
}

/// A second's place in a pass: its clock part and its last job scored.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    second: Time,
    clock: Part,
    after: Filed,
}

/// One pass's merge of the seconds.
pub(crate) struct ClockPass {
    heap: BinaryHeap<Reverse<(Key, u32)>>,
    cursors: Vec<Cursor>,
    /// The values common to every job at this pass (`now`, `free`,
    /// `queued`, `machine`), as the naive order reads them at its start.
    common: Vars,
}

/// What the next job of a pass must satisfy: none (the order), or fit in
/// `free` processors for at most the horizon of its size.
pub(crate) struct Fit<'a> {
    pub free: u32,
    pub horizon: &'a mut dyn FnMut(u32) -> Time,
}

impl ClockOrder {
    /// The order of `formula` if it is of product form.
    pub fn new(formula: &Formula, highest: bool, jobs: usize, live: bool, dear: usize) -> Option<Self> {
        let form = ProductForm::of(formula)?;
        let direction = if highest { -1.0 } else { 1.0 };
        Some(ClockOrder {
            form,
            direction,
            queue: ScoreOrder::new(jobs, live),
            parts: vec![f64::NAN; jobs],
            seconds: BTreeMap::new(),
            stack: Vec::new(),
            scored: 0,
            waited: 0,
            unmerged: 0,
            backoff: 1,
            dear,
        })
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Files waiting job `j`.
    pub fn insert(&mut self, sim: &Sim<'_>, j: JobIdx) {
        let mut vars = Vars::default();
        for var in Var::ALL.into_iter().filter(|v| !v.changes_while_waiting()) {
            vars.set(var, var_value(sim, j, var));
        }
        let part = self.form.job_part(&vars, &mut self.stack);
        let filing = match part {
            Some(p) => (sim.job(j).submit, score_key(self.direction * self.form.sign() * p.value)),
            None => (EXACT, EXACT_KEY),
        };
        self.parts[j as usize] = part.map_or(f64::NAN, |p| p.value);
        self.queue.insert(j, filing, sim.job(j).size, sim.prediction(j));
        *self.seconds.entry(filing.0).or_default() += 1;
    }

    /// Takes job `j` out (it started).
    pub fn remove(&mut self, j: JobIdx) {
        let Some((second, _)) = self.queue.filed(j) else { return };
        self.queue.remove(j);
        if let Some(n) = self.seconds.get_mut(&second) {
            *n -= 1;
            if *n == 0 {
                self.seconds.remove(&second);
            }
        }
    }

    /// Starts a pass at its current state; `None` when the merge would not
    /// pay (or the order does not hold every waiting job), and the policy
    /// scores every job instead. Scores the jobs that need it first, so a
    /// NaN stops the run before the pass decides anything.
    pub fn begin(&mut self, sim: &Sim<'_>, formula: &Formula) -> Result<Option<ClockPass>, EngineError> {
        let waiting = sim.waiting().len();
        if !self.merge_pays() || self.seconds.len().saturating_mul(4) > waiting || self.len() != waiting {
            return Ok(None);
        }
        self.scored = 0;
        self.waited = waiting;
        let mut common = Vars::default();
        common
            .set(Var::Now, sim.now() as f64)
            .set(Var::Free, f64::from(sim.free()))
            .set(Var::Queued, waiting as f64)
            .set(Var::Machine, f64::from(sim.procs()));
        let mut pass = ClockPass { heap: BinaryHeap::new(), cursors: Vec::new(), common };
        let seconds: Vec<Time> = self.seconds.keys().copied().collect();
        let mut nan = None;
        for second in seconds {
            let mut vars = common;
            vars.set(Var::Wait, sim.now().saturating_sub(second) as f64);
            let clock = (second != EXACT).then(|| self.form.clock_part(&vars, &mut self.stack)).flatten();
            match clock.filter(|c| c.value > 0.0) {
                Some(clock) => {
                    let slot = pass.cursors.len() as u32;
                    pass.cursors.push(Cursor { second, clock, after: start_of(second) });
                    if let Some(first) = self.queue.next(Some(start_of(second))).filter(|f| f.0 .0 == second) {
                        self.push_bound(&mut pass, slot, first);
                    }
                }
                None => self.score_second(sim, formula, &mut pass, second, &mut nan),
            }
        }
        match nan {
            Some(j) => Err(nan_error(sim, formula, j)),
            None => Ok(Some(pass)),
        }
    }

    /// Whether to merge this pass, from what the last merge cost.
    fn merge_pays(&mut self) -> bool {
        if self.scored.saturating_mul(self.dear) > self.waited.max(self.dear) {
            self.unmerged = self.backoff;
            self.backoff = (self.backoff * 2).min(MOST_PASSES_UNMERGED);
        } else if self.waited > 0 {
            self.backoff = 1;
        }
        self.scored = 0;
        self.waited = 0;
        if self.unmerged > 0 {
            self.unmerged -= 1;
            return false;
        }
        true
    }

    /// Scores every job of `second` into the pass; the first job with a
    /// NaN score is kept in `nan`.
    fn score_second(
        &mut self,
        sim: &Sim<'_>,
        formula: &Formula,
        pass: &mut ClockPass,
        second: Time,
        nan: &mut Option<JobIdx>,
    ) {
        let mut at = start_of(second);
        while let Some(filed) = self.queue.next(Some(at)).filter(|f| f.0 .0 == second) {
            at = filed;
            let j = filed.1;
            let score = self.score(sim, formula, &pass.common, j);
            if score.is_nan() {
                *nan = Some(nan.map_or(j, |n: JobIdx| n.min(j)));
            } else {
                pass.heap.push(Reverse(((score_key(self.direction * score), j), SCORED)));
            }
        }
    }

    /// The next job of the pass in the order (or, with `fit`, the next
    /// that may fit, skipping jobs that cannot: a job passed over cannot
    /// fit later in the pass, since processors are only taken during it).
    /// The caller starts or reserves it, or, with `fit`, may drop it.
    pub fn next(
        &mut self,
        sim: &Sim<'_>,
        formula: &Formula,
        pass: &mut ClockPass,
        mut fit: Option<Fit<'_>>,
    ) -> Result<Option<JobIdx>, EngineError> {
        while let Some(Reverse((key, slot))) = pass.heap.pop() {
            if slot == SCORED {
                return Ok(Some(key.1));
            }
            let cursor = pass.cursors[slot as usize];
            let Some(filed) = self.following(sim, cursor, cursor.after, fit.as_mut()) else { continue };
            let score = self.score(sim, formula, &pass.common, filed.1);
            self.scored += 1;
            if score.is_nan() {
                // A job with both parts cannot score NaN; kept as an error
                // rather than a panic should that ever be wrong.
                return Err(nan_error(sim, formula, filed.1));
            }
            pass.heap.push(Reverse(((score_key(self.direction * score), filed.1), SCORED)));
            pass.cursors[slot as usize].after = filed;
            if let Some(next) = self.following(sim, cursor, filed, fit.as_mut()) {
                self.push_bound(pass, slot, next);
            }
        }
        Ok(None)
    }

    /// The job of `cursor`'s second after `after` (that may fit, with
    /// `fit`).
    fn following(&self, sim: &Sim<'_>, cursor: Cursor, after: Filed, fit: Option<&mut Fit<'_>>) -> Option<Filed> {
        match fit {
            None => self.queue.next(Some(after)).filter(|f| f.0 .0 == cursor.second),
            Some(fit) => {
                let current = |j: JobIdx| sim.prediction(j);
                let range = (Some(after), Some(end_of(cursor.second)));
                self.queue.next_fitting(range, fit.free, fit.horizon, &current)
            }
        }
    }

    /// Files second `slot` in the pass under the bound of its job `next`.
    fn push_bound(&self, pass: &mut ClockPass, slot: u32, next: Filed) {
        let clock = pass.cursors[slot as usize].clock;
        let bound = self.form.lower_bound(self.direction, clock, self.parts[next.1 as usize]);
        // Job 0 ties below every job, so the candidate's key is at most the
        // key of every job left in the second. A job of a merged second
        // has a job part; were it missing (a NaN bound), key 0 would
        // still precede every score.
        let key = if bound.is_nan() { 0 } else { score_key(bound) };
        pass.heap.push(Reverse(((key, 0), slot)));
    }

    /// Job `j`'s score at the pass, as the naive order computes it.
    fn score(&mut self, sim: &Sim<'_>, formula: &Formula, common: &Vars, j: JobIdx) -> f64 {
        let mut vars = *common;
        for var in Var::ALL.into_iter().filter(|&v| formula.reads(v)) {
            if !matches!(var, Var::Free | Var::Queued) {
                vars.set(var, var_value(sim, j, var));
            }
        }
        formula.eval(&vars, &mut self.stack)
    }
}

fn nan_error(sim: &Sim<'_>, formula: &Formula, j: JobIdx) -> EngineError {
    EngineError::NanScore { time: sim.now(), job: sim.job(j).id, formula: formula.source().to_string() }
}
