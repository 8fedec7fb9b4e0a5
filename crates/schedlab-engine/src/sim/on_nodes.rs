//! What `Sim` offers a policy on a machine of nodes: whether a job fits
//! now, where it would go, and starting it on nodes the engine or the
//! policy chose (docs/semantics.md, "Machines of nodes"). On the archive's
//! processors these answer from the free processor count, so a policy
//! written against them runs unchanged on both models.

use schedlab_workload::{Cluster, Request};

use super::{EngineError, Sim, State};
use crate::nodes::{Nodes, Slot};
use crate::record::Placements;
use crate::{JobIdx, Time};

/// The machine of nodes during a run.
pub(crate) struct NodeRun<'a> {
    pub cluster: &'a Cluster,
    pub nodes: Nodes,
    /// Where each job runs or ran.
    pub placements: Placements,
}

impl<'a> NodeRun<'a> {
    pub fn new(cluster: &'a Cluster, jobs: usize) -> Self {
        NodeRun { cluster, nodes: Nodes::new(cluster), placements: Placements::new(jobs) }
    }
}

impl<'a> Sim<'a> {
    /// The machine of nodes and the jobs' requests, or `None` on the
    /// archive's model.
    pub fn cluster(&self) -> Option<&'a Cluster> {
        self.cluster.as_ref().map(|c| c.cluster)
    }

    /// The free resources of the machine's nodes, for planning (a policy
    /// clones it to play the future forward), or `None` on processors.
    pub fn nodes(&self) -> Option<&Nodes> {
        self.cluster.as_ref().map(|c| &c.nodes)
    }

    /// The request of job `j` on the machine of nodes.
    pub fn request(&self, j: JobIdx) -> Option<&'a Request> {
        self.cluster().map(|c| c.request(j as usize))
    }

    /// Where a running job runs (or a finished one ran); empty on
    /// processors.
    pub fn placement(&self, j: JobIdx) -> &[Slot] {
        self.cluster.as_ref().map_or(&[], |c| c.placements.of(j))
    }

    /// Whether waiting job `j` fits now: its size in the idle processors,
    /// or its request on the free nodes of its partition.
    pub fn fits(&self, j: JobIdx) -> bool {
        match &self.cluster {
            None => self.jobs[j as usize].size <= self.free,
            Some(c) => c.nodes.fits(c.cluster.request(j as usize)),
        }
    }

    /// Starts waiting job `j` now on `slots` (nodes in increasing order,
    /// each with the units of the job's request it holds), which the
    /// engine checks against the free resources and the request; for a
    /// policy that chooses nodes itself (whole nodes, a reservation's).
    pub fn start_on(&mut self, j: JobIdx, slots: Vec<Slot>, prediction: Time) -> Result<(), EngineError> {
        let id = self.jobs[j as usize].id;
        let Some(c) = &self.cluster else { return self.start_checked(j, prediction) };
        if self.state[j as usize] != State::Waiting {
            return Err(EngineError::NotWaiting { time: self.now, job: id });
        }
        let request = c.cluster.request(j as usize);
        if !c.nodes.can_take(request, &slots) {
            return Err(EngineError::BadPlacement { time: self.now, job: id });
        }
        let c = self.cluster.as_mut().expect("checked above");
        c.nodes.take(request, &slots);
        c.placements.set(j, &slots);
        self.start_checked(j, prediction)
    }

    /// The first-fit placement of `j` now, or the policy's error for
    /// starting a job that does not fit.
    pub(super) fn placement_now(&self, j: JobIdx) -> Result<Vec<Slot>, EngineError> {
        let c = self.cluster.as_ref().expect("called on a machine of nodes");
        c.nodes
            .find(c.cluster.request(j as usize))
            .ok_or(EngineError::NoRoom { time: self.now, job: self.jobs[j as usize].id })
    }

    /// Cores a running job holds: its size on processors, the cores of its
    /// slots on nodes (a whole node's for an exclusive request).
    pub(super) fn cores_of(&self, j: JobIdx) -> u32 {
        match &self.cluster {
            None => self.jobs[j as usize].size,
            Some(c) => {
                let request = c.cluster.request(j as usize);
                let slots = c.placements.of(j);
                slots.iter().map(|&s| c.nodes.taken(request, s, 0)).sum::<u64>() as u32
            }
        }
    }

    /// Gives a stopping job's nodes back.
    pub(super) fn release_nodes(&mut self, j: JobIdx) {
        if let Some(c) = &mut self.cluster {
            let request = c.cluster.request(j as usize);
            c.nodes.give(request, c.placements.of(j));
        }
    }
}
