//! The `slurm` policy on a machine of nodes (docs/slurm.md, "The
//! machine"): the main scheduler's pass with its failed partitions
//! (`_schedule`, src/slurmctld/job_scheduler.c), and the backfill cycle's
//! test of one job against the map of node sets (`_attempt_backfill`,
//! src/plugins/sched/backfill/backfill.c) with the select plugin's
//! estimate of its start (`_will_run_test`, cons_tres), node by node.
//!
//! Nodes are chosen first fit by node index, among the nodes the pass or
//! the map leaves usable: cons_tres picks, among runs of consecutive
//! usable nodes of the lowest weight, the best-fitting run, which is the
//! lowest-numbered one whenever a single run can hold the job or the
//! machine is idle (docs/decisions.md, "Machines of nodes").

use std::collections::BTreeMap;

use schedlab_engine::{first_fit, EngineError, JobIdx, Nodes, Sim, Slot, Time};
use schedlab_workload::{Request, Spread};

use super::cycle::Verdict;
use super::node_pick::{choose_nodes, Usable};
use super::node_set::NodeSet;
use super::node_space::NodeSpace;
use super::priority::limit_minutes;
use super::running::start_after;
use super::Slurm;

/// The machine's partitions as node sets, read once at the first pass.
pub(super) struct Layout {
    pub(super) nodes: usize,
    pub(super) partitions: Vec<NodeSet>,
    /// Waiting jobs per partition, so that a pass stops once every
    /// partition with waiting jobs has failed.
    pub(super) waiting: Vec<usize>,
}

impl Layout {
    pub(super) fn new(sim: &Sim<'_>) -> Option<Layout> {
        let cluster = sim.cluster()?;
        let nodes = cluster.machine.nodes();
        let partitions: Vec<NodeSet> =
            cluster.machine.partitions.iter().map(|p| NodeSet::of(nodes, p.nodes.iter().copied())).collect();
        let waiting = vec![0; partitions.len()];
        Some(Layout { nodes, partitions, waiting })
    }
}

/// The nodes a request needs at least (`min_nodes`): its node count, or
/// one for a request of tasks.
fn min_nodes(request: &Request) -> u32 {
    request.min_nodes()
}

impl Slurm {
    /// `_schedule` on nodes: jobs in priority order start first fit on
    /// the nodes no failed partition holds. A job that does not fit fails
    /// its partition for the rest of the pass (unless it has waited less
    /// than `bf_min_age_reserve`): no later job of it is looked at, and
    /// its nodes are taken from every other partition's jobs
    /// (`failed_parts`, `bit_and_not(avail_node_bitmap, part_ptr->node_bitmap)`);
    /// a job whose partition has fewer usable nodes left than it needs
    /// fails it too, whatever its age. The pass ends when every partition
    /// with waiting jobs has failed. Whether it stopped at the depth limit
    /// with jobs left to look at.
    pub(super) fn main_pass_on_nodes(&mut self, sim: &mut Sim<'_>, full: bool) -> Result<bool, EngineError> {
        let Some(layout) = self.layout.as_ref() else { return Ok(false) };
        let now = sim.now();
        let mut blocked = NodeSet::empty(layout.nodes);
        let mut failed = vec![false; layout.partitions.len()];
        let mut depth = 0usize;
        let mut after = None;
        while let Some(key) = self.queue.next_after(after) {
            let Some(layout) = self.layout.as_ref() else { break };
            if !layout.waiting.iter().zip(&failed).any(|(&w, &f)| w > 0 && !f) {
                break;
            }
            after = Some(key);
            if !full {
                if depth > self.s.queue_depth {
                    return Ok(true);
                }
                depth += 1;
            }
            let j = key.1;
            let (Some(request), Some(nodes)) = (sim.request(j), sim.nodes()) else { break };
            let p = request.partition as usize;
            if failed[p] {
                continue;
            }
            let part = &layout.partitions[p];
            let fail = if part.count() - part.overlap(&blocked) < min_nodes(request) {
                true
            } else {
                let also = |n: u32, _: &Request| if blocked.contains(n) { 0 } else { u64::MAX };
                let slots = pick_now(nodes, request, &also, &|n| nodes.free(n)[0]);
                if let Some(slots) = slots {
                    self.start_job(sim, j, Some(slots))?;
                    continue;
                }
                let job = sim.job(j);
                !(self.s.bf_min_age_reserve > 0 && now - job.submit < self.s.bf_min_age_reserve)
            };
            if fail {
                failed[p] = true;
                blocked.or(part);
            }
        }
        Ok(false)
    }

    /// The backfill test of one job on nodes (`_attempt_backfill`'s loop
    /// body): from `start_res`, the nodes of its partition free of
    /// reservations through its whole limit must be at least its node
    /// count; the select plugin's estimate on those nodes gives the start
    /// and the nodes; a job that can start now starts there; otherwise it
    /// reserves those nodes whole, from its start to its limit's end, both
    /// rounded down to `bf_resolution`. Retries (`TRY_LATER`), the window
    /// and `bf_min_age_reserve` as on one node.
    pub(super) fn verdict_on_nodes(&self, sim: &Sim<'_>, map: &NodeSpace, j: JobIdx, tried: &mut usize) -> Verdict {
        let (Some(layout), Some(request)) = (self.layout.as_ref(), sim.request(j)) else { return Verdict::Skip };
        let now = sim.now();
        let job = sim.job(j);
        let limit = limit_minutes(job) * 60;
        let part = &layout.partitions[request.partition as usize];
        let no_reserve = self.s.bf_min_age_reserve > 0 && now - job.submit < self.s.bf_min_age_reserve;
        let res = self.s.bf_resolution;
        let mut later = Some(now);
        let mut counted = false;
        let mut previous = Time::MIN;
        while let Some(start_res) = later.take() {
            if start_res <= previous {
                return Verdict::Skip;
            }
            previous = start_res;
            let end_time = start_res.max(now) + limit;
            let (usable, next) = map.test(start_res, end_time, part);
            later = next.filter(|_| !no_reserve);
            if usable.count() < min_nodes(request) {
                continue;
            }
            if !counted {
                *tried += 1;
                counted = true;
            }
            let Some((estimate, slots)) = self.will_run_on_nodes(sim, j, request, &usable, no_reserve) else {
                continue;
            };
            let start = estimate.max(start_res);
            if start <= now {
                return Verdict::Start(Some(slots));
            }
            if no_reserve {
                return Verdict::Skip;
            }
            if later.is_some_and(|l| start > l) {
                continue;
            }
            let from = start.div_euclid(res) * res;
            let to = (start + limit).div_euclid(res) * res;
            if start > now + self.s.bf_window {
                return Verdict::Skip;
            }
            let nodes = NodeSet::of(layout.nodes, slots.iter().map(|s| s.node));
            if map.overlaps(from, to, &nodes) {
                later = Some(start);
                continue;
            }
            return Verdict::Reserve { start, from, to, nodes };
        }
        Verdict::Skip
    }

    /// `_will_run_test` on nodes: when and where `request` could start on
    /// the nodes of `usable`, as the cycle sees the machine (jobs that
    /// ended within `bf_end_lag` still hold their resources). Now, first
    /// fit, if it fits; otherwise (unless `now_only`) the running jobs are
    /// taken away in the batches of their expected ends, and the job
    /// starts at the last end of the first batch after which enough of
    /// the usable nodes can hold it, on the first of them. Only the nodes
    /// that can hold a unit now or that a released job touches are
    /// visited.
    ///
    /// Jobs of one request shape tested on the same usable nodes get the
    /// same answer until a job starts, so a cycle keeps its answers
    /// (`Scratch::forget` clears them) and makes each test once.
    fn will_run_on_nodes(
        &self,
        sim: &Sim<'_>,
        j: JobIdx,
        request: &Request,
        usable: &NodeSet,
        now_only: bool,
    ) -> Option<(Time, Vec<Slot>)> {
        let shape = sim.cluster()?.of_job[j as usize];
        let mut scratch = self.scratch.borrow_mut();
        let key = (shape, now_only, usable.clone());
        if let Some(answer) = scratch.answers.get(&key) {
            return answer.clone();
        }
        let answer = self.test_on_nodes(sim, request, usable, now_only, &mut scratch);
        if scratch.answers.len() < MAX_ANSWERS {
            scratch.answers.insert(key, answer.clone());
        }
        answer
    }

    /// The test `will_run_on_nodes` answers, made.
    fn test_on_nodes(
        &self,
        sim: &Sim<'_>,
        request: &Request,
        usable: &NodeSet,
        now_only: bool,
        scratch: &mut Scratch,
    ) -> Option<(Time, Vec<Slot>)> {
        let nodes = sim.nodes()?;
        let now = sim.now();
        let sc = scratch.begin(nodes);
        // Free amounts that differ from the index's, node by node.
        for j in self.running.lagging() {
            sc.touched = sc.change(nodes, sim, j, false);
        }
        let units = |n: u32, free: &[u64]| units_of(nodes, request, usable, n, free);
        let also = |n: u32, _: &Request| {
            if !usable.contains(n) {
                0
            } else {
                sc.free(n).map_or(u64::MAX, |f| units(n, f))
            }
        };
        let cores = |n: u32| sc.free(n).unwrap_or(nodes.free(n))[0];
        if let Some(slots) = pick_now(nodes, request, &also, &cores) {
            return Some((now, slots));
        }
        if now_only || !may_ever_fit(sim, request, usable) {
            return None;
        }
        let mut total = 0u64;
        for s in nodes.fitting_where(request, &also) {
            total += sc.hold(s.node, per_node(request, u64::from(s.units)));
        }
        let need = u64::from(request.count);
        let batches = self.running.batches();
        let mut order = self.running.by_end();
        let mut released = 0;
        for b in batches.iter() {
            // A start past the window gets no reservation and retries as
            // a job that never fits does (`verdict_on_nodes`), so the
            // walk stops there.
            if start_after(b.end, now) > now + self.s.bf_window {
                return None;
            }
            while released < b.jobs {
                let Some(j) = order.next() else { break };
                released += 1;
                let touched = sc.change(nodes, sim, j, true);
                for &n in &touched {
                    if usable.contains(n) {
                        let holds = sc.free(n).map_or(0, |f| per_node(request, units(n, f)));
                        let before = sc.held(n);
                        total = total - before + sc.hold(n, holds);
                    }
                }
                sc.touched = touched;
            }
            if total >= need {
                if let Some(slots) = sc.first_fit(request) {
                    return Some((start_after(b.end, now), slots));
                }
            }
        }
        None
    }
}

/// The nodes Slurm gives `request` now among those `also` allows (each
/// with `cores(node)` free cores), by cons_tres `choose_nodes` and
/// `_eval_nodes` ([`choose_nodes`]); the engine's first fit says first, cheaply, whether
/// any placement exists.
fn pick_now(
    nodes: &Nodes,
    request: &Request,
    also: &dyn Fn(u32, &Request) -> u64,
    cores: &dyn Fn(u32) -> u64,
) -> Option<Vec<Slot>> {
    nodes.find_where(request, also)?;
    let usable: Vec<Usable> = nodes
        .fitting_where(request, also)
        .iter()
        .map(|s| {
            let units = u64::from(s.units);
            let cpus = if request.spread == Spread::Nodes { cores(s.node) } else { units };
            Usable { node: s.node, units, cpus }
        })
        .collect();
    choose_nodes(request, &usable)
}

/// Answers a cycle keeps at most; past them, tests are made again.
const MAX_ANSWERS: usize = 256;

/// A test's answer (when and where), by its request shape, whether it
/// asks about now only, and its usable nodes.
type Answers = BTreeMap<(u32, bool, NodeSet), Option<(Time, Vec<Slot>)>>;

/// The working state of a test on nodes, kept between tests so that a
/// test costs the nodes it touches: each node's free amounts where they
/// differ from the index's, and the units of the request each node holds
/// later, both valid for the current test only (its epoch).
#[derive(Default)]
pub(super) struct Scratch {
    epoch: u32,
    resources: usize,
    free_epoch: Vec<u32>,
    free: Vec<u64>,
    hold_epoch: Vec<u32>,
    holds: Vec<u64>,
    /// Nodes given a hold in this test.
    held_nodes: Vec<u32>,
    /// Nodes the last change touched.
    touched: Vec<u32>,
    /// This cycle's answers since a job last started.
    answers: Answers,
}

impl Scratch {
    /// A new test on `nodes`: nothing changed yet.
    fn begin(&mut self, nodes: &Nodes) -> &mut Self {
        let (n, r) = (nodes.len(), nodes.resources());
        if self.free_epoch.len() != n || self.resources != r || self.epoch == u32::MAX {
            *self = Scratch {
                resources: r,
                free_epoch: vec![0; n],
                free: vec![0; n * r],
                hold_epoch: vec![0; n],
                holds: vec![0; n],
                answers: std::mem::take(&mut self.answers),
                ..Scratch::default()
            };
        }
        self.epoch += 1;
        self.held_nodes.clear();
        self
    }

    /// Forgets the answers: a job started, or a cycle begins.
    pub(super) fn forget(&mut self) {
        self.answers.clear();
    }

    fn free(&self, n: u32) -> Option<&[u64]> {
        let r = self.resources;
        let n = n as usize;
        (self.free_epoch[n] == self.epoch).then(|| &self.free[n * r..(n + 1) * r])
    }

    fn held(&self, n: u32) -> u64 {
        if self.hold_epoch[n as usize] == self.epoch {
            self.holds[n as usize]
        } else {
            0
        }
    }

    /// Sets what node `n` holds; returns it.
    fn hold(&mut self, n: u32, units: u64) -> u64 {
        let i = n as usize;
        if self.hold_epoch[i] != self.epoch {
            self.hold_epoch[i] = self.epoch;
            self.held_nodes.push(n);
        }
        self.holds[i] = units;
        units
    }

    /// Takes away (`give` false) or gives back job `j`'s resources; the
    /// nodes it touched.
    fn change(&mut self, nodes: &Nodes, sim: &Sim<'_>, j: JobIdx, give: bool) -> Vec<u32> {
        let mut touched = std::mem::take(&mut self.touched);
        touched.clear();
        let Some(request) = sim.request(j) else { return touched };
        let r = self.resources;
        for &slot in sim.placement(j) {
            let n = slot.node as usize;
            if self.free_epoch[n] != self.epoch {
                self.free_epoch[n] = self.epoch;
                self.free[n * r..(n + 1) * r].copy_from_slice(nodes.free(slot.node));
            }
            for k in 0..r {
                let amount = nodes.taken(request, slot, k);
                let f = &mut self.free[n * r + k];
                *f = if give { f.saturating_add(amount) } else { f.saturating_sub(amount) };
            }
            touched.push(slot.node);
        }
        touched
    }

    /// The first nodes, by index, that give `request` all its units (by
    /// the engine's rule for tasks spread over nodes, whose held units
    /// only said that a fit may exist).
    fn first_fit(&mut self, request: &Request) -> Option<Vec<Slot>> {
        self.held_nodes.sort_unstable();
        if let Spread::Over { .. } = request.spread {
            let held: Vec<(u32, u64)> = self.held_nodes.iter().map(|&n| (n, self.holds[n as usize])).collect();
            return first_fit(request, &held);
        }
        let mut left = u64::from(request.count);
        let mut slots = Vec::new();
        for &node in &self.held_nodes {
            if left == 0 {
                break;
            }
            let units = self.holds[node as usize];
            if units == 0 {
                continue;
            }
            let take = units.min(left);
            slots.push(Slot { node, units: take as u32 });
            left -= take;
        }
        Some(slots)
    }
}

/// Whether the usable nodes, each as large as the largest node type, could
/// hold `request` with nothing running: if not, no release makes room,
/// and the test need not play the running jobs' ends.
fn may_ever_fit(sim: &Sim<'_>, request: &Request, usable: &NodeSet) -> bool {
    let Some(cluster) = sim.cluster() else { return false };
    let most = cluster.machine.node_types.iter().map(|t| request.worth(request.units_in(&t.capacity))).max();
    most.unwrap_or(0).saturating_mul(u64::from(usable.count())) >= u64::from(request.count)
}

/// Units of `request` node `n` holds with `free` left, if it is usable
/// (none unless idle, for an exclusive request).
fn units_of(nodes: &Nodes, request: &Request, usable: &NodeSet, n: u32, free: &[u64]) -> u64 {
    if !usable.contains(n) || (request.exclusive && free != nodes.capacity(n)) {
        return 0;
    }
    request.units_in(free)
}

/// What a node holding `units` gives the request: one node, or its tasks
/// (for tasks spread over nodes, up to the most one node may take).
fn per_node(request: &Request, units: u64) -> u64 {
    request.worth(units)
}
