//! The scheduling policies and their registry.
//!
//! One policy per module, each implementing [`schedlab_engine::Policy`] and
//! exporting one [`PolicyInfo`]. Adding a policy means writing its module
//! and adding one line to [`REGISTRY`]; nothing else names a policy.

mod cbf;
mod common;
mod easy;
mod fcfs;

use schedlab_engine::params::{ParamSpec, Params};
use schedlab_engine::{Policy, RuntimeSource};
use serde::Serialize;

/// What the front ends need to know of a policy, and how to build one.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyInfo {
    /// Stable identifier (`--policy ID`, share links, result documents).
    pub id: &'static str,
    pub name: &'static str,
    /// One paragraph for the page and `schedlab policies`.
    pub description: &'static str,
    pub params: &'static [ParamSpec],
    /// Whether the policy reads runtimes at all (FCFS does not).
    pub uses_runtime_source: bool,
    /// The runtime source used when none is chosen.
    pub default_source: &'static str,
    #[serde(skip)]
    pub build: fn(&PolicySettings) -> Box<dyn Policy>,
}

/// Checked settings a policy is built from.
#[derive(Clone, Debug)]
pub struct PolicySettings {
    pub params: Params,
    pub source: RuntimeSource,
}

/// Every policy, in the order front ends list them.
pub const REGISTRY: &[&PolicyInfo] = &[&fcfs::INFO, &easy::INFO, &cbf::INFO];

/// Looks a policy up by its identifier.
pub fn find(id: &str) -> Option<&'static PolicyInfo> {
    REGISTRY.iter().copied().find(|p| p.id == id)
}
