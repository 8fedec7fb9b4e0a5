//! Composable backfilling on a machine of nodes: the same pass as
//! `indexed_pass` and `strict_pass`, planned in a `NodeBook` (the running
//! jobs on their nodes until their expected ends, and the pass's
//! reservations on the nodes each would take) instead of the processor
//! profile. A job starts if its request fits, first fit by node index,
//! on nodes free from now throughout its prediction without touching a
//! reservation made so far in the pass; a blocked one gets the earliest
//! such window, until `depth` jobs hold one.
//!
//! Only orders fixed at a job's arrival run on nodes: an order that reads
//! the clock or the machine's state (`wait`, `now`, `free`, `queued`), or
//! `predicted` under a runtime source that learns, is scored again at
//! every pass by code written for the processor model, and stops the run
//! at its first pass with a message that says so. The jobs after the
//! `depth`-th reservation are tried in score order, each asked of the
//! engine's node index first (a job that does not fit now costs a
//! descent), and then of the book.

use schedlab_engine::{EngineError, Happened, JobIdx, Sim, Time};

use super::score_order::ScoreOrder;
use super::{Backfill, INFO};

impl Backfill {
    /// A pass on a machine of nodes.
    pub(super) fn nodes_pass(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        if self.rescored {
            let message = format!(
                "on a machine of nodes it takes only queue orders fixed at a job's arrival, and `{}` changes \
                 while jobs wait (it reads wait, now, free or queued, or predicted under a runtime source \
                 that learns)",
                self.formula.source()
            );
            return Err(EngineError::Unbuildable { policy: INFO.id, message });
        }
        self.node_book.begin(sim, happened);
        let mut queue = self.filed_arrivals(sim, happened)?;
        let result =
            if self.strict { self.strict_on_nodes(sim, &mut queue) } else { self.backfill_on_nodes(sim, &mut queue) };
        for &(j, _, _) in &self.plan {
            self.node_book.unplace(sim, j);
        }
        self.queue = Some(queue);
        result
    }

    /// Jobs in score order start or get a reservation until `depth` hold
    /// one; after that, each later job starts if it fits now without
    /// touching them, tried while any core is free.
    fn backfill_on_nodes(&mut self, sim: &mut Sim<'_>, queue: &mut ScoreOrder) -> Result<(), EngineError> {
        let mut after = None;
        while self.plan.len() < self.depth {
            let Some(key) = queue.next(after) else { return Ok(()) };
            after = Some(key);
            if self.start_or_reserve_on_nodes(sim, key.1)? {
                queue.remove(key.1);
            }
        }
        while sim.free() > 0 {
            let Some(key) = queue.next(after) else { break };
            after = Some(key);
            if self.node_book.try_start_now(sim, key.1)? {
                queue.remove(key.1);
            }
        }
        Ok(())
    }

    /// Strict order on nodes (`fill=none`, `fill=hold`): jobs start in
    /// score order while they fit; the first that does not is reserved and
    /// holds back the others (and, under `hold`, stays first until it
    /// starts).
    fn strict_on_nodes(&mut self, sim: &mut Sim<'_>, queue: &mut ScoreOrder) -> Result<(), EngineError> {
        if let Some(h) = self.held.take().filter(|&h| sim.is_waiting(h)) {
            if !self.start_or_reserve_on_nodes(sim, h)? {
                self.held = Some(h);
                return Ok(());
            }
            queue.remove(h);
        }
        let mut blocked = None;
        while let Some((_, j)) = queue.next(None) {
            if !self.start_or_reserve_on_nodes(sim, j)? {
                blocked = Some(j);
                break;
            }
            queue.remove(j);
        }
        self.held = blocked.filter(|_| self.holds);
        Ok(())
    }

    /// Starts `j` if it fits now without touching the pass's reservations
    /// (true), or gives it its earliest window in the book as it stands.
    fn start_or_reserve_on_nodes(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<bool, EngineError> {
        if self.node_book.try_start_now(sim, j)? {
            return Ok(true);
        }
        let prediction = sim.prediction(j);
        // As on processors, the pass's last reservation on a full machine
        // constrains no later job, so it is not put into the book.
        let last = self.plan.len() + 1 == self.depth && sim.free() == 0;
        let start = if last {
            self.node_book.earliest(sim, j, sim.now(), prediction).map_or(Time::MAX, |(t, _)| t)
        } else {
            self.node_book.place(sim, j, sim.now())
        };
        sim.reserve(j, start);
        self.plan.push((j, start, prediction));
        Ok(false)
    }
}
