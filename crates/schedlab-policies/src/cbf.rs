//! Conservative backfilling (Mu'alem and Feitelson 2001).
//!
//! Every waiting job holds a reservation in an availability profile that
//! also holds the running jobs until their expected ends (the shared
//! reservation `Book`). An arriving job takes the earliest slot that delays
//! no existing reservation. When a job ends before its expected end, the
//! schedule is *compressed*: in priority order, each waiting job gives back
//! its slot and takes the earliest one now available, which is never later
//! than the one it had (its old slot is still free when it looks). Jobs
//! whose reservation has come start.
//!
//! A reservation lasts the job's predicted runtime when it was placed, and
//! the job starts with that same prediction so that plan and machine agree.
//! With a runtime source that can fall short (`last`, `tsafrir`,
//! `virtual`), a running job may outlive its prediction; it then holds its
//! processors until its estimate, which can overcommit the plan. Only then
//! is the plan rebuilt from scratch (running jobs, then every waiting job in
//! priority order at its earliest slot, then this second's arrivals, each
//! once); such rebuilds can move a reservation later, which is why the "no
//! later than the first reservation" guarantee is only checked for
//! `estimate` and `exact`.
//!
//! The book keeps a timer at the earliest future reservation, so a job
//! starts at its reservation even when no other event falls on that second.
//!
//! On a machine of nodes the same steps run in a `NodeBook`: a reservation
//! is a window on specific nodes (the request's first fit by node index
//! among the nodes free throughout it), compression moves a job to the
//! earliest window before its own, and the job starts on its reserved
//! nodes when its time comes (docs/semantics.md, "Machines of nodes").

use schedlab_engine::{EngineError, Guarantee, Happened, JobIdx, Policy, Sim};

use crate::book::Book;
use crate::node_book::NodeBook;
use crate::{PolicyInfo, PolicySettings};

pub(crate) const INFO: PolicyInfo = PolicyInfo {
    id: "cbf",
    name: "Conservative backfilling",
    description: "Every waiting job holds a reservation; an arriving job takes the earliest slot that delays no \
                  reservation, and when a job ends early the schedule is compressed in priority order so no \
                  reservation ever moves later. Predictable, fair, less aggressive than EASY.",
    params: &[],
    uses_runtime_source: true,
    default_source: "estimate",
    uses_seed: false,
    on_nodes: crate::OnNodes::Runs,
    build: |_, s| build(s),
    needs_calibration: crate::never_calibrate,
    conditions: &[],
};

fn build(s: &PolicySettings) -> Box<dyn Policy> {
    Box::new(Cbf {
        upper_bound: s.source.is_upper_bound(),
        book: Book::default(),
        nodes: NodeBook::default(),
        order: Vec::new(),
    })
}

struct Cbf {
    upper_bound: bool,
    book: Book,
    /// The reservations on a machine of nodes (`book` stays empty there).
    nodes: NodeBook,
    /// Reused snapshot of the waiting queue.
    order: Vec<JobIdx>,
}

impl Policy for Cbf {
    fn schedule(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        if sim.cluster().is_some() {
            return self.schedule_on_nodes(sim, happened);
        }
        let changes = self.book.begin(sim, happened);
        if changes.overcommitted {
            self.order.clear();
            self.order.extend(crate::common::waiting_before(sim, happened));
            self.book.reset(sim);
            self.book.place_all(sim, &self.order);
        } else if changes.early {
            self.order.clear();
            self.book.compress(sim, &mut self.order);
        }
        for &j in &happened.arrived {
            let start = self.book.place(sim, j, sim.now());
            sim.reserve(j, start);
        }
        if changes.overcommitted || changes.early {
            crate::common::reserve_planned(sim, &self.book, &self.order);
        }
        self.book.start_due(sim)?;
        self.book.set_wake(sim)
    }

    fn guarantees(&self) -> Vec<Guarantee> {
        crate::common::reservation_guarantee(self.upper_bound)
    }
}

impl Cbf {
    /// The same pass on a machine of nodes, in the node book.
    fn schedule_on_nodes(&mut self, sim: &mut Sim<'_>, happened: &Happened) -> Result<(), EngineError> {
        let changes = self.nodes.begin(sim, happened);
        if changes.overcommitted {
            self.order.clear();
            self.order.extend(crate::common::waiting_before(sim, happened));
            self.nodes.reset(sim);
            self.nodes.place_all(sim, &self.order);
        } else if changes.early {
            self.order.clear();
            self.nodes.compress(sim, &mut self.order);
        }
        for &j in &happened.arrived {
            let start = self.nodes.place(sim, j, sim.now());
            sim.reserve(j, start);
        }
        if changes.overcommitted || changes.early {
            for &j in &self.order {
                if let Some(h) = self.nodes.held(j) {
                    sim.reserve(j, h.start);
                }
            }
        }
        self.nodes.start_due(sim)?;
        self.nodes.set_wake(sim)
    }
}
