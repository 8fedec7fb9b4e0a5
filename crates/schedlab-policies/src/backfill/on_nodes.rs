//! Composable backfilling on a machine of nodes: the same pass as
//! `indexed_pass` and `strict_pass`, planned in a `NodeBook` (the running
//! jobs on their nodes until their expected ends, and the pass's
//! reservations on the nodes each would take) instead of the processor
//! profile. A job starts if its request fits, first fit by node index,
//! on nodes free from now throughout its prediction without touching a
//! reservation made so far in the pass; a blocked one gets the earliest
//! such window, until `depth` jobs hold one.
//!
//! An order fixed at a job's arrival is filed once in a `ScoreOrder`; the
//! jobs after the `depth`-th reservation are tried in score order, each
//! asked of the engine's node index first (a job that does not fit now
//! costs a descent), and then of the book. An order that changes while
//! jobs wait (it reads `wait`, `now`, `free` or `queued`, or `predicted`
//! under a runtime source that learns) is scored again at every pass into
//! a heap, as `rescored_pass` does on processors, and the pass takes the
//! same decisions from it.

use std::cmp::Reverse;

use schedlab_engine::{EngineError, Happened, JobIdx, Sim};

use super::score_order::ScoreOrder;
use super::Backfill;

impl Backfill {
    /// A pass on a machine of nodes.
    pub(super) fn nodes_pass(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.node_book.begin(sim, happened);
        let result = if self.rescored { self.rescored_on_nodes(sim) } else { self.filed_on_nodes(sim, happened) };
        for &(j, _, _) in &self.plan {
            self.node_book.unplace(sim, j);
        }
        result
    }

    /// A pass in the order filed at arrival.
    fn filed_on_nodes(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let mut queue = self.filed_arrivals(sim, happened)?;
        let result =
            if self.strict { self.strict_on_nodes(sim, &mut queue) } else { self.backfill_on_nodes(sim, &mut queue) };
        self.queue = Some(queue);
        result
    }

    /// A pass with every waiting job scored now: the heap gives the jobs in
    /// turn until `depth` hold a reservation (or, in strict order, until
    /// one does not fit); the rest that could fit in the idle cores are
    /// then sorted and tried in order.
    fn rescored_on_nodes(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        if self.strict && self.held_blocks_on_nodes(sim, None)? {
            return Ok(());
        }
        let mut heap = self.waiting_by_score(sim)?;
        let mut blocked = None;
        while self.strict || self.plan.len() < self.depth {
            let Some(Reverse((_, j))) = heap.pop() else { break };
            if !self.start_or_reserve_on_nodes(sim, j)? && self.strict {
                blocked = Some(j);
                break;
            }
        }
        let mut rest = heap.into_vec();
        if self.strict {
            self.held = blocked.filter(|_| self.holds);
        } else {
            let free = sim.free();
            rest.retain(|Reverse((_, j))| sim.job(*j).size <= free);
            rest.sort_unstable_by_key(|&Reverse(key)| key);
            for &Reverse((_, j)) in &rest {
                if sim.job(j).size <= sim.free() {
                    self.node_book.try_start_now(sim, j)?;
                }
            }
        }
        self.keys = rest;
        Ok(())
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
        if self.held_blocks_on_nodes(sim, Some(&mut *queue))? {
            return Ok(());
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

    /// Under `fill=hold`, the job held from an earlier pass goes first:
    /// true when it still does not start (it keeps its hold and the pass
    /// ends); once it starts it leaves `queue`.
    fn held_blocks_on_nodes(&mut self, sim: &mut Sim<'_>, queue: Option<&mut ScoreOrder>) -> Result<bool, EngineError> {
        let Some(h) = self.held.take().filter(|&h| sim.is_waiting(h)) else { return Ok(false) };
        if !self.start_or_reserve_on_nodes(sim, h)? {
            self.held = Some(h);
            return Ok(true);
        }
        if let Some(queue) = queue {
            queue.remove(h);
        }
        Ok(false)
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
        let start = self.node_book.reserve_in_pass(sim, j, !last);
        sim.reserve(j, start);
        self.plan.push((j, start, prediction));
        Ok(false)
    }
}
