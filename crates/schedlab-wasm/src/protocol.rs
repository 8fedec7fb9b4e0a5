//! What crosses the JavaScript boundary: requests the page sends (every
//! unknown key refused, so a typo is an error that names it) and results
//! it gets back. The core's own types are embedded unchanged where they
//! already serialize as the command line's JSON.

use schedlab_engine::{Progress, SourceInfo, Time, SOURCES};
use schedlab_experiment::{
    plan_growth, CleaningLine, Fact, Given, Phase, PlanGrowth, RunRequest, TraceIdentity, ECDF_PIXELS, PROGRESS_EVERY,
    SCHEMA,
};
use schedlab_metrics::{CategoryLimits, Column, MetricsOptions};
use schedlab_policies::{PolicyInfo, REGISTRY};
use schedlab_synth::LublinParams;
use schedlab_workload::{BadLine, CleaningRule, Header, Loaded, TraceClock};
use serde::{Deserialize, Serialize};

/// Largest integer a JavaScript number holds exactly; seeds above it are
/// refused rather than silently rounded.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `registry()`: everything the page builds its forms from.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
pub struct Registry {
    #[cfg_attr(test, ts(as = "Vec<PolicyInfo>"))]
    pub policies: &'static [&'static PolicyInfo],
    pub predictors: &'static [SourceInfo],
    /// The result document's schema (`schedlab-run/1`).
    pub schema: &'static str,
    /// Events between two progress reports of a run.
    pub progress_every: u64,
    /// Points of `wait_ecdf` at most (plus the two ends).
    pub ecdf_pixels: u32,
    /// The charts' Okabe–Ito colours as CSS, in series order.
    pub palette: Vec<String>,
    /// The schedule view's legend: the key, label and colour of each kind
    /// of run, of the reservation outline and of the zoomed-out columns.
    pub schedule_legend: Vec<schedlab_charts::LegendEntry>,
    /// Version of the core.
    pub version: &'static str,
    /// The column catalogue: every metric's label, unit, digits and
    /// explanation, and whether tables show it by default.
    pub columns: Vec<Column>,
    /// Each column's header as the page's tables print it (a duration's
    /// cells carry their unit, so its header names none).
    pub column_headers: Vec<String>,
    /// The shared parameters a form offers as global knobs.
    pub knobs: &'static [&'static str],
    /// What every count of a trace's cleaning report means.
    pub cleaning: &'static [CleaningRule],
}

impl Registry {
    pub fn new() -> Self {
        Registry {
            policies: REGISTRY,
            predictors: SOURCES,
            schema: SCHEMA,
            progress_every: PROGRESS_EVERY,
            ecdf_pixels: ECDF_PIXELS,
            palette: schedlab_charts::palette_css(),
            schedule_legend: schedlab_charts::schedule_legend(),
            version: env!("CARGO_PKG_VERSION"),
            columns: schedlab_metrics::columns(),
            column_headers: schedlab_metrics::columns()
                .iter()
                .map(|c| schedlab_experiment::column_header(c, schedlab_experiment::CellStyle::Durations))
                .collect(),
            knobs: schedlab_experiment::KNOBS,
            cleaning: schedlab_workload::CLEANING_RULES,
        }
    }
}

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

/// The job limit of a trace read in the browser: 5 million jobs, whose job
/// records take about 600 MB of a tab's memory. A host limit, not an option
/// of the experiment: it never changes a result.
pub const BROWSER_MAX_JOBS: u64 = 5_000_000;

/// WebAssembly memory a job may take, in bytes, for its trace to be read
/// and run: reading holds each job's row (120 bytes) in a list that grows
/// by doubling and then splits it into the trace, which peaked at 384
/// bytes a job (1.92 GB for 5 million jobs); a run then adds its state,
/// record and metrics, 160 to 360 bytes a job by policy (BENCHMARKS.md).
pub const WASM_BYTES_PER_JOB: u64 = 768;

/// The most memory a wasm32 module can have: 65,536 pages of 64 KiB.
pub const WASM_MAX_MEMORY: u64 = 1 << 32;

/// The jobs a trace may have in a module whose memory has grown to
/// `in_use` bytes. A module's memory never shrinks, so what it has grown
/// to is taken as used, whatever its allocator has freed inside it.
pub fn memory_job_budget(in_use: u64) -> u64 {
    WASM_MAX_MEMORY.saturating_sub(in_use) / WASM_BYTES_PER_JOB
}

/// `new Session(bytes, name, options)`: the experiment's workload options
/// (every field optional, unknown keys refused).
pub type TraceOptions = schedlab_experiment::WorkloadOptions;

/// `session.summary()`: the trace as read, before any run. It owns its
/// parts (copied once per trace), so that the export's signature can name
/// it, `Js<Summary>`, without a lifetime.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
pub struct Summary {
    pub identity: TraceIdentity,
    pub header: Header,
    /// The first bad lines (at most `schedlab_workload::MAX_BAD_LINES_KEPT`);
    /// `identity.cleaning.bad_lines` counts them all.
    pub bad_lines: Vec<BadLineInfo>,
    pub warnings: Vec<String>,
    /// Uncompressed bytes and lines read.
    pub bytes: u64,
    pub lines: u64,
    /// The header's clock: what dates the trace's seconds stand for.
    pub clock: TraceClock,
    /// The statistics as the page lists them, labels and units included.
    pub facts: Vec<Fact>,
    /// The cleaning counts that are not zero, in words.
    pub cleaning: Vec<CleaningLine>,
}

impl Summary {
    pub fn new(identity: &TraceIdentity, loaded: &Loaded) -> Self {
        Summary {
            identity: identity.clone(),
            header: loaded.header.clone(),
            bad_lines: loaded.report.bad_lines.iter().map(BadLineInfo::from).collect(),
            warnings: loaded.report.warnings.clone(),
            bytes: loaded.bytes,
            lines: loaded.lines,
            clock: TraceClock::of(&loaded.header),
            facts: schedlab_experiment::trace_facts(identity, Some(&loaded.header)),
            cleaning: schedlab_experiment::cleaning_lines(identity),
        }
    }
}

/// A skipped line: where, which field, what is wrong, and the whole
/// message as one line of text.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
pub struct BadLineInfo {
    pub line: u64,
    pub field: Option<u8>,
    pub field_name: Option<&'static str>,
    pub message: String,
    pub text: String,
}

impl From<&BadLine> for BadLineInfo {
    fn from(b: &BadLine) -> Self {
        BadLineInfo {
            line: b.line,
            field: b.field,
            // A Slurm dump's bad line names its column instead of an SWF field.
            field_name: b.field.map(schedlab_workload::field_name).or(b.column),
            message: b.message.clone(),
            text: b.to_string(),
        }
    }
}

/// A parameter value: text as on the command line, or a number.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ParamText {
    Text(String),
    Number(f64),
}

impl ParamText {
    /// The value as the core takes it: a number stays a number.
    fn given(&self) -> Given {
        match self {
            ParamText::Text(s) => Given::Text(s.clone()),
            ParamText::Number(x) => Given::Number(*x),
        }
    }
}

/// A run's parameters in the order they were given, which a run's label
/// follows (`easy:order=shortest,...`); a key given twice is refused.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamList(Vec<(String, ParamText)>);

impl ParamList {
    /// Sets `key` to `value`, in place if it is there, last otherwise.
    pub fn insert(&mut self, key: String, value: ParamText) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &ParamText)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<'de> Deserialize<'de> for ParamList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = ParamList;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of parameters, each a text or a number")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<ParamList, A::Error> {
                let mut list = ParamList::default();
                while let Some((key, value)) = map.next_entry::<String, ParamText>()? {
                    if list.0.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!("parameter `{key}` is given twice")));
                    }
                    list.0.push((key, value));
                }
                Ok(list)
            }
        }
        d.deserialize_map(Visit)
    }
}

/// `session.run(request, on_progress)`: a run as the command line's `run`
/// takes it. Only `policy` is required.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunMessage {
    pub policy: String,
    /// Policy and predictor parameters (`--param KEY=VALUE`).
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<std::collections::BTreeMap<String, ParamText>>", optional))]
    pub params: ParamList,
    /// Runtime source id; the policy's default when absent.
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    pub predictor: Option<String>,
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<u64>", optional))]
    pub seed: u64,
    /// Bounded-slowdown threshold, seconds (10).
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    pub bsd_threshold: Option<Time>,
    /// Leave out the first and last X % of jobs from the metrics (0).
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    pub skip_percent: Option<f64>,
    /// Category limits: short runtime (3600 s) and narrow size (8).
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    pub short_runtime: Option<Time>,
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    pub narrow_size: Option<u32>,
    /// Skip the run checker (it runs by default, as on the command line).
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub no_check: bool,
}

impl RunMessage {
    /// The core's request; `resolve` checks it.
    pub fn request(&self) -> Result<RunRequest, String> {
        if self.seed > MAX_SAFE_INTEGER {
            return Err(format!("seed must be at most {MAX_SAFE_INTEGER}, not {}", self.seed));
        }
        let d = MetricsOptions::default();
        Ok(RunRequest {
            policy: self.policy.clone(),
            params: self.params.iter().map(|(k, v)| (k.clone(), v.given())).collect(),
            predictor: self.predictor.clone(),
            seed: self.seed,
            metrics: MetricsOptions {
                bsd_threshold: self.bsd_threshold.unwrap_or(d.bsd_threshold),
                skip_percent: self.skip_percent.unwrap_or(d.skip_percent),
                categories: CategoryLimits {
                    runtime: self.short_runtime.unwrap_or(d.categories.runtime),
                    size: self.narrow_size.unwrap_or(d.categories.size),
                },
            },
            skip_check: self.no_check,
        })
    }
}

/// Reported to `on_progress` every `progress_every` events.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProgressMessage {
    /// What the run is doing: a CBF reference run first for some policies
    /// ("step 1 of 2: calibration (CBF reference run)"), then the run.
    pub phase: Phase,
    pub completed: u64,
    pub jobs: u64,
    pub events: u64,
    /// Simulated time, seconds.
    pub now: Time,
    /// Reservation changes so far (the plan's work).
    pub reservation_changes: u64,
    /// Set once the plan outgrows the jobs (`plan_growth`): the count in
    /// words and one sentence saying why and pointing to the depth.
    pub plan: Option<PlanGrowth>,
}

impl ProgressMessage {
    pub fn new(phase: Phase, p: &Progress) -> Self {
        ProgressMessage {
            phase,
            completed: p.completed,
            jobs: p.jobs,
            events: p.events,
            now: p.now,
            reservation_changes: p.reservation_changes,
            plan: plan_growth(p),
        }
    }
}

/// `generate_lublin(params)`: a synthetic trace. Absent fields take the
/// defaults (128 processors, 10,000 jobs, load 0.7, seed 1, exact estimates).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenerateMessage {
    #[cfg_attr(test, ts(as = "Option<u32>", optional))]
    pub procs: u32,
    #[cfg_attr(test, ts(as = "Option<u32>", optional))]
    pub jobs: u32,
    #[cfg_attr(test, ts(as = "Option<f64>", optional))]
    pub load: f64,
    #[cfg_attr(test, ts(as = "Option<u64>", optional))]
    pub seed: u64,
    #[cfg_attr(test, ts(as = "Option<f64>", optional))]
    pub estimate_factor: f64,
}

impl Default for GenerateMessage {
    fn default() -> Self {
        let d = LublinParams::default();
        GenerateMessage { procs: d.procs, jobs: d.jobs, load: d.load, seed: d.seed, estimate_factor: d.estimate_factor }
    }
}

impl From<GenerateMessage> for LublinParams {
    fn from(m: GenerateMessage) -> Self {
        LublinParams { procs: m.procs, jobs: m.jobs, load: m.load, seed: m.seed, estimate_factor: m.estimate_factor }
    }
}
