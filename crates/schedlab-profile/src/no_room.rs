//! Request shapes known not to fit on a machine of nodes, so that a
//! policy does not ask the node index the same question again.
//!
//! Two facts stay true for a while. A shape that found no room in the
//! free resources finds none until resources are given back
//! ([`Nodes::releases`] changes): between releases the free amounts only
//! shrink. A shape that found no room in a pass's plan (the free
//! resources and what a reservation leaves) finds none for the rest of
//! that pass: within a pass both only shrink. A backfill pass tries every
//! waiting job, most passes release nothing, and many jobs share a shape,
//! so most failed descents of the index are asked again; remembering
//! them makes a pass cost what is new since the last release.

use schedlab_engine::Nodes;

#[derive(Default)]
pub struct NoRoom {
    /// Per shape, 1 + the release count at which it found no room now.
    now: Vec<u64>,
    /// Per shape, the pass in which it found no room in the plan.
    planned: Vec<u64>,
    /// This pass's number, from 1.
    pass: u64,
}

impl NoRoom {
    /// Makes room for `shapes` request shapes (once per run: a trace's
    /// shapes never change).
    pub fn fit_shapes(&mut self, shapes: usize) {
        if self.now.len() != shapes {
            self.now = vec![0; shapes];
            self.planned = vec![0; shapes];
        }
    }

    /// Starts a pass: what the last pass's plan refused may fit this one's.
    pub fn begin_pass(&mut self) {
        self.pass += 1;
    }

    /// Whether `shape` is known to find no room now.
    pub fn now(&self, nodes: &Nodes, shape: u32) -> bool {
        self.now[shape as usize] == nodes.releases() + 1
    }

    /// Whether `shape` is known to find no room now or in this pass's plan.
    pub fn planned(&self, nodes: &Nodes, shape: u32) -> bool {
        self.now(nodes, shape) || self.planned[shape as usize] == self.pass
    }

    /// Remembers that `shape` found no room now.
    pub fn refused_now(&mut self, nodes: &Nodes, shape: u32) {
        self.now[shape as usize] = nodes.releases() + 1;
    }

    /// Remembers that `shape` found no room in this pass's plan.
    pub fn refused_planned(&mut self, shape: u32) {
        self.planned[shape as usize] = self.pass;
    }
}
