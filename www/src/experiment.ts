// The experiment as the user set it up (what a share link carries), and its
// expansion into runs. Nothing here names a policy: every policy, parameter
// and runtime source comes from the core's registry.
import type { Experiment as Experiment_ } from "./generated/types";
import type { ParamSpec, PolicyInfo, Registry, RunRequest, SourceInfo, WorkloadOptions } from "./types";

export type TraceRef =
  | { kind: "sample"; id: string }
  | { kind: "generated"; procs: number; jobs: number; load: number; seed: number }
  | { kind: "url"; url: string }
  | { kind: "file"; name: string; sha256: string };

export interface WorkloadForm {
  machineSize: number | null;
  loadFactor: number | null;
  first: number | null;
  queues: number[];
  clamp: boolean;
}

export interface Sweep {
  key: string;
  from: number;
  to: number;
  step: number;
}

export interface PolicyEntry {
  policy: string;
  /** values typed in the card, as strings, by parameter key */
  params: Record<string, string>;
  /** runtime source (predictor id); null for policies that use none */
  source: string | null;
  sweep: Sweep | null;
}

export interface Experiment {
  trace: TraceRef | null;
  workload: WorkloadForm;
  /** global knobs by parameter key; "" = each policy's own value */
  globals: Record<string, string>;
  policies: PolicyEntry[];
  reps: number;
  seed: number;
  /** a preset (core `presets()` id) the link runs instead of the form */
  preset?: string;
}

/** The three knobs users reach for most, applied by parameter key. */
export const GLOBAL_KNOBS: { key: string; label: string }[] = [
  { key: "sf", label: "Slack factor" },
  { key: "error", label: "Virtual-predictor error" },
  { key: "cost", label: "Checkpoint cost" },
];

export const MAX_REPS = 100;
export const MAX_SWEEP_POINTS = 50;
export const MAX_RUNS = 400;

export function emptyWorkload(): WorkloadForm {
  return { machineSize: null, loadFactor: null, first: null, queues: [], clamp: false };
}

export function defaultEntry(p: PolicyInfo): PolicyEntry {
  const params: Record<string, string> = {};
  for (const s of p.params) params[s.key] = String(s.default);
  return { policy: p.id, params, source: p.uses_runtime_source ? p.default_source : null, sweep: null };
}

export function findPolicy(reg: Registry, id: string): PolicyInfo | undefined {
  return reg.policies.find((p) => p.id === id);
}

export function findSource(reg: Registry, id: string | null): SourceInfo | undefined {
  return id === null ? undefined : reg.predictors.find((p) => p.id === id);
}

/** Every parameter an entry can take: the policy's, then its runtime source's. */
export function entryParams(reg: Registry, e: PolicyEntry): ParamSpec[] {
  const p = findPolicy(reg, e.policy);
  if (!p) return [];
  const src = p.uses_runtime_source ? findSource(reg, e.source) : undefined;
  return [...p.params, ...(src?.params ?? [])];
}

/** Checks one value against its ParamSpec; returns the problem or null. */
export function checkParam(spec: ParamSpec, value: string): string | null {
  if (spec.type === "choice") {
    const opts = spec.options ?? [];
    return opts.includes(value) ? null : `${spec.name}: "${value}" is not one of ${opts.join(", ")}`;
  }
  if (value.trim() === "") return `${spec.name}: a number is required`;
  const x = Number(value);
  if (!Number.isFinite(x)) return `${spec.name}: "${value}" is not a number`;
  if (spec.type === "int" && !Number.isInteger(x)) return `${spec.name}: ${value} is not a whole number`;
  if (spec.min !== null && spec.min !== undefined && x < spec.min) return `${spec.name}: ${value} is below ${spec.min}`;
  if (spec.max !== null && spec.max !== undefined && x > spec.max) return `${spec.name}: ${value} is above ${spec.max}`;
  return null;
}

/** Which global knobs some selected policy can take (by key). */
export function knobUsers(reg: Registry, ex: Experiment, key: string): number {
  return ex.policies.filter((e) => entryParams(reg, e).some((s) => s.key === key)).length;
}

export function sweepValues(s: Sweep): number[] {
  const out: number[] = [];
  if (!(s.step > 0) || !Number.isFinite(s.from) || !Number.isFinite(s.to)) return out;
  for (let i = 0; i < MAX_SWEEP_POINTS + 1; i++) {
    const v = s.from + i * s.step;
    if (v > s.to + 1e-9 * Math.abs(s.step)) break;
    out.push(Number(v.toPrecision(12)));
  }
  return out;
}

export interface RunConfig {
  /** index of the policy entry (card) */
  entry: number;
  /** label of the configuration: what the repetitions share */
  label: string;
  sweepKey: string | null;
  sweepValue: number | null;
  rep: number;
  request: RunRequest;
  /** a point of a core experiment, run by `session.run_point` instead of `request` */
  point?: { experiment: Experiment_; index: number };
}

export function workloadOptions(w: WorkloadForm): WorkloadOptions {
  const o: WorkloadOptions = {};
  if (w.machineSize !== null) o.machine_size = w.machineSize;
  if (w.loadFactor !== null) o.load_factor = w.loadFactor;
  if (w.first !== null) o.window = { first_jobs: w.first };
  if (w.queues.length > 0) o.queues = [...w.queues];
  if (w.clamp) o.oversize = "clamp";
  return o;
}

export function entryLabel(reg: Registry, e: PolicyEntry, values: Record<string, string>): string {
  const p = findPolicy(reg, e.policy);
  if (!p) return e.policy;
  const parts: string[] = [];
  for (const s of entryParams(reg, e)) {
    const v = values[s.key];
    if (v !== undefined && v !== String(s.default)) parts.push(`${s.key}=${v}`);
  }
  let label = p.name;
  if (parts.length) label += ` ${parts.join(",")}`;
  if (p.uses_runtime_source && e.source && e.source !== p.default_source) label += ` @${e.source}`;
  return label;
}

/** The values an entry runs with: card values, then global knobs, then a sweep point. */
export function effectiveParams(reg: Registry, ex: Experiment, e: PolicyEntry): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of entryParams(reg, e)) {
    let v = e.params[s.key] ?? String(s.default);
    const g = ex.globals[s.key];
    if (g !== undefined && g !== "") v = g;
    out[s.key] = v;
  }
  return out;
}

/** Expands the experiment into runs; throws with a readable message when a value is bad. */
export function expand(reg: Registry, ex: Experiment): RunConfig[] {
  const runs: RunConfig[] = [];
  if (ex.policies.length === 0) throw new Error("Choose at least one policy.");
  ex.policies.forEach((e, i) => {
    const p = findPolicy(reg, e.policy);
    if (!p) throw new Error(`Unknown policy "${e.policy}".`);
    const base = effectiveParams(reg, ex, e);
    const specs = entryParams(reg, e);
    let points: (number | null)[] = [null];
    if (e.sweep) {
      const spec = specs.find((s) => s.key === e.sweep?.key);
      if (!spec || spec.type === "choice") throw new Error(`${p.name}: cannot sweep "${e.sweep.key}".`);
      points = sweepValues(e.sweep);
      if (points.length === 0) throw new Error(`${p.name}: the sweep of ${spec.name} has no point (check from/to/step).`);
      if (points.length > MAX_SWEEP_POINTS) throw new Error(`${p.name}: a sweep has at most ${MAX_SWEEP_POINTS} points.`);
    }
    for (const pt of points) {
      const values = { ...base };
      if (pt !== null && e.sweep) values[e.sweep.key] = String(pt);
      for (const s of specs) {
        const problem = checkParam(s, values[s.key]);
        if (problem) throw new Error(`${p.name}: ${problem}`);
      }
      const label = entryLabel(reg, e, values);
      for (let r = 0; r < ex.reps; r++) {
        const request: RunRequest = { policy: p.id, params: values, seed: ex.seed + r };
        if (p.uses_runtime_source && e.source) request.predictor = e.source;
        runs.push({ entry: i, label, sweepKey: e.sweep?.key ?? null, sweepValue: pt, rep: r, request });
      }
    }
  });
  if (runs.length > MAX_RUNS) throw new Error(`That is ${runs.length} runs; at most ${MAX_RUNS} at once.`);
  return runs;
}
