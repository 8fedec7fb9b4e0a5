//! The running jobs' expected ends, played once per backfill cycle.
//! `_will_run_test` takes the running jobs away in the batches of their
//! expected ends (`running.rs`) for every job the cycle tests; on a
//! machine of nodes what each node has free after each batch is the same
//! for every test until a job starts, as Slurm's own cycle builds its
//! view of the running jobs once. So the cycle plays the ends once, up to
//! the first batch past `bf_window` (a start there gets no reservation),
//! and a test reads, for its kind of unit, what its usable nodes hold
//! after each batch (`holdings.rs`). A start makes it all again.

use schedlab_engine::{JobIdx, Nodes, Sim, Slot, Time};
use schedlab_workload::{Request, Spread};

use super::holdings::{Changes, Holdings, Work};
use super::node_set::NodeSet;
use super::running::{start_after, Running};

/// What a unit is: a request's amounts per unit, its spread and whether
/// it takes nodes whole. Requests of one kind differ in count alone, and
/// hold the same on every node.
struct Kind {
    spread: Spread,
    exclusive: bool,
    each: Vec<u64>,
}

#[derive(Default)]
pub(super) struct Ends {
    /// Whether `early` holds the machine as it is (cleared by `forget`).
    early_made: bool,
    /// Whether the ends are played for the machine as it is.
    played: bool,
    resources: usize,
    /// For each node, 1 + the index of its amounts in `early_free` when
    /// the jobs that ended but that the cycle still sees running make
    /// them differ from the index's; 0 otherwise.
    early_at: Vec<u32>,
    early_nodes: Vec<u32>,
    early_free: Vec<u64>,
    /// The start each batch within the window gives.
    starts: Vec<Time>,
    /// Where each batch's changes end.
    until: Vec<usize>,
    /// Each change: the node a released job gives back to, and its free
    /// amounts after it (`resources` each).
    changed: Vec<u32>,
    changed_free: Vec<u64>,
    /// Per node, the play's change that last touched it (valid when its
    /// stamp is the play's).
    last: Vec<usize>,
    stamp: Vec<u32>,
    epoch: u32,
    /// The kinds of unit tested since the play, with their holdings.
    kinds: Vec<(Kind, Holdings)>,
    work: Work,
}

impl Ends {
    /// A job started, or a cycle begins: the machine changed.
    pub(super) fn forget(&mut self) {
        self.early_made = false;
        self.played = false;
        self.kinds.clear();
    }

    /// Node `n`'s free amounts before the first batch, where the jobs
    /// still seen running make them differ from the index's.
    pub(super) fn early(&self, n: u32) -> Option<&[u64]> {
        let at = *self.early_at.get(n as usize)? as usize;
        let r = self.resources;
        (at > 0).then(|| &self.early_free[(at - 1) * r..at * r])
    }

    /// Takes the jobs that ended but that the cycle still sees running
    /// away from the index's free amounts, once per machine state.
    pub(super) fn see_lagging(&mut self, nodes: &Nodes, sim: &Sim<'_>, running: &Running) {
        if self.early_made {
            return;
        }
        self.early_made = true;
        if self.early_at.len() != nodes.len() || self.resources != nodes.resources() {
            self.early_at = vec![0; nodes.len()];
            self.resources = nodes.resources();
        }
        for &n in &self.early_nodes {
            self.early_at[n as usize] = 0;
        }
        self.early_nodes.clear();
        self.early_free.clear();
        let r = self.resources;
        for j in running.lagging() {
            let Some(request) = sim.request(j) else { continue };
            for &slot in sim.placement(j) {
                let n = slot.node as usize;
                if self.early_at[n] == 0 {
                    self.early_free.extend_from_slice(nodes.free(slot.node));
                    self.early_nodes.push(slot.node);
                    self.early_at[n] = self.early_nodes.len() as u32;
                }
                let at = (self.early_at[n] as usize - 1) * r;
                for k in 0..r {
                    let f = &mut self.early_free[at + k];
                    *f = f.saturating_sub(nodes.taken(request, slot, k));
                }
            }
        }
    }

    /// When and where `request` could start on the nodes of `usable`
    /// after the running jobs' ends: the start of the first batch after
    /// which those nodes hold its units, and the first of them by index.
    /// `see_lagging` must have been called for this machine state.
    pub(super) fn first_batch(
        &mut self,
        nodes: &Nodes,
        sim: &Sim<'_>,
        running: &Running,
        window: Time,
        request: &Request,
        usable: &NodeSet,
    ) -> Option<(Time, Vec<Slot>)> {
        self.play(nodes, sim, running, window);
        let i = self.kind_of(nodes, request);
        let Ends { kinds, changed, until, starts, work, .. } = self;
        let changes = Changes { nodes: changed, until };
        let holdings = &kinds[i].1;
        let (k, slots) = match request.spread {
            Spread::Over { .. } => holdings.first_placement(&changes, usable, request, work)?,
            _ => holdings.first_batch(&changes, usable, u64::from(request.count), work)?,
        };
        Some((starts[k], slots))
    }

    /// Plays the ends in batches, each job giving back what it takes on
    /// each of its nodes, until the first batch whose start is past the
    /// window.
    fn play(&mut self, nodes: &Nodes, sim: &Sim<'_>, running: &Running, window: Time) {
        if self.played {
            return;
        }
        self.played = true;
        self.starts.clear();
        self.until.clear();
        self.changed.clear();
        self.changed_free.clear();
        if self.stamp.len() != nodes.len() || self.epoch == u32::MAX {
            self.stamp = vec![0; nodes.len()];
            self.last = vec![0; nodes.len()];
            self.epoch = 0;
        }
        self.epoch += 1;
        let now = sim.now();
        let batches = running.batches();
        let mut order = running.by_end();
        let mut released = 0;
        for b in batches.iter() {
            let start = start_after(b.end, now);
            if start > now + window {
                break;
            }
            while released < b.jobs {
                let Some(j) = order.next() else { break };
                released += 1;
                self.release(nodes, sim, j);
            }
            self.starts.push(start);
            self.until.push(self.changed.len());
        }
    }

    /// Gives job `j`'s resources back, one change per node.
    fn release(&mut self, nodes: &Nodes, sim: &Sim<'_>, j: JobIdx) {
        let Some(request) = sim.request(j) else { return };
        let r = self.resources;
        for &slot in sim.placement(j) {
            let n = slot.node as usize;
            let at = self.changed_free.len();
            if self.stamp[n] == self.epoch {
                let from = self.last[n] * r;
                self.changed_free.extend_from_within(from..from + r);
            } else if self.early_at[n] > 0 {
                let from = (self.early_at[n] as usize - 1) * r;
                self.changed_free.extend_from_slice(&self.early_free[from..from + r]);
            } else {
                self.changed_free.extend_from_slice(nodes.free(slot.node));
            }
            for k in 0..r {
                let f = &mut self.changed_free[at + k];
                *f = f.saturating_add(nodes.taken(request, slot, k));
            }
            self.stamp[n] = self.epoch;
            self.last[n] = self.changed.len();
            self.changed.push(slot.node);
        }
    }

    /// The index of `request`'s kind in `kinds`, its holdings made if
    /// this is the play's first test of it.
    fn kind_of(&mut self, nodes: &Nodes, request: &Request) -> usize {
        let same = |k: &Kind| k.spread == request.spread && k.exclusive == request.exclusive && k.each == request.each;
        if let Some(i) = self.kinds.iter().position(|(k, _)| same(k)) {
            return i;
        }
        let kind = Kind { spread: request.spread.clone(), exclusive: request.exclusive, each: request.each.clone() };
        let r = self.resources;
        let first =
            (0..nodes.len() as u32).map(|n| holds(nodes, request, n, self.early(n).unwrap_or(nodes.free(n)))).collect();
        let after = self
            .changed
            .iter()
            .enumerate()
            .map(|(i, &n)| holds(nodes, request, n, &self.changed_free[i * r..(i + 1) * r]))
            .collect();
        let changes = Changes { nodes: &self.changed, until: &self.until };
        let holdings = Holdings::new(first, after, &changes);
        self.kinds.push((kind, holdings));
        self.kinds.len() - 1
    }
}

/// What node `n` with `free` left gives `request`: its units (none
/// unless idle, for an exclusive request), one at most for a request of
/// nodes; for tasks spread over nodes, all the tasks it holds beside its
/// per-node amounts, whatever the count (so that requests differing in
/// count alone share them; the placement caps each node). At most
/// `u32::MAX`, what a slot holds, so that sums over the nodes cannot
/// overflow.
fn holds(nodes: &Nodes, request: &Request, n: u32, free: &[u64]) -> u64 {
    if request.exclusive && free != nodes.capacity(n) {
        return 0;
    }
    let units = request.units_in(free);
    let units = match request.spread {
        Spread::Nodes => units.min(1),
        _ => units,
    };
    units.min(u64::from(u32::MAX))
}
