use schedlab_engine::params::ParamValue;
use std::collections::BTreeMap;

use schedlab_metrics::Metrics;
use schedlab_policies::Calibration;
use schedlab_workload::{paper_machine_note, stats_with_cleaning, Loaded, MachineDescription, ReadOptions, TraceStats};
use serde::Serialize;

use crate::{RunOutcome, RunSettings};

/// Version of the result document's layout; bumped on any incompatible
/// change. Documented in docs/cli.md (the `run --json` keys).
pub const SCHEMA: &str = "schedlab-run/1";

/// Who the trace is and how it was read: enough to tell two traces apart,
/// to cite one, and to redo the run from the document (docs/semantics.md, "Outputs").
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Serialize)]
pub struct TraceIdentity {
    pub name: String,
    /// SHA-256 of the uncompressed bytes, lowercase hex.
    pub sha256: String,
    /// Jobs after cleaning, the ones the run replayed.
    pub jobs: usize,
    pub procs: u32,
    /// The workload options the trace was read with.
    pub options: ReadOptions,
    /// Counts by cleaning rule, in the order the rules apply.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub cleaning: BTreeMap<&'static str, u64>,
    pub stats: TraceStats,
    /// What the reader warned about (a machine size it had to guess, an
    /// unusable header entry, duplicate job numbers, …), so that every
    /// result carries the caveats of its trace; and the machine size the
    /// source papers simulate the trace on, when the run used another.
    pub warnings: Vec<String>,
    /// On a machine of nodes, its resources' totals, node types and
    /// partitions: what the machine metrics are measured against. Absent
    /// on the archive's processors, so those documents keep their bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub machine: Option<MachineDescription>,
}

impl TraceIdentity {
    pub fn new(name: String, loaded: &Loaded, options: &ReadOptions) -> Self {
        let mut warnings = loaded.report.warnings.clone();
        warnings.extend(paper_machine_note(&name, loaded.trace.procs, options));
        Self {
            name,
            sha256: loaded.sha256.clone(),
            jobs: loaded.trace.jobs.len(),
            procs: loaded.trace.procs,
            options: options.clone(),
            cleaning: loaded.report.counts().into_iter().collect(),
            stats: stats_with_cleaning(&loaded.trace, &loaded.report),
            warnings,
            machine: loaded.trace.cluster.as_ref().map(|c| c.machine.description()),
        }
    }
}

/// The result document of one run (docs/semantics.md, "Outputs").
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, Serialize)]
pub struct RunDocument {
    pub schema: &'static str,
    pub policy: &'static str,
    /// The policy's parameters (defaults filled in) and, for the virtual
    /// predictor, its `error`.
    pub params: BTreeMap<String, ParamValue>,
    pub predictor: &'static str,
    pub seed: u64,
    pub trace: TraceIdentity,
    /// Wall time of the run as measured by the host; absent where the host
    /// has no clock it trusts. The only field that differs between two runs
    /// of the same inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub elapsed_ms: Option<f64>,
    pub events: u64,
    pub passes: u64,
    /// "passed" when the run checker ran, "skipped" otherwise.
    pub check: &'static str,
    /// Figures of the CBF calibration run the policy took its defaults
    /// from (slack's AWT, selective's thresholds), when it needed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub calibration: Option<Calibration>,
    pub metrics: Metrics,
}

impl RunDocument {
    pub fn new(settings: &RunSettings, trace: TraceIdentity, outcome: &RunOutcome, elapsed_ms: Option<f64>) -> Self {
        let params = settings
            .policy_params
            .iter()
            .chain(settings.source_params.iter())
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Self {
            schema: SCHEMA,
            policy: settings.policy.id,
            params,
            predictor: settings.source.id(),
            seed: settings.seed,
            trace,
            elapsed_ms,
            events: outcome.record.events,
            passes: outcome.record.passes,
            check: if outcome.checked { "passed" } else { "skipped" },
            calibration: outcome.calibration.clone(),
            metrics: outcome.metrics.clone(),
        }
    }
}
