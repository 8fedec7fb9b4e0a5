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

use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, RuntimeSource, Sim};

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
    let orders = Orders { by_priority: true, by_prediction: false };
    Box::new(Directed {
        chooser,
        window: window.max(1),
        backfill,
        queue: QueueIndex::new(orders, source),
        offered: Vec::with_capacity(window),
    })
}

struct Directed {
    chooser: Box<dyn Chooser + Send>,
    window: usize,
    backfill: Backfill,
    /// The waiting queue, indexed for backfilling.
    queue: QueueIndex,
    /// The jobs offered at the current decision (kept to reuse its memory).
    offered: Vec<JobIdx>,
}

impl Policy for Directed {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.queue.refresh(sim, happened);
        loop {
            self.offered.clear();
            self.offered.extend(sim.waiting().iter().take(self.window).copied());
            let Some(&first) = self.offered.first() else { return Ok(()) };
            let chosen = match self.chooser.choose(sim, &self.offered) {
                Decision::Start(i) => self.offered.get(i).copied().unwrap_or(first),
                Decision::Wait if sim.running_count() > 0 => return Ok(()),
                Decision::Wait => first,
                Decision::Stop => return Err(EngineError::Cancelled { time: sim.now() }),
            };
            let size = sim.job(chosen).size;
            if size <= sim.free() {
                self.queue.remove(chosen);
                sim.start(chosen)?;
                continue;
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
            return Ok(());
        }
    }

    /// None: a chooser may pass over a job it reserved for.
    fn guarantees(&self) -> Vec<Guarantee> {
        Vec::new()
    }
}
