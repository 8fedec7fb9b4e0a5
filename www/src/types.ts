// Shapes of what the wasm core returns (see crates/schedlab-wasm and
// docs/cli.md: the same JSON as `schedlab policies --json` / `run --json`).

export type ParamType = "choice" | "int" | "float";

export interface ParamSpec {
  key: string;
  name: string;
  description: string;
  type: ParamType;
  options?: string[] | null;
  min?: number | null;
  max?: number | null;
  default: string | number;
  unit?: string | null;
}

export interface PolicyInfo {
  id: string;
  name: string;
  description: string;
  params: ParamSpec[];
  uses_runtime_source: boolean;
  default_source: string;
}

export interface SourceInfo {
  id: string;
  name: string;
  description: string;
  params: ParamSpec[];
}

export interface Registry {
  policies: PolicyInfo[];
  predictors: SourceInfo[];
}

/** Workload options accepted by `new Session(bytes, name, options)` (generated from the core). */
export type { WorkloadOptions } from "./generated/types";

export interface RunRequest {
  policy: string;
  params?: Record<string, string>;
  predictor?: string;
  seed?: number;
  bsd_threshold?: number;
  skip_percent?: number;
}

export interface BadLine {
  line: number;
  field?: string | number | null;
  field_name?: string | null;
  message: string;
  text?: string;
}

export interface TraceStats {
  jobs: number;
  procs: number;
  first_submit?: number;
  last_submit?: number;
  duration?: number;
  /** null when every job is submitted in the same second (no arrival rate). */
  offered_load?: number | null;
  mean_parallelism?: number;
  mean_runtime?: number;
  mean_estimate_accuracy?: number;
  users?: number;
  queues?: number;
  total_work?: number;
  /** The same figures as the simulation replays the jobs (runtimes capped at estimates, load factor…). */
  simulated?: SimulatedStats;
  [k: string]: unknown;
}

export interface SimulatedStats {
  duration?: number;
  /** null when every job is submitted in the same second (no arrival rate). */
  offered_load?: number | null;
  mean_parallelism?: number;
  mean_runtime?: number;
  mean_estimate_accuracy?: number;
  total_work?: number;
  runtime_capped?: number;
  runtime_cut?: number;
  no_estimate?: number;
  oversized_clamped?: number;
  load_factor?: number;
  [k: string]: unknown;
}

export interface TraceIdentity {
  name: string;
  sha256: string;
  jobs: number;
  procs: number;
  options?: Record<string, unknown>;
  cleaning: Record<string, number>;
  stats: TraceStats;
  /** The reader's warnings about the trace (guessed machine size, …). */
  warnings?: string[];
}

export interface Summary {
  identity: TraceIdentity;
  header?: Record<string, unknown>;
  bad_lines: BadLine[];
  warnings: string[];
  [k: string]: unknown;
}

export interface BlockedGroup {
  group: string;
  min_size: number;
  max_size: number;
  jobs: number;
  mbs: number | null;
  mwbs: number | null;
}

export interface Category {
  name: string;
  jobs: number;
  mbs: number | null;
  mean_turnaround: number | null;
  mean_wait: number | null;
}

export interface Metrics {
  jobs: number;
  mbs: number;
  mwbs: number;
  mean_wait: number;
  median_wait: number;
  p95_wait: number;
  max_wait: number;
  mean_turnaround: number;
  mean_slowdown: number;
  max_slowdown: number;
  mean_stretch: number;
  max_stretch: number;
  utilization: number;
  makespan: number;
  backfilled: number;
  blocked: number;
  blocked_groups: BlockedGroup[];
  categories: Category[];
  fairness: { blocked: number; delayed: number; mean_delay: number | null; max_delay: number | null };
  /** Strict fairness over every job that waited, with the number of distinct lower-priority culprits. */
  fairness_all?: { blocked: number; delayed: number; mean_delay: number | null; max_delay: number | null; culprits: number };
  /** Violations judged against the reservation in force when the offending job was backfilled. */
  reservation_violations?: { count: number; mean_victim_size: number; mean_dtr: number; max_dtr: number; mean_si: number; max_si: number };
  predictions?: {
    source: string;
    error_pct?: number;
    mean_abs_error_pct: number;
    mean_abs_error_s: number;
    underpredicted: number;
    clamped_to_estimate?: number;
    raised_to_one?: number;
  };
  [k: string]: unknown;
}

export interface RunDocument {
  schema: string;
  policy: string;
  params: { [key in string]?: string | number };
  predictor: string | null;
  seed: number;
  trace: TraceIdentity;
  elapsed_ms?: number;
  events: number;
  passes: number;
  check: string;
  metrics: Metrics;
  wait_ecdf?: [number, number][];
  [k: string]: unknown;
}

export interface Progress {
  completed: number;
  jobs: number;
  events: number;
  /** "step 1 of 2: calibration (CBF reference run)" when a run has two phases */
  phase?: string;
}

export interface LublinRequest {
  procs: number;
  jobs: number;
  load: number;
  seed: number;
}
