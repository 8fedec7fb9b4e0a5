//! One backfill cycle (`_attempt_backfill`,
//! src/plugins/sched/backfill/backfill.c), and its test of a job on one
//! node (on a machine of nodes: `on_nodes.rs`).

use std::collections::BTreeMap;

use schedlab_engine::{EngineError, JobIdx, Sim, Slot, Time};

use super::node_set::NodeSet;
use super::node_space::NodeSpace;
use super::priority::limit_minutes;
use super::Slurm;

/// What a cycle did, for when the next one runs.
#[derive(Default)]
pub(super) struct Outcome {
    /// It found jobs to test (which sets their expected start, and so
    /// keeps the cycles on their beat).
    pub(super) tested: bool,
    pub(super) started: bool,
}

/// What the cycle does with one job.
pub(super) enum Verdict {
    /// Start now (on these nodes, on a machine of nodes).
    Start(Option<Vec<Slot>>),
    /// A reservation at this start, of these whole nodes from the start
    /// and the end rounded down to `bf_resolution`.
    Reserve {
        start: Time,
        from: Time,
        to: Time,
        nodes: NodeSet,
    },
    Skip,
}

impl Slurm {
    /// The jobs in priority order, each tested against the map of the
    /// reservations made before it in the cycle: it starts if it can now,
    /// or reserves the whole node from its expected start to the end of
    /// its limit. At most `bf_max_job_test` jobs reach the test and
    /// `bf_max_job_user` of one user are looked at; the map holds at most
    /// `bf_max_job_test` records (`bf_node_space_size`'s default), and
    /// the cycle ends when it is full.
    pub(super) fn cycle(&mut self, sim: &mut Sim<'_>) -> Result<Outcome, EngineError> {
        let mut out = Outcome { tested: !self.queue.is_empty(), ..Outcome::default() };
        let now = sim.now();
        let nodes = self.layout.as_ref().map_or(1, |l| l.nodes);
        let mut map = NodeSpace::new(now, self.s.bf_resolution, self.s.bf_window, nodes);
        self.scratch.borrow_mut().forget();
        let mut tried = 0usize;
        let mut per_user: BTreeMap<i32, usize> = BTreeMap::new();
        let mut after = None;
        // Once every node is taken from some instant to the end of the
        // window, a job whose limit from now reaches that instant finds no
        // free stretch: it is skipped untested, so the walk asks only for
        // shorter jobs. With `bf_max_job_user` every job looked at counts
        // towards its user's limit, so then the walk sees them all.
        let mut bound = Time::MAX;
        while let Some(key) = self.queue.next_shorter(after, bound) {
            after = Some(key);
            if tried >= self.s.bf_max_job_test {
                break;
            }
            let j = key.1;
            let job = sim.job(j);
            if self.s.bf_max_job_user > 0 {
                let seen = per_user.entry(job.user).or_default();
                if *seen >= self.s.bf_max_job_user {
                    continue;
                }
                *seen += 1;
            }
            let verdict = if self.layout.is_some() {
                self.verdict_on_nodes(sim, &map, j, &mut tried)
            } else {
                self.verdict(sim, &map, j, &mut tried)
            };
            match verdict {
                Verdict::Start(slots) => {
                    self.start_job(sim, j, slots)?;
                    self.scratch.borrow_mut().forget();
                    out.started = true;
                }
                Verdict::Reserve { start, from, to, nodes } => {
                    if map.made() >= self.s.bf_max_job_test {
                        break;
                    }
                    map.reserve(from, to, &nodes);
                    sim.reserve(j, start);
                    if self.s.bf_max_job_user == 0 {
                        bound = map.taken_from().map_or(Time::MAX, |t| t - now);
                    }
                }
                Verdict::Skip => {}
            }
        }
        Ok(out)
    }

    /// The test of one job (the body of `_attempt_backfill`'s loop, with
    /// its `TRY_LATER` retries): from `start_res` (now, then each later
    /// instant the map offers), the node must be free of reservations
    /// through the job's whole limit (`end_time` included); the select
    /// plugin's estimate (`Running::will_run`) gives the start; a job
    /// that can start now starts; one younger than `bf_min_age_reserve`
    /// only starts now; a start past `bf_window` gets no reservation; a
    /// reservation that would meet another is tried again from its start.
    fn verdict(&self, sim: &Sim<'_>, map: &NodeSpace, j: JobIdx, tried: &mut usize) -> Verdict {
        let now = sim.now();
        let job = sim.job(j);
        let limit = limit_minutes(job) * 60;
        // Jobs that ended this instant still hold their cores in the
        // cycle's view (`bf_end_lag`); the cycle runs before the main
        // scheduler then, so none of those cores is taken yet.
        let idle = sim.free().saturating_sub(self.running.ended_cores());
        let no_reserve = self.s.bf_min_age_reserve > 0 && now - job.submit < self.s.bf_min_age_reserve;
        let res = self.s.bf_resolution;
        let mut later = Some(now);
        let mut counted = false;
        // Each retry starts later than the one before (the map's records
        // end on multiples of the resolution); the bound only guards that.
        let mut previous = Time::MIN;
        let node = &self.one_node;
        while let Some(start_res) = later.take() {
            if start_res <= previous {
                return Verdict::Skip;
            }
            previous = start_res;
            let end_time = start_res.max(now) + limit;
            let (free, next) = map.test(start_res, end_time, node, 1);
            later = next.filter(|_| !no_reserve);
            if free.is_empty() {
                continue;
            }
            if !counted {
                *tried += 1;
                counted = true;
            }
            let estimate =
                if no_reserve { (job.size <= idle).then_some(now) } else { self.running.will_run(job.size, idle, now) };
            let Some(estimate) = estimate else { continue };
            let start = estimate.max(start_res);
            if start <= now {
                return Verdict::Start(None);
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
            if map.overlaps(from, to, node) {
                later = Some(start);
                continue;
            }
            return Verdict::Reserve { start, from, to, nodes: node.clone() };
        }
        Verdict::Skip
    }
}
