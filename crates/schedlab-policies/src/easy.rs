//! EASY backfilling (Lifka 1995; Mu'alem and Feitelson 2001).
//!
//! At every pass: start waiting jobs in priority order while the first one
//! fits. If the first waiting job (the *head*) is then blocked, compute its
//! reservation from the running jobs' expected ends (the shadow time and
//! the extra processors, see `common::shadow`) and backfill later jobs that
//! fit now and either are expected to end by the shadow time or use only
//! extra processors. Backfill candidates are tried in priority order
//! (FCFS-EASY) or shortest expected runtime first (SJF-EASY), ties broken by
//! priority. Expected runtimes come from the chosen runtime source: `last`
//! gives EASY-Last, `tsafrir` with `shortest` gives EASY++.

use schedlab_engine::params::ParamSet;
use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim, Slot, Time};

use schedlab_profile::{NoRoom, NodePlanner};

use crate::common::{backfill_by_priority, shadow, start_in_order};
use crate::queue_index::{Orders, QueueIndex};
use crate::{PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "easy",
    name: "EASY",
    description: "Aggressive backfilling: jobs start in priority order while the first fits; the first blocked job \
                  gets a reservation at the earliest time enough processors are expected to be free, and later \
                  jobs may jump ahead if they fit now and do not delay that reservation. With the `last` runtime \
                  source this is EASY-Last; with `tsafrir` and shortest-first order, EASY++.",
    params: EasyParams::SPECS,
    uses_runtime_source: true,
    default_source: "estimate",
    uses_seed: false,
    on_nodes: crate::OnNodes::Runs,
    build: |values, s| build(EasyParams::read(values), s),
    needs_calibration: crate::never_calibrate,
    conditions: &[],
};

schedlab_engine::param_choice! {
    /// The order in which backfill candidates are tried.
    pub(crate) enum Order {
        Priority = "priority",
        Shortest = "shortest",
    }
}

schedlab_engine::param_set! {
    pub(crate) struct EasyParams {
        order: Choice<Order> { default: Order::Priority },
            name: "Backfill order",
            description: "Order in which waiting jobs are tried for backfilling: priority (FCFS-EASY) or shortest expected runtime first (SJF-EASY).";
    }
}

fn build(p: EasyParams, s: &PolicySettings) -> Box<dyn Policy> {
    let order = p.order;
    let orders = Orders { by_priority: order == Order::Priority, by_prediction: order == Order::Shortest };
    let queue = QueueIndex::new(orders, s.source);
    Box::new(Easy {
        order,
        upper_bound: s.source.is_upper_bound(),
        queue,
        planner: NodePlanner::default(),
        no_room: NoRoom::default(),
    })
}

struct Easy {
    order: Order,
    /// Whether runtimes never fall short, so the head's reservation holds.
    upper_bound: bool,
    /// The waiting queue, indexed for backfilling.
    queue: QueueIndex,
    /// The head's reservation on a machine of nodes.
    planner: NodePlanner,
    /// Request shapes known not to fit, on a machine of nodes.
    no_room: NoRoom,
}

impl Policy for Easy {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        self.queue.refresh(sim, happened);
        if sim.cluster().is_some() {
            self.start_in_order_on_nodes(sim)?;
            let Some(&head) = sim.waiting().first() else { return Ok(()) };
            return self.backfill_on_nodes(sim, head);
        }
        start_in_order(sim, &mut |j| self.queue.remove(j))?;
        let Some(&head) = sim.waiting().first() else { return Ok(()) };
        let (shadow_time, extra) = shadow(sim, sim.job(head).size);
        sim.reserve(head, shadow_time);
        if sim.free() > 0 {
            let horizon = shadow_time.saturating_sub(sim.now());
            match self.order {
                Order::Priority => backfill_by_priority(sim, &mut self.queue, Some(head), horizon, extra)?,
                Order::Shortest => self.backfill_shortest_first(sim, horizon, extra)?,
            }
        }
        Ok(())
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        crate::common::reservation_guarantee(self.upper_bound)
    }
}

impl Easy {
    /// SJF-EASY: the same choice in order of expected runtime (ties by
    /// priority). The jobs expected to end by the shadow time come first in
    /// that order and start while they fit; after them, jobs start while
    /// they fit in the extra processors.
    fn backfill_shortest_first(&mut self, sim: &mut Sim<'_>, horizon: Time, mut extra: u32) -> Result<(), EngineError> {
        let mut after = None;
        while sim.free() > 0 {
            let Some((p, j)) = self.queue.next_by_prediction(sim, after, sim.free()) else { return Ok(()) };
            if p > horizon {
                break;
            }
            self.start(sim, j)?;
            after = Some((p, j));
        }
        // Past the shadow time: only extra processors may be used.
        let mut after = Some((horizon, JobIdx::MAX));
        while sim.free() > 0 && extra > 0 {
            let Some((p, j)) = self.queue.next_by_prediction(sim, after, sim.free().min(extra)) else { break };
            extra -= sim.job(j).size;
            self.start(sim, j)?;
            after = Some((p, j));
        }
        Ok(())
    }

    /// `start_in_order` on a machine of nodes: the same first-fit starts,
    /// without asking the node index again for a head whose shape is known
    /// not to fit (most passes are submissions that free nothing).
    fn start_in_order_on_nodes(&mut self, sim: &mut Sim<'_>) -> Result<(), EngineError> {
        while let Some(&head) = sim.waiting().first() {
            let Some(slots) = self.place_now(sim, head) else { return Ok(()) };
            self.queue.remove(head);
            let prediction = sim.prediction(head);
            sim.start_on(head, slots, prediction)?;
        }
        Ok(())
    }

    /// The first-fit placement of `j` on the free nodes, if it fits,
    /// remembering a shape that does not.
    fn place_now(&mut self, sim: &Sim<'_>, j: JobIdx) -> Option<Vec<Slot>> {
        let (nodes, request, cluster) = (sim.nodes()?, sim.request(j)?, sim.cluster()?);
        let shape = cluster.of_job[j as usize];
        self.no_room.fit_shapes(cluster.requests.len());
        if self.no_room.now(nodes, shape) {
            return None;
        }
        let slots = nodes.find(request);
        if slots.is_none() {
            self.no_room.refused_now(nodes, shape);
        }
        slots
    }

    /// EASY on a machine of nodes: the head's reservation from the running
    /// jobs' ends node by node (`NodePlanner`); then, in the backfill
    /// order, every later job that fits now and either is expected to end
    /// by the shadow time (placed first fit) or fits now on nodes where the
    /// reservation leaves it room (placed first fit on both states, and
    /// taken from what the reservation leaves). Candidates are all the
    /// waiting jobs, tried while any core is free.
    fn backfill_on_nodes(&mut self, sim: &mut Sim<'_>, head: JobIdx) -> Result<(), EngineError> {
        let Some(shadow) = self.planner.shadow(sim, head) else { return Ok(()) };
        sim.reserve(head, shadow.at);
        let mut candidates: Vec<(Time, JobIdx)> = Vec::new();
        if sim.free() > 0 {
            let key = |j: JobIdx| if self.order == Order::Shortest { sim.prediction(j) } else { 0 };
            candidates = sim.waiting().iter().skip(1).map(|&j| (key(j), j)).collect();
            candidates.sort_unstable();
        }
        self.no_room.begin_pass();
        for (_, j) in candidates {
            if sim.free() == 0 {
                break;
            }
            let prediction = sim.prediction(j);
            let ends_in_time = sim.now().saturating_add(prediction) <= shadow.at;
            if let Some(slots) = self.place_backfill(sim, j, ends_in_time) {
                self.queue.remove(j);
                sim.start_on(j, slots, prediction)?;
            }
        }
        Ok(())
    }

    /// Where backfill candidate `j` starts now, if it may: first fit on
    /// the free nodes when it is expected to end by the shadow time,
    /// otherwise first fit on nodes where the reservation also leaves it
    /// room, which it then takes from the plan. A shape that found no room
    /// is not asked again while that answer holds (`NoRoom`).
    fn place_backfill(&mut self, sim: &Sim<'_>, j: JobIdx, ends_in_time: bool) -> Option<Vec<Slot>> {
        if ends_in_time {
            return self.place_now(sim, j);
        }
        let (nodes, request, cluster) = (sim.nodes()?, sim.request(j)?, sim.cluster()?);
        let shape = cluster.of_job[j as usize];
        if self.no_room.planned(nodes, shape) {
            return None;
        }
        let planner = &self.planner;
        let Some(slots) = nodes.find_where(request, &|n, r| planner.units_at(nodes, n, r)) else {
            self.no_room.refused_planned(shape);
            return None;
        };
        self.planner.take(nodes, request, &slots);
        Some(slots)
    }

    fn start(&mut self, sim: &mut Sim<'_>, j: JobIdx) -> Result<(), EngineError> {
        self.queue.remove(j);
        sim.start(j)
    }
}
