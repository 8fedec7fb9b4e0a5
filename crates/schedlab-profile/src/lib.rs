//! The structures the policies plan with; the engine never uses them.
//!
//! - [`Profile`]: free processors as a step function of time, where
//!   conservative-style policies keep running jobs and reservations
//!   (breakpoints in chunks under a segment tree, `skyline.rs`);
//! - [`NodePlanner`]: EASY's reservation on a machine of nodes, the
//!   running jobs' ends played forward on an overlay of the nodes they touch;
//! - [`NodeProfile`]: the free amounts of every node over time, where
//!   conservative and composable backfilling plan on a machine of nodes;
//! - [`NoRoom`]: request shapes known not to fit, until resources are given
//!   back or the pass ends;
//! - [`treap`]: an ordered map whose nodes hold a summary of their subtree,
//!   under the policies' indexes of the waiting queue.
//!
//! They live apart from the engine so that the engine holds only what a run
//! needs whatever the policy, and so that they can be tested against naive
//! models on their own (`tests/`).

mod no_room;
mod node_plan;
mod node_profile;
mod profile;
mod skyline;
mod tournament;
pub mod treap;

pub use no_room::NoRoom;
pub use node_plan::{NodePlanner, NodeShadow};
pub use node_profile::NodeProfile;
pub use profile::Profile;
