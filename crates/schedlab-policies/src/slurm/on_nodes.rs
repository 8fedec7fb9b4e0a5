//! The `slurm` policy on a machine of nodes (docs/slurm.md, "The
//! machine"): the main scheduler's pass with its failed partitions
//! (`_schedule`, src/slurmctld/job_scheduler.c), and the backfill cycle's
//! test of one job against the map of node sets (`_attempt_backfill`,
//! src/plugins/sched/backfill/backfill.c) with the select plugin's
//! estimate of its start (`_will_run_test`, cons_tres), node by node.
//!
//! A job that starts now gets, among the nodes the pass or the map leaves
//! usable, the nodes cons_tres picks (`node_pick.rs`: `_eval_nodes`, the
//! tightest sufficient run of consecutive nodes, and `choose_nodes`); a
//! later start's nodes are the engine's first fit by node index, which is
//! what decides whether and when it fits (docs/decisions.md, "Machines of
//! nodes").

use std::collections::BTreeMap;

use schedlab_engine::{EngineError, JobIdx, Nodes, Sim, Slot, Time};
use schedlab_workload::{Request, Spread};

use super::cycle::Verdict;
use super::ends::Ends;
use super::node_pick::{choose_nodes, Usable};
use super::node_set::NodeSet;
use super::node_space::NodeSpace;
use super::priority::limit_minutes;
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
            let (usable, next) = map.test(start_res, end_time, part, min_nodes(request));
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
    /// the usable nodes can hold it, on the first of them. The ends are
    /// played once per cycle until a job starts, and each test reads what
    /// its usable nodes hold after each batch (`ends.rs`).
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
        if let Some(answer) = scratch.answers.get(&(shape, now_only)).and_then(|a| a.get(usable)) {
            return answer.clone();
        }
        let answer = self.test_on_nodes(sim, request, usable, now_only, &mut scratch);
        if scratch.kept < MAX_ANSWERS {
            scratch.kept += 1;
            scratch.answers.entry((shape, now_only)).or_default().insert(usable.clone(), answer.clone());
        }
        answer
    }

    /// The test `will_run_on_nodes` answers, made. The running jobs'
    /// ends are played once for every test until a job starts
    /// (`ends.rs`).
    fn test_on_nodes(
        &self,
        sim: &Sim<'_>,
        request: &Request,
        usable: &NodeSet,
        now_only: bool,
        scratch: &mut Scratch,
    ) -> Option<(Time, Vec<Slot>)> {
        let nodes = sim.nodes()?;
        let ends = &mut scratch.ends;
        ends.see_lagging(nodes, sim, &self.running);
        // Free amounts that differ from the index's, node by node.
        let also = |n: u32, _: &Request| {
            if !usable.contains(n) {
                0
            } else {
                ends.early(n).map_or(u64::MAX, |f| units_of(nodes, request, usable, n, f))
            }
        };
        let cores = |n: u32| ends.early(n).unwrap_or(nodes.free(n))[0];
        if let Some(slots) = pick_now(nodes, request, &also, &cores) {
            return Some((sim.now(), slots));
        }
        if now_only || !may_ever_fit(sim, request, usable) {
            return None;
        }
        ends.first_batch(nodes, sim, &self.running, self.s.bf_window, request, usable)
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

/// A test's answer (when and where), by its request shape and whether it
/// asks about now only, then by its usable nodes (so that a look-up
/// borrows the set instead of copying it).
type Answers = BTreeMap<(u32, bool), BTreeMap<NodeSet, Option<(Time, Vec<Slot>)>>>;

/// What the tests of a cycle share until a job starts: their answers,
/// and the running jobs' ends played once.
#[derive(Default)]
pub(super) struct Scratch {
    /// This cycle's answers since a job last started.
    answers: Answers,
    /// How many answers it holds.
    kept: usize,
    ends: Ends,
}

impl Scratch {
    /// Forgets the answers and the ends: a job started, or a cycle
    /// begins.
    pub(super) fn forget(&mut self) {
        self.answers.clear();
        self.kept = 0;
        self.ends.forget();
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
