//! The benchmark harness's grammar. `schedlab-bench [options]` times every
//! trace of a directory (or, with `--queue-stress`, the longest queues);
//! `one` is its child process, `schedule` the schedule view's costs.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use schedlab_cli::args::{positive, WorkloadArgs};
pub use schedlab_cli::args::{split_param, PolicySpec};

#[derive(Debug, Parser)]
#[command(
    name = "schedlab-bench",
    version,
    about = "Time Schedlab's parsing and policies on traces and synthetic backlogs (speed and memory)",
    long_about = "Time Schedlab's parsing and policies on traces and synthetic backlogs (speed and memory).\n\n\
                  Exit codes: 0 success, 1 a run failed, 2 bad usage or input. Errors are one line on stderr.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub bench: BenchArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// One benchmark measurement in a fresh process (used by the per-trace
    /// table and the queue stress).
    #[command(hide = true)]
    One(BenchOneArgs),
    /// The schedule view's costs on one trace: layout, memory, query times.
    Schedule(BenchScheduleArgs),
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Directory of traces (*.swf, *.swf.gz, *.gz) [default: $SCHEDLAB_TRACES].
    #[arg(long, value_name = "DIR")]
    pub traces: Option<PathBuf>,
    /// Policy spec ID[:KEY=VALUE,...][@PREDICTOR]; repeatable [default: every policy
    /// of the registry and the variants the source papers compare, 14 in all].
    #[arg(long, value_name = "SPEC")]
    pub policy: Vec<String>,
    /// Keep the best of N timings [default: 3; 1 with --queue-stress].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = positive::<u32>)]
    pub repeat: Option<u32>,
    /// Machine size for traces whose file name starts with PREFIX; repeatable
    /// (built in: CTC-SP2=430).
    #[arg(long = "procs-map", value_name = "PREFIX=N")]
    pub procs_map: Vec<String>,
    /// Also run AccaSim's EASY (python3 scripts/accasim_easy.py) on each trace.
    #[arg(long)]
    pub accasim: bool,
    /// Time runs without the run checker (it runs by default).
    #[arg(long)]
    pub no_check: bool,
    /// Print the rows as a JSON array.
    #[arg(long)]
    pub json: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Instead of the per-trace table: every policy under the longest queues
    /// (backlogs of synthetic jobs all submitted at t = 0, HPC2N at rising
    /// load factors, the largest trace at load factor 2).
    #[arg(long)]
    pub queue_stress: bool,
    /// With --queue-stress: stop a case whose process runs longer than S
    /// seconds (shown as "> S s"); larger cases of the same series are then
    /// skipped for that policy.
    #[arg(long, value_name = "S", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
    pub time_limit: u64,
    /// With --queue-stress: a backlog size (jobs at t = 0 on 128 processors);
    /// repeatable [default: 10000, 100000, 1000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=2_000_000))]
    pub backlog: Vec<u32>,
    /// With --queue-stress: a load factor of the HPC2N series; repeatable
    /// [default: 1.0, 1.3, 1.6, 2.0, 3.0].
    #[arg(long, value_name = "X")]
    pub load_factor: Vec<f64>,
    /// With --queue-stress: draw the backlogs' estimate-to-runtime ratios
    /// from this trace [default: the HPC2N trace of the trace directory;
    /// without one, estimates are exact].
    #[arg(long, value_name = "TRACE")]
    pub estimates_from: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchScheduleArgs {
    pub trace: PathBuf,
    /// Policy spec ID[:KEY=VALUE,...][@PREDICTOR].
    #[arg(long, default_value = "easy")]
    pub policy: String,
    #[command(flatten)]
    pub workload: WorkloadArgs,
}

#[derive(Debug, Args)]
pub struct BenchOneArgs {
    /// The trace; without it, --backlog.
    #[arg(required_unless_present = "backlog")]
    pub trace: Option<PathBuf>,
    /// A synthetic backlog of N Lublin jobs all submitted at t = 0 (seed 1)
    /// on --procs processors (default 128), instead of a trace.
    #[arg(long, conflicts_with = "trace")]
    pub backlog: Option<u32>,
    /// With --backlog: requested times are runtimes times estimate-to-runtime
    /// ratios drawn from this trace's jobs of the same runtime class
    /// (`estimates.rs`); without it, estimates are exact.
    #[arg(long, value_name = "TRACE", requires = "backlog")]
    pub estimates_from: Option<PathBuf>,
    /// Divide the trace's submit times by X.
    #[arg(long)]
    pub load_factor: Option<f64>,
    /// Policy spec; without it, only parse the trace.
    #[arg(long)]
    pub policy: Option<String>,
    #[arg(long)]
    pub procs: Option<u32>,
    /// Write the trace (the backlog, its estimates included) as SWF to FILE
    /// instead of measuring, so that `schedlab run` can replay it.
    #[arg(long, value_name = "FILE", conflicts_with = "policy")]
    pub write_swf: Option<PathBuf>,
    /// A machine of nodes for the trace (the command line's `--nodes`).
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["procs", "backlog"])]
    pub nodes: Option<String>,
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
    #[arg(long)]
    pub no_check: bool,
}
