// Generated from the Rust types by crates/schedlab-wasm/src/types.rs (ts-rs):
// do not edit. `SCHEDLAB_BLESS=1 cargo test -p schedlab-wasm --lib types` rewrites it.
/* eslint-disable */

/** The shape of `T` with every number a 95 % half-width, or `null` (one repetition). */
export type Intervals<T> = T extends number
  ? number | null
  : T extends Array<infer U>
    ? Array<Intervals<U>>
    : T extends object
      ? { [K in keyof T]: Intervals<T[K]> }
      : T;

/** A summary's `ci95`: the metrics document's shape, half-widths for numbers. */
export type MetricsIntervals = Intervals<Metrics>;

/** What part of a request a core error blames: a thrown `Error`'s `kind`. */
export type ErrorKind = "trace" | "limit" | "option" | "policy" | "experiment" | "link" | "merge" | "run" | "cancelled" | "export" | "state";

/** What an export throws for a core error: `name` is the kind's class (`TraceError`, `OptionError`, …). */
export interface SchedlabError extends Error {
  kind: ErrorKind;
}

export type AxisTick = { value: number, label: string, };

export type BadLineInfo = { line: number, field: number | null, field_name: string | null, message: string, text: string, };

export type Band = { lo: number, hi: number, };

export type BarChart = { title: string, 
/**
 * A second line under the title: what the numbers are of (the
 * trace, its machine size and workload options).
 */
subtitle?: string, x_label?: string, y_label?: string, groups: Array<string>, series: Array<BarSeries>, 
/**
 * A log10 value axis (values ≤ 0 are not drawn): for bars whose
 * values span orders of magnitude.
 */
log_y?: boolean, 
/**
 * Written in a group where no series has a value ("no blocked
 * jobs"), so that an empty group reads as a finding and not as
 * missing data; empty: the group is left blank.
 */
empty?: string, };

export type BarSeries = { name: string, values: Array<number | null>, 
/**
 * Optional interval per group, `[low, high]` (e.g. a 95 % confidence
 * interval over repetitions), drawn as a whisker.
 */
intervals?: Array<[number, number] | null> | null, };

export type BlockedGroup = { group: string, min_size: number, max_size: number, jobs: number, mbs: number, mwbs: number, };

export type BoxKind = "in_order" | "backfilled" | "ventured" | "preempted";

export type CanvasRequest = { css_width: number, device_ratio: number, window_width: number, large: boolean, };

export type CanvasSize = { width: number, height: number, ratio: number, };

export type Category = { name: string, jobs: number, mbs: number, mean_turnaround: number, mean_wait: number, };

export type ChartSpec = { "kind": "bars" } & BarChart | { "kind": "ecdf" } & EcdfChart | { "kind": "sweep" } & SweepChart | { "kind": "schedule" } & ScheduleChart;

export type CleaningLine = { key: string, text: string, meaning: string, };

export type CleaningRule = { 
/**
 * The count's key in the report (`unknown_runtime`).
 */
key: string, effect: Effect, 
/**
 * What is counted: "lines" or "jobs".
 */
counts: string, 
/**
 * A few words: "unknown runtime".
 */
label: string, 
/**
 * One sentence: why the rule exists.
 */
meaning: string, };

export type Column = { 
/**
 * Path into the metrics document.
 */
key: string, label: string, 
/**
 * `s`, `processors`, or none for counts and ratios.
 */
unit: string | null, 
/**
 * Decimals a table prints.
 */
digits: number, description: string, 
/**
 * Whether a results table shows it before "more columns".
 */
shown: boolean, };

export type Culprits = { 
/**
 * The first instant it could have started but for lower-priority running jobs.
 */
from: number, 
/**
 * From then to the start that ended that wait, seconds.
 */
delay: number, 
/**
 * The lower-priority running jobs whose processors it would have taken
 * at `from`, lowest priority first.
 */
culprits: Array<JobRef>, };

export type DeadlineMetrics = { 
/**
 * Deadline-driven jobs measured.
 */
jobs: number, violations: number, 
/**
 * Violations of deadlines set by the rule's minimum window.
 */
violations_minimum: number, 
/**
 * Violations of deadlines set by the factor times the estimate.
 */
violations_scaled: number, 
/**
 * Deadline-driven jobs measured that started at their submission.
 */
started_at_submission: number, 
/**
 * Means and the largest stretch are `None` (`null`) over no jobs: a
 * run without regular jobs has no regular mean wait, not one of 0 s.
 */
mean_usage: number | null, mean_usage_delayed: number | null, regular_jobs: number, regular_mean_wait: number | null, regular_mean_stretch: number | null, regular_max_stretch: number | null, deadline_mean_wait: number | null, deadline_mean_stretch: number | null, };

export type Demo = { button: string, experiment: Experiment, };

export type EcdfChart = { title: string, 
/**
 * A second line under the title: what the numbers are of (the
 * trace, its machine size and workload options).
 */
subtitle?: string, x_label?: string, y_label?: string, curves: Array<EcdfCurve>, };

export type EcdfCurve = { name: string, points: Array<[number, number]>, };

export type Effect = "skipped" | "dropped" | "changed" | "reordered" | "kept";

export type Experiment = { runs: Array<RunSpec>, 
/**
 * Parameters given to every run that takes them (and does not set
 * them itself).
 */
params: Record<string, string>, repeat: number, seed: number, sweep?: Sweep, workload: WorkloadOptions, metrics: MetricSettings, 
/**
 * Keep the wait-time ECDF of the first repetition of every (run,
 * value), for the ECDF figure.
 */
wait_ecdf?: boolean, };

export type ExperimentResult = { schema: string, experiment: Experiment, labels: Array<string>, 
/**
 * The runs' titles for people (`Plan::titles`), in the order of `labels`.
 */
titles: Array<string>, 
/**
 * The trace's identity (name, sha256, jobs, procs, options, cleaning,
 * statistics): `TraceIdentity` as the run document has it.
 */
trace: TraceIdentity, shard?: Shard, points: Array<PointResult>, summary: Array<SummaryRow>, 
/**
 * Which runs ran once although the experiment asked for repetitions,
 * because they use no randomness (`Plan::once_note`); absent
 * otherwise. Their rows have one seed and no interval.
 */
note?: string, };

export type Fact = { label: string, value: string, };

export type FairSlowdownRow = { 
/**
 * "<=1", "1-1.5", "1.5-2", "2-4", ">4" (times the fair slowdown).
 */
range: string, jobs: number, percent: number, };

export type FairSlowdownTable = { 
/**
 * The reference run, e.g. `cbf@estimate`.
 */
reference: string, jobs: number, rows: Array<FairSlowdownRow>, };

export type Fairness = { blocked: number, delayed: number, 
/**
 * Mean delay of the delayed jobs, seconds.
 */
mean_delay: number, max_delay: number, };

export type FairnessAll = { 
/**
 * Jobs that waited.
 */
blocked: number, 
/**
 * Jobs delayed by lower-priority jobs.
 */
delayed: number, 
/**
 * Mean delay of the delayed jobs, seconds.
 */
mean_delay: number, max_delay: number, 
/**
 * Distinct lower-priority jobs that delayed a measured job.
 */
culprits: number, };

export type Figure = { id: string, title: string, spec: ChartSpec, };

export type FormulaCheck = { 
/**
 * Why the text is refused ("unknown variable `wiat` at column 2; did
 * you mean `wait`?"), or `None` when a run accepts it.
 */
error: string | null, 
/**
 * The preset the text names, if it names one.
 */
preset: string | null, 
/**
 * Whether the formula reads a variable that changes while a job
 * waits, so that every pass scores every waiting job again.
 */
rescored: boolean, };

export type FormulaField = { policy: string, key: string, };

export type FormulaLanguage = { variables: Array<NamedLine>, functions: Array<NamedLine>, presets: Array<FormulaPreset>, max_length: number, fields: Array<FormulaField>, };

export type FormulaPreset = { name: string, source: string, title: string, origin: string, };

export type GanttBox = { start: number, end: number, lo: number, hi: number, kind: BoxKind, 
/**
 * The last seconds of a preempted run whose work was lost (hatched).
 */
lost?: number, };

export type GenerateMessage = { procs?: number, jobs?: number, load?: number, seed?: number, estimate_factor?: number, };

export type Grid = { from: number, to: number, buckets: number, };

export type HeadReservation = { job: number, id: number, 
/**
 * When the reservation was made.
 */
made: number, start: number, length: number, bands: Array<Band>, };

export type Header = { 
/**
 * `MaxProcs`, the leading integer of its value.
 */
max_procs: number | null, 
/**
 * `MaxNodes`, the leading integer of its value.
 */
max_nodes: number | null, 
/**
 * `UnixStartTime`: the epoch second that submit time 0 stands for.
 */
unix_start_time: number | null, 
/**
 * `TimeZoneString`, e.g. `Europe/Stockholm`.
 */
time_zone_string: string | null, 
/**
 * `Computer`.
 */
computer: string | null, 
/**
 * `Installation`.
 */
installation: string | null, 
/**
 * Every `Note`, with its continuation lines joined by newlines.
 */
notes: Array<string>, 
/**
 * `Version`.
 */
version: string | null, 
/**
 * Every other `Key: value` pair, in file order. The numeric keys above are
 * also kept here verbatim, so text after a number ("338 (batch
 * partition; 512 total)") is not lost.
 */
other: Array<[string, string]>, 
/**
 * Comment lines that are not `Key: value` pairs.
 */
comments: Array<string>, };

export type Ignored = { run: number, 
/**
 * "only when mode is checkpoint or suspend".
 */
why: string, };

export type JobClass = "in_order" | "backfilled" | "ventured";

export type JobDetails = { job: number, id: number, user: number, size: number, submit: number, runtime: number, estimate: number, 
/**
 * The runtime prediction it was last started with.
 */
prediction: number, first_start: number, 
/**
 * Its last start, the one it completed from.
 */
start: number, end: number, 
/**
 * end − submit − runtime (lost work and overheads included).
 */
wait: number, 
/**
 * Bounded slowdown with the run's threshold.
 */
bsd: number, class: JobClass, 
/**
 * The first waiting job when it was first backfilled.
 */
backfilled_behind: JobRef | null, 
/**
 * Was the first waiting job at the end of a pass (could not start at once).
 */
blocked: boolean, 
/**
 * Head-only strict-fairness audit: when it first could have started.
 */
fair_start: number | null, 
/**
 * Every reservation it held, in the order they were made (the run
 * record's reservation history).
 */
reservations: Array<ReservationHeld>, preemptions: Array<Preempted>, 
/**
 * The processors of its last run.
 */
bands: Array<Band>, 
/**
 * Set when the full strict-fairness audit found it delayed.
 */
delayed: Culprits | null, 
/**
 * The jobs of higher priority whose delay it caused (as a culprit).
 */
delayed_jobs: Array<JobRef>, };

export type JobRect = { 
/**
 * The job's index (priority order), what every query takes.
 */
job: number, 
/**
 * The job's number in the trace.
 */
id: number, start: number, end: number, class: JobClass, 
/**
 * This run ended in a preemption (the job ran again later).
 */
preempted: boolean, 
/**
 * Wall seconds of this run whose work did not survive the preemption
 * (the whole run when a killed job restarts from scratch; 0 for a run
 * that completed).
 */
lost: number, 
/**
 * The processors it is drawn on.
 */
bands: Array<Band>, };

export type JobRef = { job: number, id: number, };

export type LegendEntry = { 
/**
 * `in_order`, `backfilled`, `ventured`, `preempted` (a [`BoxKind`]),
 * `reservation` (the outline) or `busy` (the zoomed-out columns).
 */
key: string, label: string, 
/**
 * A CSS colour.
 */
colour: string, };

export type Link = { trace?: TraceRef, experiment: Experiment, 
/**
 * The id of the preset last run, if any.
 */
preset?: string, 
/**
 * The schedule view open when the link was made, if any.
 */
view?: ViewLink, };

export type Machine = { 
/**
 * Resource names: `cpu` first, then `mem` if any node has memory,
 * then the generic resources (`gpu`, …) in the order declared.
 */
resources: Array<string>, 
/**
 * Node types, in order of first appearance; nodes are numbered type
 * by type, so a type's nodes are a contiguous range.
 */
node_types: Array<NodeType>, 
/**
 * The partitions; jobs that name none go to `default_partition`.
 */
partitions: Array<Partition>, default_partition: number, };

export type MachineDescription = { nodes: number, 
/**
 * Every resource, in the machine's order (`cpu` first).
 */
resources: Array<ResourceTotal>, 
/**
 * Node types in node order: type `k`'s nodes follow type `k − 1`'s.
 */
node_types: Array<NodeTypeDescription>, partitions: Array<PartitionDescription>, 
/**
 * The partition of jobs that name none.
 */
default_partition: string, };

export type MachineMetrics = { resources: Array<ResourceUse>, partitions: Array<PartitionMetrics>, };

export type MachineRead = { machine: Machine, 
/**
 * One note per line the machine reader does not use.
 */
notes: Array<string>, };

export type MachineText = { 
/**
 * The `--nodes` form, for the field; absent when that form cannot say
 * the machine (a slurm.conf's time limits, tiers, exclusive nodes).
 */
spec?: string, 
/**
 * Nodes, totals, node types and partitions in one line.
 */
summary: string, };

export type Measure = "wait" | "bsd";

export type MetricSettings = { 
/**
 * τ of the bounded slowdown, seconds (10).
 */
bsd_threshold: number, 
/**
 * Leave the first and last X % of jobs out of per-job averages (0).
 */
skip_percent: number, 
/**
 * Jobs running at most this many seconds are short (3600).
 */
short_runtime: number, 
/**
 * Jobs of at most this many processors are narrow (8).
 */
narrow_size: number, 
/**
 * Run the run checker (true).
 */
check: boolean, };

export type Metrics = { 
/**
 * Jobs measured (after `skip_percent`).
 */
jobs: number, mbs: number, mwbs: number, mean_wait: number, median_wait: number, p95_wait: number, max_wait: number, mean_turnaround: number, mean_slowdown: number, max_slowdown: number, mean_stretch: number, max_stretch: number, utilization: number, makespan: number, backfilled: number, blocked: number, 
/**
 * MBS and MWBS of blocked jobs: "big" (size > P/4), "small", then
 * power-of-two size bins.
 */
blocked_groups: Array<BlockedGroup>, 
/**
 * SN, SW, LN, LW.
 */
categories: Array<Category>, fairness: Fairness, 
/**
 * Strict fairness over every job that waited (see
 * [`crate::fairness_audit`]).
 */
fairness_all: FairnessAll, reservation_violations: ReservationViolations, 
/**
 * Reservations the policy made or moved during the run (the run
 * record's reservation log): the work of keeping its plan, which the
 * reservation-depth figure draws against the depth.
 */
reservation_changes: number, 
/**
 * DBF's deadline metrics, for policies that report deadlines.
 */
deadline?: DeadlineMetrics, 
/**
 * Mean wait by priority class, for policies that give some jobs a
 * higher priority.
 */
priority?: PriorityMetrics, 
/**
 * The fair-slowdown table (selective-reservation table 9), when asked for.
 */
fair_slowdown?: FairSlowdownTable, 
/**
 * What the runtime predictions were worth, for policies that use them.
 */
predictions?: PredictionMetrics, 
/**
 * On a machine of nodes, utilisation per resource and figures per
 * partition; absent on processors.
 */
machine?: MachineMetrics, preempted: number, preemption_rate: number, mkt: number, mean_rtw: number, total_load: number, wasted_load: number, };

export type NamedLine = { name: string, line: string, };

export type NodeType = { 
/**
 * Amount of each of the machine's resources, in its order.
 */
capacity: Array<number>, 
/**
 * Nodes of this type.
 */
count: number, };

export type NodeTypeDescription = { count: number, 
/**
 * Its nodes are `first..first + count`.
 */
first: number, 
/**
 * Amount of each resource on one node, in the machine's order.
 */
capacity: Array<number>, };

export type Oversize = "drop" | "clamp";

export type ParamCondition = { 
/**
 * The parameter that matters only sometimes.
 */
param: string, 
/**
 * The choice parameter it depends on.
 */
when: string, 
/**
 * The values of `when` under which `param` matters.
 */
is: Array<string>, };

export type ParamSpec = { 
/**
 * The key used in `--param KEY=VALUE` and in share links.
 */
key: string, 
/**
 * A short label for forms.
 */
name: string, description: string, 
/**
 * The unit of a number ("s", "%"), if it has one.
 */
unit: string | null, } & ({ "type": "choice", options: Array<string>, default: string, } | { "type": "int", min: number, max: number, default: number, } | { "type": "float", min: number, max: number, default: number, } | { "type": "intor", min: number, max: number, word: string, default: string, } | { "type": "text", default: string, max_len: number, });

export type ParamState = { spec: ParamSpec, 
/**
 * The value the run uses; `None` when swept.
 */
value: string | null, from: ValueFrom, 
/**
 * Whether it matters with the run's other values.
 */
matters: boolean, 
/**
 * When it matters, for one that does only sometimes ("only when mode
 * is checkpoint or suspend").
 */
condition: string | null, 
/**
 * The values a number takes, as the form's note says them: "0–100 %",
 * "0–1000000 or all"; `None` for a choice or a text.
 */
range: string | null, };

export type ParamText = string | number;

export type Partition = { name: string, 
/**
 * Its nodes as indices into the machine's nodes, increasing.
 */
nodes: Array<number>, 
/**
 * Longest time limit a job may ask for, seconds (`None`: unlimited).
 */
max_time: number | null, 
/**
 * Slurm's `PriorityTier`: jobs of a higher tier are considered first
 * by a policy that reads it.
 */
priority_tier: number, 
/**
 * Jobs of this partition take whole nodes (`OverSubscribe=EXCLUSIVE`).
 */
exclusive: boolean, };

export type PartitionDescription = { name: string, nodes: number, 
/**
 * Its node numbers as increasing ranges, `0-3,8`.
 */
node_ranges: string, 
/**
 * Σ of its nodes' cores, what its core utilisation divides by.
 */
cores: number, 
/**
 * Longest time a job may ask for, seconds; absent when unlimited.
 */
max_time?: number, priority_tier: number, exclusive: boolean, };

export type PartitionMetrics = { partition: string, jobs: number, mean_wait: number, mbs: number, 
/**
 * Core-seconds of its jobs over its nodes' cores × the run's span.
 */
utilization: number, };

export type Phase = { 
/**
 * 1-based.
 */
step: number, steps: number, 
/**
 * "calibration (CBF reference run)", "fair-slowdown reference (CBF run)" or "run".
 */
label: string, };

export type PlanCell = { run: number, 
/**
 * The index of the sweep value; `null` for a run the sweep does not apply to.
 */
value: number | null, 
/**
 * The title for people, with the sweep value (`Plan::title`).
 */
title: string, 
/**
 * The spec, with `PARAM=VALUE` for a sweep value (tooltips, file names).
 */
label: string, };

export type PlanGrowth = { 
/**
 * "1.2 M plan changes so far".
 */
so_far: string, 
/**
 * One sentence: why, and what to try instead.
 */
why: string, };

export type PlanView = { labels: Array<string>, 
/**
 * The runs' titles for people (`Plan::titles`).
 */
titles: Array<string>, 
/**
 * Every (run, sweep value) in point order, named for people and by
 * its spec: the rows of the runs list and the schedule view's choices.
 */
cells: Array<PlanCell>, 
/**
 * Whether the sweep applies to each run.
 */
swept: Array<boolean>, 
/**
 * The sweep's values as text (a point's `value` indexes them).
 */
values: Array<string>, points: Array<Point>, };

export type Point = { index: number, run: number, 
/**
 * Index into the sweep's values; `null` for a run the sweep does not
 * apply to (or without a sweep).
 */
value: number | null, seed: number, };

export type PointResult = { events: number, 
/**
 * Host-measured; ignored when comparing results.
 */
elapsed_ms?: number, 
/**
 * The metrics document of the run (`schedlab run --json`'s `metrics`).
 */
metrics: Metrics, 
/**
 * `[wait, fraction]` pairs thinned to about [`ECDF_PIXELS`] points: the
 * first repetition of each cell of an experiment with `wait_ecdf`.
 */
wait_ecdf?: Array<[number, number]>, index: number, run: number, 
/**
 * Index into the sweep's values; `null` for a run the sweep does not
 * apply to (or without a sweep).
 */
value: number | null, seed: number, };

export type PolicyInfo = { 
/**
 * Stable identifier (`--policy ID`, share links, result documents).
 */
id: string, name: string, 
/**
 * One paragraph for the page and `schedlab policies`.
 */
description: string, params: Array<ParamSpec>, 
/**
 * Whether the policy reads runtimes at all (FCFS does not).
 */
uses_runtime_source: boolean, 
/**
 * The runtime source used when none is chosen.
 */
default_source: string, 
/**
 * Whether the policy draws from the run's seed (DBF picks its
 * deadline-driven jobs that way). A run whose policy and runtime
 * source both use no seed gives the same result under every seed, so
 * an experiment runs it once however many repetitions it asks for.
 */
uses_seed: boolean, 
/**
 * Parameters that matter only under some values of another one
 * (PV-EASY's checkpoint interval only in checkpoint mode).
 */
conditions: Array<ParamCondition>, };

export type PredictionMetrics = { 
/**
 * The runtime source's id.
 */
source: string, 
/**
 * The virtual predictor's maximum error x, percent.
 */
error_pct?: number, mean_abs_error_pct: number, mean_abs_error_s: number, underpredicted: number, clamped_to_estimate?: number, raised_to_one?: number, };

export type Preempted = { start: number, end: number, 
/**
 * Wall seconds whose work did not survive.
 */
lost: number, bands: Array<Band>, };

export type Preset = { id: string, title: string, 
/**
 * The paper's figures and tables this preset reproduces.
 */
reproduces: string, 
/**
 * The figures of every section, the way the paper draws them (none:
 * a table only).
 */
figures: Array<PresetFigure>, 
/**
 * Prefixes of the shared traces the paper itself used (and the machine
 * size it simulated them on, 0 for the header's).
 */
paper_traces: Array<[string, number]>, sections: Array<Section>, };

export type PresetFigure = { "kind": "bars", columns: Array<string>, } | { "kind": "curves", columns: Array<string>, } | { "kind": "categories", metric: string, } | { "kind": "blocked_groups", metric: string, };

export type PriorityMetrics = { 
/**
 * High-priority jobs measured.
 */
high_jobs: number, 
/**
 * `None` (`null`) when no job had the higher priority.
 */
high_mean_wait: number | null, 
/**
 * The other jobs measured.
 */
low_jobs: number, low_mean_wait: number | null, };

export type ProgressMessage = { 
/**
 * What the run is doing: a CBF reference run first for some policies
 * ("step 1 of 2: calibration (CBF reference run)"), then the run.
 */
phase: Phase, completed: number, jobs: number, events: number, 
/**
 * Simulated time, seconds.
 */
now: number, 
/**
 * Reservation changes so far (the plan's work).
 */
reservation_changes: number, 
/**
 * Set once the plan outgrows the jobs (`plan_growth`): the count in
 * words and one sentence saying why and pointing to the depth.
 */
plan: PlanGrowth | null, };

export type QueuedJob = { job: number, id: number, size: number, estimate: number, submit: number, };

export type ReadOptions = { 
/**
 * Refuse input whose uncompressed size exceeds this many bytes.
 */
max_bytes: number, 
/**
 * Refuse input holding more than this many jobs (counted while
 * reading, after the per-line rules), which bounds memory where
 * `max_bytes` cannot: a small compressed file of one repeated line.
 * Not serialized: it can only refuse a trace, never change how one is
 * read, and hosts differ in it (the browser's is lower), so it is no
 * part of a result's identity.
 */
max_jobs: number, 
/**
 * Machine size to simulate, overriding the header (e.g. 430 for CTC).
 */
machine_size: number | null, 
/**
 * Drop or clamp jobs larger than the machine.
 */
oversize: Oversize, 
/**
 * Keep only jobs in these queues (field 15); `None` keeps all.
 */
queues: Array<number> | null, 
/**
 * Keep only jobs in these partitions (field 16); `None` keeps all.
 */
partitions: Array<number> | null, 
/**
 * Drop jobs whose status (field 11) is one of these.
 */
drop_status: Array<number>, 
/**
 * Which part of the trace to keep.
 */
window: Window, 
/**
 * Divide inter-arrival times by this factor (> 0): 1.2 offers 20 % more load.
 */
load_factor: number, 
/**
 * The machine of nodes to read the trace for (docs/semantics.md,
 * "Machines of nodes"); `None`, the archive's model, leaves
 * `machine_size` or the header to give the processors. Every job then
 * gets a request on it, and jobs that can never run are dropped and
 * counted (the report's `machine`).
 */
machine: Machine | null, };

export type Registry = { policies: Array<PolicyInfo>, predictors: Array<SourceInfo>, 
/**
 * The result document's schema (`schedlab-run/1`).
 */
schema: string, 
/**
 * Events between two progress reports of a run.
 */
progress_every: number, 
/**
 * Points of `wait_ecdf` at most (plus the two ends).
 */
ecdf_pixels: number, 
/**
 * The charts' Okabe–Ito colours as CSS, in series order.
 */
palette: Array<string>, 
/**
 * The schedule view's legend: the key, label and colour of each kind
 * of run, of the reservation outline and of the zoomed-out columns.
 */
schedule_legend: Array<LegendEntry>, 
/**
 * Version of the core.
 */
version: string, 
/**
 * The column catalogue: every metric's label, unit, digits and
 * explanation, and whether tables show it by default.
 */
columns: Array<Column>, 
/**
 * Each column's header as the page's tables print it (a duration's
 * cells carry their unit, so its header names none).
 */
column_headers: Array<string>, 
/**
 * The shared parameters a form offers as global knobs.
 */
knobs: Array<string>, 
/**
 * What every count of a trace's cleaning report means.
 */
cleaning: Array<CleaningRule>, };

export type ReplayState = { time: number, 
/**
 * The runs holding processors, in start order.
 */
running: Array<JobRect>, busy: number, 
/**
 * The first waiting jobs in priority order (at most the limit asked for).
 */
queue: Array<QueuedJob>, 
/**
 * How many jobs wait in all.
 */
queue_length: number, head_reservation: HeadReservation | null, 
/**
 * The next instant something happens, and the last one before `time`.
 */
next: number | null, previous: number | null, };

export type ReservationHeld = { made: number, start: number, wait: number, };

export type ReservationViolations = { count: number, mean_victim_size: number, mean_dtr: number, max_dtr: number, mean_si: number, max_si: number, };

export type ResourceTotal = { name: string, 
/**
 * `cores` for `cpu`, `MiB` for `mem`, none for a count (GPUs).
 */
unit?: string, total: number, };

export type ResourceUse = { resource: string, utilization: number, };

export type RunMessage = { policy: string, 
/**
 * Policy and predictor parameters (`--param KEY=VALUE`).
 */
params?: { [key in string]?: ParamText }, 
/**
 * Runtime source id; the policy's default when absent.
 */
predictor?: string, seed?: number, 
/**
 * Bounded-slowdown threshold, seconds (10).
 */
bsd_threshold?: number, 
/**
 * Leave out the first and last X % of jobs from the metrics (0).
 */
skip_percent?: number, 
/**
 * Category limits: short runtime (3600 s) and narrow size (8).
 */
short_runtime?: number, narrow_size?: number, 
/**
 * Skip the run checker (it runs by default, as on the command line).
 */
no_check?: boolean, };

export type RunScope = { 
/**
 * The run's label (its spec text).
 */
label: string, 
/**
 * The run's title for people (`run_title`; the label while the run
 * does not resolve).
 */
title: string, params: Array<ParamState>, };

export type RunSpec = { 
/**
 * A policy id of the registry.
 */
policy: string, 
/**
 * Policy and predictor parameters, as text.
 */
params: Record<string, string>, 
/**
 * A runtime source id; the policy's default when absent.
 */
predictor?: string, };

export type Scatter = { measure: Measure, x: Array<number>, y: Array<number>, size_class: Array<number>, classes: Array<string>, };

export type ScatterRect = { x_min: number, x_max: number, y_min: number, y_max: number, };

export type ScheduleChart = { title: string, 
/**
 * A second line under the title: what the numbers are of (the
 * trace, its machine size and workload options).
 */
subtitle?: string, procs: number, from: number, to: number, 
/**
 * One box per processor band of every run in the window (zoomed in).
 */
boxes: Array<GanttBox>, 
/**
 * Zoomed out (when there are no boxes): the mean fraction of the
 * machine busy in each of these equal columns of the window.
 */
columns: Array<number>, 
/**
 * The first waiting job's reservation, drawn as an outline.
 */
outline: Array<GanttBox>, 
/**
 * Series under the chart, each with one value per equal column.
 */
strips: Array<SeriesStrip>, 
/**
 * On a machine of nodes (the Gantt by node: the rows are the nodes'
 * cores, node after node), the row where each node but the first
 * begins, drawn as a line; empty on processors or past
 * [`MAX_DRAWN_NODES`] nodes.
 */
node_rows?: Array<number>, };

export type ScheduleInfo = { slot: number, 
/**
 * The run's title for people (`run_title`: the policy and every
 * setting off its default).
 */
label: string, procs: number, jobs: number, 
/**
 * Runs of jobs (a preempted job has several).
 */
runs: number, 
/**
 * Runs drawn on more than one band of processors (a fragmented machine).
 */
split_runs: number, 
/**
 * The first and last instant of the run, seconds; null for an empty trace.
 */
span: [number, number] | null, 
/**
 * Bytes the view's indexes hold, and the run record's.
 */
view_bytes: number, record_bytes: number, };

export type Scope = { runs: Array<RunScope>, 
/**
 * The global knobs ([`KNOBS`]), then every other key the experiment shares.
 */
shared: Array<SharedScope>, 
/**
 * The numeric parameters some run takes, in the order runs list them.
 */
sweepable: Array<Sweepable>, };

export type Section = { title: string, runs: Array<string>, 
/**
 * Swept parameter and its values.
 */
sweep: [string, Array<string>] | null, repeat: number, 
/**
 * Divides inter-arrival times (docs/semantics.md, "Reading a trace"):
 * 1 is the trace as recorded. It multiplies the user's load factor.
 */
load_factor: number, 
/**
 * The metrics its table shows, labelled by the column catalogue
 * (written as their paths: `fairness.delayed`, `categories.0.mbs`).
 */
columns: Array<string>, };

export type Selection = { 
/**
 * The first jobs inside (at most the limit asked for).
 */
jobs: Array<JobRef>, 
/**
 * How many jobs are inside in all.
 */
total: number, };

export type SeriesData = { grid: Grid, 
/**
 * Mean fraction of the machine busy, per bucket.
 */
utilisation: Array<number>, 
/**
 * Mean number of waiting jobs.
 */
queue_jobs: Array<number>, 
/**
 * Mean requested work of the waiting jobs (size × estimate), processor-seconds.
 */
queue_work: Array<number>, 
/**
 * The longest wait of a first waiting job in the bucket, seconds (0 when none waited).
 */
head_wait: Array<number>, };

export type SeriesStrip = { name: string, unit: StripUnit, values: Array<number>, };

export type Shard = { 
/**
 * 1-based.
 */
index: number, count: number, };

export type SharedScope = { key: string, 
/**
 * The parameter as the first policy or runtime source that declares
 * it describes it; `None` when nothing takes such a parameter.
 */
spec: ParamSpec | null, 
/**
 * The experiment's value, if it sets one.
 */
value: string | null, 
/**
 * Runs that take it, with it mattering, and use the shared value.
 */
reaches: Array<number>, 
/**
 * Runs that take it but set their own value, which wins.
 */
overridden: Array<number>, 
/**
 * Runs that take it but ignore it with their other values.
 */
ignored: Array<Ignored>, 
/**
 * Runs the sweep gives it to (the shared value does not reach them).
 */
swept: Array<number>, 
/**
 * The runtime sources that take it (`error`: `virtual`): a run takes
 * such a parameter only while it uses one of them.
 */
sources: Array<string>, };

export type Simulated = { 
/**
 * Jobs whose runtime was cut to their estimate.
 */
runtime_capped: number, 
/**
 * Seconds cut from their runtimes in all.
 */
runtime_cut: number, 
/**
 * Jobs without an estimate, given max(runtime, 1).
 */
no_estimate: number, 
/**
 * Jobs larger than the machine, run on the whole machine.
 */
oversized_clamped: number, 
/**
 * Inter-arrival times were divided by this.
 */
load_factor: number, 
/**
 * Earliest submit time, seconds.
 */
first_submit: number, 
/**
 * Latest submit time, seconds.
 */
last_submit: number, 
/**
 * last_submit − first_submit, seconds.
 */
duration: number, 
/**
 * Σ(runtime × size) / (P × duration), a fraction (0.7 = 70 %). `None`
 * (JSON `null`) when every job is submitted in the same second: the
 * work then arrives at once and has no rate to compare with the
 * machine's (see `docs/decisions.md`).
 */
offered_load: number | null, 
/**
 * Mean job size, processors.
 */
mean_parallelism: number, 
/**
 * Mean run time, seconds.
 */
mean_runtime: number, 
/**
 * Mean of runtime / estimate (1 = perfect estimates; an unknown
 * estimate counts as perfect).
 */
mean_estimate_accuracy: number, 
/**
 * Σ runtime × size, processor-seconds. Summed exactly, reported as a
 * float so that JSON and JavaScript read it as a plain number (exact
 * up to 2^53 processor-seconds, far beyond any real log).
 */
total_work: number, };

export type SourceInfo = { id: string, name: string, description: string, params: Array<ParamSpec>, 
/**
 * Whether the source draws from the run's seed (`virtual` draws each
 * job's error), so that repeating a run with other seeds can change it.
 */
uses_seed: boolean, };

export type StripUnit = "fraction" | "count" | "seconds" | "proc_seconds";

export type Summary = { identity: TraceIdentity, header: Header, 
/**
 * The first bad lines (at most `schedlab_workload::MAX_BAD_LINES_KEPT`);
 * `identity.cleaning.bad_lines` counts them all.
 */
bad_lines: Array<BadLineInfo>, warnings: Array<string>, 
/**
 * Uncompressed bytes and lines read.
 */
bytes: number, lines: number, 
/**
 * The header's clock: what dates the trace's seconds stand for.
 */
clock: TraceClock, 
/**
 * The statistics as the page lists them, labels and units included.
 */
facts: Array<Fact>, 
/**
 * The cleaning counts that are not zero, in words.
 */
cleaning: Array<CleaningLine>, };

export type SummaryRow = { run: number, label: string, 
/**
 * The run's title for people, with the sweep value (`Plan::title`).
 */
title: string, 
/**
 * The sweep value (text); `null` for a run the sweep does not apply to.
 */
value: string | null, seeds: Array<number>, 
/**
 * The metrics document, each number replaced by its mean.
 */
mean: Metrics, 
/**
 * The same shape, each number the half-width of its 95 % interval;
 * `null` everywhere for a single repetition.
 */
ci95: MetricsIntervals, };

export type SummaryTable = { 
/**
 * The swept parameter, whose values the rows carry.
 */
sweep: string | null, 
/**
 * The trace and the options it was read with (`trace_context`).
 */
context: string, columns: Array<Column>, 
/**
 * Each column's header: its label, and its unit when the cells do not
 * carry one ("MBS", "largest size (processors)", "max wait").
 */
headers: Array<string>, rows: Array<TableRow>, 
/**
 * Which runs ran once because they use no randomness
 * ([`ExperimentResult::note`]), for the table to print under it.
 */
note: string | null, };

export type Sweep = { param: string, values: SweepValues, runs?: Array<number>, };

export type SweepChart = { title: string, 
/**
 * A second line under the title: what the numbers are of (the
 * trace, its machine size and workload options).
 */
subtitle?: string, x_label?: string, y_label?: string, log_x?: boolean, log_y?: boolean, lines: Array<SweepLine>, 
/**
 * Swept values that are words (depth `all`): each is drawn at its
 * position past the numbers, its tick labelled with the word.
 */
words?: Array<WordTick>, };

export type SweepLine = { name: string, points: Array<SweepPoint>, };

export type SweepPoint = { x: number, y: number, low?: number | null, high?: number | null, };

export type SweepValues = { from: number, to: number, step: number, } | Array<string>;

export type Sweepable = { spec: ParamSpec, values: SweepValues, };

export type TableCell = { 
/**
 * "12.345", "12.345 ± 0.678", or "–" for a missing value.
 */
text: string, mean: number | null, 
/**
 * The 95 % half-width; `None` for one repetition.
 */
ci95: number | null, };

export type TableRow = { run: number, label: string, 
/**
 * The run's title for people (the label stays its exact spec).
 */
title: string, 
/**
 * The sweep value; `None` for a run the sweep does not apply to.
 */
value: string | null, cells: Array<TableCell>, };

export type TraceClock = { 
/**
 * The epoch second that the trace's second 0 stands for.
 */
unix_start: number | null, 
/**
 * Seconds east of UTC (`TimeZone`), if given.
 */
offset: number | null, 
/**
 * `TimeZoneString`, e.g. `Europe/Stockholm`, if given.
 */
zone: string | null, };

export type TraceIdentity = { name: string, 
/**
 * SHA-256 of the uncompressed bytes, lowercase hex.
 */
sha256: string, 
/**
 * Jobs after cleaning, the ones the run replayed.
 */
jobs: number, procs: number, 
/**
 * The workload options the trace was read with.
 */
options: ReadOptions, 
/**
 * Counts by cleaning rule, in the order the rules apply.
 */
cleaning: Record<string, number>, stats: TraceStats, 
/**
 * What the reader warned about (a machine size it had to guess, an
 * unusable header entry, duplicate job numbers, …), so that every
 * result carries the caveats of its trace; and the machine size the
 * source papers simulate the trace on, when the run used another.
 */
warnings: Array<string>, 
/**
 * On a machine of nodes, its resources' totals, node types and
 * partitions: what the machine metrics are measured against. Absent
 * on the archive's processors, so those documents keep their bytes.
 */
machine?: MachineDescription, };

export type TraceRef = { "kind": "sample", id: string, } | { "kind": "generated", procs: number, jobs: number, load: number, seed: number, } | { "kind": "url", url: string, } | { "kind": "file", name: string, sha256: string, };

export type TraceStats = { 
/**
 * Number of jobs.
 */
jobs: number, 
/**
 * Machine size P.
 */
procs: number, 
/**
 * Distinct known user ids (field 12 ≥ 0).
 */
users: number, 
/**
 * Distinct known queues (field 15 ≥ 0).
 */
queues: number, 
/**
 * The same figures for the jobs as the simulation replays them, and
 * what cleaning changed to get them.
 */
simulated: Simulated, 
/**
 * Earliest submit time, seconds.
 */
first_submit: number, 
/**
 * Latest submit time, seconds.
 */
last_submit: number, 
/**
 * last_submit − first_submit, seconds.
 */
duration: number, 
/**
 * Σ(runtime × size) / (P × duration), a fraction (0.7 = 70 %). `None`
 * (JSON `null`) when every job is submitted in the same second: the
 * work then arrives at once and has no rate to compare with the
 * machine's (see `docs/decisions.md`).
 */
offered_load: number | null, 
/**
 * Mean job size, processors.
 */
mean_parallelism: number, 
/**
 * Mean run time, seconds.
 */
mean_runtime: number, 
/**
 * Mean of runtime / estimate (1 = perfect estimates; an unknown
 * estimate counts as perfect).
 */
mean_estimate_accuracy: number, 
/**
 * Σ runtime × size, processor-seconds. Summed exactly, reported as a
 * float so that JSON and JavaScript read it as a plain number (exact
 * up to 2^53 processor-seconds, far beyond any real log).
 */
total_work: number, };

export type ValueFrom = "run" | "shared" | "sweep" | "default";

export type ViewLink = { 
/**
 * The experiment's points shown (a run's first repetition): run A and,
 * when two are compared, run B.
 */
points: Array<number>, 
/**
 * The window `[from, to)`, in the trace's seconds.
 */
from: number, to: number, 
/**
 * The job inspected, by its number in the trace.
 */
job?: number, 
/**
 * Whether the two runs' Gantts are stacked on one time axis (before
 * and after); absent in links made before the stacking was kept.
 */
stacked?: boolean, };

export type Window = "all" | { "first_jobs": number } | { "time_range": { 
/**
 * First second kept (inclusive).
 */
from: number, 
/**
 * First second no longer kept (exclusive).
 */
to: number, } };

export type WindowJobs = { rects: Array<JobRect>, 
/**
 * False when more runs met the window than the limit asked for: the
 * page should draw the window from buckets instead.
 */
complete: boolean, };

export type WordTick = { x: number, word: string, };

export type WorkloadOptions = { max_bytes?: number, 
/**
 * The host's job limit (default: the reader's; the browser's is
 * lower). Read, never written: it never changes a result, so no
 * experiment, share link or result document records it.
 */
max_jobs?: number, machine_size?: number, oversize?: "drop" | "clamp", queues?: Array<number>, partitions?: Array<number>, drop_status?: Array<number>, 
/**
 * `"all"`, `{ "first_jobs": N }` or `{ "time_range": { "from": S, "to": S } }`.
 */
window?: "all" | { first_jobs: number } | { time_range: { from: number, to: number } }, 
/**
 * Divides inter-arrival times (1: the trace as recorded).
 */
load_factor?: number, 
/**
 * A machine of nodes to read the trace for (docs/semantics.md,
 * "Machines of nodes"); absent: the archive's processors.
 */
machine?: Machine, };
