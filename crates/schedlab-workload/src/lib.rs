//! Workloads: the job model the simulator sees, the SWF 2.2 reader with its
//! cleaning rules and report, the readers of Slurm accounting dumps and
//! Batsim workloads that feed the same rules, trace statistics, and an SWF
//! writer.
//!
//! This crate does no I/O of its own: the host hands it a reader (a file, a
//! `&[u8]`, a browser `Blob` stream) and it reads from that, line by line,
//! so a trace never needs more than one copy of its text in memory.
//!
//! # Reading
//!
//! [`read_swf`] takes any [`std::io::Read`]. Its first bytes tell the
//! format, whatever the file is called: gzip (`1f 8b`; concatenated members
//! are read as one stream, and zero bytes after the last member, as tar
//! pads, are ignored), zlib, bzip2, xz or zstd (concatenated frames too)
//! are decompressed on the way; zip, 7-zip, lz4, lzip and Unix compress are
//! refused with [`SwfError::UnsupportedCompression`], and a gzip stream with
//! a damaged magic byte with [`SwfError::DamagedGzip`]. The SHA-256 of the
//! uncompressed bytes is computed on the way, so a trace has the same
//! identity plain or compressed. Input larger than
//! [`ReadOptions::max_bytes`] (2 GiB by default) uncompressed is refused,
//! including a small compressed file that inflates past the limit; reading
//! stops as soon as the limit is passed. More jobs than
//! [`ReadOptions::max_jobs`] ([`DEFAULT_MAX_JOBS`]) are refused the same
//! way, at the first job past the limit. Lines end at LF, CRLF or a lone
//! CR.
//!
//! Once decompressed, the first non-blank line tells the format
//! ([`TraceFormat`]): text starting with `{` is a Batsim workload (JSON;
//! `batsim.rs`), a first line of `|`-separated names a Slurm accounting
//! dump (`sacct.rs`), anything else SWF. The other formats become SWF jobs
//! and go through the same cleaning rules; docs/formats.md states how
//! their fields map.
//!
//! Lines starting with `;` before the first job line are the [`Header`]:
//! `Key: value` pairs, with or without a space after the `;`. Indented
//! comment lines continue the entry above them. `MaxProcs` and `MaxNodes`
//! take the integer their value starts with, so
//! `MaxProcs: 338 (batch partition; 512 total)` reads as 338.
//!
//! Every other non-blank line must hold exactly 18 numbers separated by
//! whitespace. Numbers may be decimal (`12.5`); the time and size fields
//! (2, 3, 4, 5, 8, 9, 18) are rounded to whole seconds or processors, and
//! identifier fields (job number, status, user, group, executable, queue,
//! partition, preceding job) must be whole numbers. A line that breaks these
//! rules is skipped, counted, and (for the first ten) quoted in the report
//! with its line number and field, so a file with a few bad lines is still
//! usable and nothing is skipped silently. Blank lines are skipped and
//! counted.
//!
//! # Cleaning rules
//!
//! Each rule counts the jobs it touches in the [`CleaningReport`], under the
//! reason name given here; [`CleaningReport::counts`] lists them in this
//! order, which is also the order in which they apply. A job dropped by one
//! rule is not looked at by the later ones.
//!
//! - Slurm dumps only, counted in [`CleaningReport::slurm`]:
//!   `steps_folded` (step lines folded into their job), `array_tasks`
//!   (jobs made from array records like `1234_[1-5]`, one per task),
//!   `cancelled_before_start` (dropped: cancelled with no start time or
//!   none elapsed), `no_time_limit` (an unlimited or missing time limit,
//!   left for `no_estimate` to fill in).
//! - `fractional_rounded`: a job had a fractional time or size field, which
//!   was rounded to the nearest integer (halves away from zero), because the
//!   simulator counts whole seconds and whole processors.
//! - `unknown_submit`: a job with a negative (unknown) submit time is dropped,
//!   because it cannot be placed on the time line.
//! - `unknown_runtime`: a job with a negative (unknown) run time is dropped,
//!   because the simulator cannot know when it would end.
//! - `unknown_size`: a job whose requested processors (field 8) and allocated
//!   processors (field 5) are both unknown or zero is dropped, because it
//!   would occupy no processor. The size is field 8 when it is positive and
//!   field 5 otherwise, since the request is what a scheduler sees.
//! - `time_out_of_range`: a job whose submit, run or requested time exceeds
//!   [`MAX_TIME`] (2^40 s) is dropped, and `size_out_of_range`: a job of
//!   more than [`MAX_PROCS`] (2^31) processors, so that no time or size
//!   sum the engine and the metrics compute can overflow (see `limits`).
//! - `status_filtered`, `queue_filtered`, `partition_filtered`: the user's
//!   filters ([`ReadOptions::drop_status`], [`ReadOptions::queues`],
//!   [`ReadOptions::partitions`]) drop the jobs they exclude, for studying
//!   one part of a machine (e.g. its batch queues).
//! - `oversized_dropped`: by default a job larger than the machine is
//!   dropped, because it could never start. The machine size is
//!   [`ReadOptions::machine_size`] if given, else the header's `MaxProcs`,
//!   else `MaxNodes`, else the largest job (with a warning in the report,
//!   as the trace does not say how big its machine was).
//! - `unsorted`: jobs are sorted by (submit time, job number), stably, since
//!   that is the arrival order and default priority of every policy; the
//!   count is the number of jobs found after a job that should follow them.
//! - `window_filtered`: [`ReadOptions::window`] keeps the first N jobs, or the
//!   jobs submitted in a time range measured from the first job's submit
//!   time (half-open), taken after the rules above so that "the first 1000
//!   jobs" are 1000 usable jobs.
//! - `oversized_clamped`: with [`Oversize::Clamp`], a job larger than the
//!   machine keeps running on the whole machine instead of being dropped.
//! - `no_estimate`: a job without a positive requested time gets
//!   max(run time, 1) seconds, i.e. a perfect estimate of at least 1 s so
//!   that every job has a positive walltime (docs/semantics.md, "Reading a trace").
//! - `runtime_capped`: a job that ran longer than it requested has its run
//!   time cut to the request, because schedulers kill a job at its walltime
//!   and the simulator does the same (as in the source papers).
//!
//! Finally [`ReadOptions::load_factor`] divides every submit time, relative
//! to the first, by the factor (rounded to whole seconds), which scales the
//! offered load by the factor while keeping the jobs themselves; it is not a
//! counted rule since it changes every job. A factor that would stretch the
//! submissions past [`MAX_TIME`] is refused ([`SwfError::LoadFactorTooSmall`]),
//! and so is a trace whose last submit plus every requested time passes
//! [`MAX_HORIZON`] ([`SwfError::TimeLineTooLong`]). The jobs are then in
//! (submit, job number) order.
//!
//! Last, `duplicate_ids` counts the kept jobs whose job number an earlier
//! kept job has. They stay (the simulator knows jobs by position), with a
//! warning, since per-job outputs then name two jobs alike.
//!
//! If no job line is valid the read fails with [`SwfError::NoValidJob`],
//! quoting the first bad line; if lines are valid but cleaning drops them
//! all it fails with [`SwfError::AllJobsDropped`] and the counts.

mod batsim;
mod clean;
mod cleaning_rules;
mod clock;
mod error;
mod format;
mod header;
mod input;
mod job;
mod limits;
mod line;
mod machine;
mod machine_check;
mod machine_description;
mod machines;
mod options;
mod read;
mod request;
mod sacct;
mod sacct_tres;
mod slurm_conf;
mod slurm_time;
mod stats;
mod tally;
mod write;

pub use clean::{AsRecorded, CleaningReport, MachineReport, NoFitCount, SlurmReport, MAX_BAD_LINES_KEPT};
pub use cleaning_rules::{CleaningRule, Effect, CLEANING_RULES};
pub use clock::{civil_from_days, days_from_civil, duration_text, trace_time, TraceClock};
pub use error::{field_name, is_hidden, short_number, short_text, BadLine, SwfError, FIELD_NAMES};
pub use format::TraceFormat;
pub use header::Header;
pub use job::{Job, SwfExtra, Trace};
pub use limits::{DEFAULT_MAX_JOBS, MAX_HORIZON, MAX_PROCS, MAX_TIME};
pub use machine::{parse_amount, Machine, NodeType, Partition, CPU, MACHINE_KEYS, MAX_NODES, MAX_RESOURCES, MEM};
pub use machine_description::{MachineDescription, NodeTypeDescription, PartitionDescription, ResourceTotal};
pub use machines::{
    is_trace, paper_machine, paper_machine_note, PaperMachine, CTC_SP2_BATCH, KTH_SP2_SLACK, PAPER_MACHINES,
};
pub use options::{OptionsError, Oversize, ReadOptions, Window, DEFAULT_MAX_BYTES};
pub use read::{read_stats, read_swf, Loaded, Summary, MAX_LINE_BYTES};
pub use request::{fits, holds_unit, units_on, Cluster, NoFit, Request, Spread};
pub use slurm_conf::{
    expand_hostlist, parse_slurm_conf, ConfInclude, ConfLine, ConfPair, SlurmConf, SlurmConfError, MAX_HOSTS,
};
pub use stats::{stats, stats_with_cleaning, Figures, Simulated, TraceStats};
pub use write::{write_swf, SwfRow};

#[cfg(test)]
mod tests;
