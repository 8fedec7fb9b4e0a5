//! The command line's grammar (clap derive) and the small parsers for the
//! values clap cannot check on its own (`KEY=VALUE`, policy specs).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "schedlab",
    version,
    about = "Replay Parallel Workloads Archive (SWF) traces under HPC scheduling policies",
    long_about = "Replay Parallel Workloads Archive (SWF) traces under HPC scheduling policies.\n\n\
                  Exit codes: 0 success, 1 a run failed, 2 bad usage or input. Errors are one line on stderr."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Trace statistics and cleaning report.
    Stats(StatsArgs),
    /// Replay a trace under one policy.
    Run(RunArgs),
    /// Replay a trace under several policies (in parallel) and print a table.
    Compare(CompareArgs),
    /// List the policies and runtime predictors with their parameters.
    Policies(PoliciesArgs),
    /// Sweep one parameter over a grid (repetitions, shards for clusters).
    Sweep(SweepArgs),
    /// Join the JSON results of `sweep --shard` runs into the whole result.
    Merge(MergeArgs),
    /// Run a preset that reproduces one of the source papers' experiments.
    Reproduce(ReproduceArgs),
}

/// How a trace is read and cleaned (docs/semantics.md, "Reading a trace"); shared by every command that
/// takes a trace. `for_policies` says which policies will run on it.
#[derive(Debug, Clone, Default, Args)]
pub struct WorkloadArgs {
    /// Machine size in processors, overriding the header (e.g. 430 for CTC-SP2; at most 2^31).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = positive::<u32>)]
    pub procs: Option<u32>,
    /// Run jobs larger than the machine on the whole machine instead of dropping them.
    #[arg(long)]
    pub clamp_oversized: bool,
    /// A machine of nodes: `+`-separated groups `[PARTITION:]COUNTx(cpu=64,mem=256G,gpu=4)`
    /// (docs/semantics.md, "Machines of nodes"). Only fcfs, easy and slurm run on one.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["procs", "slurm_conf"])]
    pub nodes: Option<String>,
    /// A site's slurm.conf: its NodeName, PartitionName and GresTypes lines make the machine of
    /// nodes; the lines no reader uses are listed as ignored.
    /// (With the `slurm` policy, its SchedulerParameters, Priority* and AccountingStorageEnforce
    /// lines set that policy's parameters; a --param of the same name wins.)
    #[arg(long, value_name = "FILE", conflicts_with = "procs")]
    pub slurm_conf: Option<std::path::PathBuf>,
    /// Set by a command whose every policy is `slurm`: its `--slurm-conf`
    /// then makes a machine of nodes only if the file has more than one
    /// node (one node runs on the trace's processors, as without the file).
    #[arg(skip)]
    pub every_policy_is_slurm: bool,
    /// Keep only jobs of this queue (field 15); repeatable.
    #[arg(long = "queue", value_name = "Q", allow_negative_numbers = true)]
    pub queues: Vec<i32>,
    /// Keep only jobs of this partition (field 16); repeatable.
    #[arg(long = "partition", value_name = "P", allow_negative_numbers = true)]
    pub partitions: Vec<i32>,
    /// Drop jobs with this status (field 11); repeatable.
    #[arg(long = "drop-status", value_name = "S", allow_negative_numbers = true)]
    pub drop_status: Vec<i32>,
    /// Keep only the first N jobs (after cleaning).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = positive::<usize>)]
    pub first: Option<usize>,
    /// Keep only jobs submitted in [FROM, TO) seconds after the first submit (|FROM|, |TO| ≤ 2^40).
    #[arg(long, value_name = "FROM:TO", allow_hyphen_values = true)]
    pub time_range: Option<String>,
    /// Divide submit times (relative to the first) by X > 0: X = 1.2 offers 20 % more load.
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    pub load_factor: Option<String>,
    /// Refuse traces larger than this once uncompressed (bytes; suffix K, M or G allowed) [default: 2G].
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub max_bytes: Option<String>,
    /// Refuse traces of more than N jobs, counted while reading [default: 20000000].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = positive::<u64>)]
    pub max_jobs: Option<u64>,
}

/// Where a command's report goes.
#[derive(Debug, Clone, Default, Args)]
pub struct OutputArgs {
    /// Write the report (text or JSON) to FILE instead of standard output,
    /// once the command has succeeded; FILE may not be an input.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// A whole number of at least 1, for clap; a negative or zero value is
/// told so (clap alone would call `-5` an unexpected argument).
pub fn positive<T: TryFrom<i128>>(text: &str) -> Result<T, String> {
    whole(text, 1)
}

/// A whole number of at least 0, for clap.
pub fn non_negative<T: TryFrom<i128>>(text: &str) -> Result<T, String> {
    whole(text, 0)
}

fn whole<T: TryFrom<i128>>(text: &str, min: i128) -> Result<T, String> {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    let v: i128 = t.parse().map_err(|_| match digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() {
        true => format!("`{}` is too large", crate::fail::short_text(t)),
        false => format!("`{}` is not a whole number", crate::fail::short_text(t)),
    })?;
    match v {
        v if v < min && min == 1 => Err(format!("{v} is not allowed: the value must be positive (1 or more)")),
        v if v < min => Err(format!("{v} is not allowed: the value must be {min} or more")),
        v => T::try_from(v).map_err(|_| format!("{v} is too large")),
    }
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// SWF trace, plain or gzip-compressed.
    pub trace: PathBuf,
    #[command(flatten)]
    pub workload: WorkloadArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Metric and checker options shared by `run`, `compare`, `sweep` and `reproduce`.
#[derive(Debug, Clone, Args)]
pub struct MetricArgs {
    /// Bounded-slowdown threshold in seconds.
    #[arg(long, value_name = "S", default_value_t = 10, allow_negative_numbers = true)]
    pub bsd_threshold: i64,
    /// Leave the first and last X % of jobs (by submit) out of the metrics.
    #[arg(long, value_name = "X", default_value_t = 0.0, allow_negative_numbers = true)]
    pub skip_percent: f64,
    /// Category limit: jobs running at most S seconds are short (SN/SW/LN/LW).
    #[arg(long, value_name = "S", default_value_t = 3600, allow_negative_numbers = true)]
    pub short_runtime: i64,
    /// Category limit: jobs of at most N processors are narrow.
    #[arg(long, value_name = "N", default_value_t = 8, allow_negative_numbers = true, value_parser = positive::<u32>)]
    pub narrow_size: u32,
    /// Skip the run checker (it verifies every run by default).
    #[arg(long)]
    pub no_check: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// SWF trace, plain or gzip-compressed.
    pub trace: PathBuf,
    /// Policy id (see `schedlab policies`).
    #[arg(long, value_name = "ID")]
    pub policy: String,
    /// A policy or predictor parameter, KEY=VALUE; repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Runtime predictor: estimate, exact, last, tsafrir or virtual [default: the policy's].
    #[arg(long, value_name = "ID")]
    pub predictor: Option<String>,
    /// Seed of every random draw (the virtual predictor's).
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
    pub seed: u64,
    /// Run N times with seeds SEED, SEED+1, …, SEED+N−1 and report the mean
    /// and 95 % confidence interval of every metric.
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repeat: u32,
    /// Print the result document as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the per-job table as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub jobs_csv: Option<PathBuf>,
    /// Write the simulated schedule as SWF to FILE (field 3 = simulated wait).
    #[arg(long, value_name = "FILE")]
    pub swf_out: Option<PathBuf>,
    /// Write the run as Batsim's jobs.csv to FILE (the columns Batsim 5
    /// writes, which evalys reads; allocated_resources from the schedule
    /// view's processor layout).
    #[arg(long, value_name = "FILE")]
    pub batsim_jobs: Option<PathBuf>,
    /// Write the schedule view (a Gantt chart of the processors, with
    /// utilisation, queue length, queued work and the first job's wait below)
    /// as SVG to FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub gantt: Option<PathBuf>,
    /// The time window of --gantt, FROM:TO in the trace's seconds, with an
    /// optional unit s, m, h, d or w (e.g. 10d:17d) [default: the whole run].
    #[arg(long, value_name = "FROM:TO", allow_hyphen_values = true)]
    pub window: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    #[command(flatten)]
    pub workload: WorkloadArgs,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// SWF trace, plain or gzip-compressed.
    pub trace: PathBuf,
    /// A policy, as ID[:KEY=VALUE,...][@PREDICTOR], e.g. easy:order=shortest@tsafrir; repeatable.
    #[arg(long, value_name = "SPEC", required = true)]
    pub policy: Vec<String>,
    /// A parameter for every policy that has it, KEY=VALUE; repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Runtime predictor for every policy that uses one and names none.
    #[arg(long, value_name = "ID")]
    pub predictor: Option<String>,
    /// Seed of every random draw.
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
    pub seed: u64,
    /// Print {"runs": [result documents]} as JSON.
    #[arg(long)]
    pub json: bool,
    /// For each run with deadlines (dbf): mean wait and stretch of the runs without deadlines and
    /// it, over the jobs regular under it that waited in at least one of them.
    #[arg(long)]
    pub regular_comparison: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    #[command(flatten)]
    pub workload: WorkloadArgs,
}

#[derive(Debug, Args)]
pub struct PoliciesArgs {
    /// Print the registry as JSON.
    #[arg(long)]
    pub json: bool,
}

pub use schedlab_experiment::{split_param, PolicySpec};

/// Every `--param` of a command.
pub fn split_params(texts: &[String]) -> Result<Vec<(String, String)>> {
    texts.iter().map(|t| split_param(t).map_err(|e| anyhow::anyhow!("--param: {e}"))).collect()
}

impl WorkloadArgs {
    /// These options for a command that runs the policies `ids`: when every
    /// one is `slurm`, a `--slurm-conf` of one node makes no machine.
    pub fn for_policies<'a>(&self, mut ids: impl Iterator<Item = &'a str>) -> WorkloadArgs {
        WorkloadArgs { every_policy_is_slurm: ids.all(|id| id == SLURM_POLICY), ..self.clone() }
    }
}

/// The policy that reads a `--slurm-conf`'s scheduler and priority lines.
/// A command whose every policy is this one takes the machine of nodes from
/// the file only when it has more than one node.
pub const SLURM_POLICY: &str = "slurm";

/// Every `--param` of a command, then, when the command runs the `slurm`
/// policy, that policy's parameters of `--slurm-conf` that no `--param`
/// sets; the lines and options it does not use are named on stderr.
pub fn params_with_slurm_conf(texts: &[String], w: &WorkloadArgs, runs_slurm: bool) -> Result<Vec<(String, String)>> {
    let mut params = split_params(texts)?;
    let Some(path) = w.slurm_conf.as_ref().filter(|_| runs_slurm) else { return Ok(params) };
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("--slurm-conf {name}: {e}"))?;
    let parsed = schedlab_workload::parse_slurm_conf(&text).map_err(|e| anyhow::anyhow!("--slurm-conf {name}: {e}"))?;
    let site = schedlab_policies::site_settings(&parsed);
    // Said once, though a command may read its flags more than once.
    static TOLD: std::sync::Once = std::sync::Once::new();
    TOLD.call_once(|| tell_ignored(&name.to_string(), &site.ignored));
    for (key, value) in site.params {
        if !params.iter().any(|(given, _)| *given == key) {
            params.push((key, value));
        }
    }
    Ok(params)
}

/// The slurm.conf lines and options the `slurm` policy does not use, with why.
fn tell_ignored(name: &str, ignored: &[schedlab_policies::SlurmConfIgnored]) {
    for i in ignored {
        match i.line {
            0 => eprintln!("{name}: {} ignored: {}", i.what, i.why),
            line => eprintln!("{name}:{line}: {} ignored: {}", i.what, i.why),
        }
    }
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    /// SWF trace, plain or gzip-compressed.
    pub trace: PathBuf,
    /// A policy, as ID[:KEY=VALUE,...][@PREDICTOR]; repeatable.
    #[arg(long, value_name = "SPEC", required = true)]
    pub policy: Vec<String>,
    /// Runtime predictor for every policy that uses one and names none.
    #[arg(long, value_name = "ID")]
    pub predictor: Option<String>,
    /// A parameter for every policy that has it, KEY=VALUE; repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// The swept parameter: PARAM=FROM:TO:STEP (inclusive) or PARAM=V1,V2,...
    /// Without it, every run runs --repeat times.
    #[arg(long, value_name = "PARAM=FROM:TO:STEP")]
    pub sweep: Option<String>,
    /// Keep the wait-time ECDF of the first repetition of every (run, value)
    /// in the JSON (`points[].wait_ecdf`), as the web page does for its
    /// ECDF figure.
    #[arg(long)]
    pub wait_ecdf: bool,
    /// Repetitions per point, with seeds SEED, SEED+1, ...
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = positive::<u32>)]
    pub repeat: u32,
    /// First seed.
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
    pub seed: u64,
    /// Run only shard I of N (1-based): points whose number is I-1 modulo N.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// Print the result as JSON (the input of `schedlab merge`).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    #[command(flatten)]
    pub workload: WorkloadArgs,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// JSON results of `schedlab sweep --shard I/N --json`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the merged result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Refuse to hold more than this memory for the points of all the
    /// files together (bytes; suffix K, M or G allowed) [default: 4G].
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub max_bytes: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// A preset's id, e.g. pv-easy-vs-easy or reservation-depth (an
    /// unknown id is answered with the list; `schedlab policies --json`
    /// gives it too).
    pub preset: String,
    /// SWF trace, plain or gzip-compressed.
    pub trace: PathBuf,
    /// Print every section's full result as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    #[command(flatten)]
    pub workload: WorkloadArgs,
}
