//! A policy whose choice comes from outside: at each decision a
//! [`Chooser`] (a learned scheduler, through the Python package's
//! Gymnasium environment) picks the next job among the first waiting jobs
//! in priority order, and the chosen backfilling fills around it. It is not
//! in the registry, since it makes no choice of its own; the engine sees an
//! ordinary [`Policy`].
//!
//! A pass asks the chooser again after every start. A chosen job that fits
//! starts; one that does not ends the pass, after (with EASY backfilling) a
//! reservation at its shadow time and the backfilling of the jobs that fit
//! now without delaying it, in priority order, exactly as `easy` backfills
//! behind its first waiting job. A chooser that always picks the first job
//! therefore makes this policy `easy` (with EASY backfilling) or `fcfs`
//! (without), schedule for schedule.
//!
//! The same decisions can also be driven from outside the engine's loop:
//! [`Steps`] runs to the next decision and returns, and the caller answers
//! with [`Steps::decide`] when it likes, so an agent needs no thread of its
//! own. Both ways apply each decision through the same code.

use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Replay, RunRecord, RuntimeSource, Sim};

use crate::common::{backfill_by_priority, shadow};
use crate::queue_index::{Orders, QueueIndex};

/// What fills around the chosen job when it does not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backfill {
    /// Nothing: the chosen job waits, and so does every other.
    None,
    /// EASY: a reservation for the chosen job, and the jobs that fit now and
    /// do not delay it start in priority order.
    Easy,
}

/// The chooser's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Start the offered job at this index (past the offered jobs: the first).
    Start(usize),
    /// Start nothing more in this pass. Taken as `Start(0)` while no job
    /// runs, since the run could then stall with jobs waiting.
    Wait,
    /// Stop the run (`EngineError::Cancelled`).
    Stop,
}

/// Picks the next job among `offered`: the first waiting jobs in priority
/// order, at most the policy's window.
pub trait Chooser {
    fn choose(&mut self, sim: &Sim<'_>, offered: &[JobIdx]) -> Decision;
}

/// The policy of a chooser, offering at most `window` jobs (at least 1);
/// `source` is the run's runtime source (backfilling reads its predictions).
pub fn directed(
    chooser: Box<dyn Chooser + Send>,
    window: usize,
    backfill: Backfill,
    source: RuntimeSource,
) -> Box<dyn Policy + Send> {
    Box::new(Directed { chooser, decisions: Decisions::new(window, backfill, source) })
}

struct Directed {
    chooser: Box<dyn Chooser + Send>,
    decisions: Decisions,
}

impl Policy for Directed {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.decisions.queue.refresh(sim, happened);
        while self.decisions.offer(sim) {
            let decision = self.chooser.choose(sim, &self.decisions.offered);
            if !self.decisions.apply(sim, decision)? {
                break;
            }
        }
        Ok(())
    }

    /// None: a chooser may pass over a job it reserved for.
    fn guarantees(&self) -> Vec<Guarantee> {
        Vec::new()
    }
}

/// What a directed pass keeps between decisions, whoever makes them.
struct Decisions {
    window: usize,
    backfill: Backfill,
    /// The waiting queue, indexed for backfilling.
    queue: QueueIndex,
    /// The jobs offered at the current decision (kept to reuse its memory).
    offered: Vec<JobIdx>,
}

impl Decisions {
    fn new(window: usize, backfill: Backfill, source: RuntimeSource) -> Self {
        let window = window.max(1);
        let orders = Orders { by_priority: true, by_prediction: false };
        Decisions { window, backfill, queue: QueueIndex::new(orders, source), offered: Vec::with_capacity(window) }
    }

    /// Offers the first waiting jobs; `false` when none waits, which ends
    /// the pass.
    fn offer(&mut self, sim: &Sim<'_>) -> bool {
        self.offered.clear();
        self.offered.extend(sim.waiting().iter().take(self.window).copied());
        !self.offered.is_empty()
    }

    /// Carries out `decision` on the offered jobs: `true` if the pass goes
    /// on to another decision (the chosen job started), `false` if it is
    /// over.
    fn apply(&mut self, sim: &mut Sim<'_>, decision: Decision) -> Result<bool, EngineError> {
        let first = self.offered[0];
        let chosen = match decision {
            Decision::Start(i) => self.offered.get(i).copied().unwrap_or(first),
            Decision::Wait if sim.running_count() > 0 => return Ok(false),
            Decision::Wait => first,
            Decision::Stop => return Err(EngineError::Cancelled { time: sim.now() }),
        };
        let size = sim.job(chosen).size;
        if size <= sim.free() {
            self.queue.remove(chosen);
            sim.start(chosen)?;
            return Ok(true);
        }
        if self.backfill == Backfill::Easy {
            let (shadow_time, extra) = shadow(sim, size);
            sim.reserve(chosen, shadow_time);
            if sim.free() > 0 {
                let horizon = shadow_time.saturating_sub(sim.now());
                // The chosen job does not fit, so it is no candidate:
                // the walk may start at the first waiting job.
                backfill_by_priority(sim, &mut self.queue, None, horizon, extra)?;
            }
        }
        Ok(false)
    }
}

/// A directed run that stops at each decision and returns to its caller:
/// [`Steps::advance`] runs the engine to the next decision, the caller
/// reads it ([`Steps::sim`], [`Steps::offered`]) and answers with
/// [`Steps::decide`]. The run is the one [`directed`] makes with a chooser
/// that would have given the same answers.
pub struct Steps<'a> {
    replay: Replay<'a>,
    decisions: Decisions,
    /// Whether a pass is open, and so whether `offered` is a decision that
    /// waits for its answer.
    in_pass: bool,
}

impl<'a> Steps<'a> {
    /// The directed run of `replay`, which has applied no event yet and
    /// preempts nothing (`Preemption::Kill`, the model of every policy that
    /// does not preempt), offering at most `window` jobs (at least 1) at
    /// each decision; `source` is the run's runtime source. Call
    /// [`Steps::advance`] for the first decision.
    pub fn new(replay: Replay<'a>, window: usize, backfill: Backfill, source: RuntimeSource) -> Self {
        Steps { replay, decisions: Decisions::new(window, backfill, source), in_pass: false }
    }

    /// Runs to the next decision: `true` if one waits for
    /// [`Steps::decide`], `false` once the run is over (then
    /// [`Steps::finish`]).
    pub fn advance(&mut self) -> Result<bool, EngineError> {
        loop {
            if self.in_pass {
                if self.decisions.offer(self.replay.sim()) {
                    return Ok(true);
                }
                self.in_pass = false;
                self.replay.end_pass()?;
            }
            if !self.replay.begin_pass() {
                return Ok(false);
            }
            let (sim, happened) = self.replay.pass();
            self.decisions.queue.refresh(sim, happened);
            self.in_pass = true;
        }
    }

    /// Answers the waiting decision and runs to the next one, as
    /// [`Steps::advance`]. Without a waiting decision (the run is over) it
    /// does nothing and returns `false`.
    pub fn decide(&mut self, decision: Decision) -> Result<bool, EngineError> {
        if !self.in_pass {
            return Ok(false);
        }
        let (sim, _) = self.replay.pass();
        if !self.decisions.apply(sim, decision)? {
            self.in_pass = false;
            self.replay.end_pass()?;
        }
        self.advance()
    }

    /// The machine and the queue at the waiting decision.
    pub fn sim(&self) -> &Sim<'a> {
        self.replay.sim()
    }

    /// The jobs offered at the waiting decision, in priority order.
    pub fn offered(&self) -> &[JobIdx] {
        &self.decisions.offered
    }

    /// The record of the run, once [`Steps::advance`] or [`Steps::decide`]
    /// has said it is over. The run checker verifies it with no guarantee,
    /// as [`directed`]'s: an agent may pass over a job it reserved for.
    pub fn finish(self) -> RunRecord {
        self.replay.finish()
    }
}
