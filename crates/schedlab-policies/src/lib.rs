//! The scheduling policies and their registry.
//!
//! One policy per module, each implementing [`schedlab_engine::Policy`] and
//! exporting one [`PolicyInfo`]. Adding a policy means writing its module
//! and adding one line to [`REGISTRY`]; nothing else names a policy.

mod backfill;
mod book;
mod cbf;
mod common;
mod dbf;
pub mod directed;
mod easy;
mod fcfs;
mod live_prediction_order;
mod node_book;
mod pv_easy;
mod queue_index;
mod selective;
mod slack;
mod slurm;

pub use backfill::order_formula;
use schedlab_engine::params::{ParamSpec, Params};
use schedlab_engine::{Policy, RuntimeSource, Time};
use serde::Serialize;
pub use slurm::{site_settings, Ignored as SlurmConfIgnored, SiteSettings as SlurmSiteSettings};

/// What the front ends need to know of a policy, and how to build one.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Whether the policy draws from the run's seed (DBF picks its
    /// deadline-driven jobs that way). A run whose policy and runtime
    /// source both use no seed gives the same result under every seed, so
    /// an experiment runs it once however many repetitions it asks for.
    pub uses_seed: bool,
    /// Whether the policy runs on a machine of nodes (docs/semantics.md,
    /// "Machines of nodes"), or why it refuses one.
    #[serde(skip)]
    pub on_nodes: OnNodes,
    /// Builds the policy from values checked against `params`; each policy
    /// reads them as the struct its parameter list is declared as
    /// (`schedlab_engine::param_set!`), so it names no key as text.
    #[serde(skip)]
    pub build: fn(&Params, &PolicySettings) -> Box<dyn Policy>,
    /// Whether, with these parameters (checked against `params`), the
    /// policy needs a calibration run (a CBF run of the same trace, see
    /// [`Calibration`]) before it is built.
    #[serde(skip)]
    pub needs_calibration: fn(&Params) -> bool,
    /// Parameters that matter only under some values of another one
    /// (PV-EASY's checkpoint interval only in checkpoint mode).
    pub conditions: &'static [ParamCondition],
}

/// Whether a policy runs on a machine of nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnNodes {
    /// It plans with nodes and resources (through `Sim::fits`,
    /// `Sim::nodes`, `Sim::start_on`).
    Runs,
    /// It counts processors only; the reason completes "… refuses a
    /// machine of nodes: ".
    Refuses(&'static str),
}

/// A parameter that matters only while a choice parameter of the same
/// policy has one of some values. Forms grey such a field out, and a
/// shared parameter does not claim to reach a run that ignores it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ParamCondition {
    /// The parameter that matters only sometimes.
    pub param: &'static str,
    /// The choice parameter it depends on.
    pub when: &'static str,
    /// The values of `when` under which `param` matters.
    pub is: &'static [&'static str],
}

impl PolicyInfo {
    /// Whether parameter `key` matters when the policy's choice parameters
    /// have the values `choice` gives (`None`: the parameter's default).
    pub fn param_matters<'a>(&self, key: &str, choice: impl Fn(&str) -> Option<&'a str>) -> bool {
        self.conditions.iter().filter(|c| c.param == key).all(|c| {
            let value = choice(c.when).or_else(|| self.default_choice(c.when));
            value.is_some_and(|v| c.is.contains(&v))
        })
    }

    /// The default of a choice parameter.
    fn default_choice(&self, key: &str) -> Option<&'static str> {
        self.params.iter().find(|p| p.key == key).and_then(|p| match p.kind {
            schedlab_engine::params::ParamKind::Choice { default, .. } => Some(default),
            _ => None,
        })
    }

    /// "only when mode is checkpoint or suspend", for a parameter that
    /// matters only sometimes.
    pub fn condition_text(&self, key: &str) -> Option<String> {
        let parts: Vec<String> = self
            .conditions
            .iter()
            .filter(|c| c.param == key)
            .map(|c| format!("{} is {}", c.when, c.is.join(" or ")))
            .collect();
        (!parts.is_empty()).then(|| format!("only when {}", parts.join(" and ")))
    }
}

/// For policies that never need a calibration run.
pub(crate) fn never_calibrate(_: &Params) -> bool {
    false
}

/// Checked settings a policy is built from, besides its parameters.
#[derive(Clone, Debug)]
pub struct PolicySettings {
    pub source: RuntimeSource,
    /// The run's seed, for policies that draw (DBF's deadline-driven jobs).
    pub seed: u64,
    /// Figures of a reference CBF run of the same trace, when the policy
    /// asked for one ([`PolicyInfo::needs_calibration`]).
    pub calibration: Option<Calibration>,
    /// The SN/SW/LN/LW limits of the run (the metrics' categories), for
    /// policies that treat categories differently (Sel-D).
    pub categories: Categories,
}

/// Short: runtime at most `short_runtime` s; narrow: at most `narrow_size`
/// processors (selective-reservation §2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Categories {
    pub short_runtime: Time,
    pub narrow_size: u32,
}

impl Default for Categories {
    fn default() -> Self {
        Self { short_runtime: 3600, narrow_size: 8 }
    }
}

impl Categories {
    /// 0 = SN, 1 = SW, 2 = LN, 3 = LW, for a job of `size` processors and
    /// (planned) runtime `runtime`.
    pub fn index(&self, runtime: Time, size: u32) -> usize {
        usize::from(runtime > self.short_runtime) * 2 + usize::from(size > self.narrow_size)
    }
}

/// Figures of a calibration run: the registry's `cbf` on the same trace
/// with the `estimate` source (or `exact` when the run itself uses exact
/// runtimes), computed by the experiment layer before the policy is built.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calibration {
    /// `cbf@estimate` or `cbf@exact`.
    pub reference: String,
    /// Mean wait of all jobs, seconds (slack's AWT).
    pub mean_wait: f64,
    /// Mean bounded slowdown of the well-estimated jobs (runtime at least
    /// half the estimate; every job with `exact`): Sel's threshold.
    pub well_estimated_bsd: f64,
    /// The same per category SN, SW, LN, LW (jobs classified by their
    /// planned runtime, as the policy sees them): Sel-D's thresholds. A
    /// category without well-estimated jobs gets the overall value.
    pub well_estimated_bsd_by_category: [f64; 4],
}

/// Every policy, in the order front ends list them.
pub const REGISTRY: &[&PolicyInfo] = &[
    &fcfs::INFO,
    &easy::INFO,
    &cbf::INFO,
    &pv_easy::INFO,
    &slack::INFO,
    &selective::INFO,
    &dbf::INFO,
    &backfill::INFO,
    &slurm::INFO,
];

/// Looks a policy up by its identifier.
pub fn find(id: &str) -> Option<&'static PolicyInfo> {
    REGISTRY.iter().copied().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_engine::params::ParamKind;

    /// Every condition names a parameter of its policy and one of its
    /// choice parameters, with values among that parameter's options.
    #[test]
    fn conditions_name_real_parameters_and_options() {
        for p in REGISTRY {
            for c in p.conditions {
                assert!(p.params.iter().any(|s| s.key == c.param), "{}: {} is no parameter", p.id, c.param);
                let when = p.params.iter().find(|s| s.key == c.when).expect("the condition's parameter");
                let ParamKind::Choice { options, .. } = when.kind else { panic!("{}: {} is no choice", p.id, c.when) };
                assert!(c.is.iter().all(|v| options.contains(v)), "{}: {:?} not among {options:?}", p.id, c.is);
            }
        }
    }

    #[test]
    fn checkpoint_cost_matters_in_checkpoint_and_suspend_modes_only() {
        let pv = find("pv-easy").unwrap();
        let mode = |m: &'static str| move |k: &str| (k == "mode").then_some(m);
        assert!(!pv.param_matters("cost", |_| None), "kill is the default mode");
        assert!(!pv.param_matters("cost", mode("kill")));
        assert!(pv.param_matters("cost", mode("checkpoint")));
        assert!(pv.param_matters("cost", mode("suspend")));
        assert!(!pv.param_matters("interval", mode("suspend")));
        assert!(pv.param_matters("mode", mode("kill")), "a parameter without a condition always matters");
        assert_eq!(pv.condition_text("cost").as_deref(), Some("only when mode is checkpoint or suspend"));
        assert_eq!(pv.condition_text("mode"), None);
    }
}
