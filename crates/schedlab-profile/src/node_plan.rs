//! EASY's reservation on a machine of nodes (docs/semantics.md, "Machines
//! of nodes"): when will the first waiting job's request fit, given the
//! running jobs' expected ends, node by node, and what does its
//! reservation leave for jobs that would still run then.
//!
//! The plan plays the running jobs' ends forward, earliest first, on a
//! copy of the free resources (a copy kept between passes, so a pass
//! copies in place and allocates nothing) and asks the node index after
//! each end whether the request fits. It costs one copy of the node state
//! and a first-fit query per distinct end time until the request fits.

use schedlab_engine::{JobIdx, Nodes, Sim, Time};

/// The reservation of a job that does not fit now.
pub struct NodeShadow {
    /// When its request fits (the shadow time); `Time::MAX` if never,
    /// which cannot happen for a request that fits its idle partition.
    pub at: Time,
    /// The free resources at `at` once the reserved job holds its nodes:
    /// a job still running then must fit in these as well as in the
    /// resources free now.
    pub extra: Nodes,
}

/// A planner that keeps its scratch copy of the node state between passes.
#[derive(Default)]
pub struct NodePlanner {
    scratch: Option<Nodes>,
}

impl NodePlanner {
    /// The reservation of waiting job `head` (on a machine of nodes): the
    /// earliest expected end of running jobs at which it fits, every job
    /// expected to end by then released. `None` on processors.
    pub fn shadow(&mut self, sim: &Sim<'_>, head: JobIdx) -> Option<NodeShadow> {
        let nodes = sim.nodes()?;
        let request = sim.request(head)?;
        let mut state = match self.scratch.take() {
            Some(mut s) => {
                s.clone_from(nodes);
                s
            }
            None => nodes.clone(),
        };
        // Jobs ending at one second are released together before the
        // question is asked again.
        let mut at = None;
        let mut running = sim.running().peekable();
        while let Some((end, j)) = running.next() {
            if at.is_some_and(|s| end > s) {
                break;
            }
            if let Some(r) = sim.request(j) {
                state.give(r, sim.placement(j));
            }
            let last_of_second = running.peek().is_none_or(|&(next, _)| next > end);
            if at.is_none() && last_of_second && state.fits(request) {
                at = Some(end);
            }
        }
        let at = match (at, state.find(request)) {
            (Some(at), Some(slots)) => {
                state.take(request, &slots);
                at
            }
            _ => Time::MAX,
        };
        Some(NodeShadow { at, extra: state })
    }

    /// Keeps a shadow's node state for the next pass's copy.
    pub fn recycle(&mut self, shadow: NodeShadow) {
        self.scratch = Some(shadow.extra);
    }
}
