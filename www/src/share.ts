// Share links: the whole experiment in the URL fragment, `#v1=` + base64url
// of a compact JSON. Decoding validates every field against the registry and
// the bundled samples; anything else is refused with a message.
import {
  checkParam,
  type Experiment,
  entryParams,
  findPolicy,
  findSource,
  MAX_REPS,
  MAX_SWEEP_POINTS,
  type PolicyEntry,
  type Sweep,
  sweepValues,
  type TraceRef,
  GLOBAL_KNOBS,
} from "./experiment";
import type { Registry } from "./types";

export const PREFIX = "v1=";
const MAX_LINK = 16_000;
const MAX_NAME = 200;
const MAX_URL = 2_000;

type Compact = {
  t?: unknown[];
  w?: unknown[];
  g?: Record<string, unknown>;
  p?: unknown[];
  r?: unknown;
  s?: unknown;
  /** preset id */
  x?: unknown;
};

export function b64urlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function b64urlDecode(s: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new LinkError("the link's data is not base64url");
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    throw new LinkError("the link's data is not valid base64url");
  }
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError("the link's data is not UTF-8 text");
  }
}

export class LinkError extends Error {}

function traceToCompact(t: TraceRef): unknown[] {
  switch (t.kind) {
    case "sample":
      return ["s", t.id];
    case "generated":
      return ["g", t.procs, t.jobs, t.load, t.seed];
    case "url":
      return ["u", t.url];
    case "file":
      return ["f", t.name, t.sha256];
  }
}

export function encodeExperiment(ex: Experiment): string {
  const c: Compact = {};
  if (ex.trace) c.t = traceToCompact(ex.trace);
  const w = ex.workload;
  c.w = [w.machineSize ?? 0, w.loadFactor ?? 0, w.first ?? 0, w.queues, w.clamp ? 1 : 0];
  const g: Record<string, string> = {};
  for (const [k, v] of Object.entries(ex.globals)) if (v !== "") g[k] = v;
  if (Object.keys(g).length) c.g = g;
  c.p = ex.policies.map((e) => {
    const row: unknown[] = [e.policy, e.params, e.source ?? ""];
    if (e.sweep) row.push([e.sweep.key, e.sweep.from, e.sweep.to, e.sweep.step]);
    return row;
  });
  c.r = ex.reps;
  c.s = ex.seed;
  if (ex.preset) c.x = ex.preset;
  return PREFIX + b64urlEncode(JSON.stringify(c));
}

// ---- decoding: every field checked ----

function isInt(x: unknown, min: number, max: number): x is number {
  return typeof x === "number" && Number.isInteger(x) && x >= min && x <= max;
}
function isNum(x: unknown, min: number, max: number): x is number {
  return typeof x === "number" && Number.isFinite(x) && x >= min && x <= max;
}
function isStr(x: unknown, max: number): x is string {
  return typeof x === "string" && x.length <= max;
}
function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function decodeTrace(t: unknown, sampleIds: string[]): TraceRef {
  if (!Array.isArray(t) || t.length < 2) throw new LinkError("the trace reference is malformed");
  switch (t[0]) {
    case "s":
      if (!isStr(t[1], 100) || !sampleIds.includes(t[1])) throw new LinkError("the link names a sample that does not exist");
      return { kind: "sample", id: t[1] };
    case "g":
      if (!isInt(t[1], 1, 1_000_000) || !isInt(t[2], 1, 1_000_000) || !isNum(t[3], 0.01, 10) || !isInt(t[4], 0, Number.MAX_SAFE_INTEGER))
        throw new LinkError("the generated-trace settings in the link are out of range");
      return { kind: "generated", procs: t[1], jobs: t[2], load: t[3], seed: t[4] };
    case "u": {
      if (!isStr(t[1], MAX_URL)) throw new LinkError("the trace URL in the link is malformed");
      let u: URL;
      try {
        u = new URL(t[1]);
      } catch {
        throw new LinkError("the trace URL in the link is not a URL");
      }
      if (u.protocol !== "https:" && u.protocol !== "http:") throw new LinkError("the trace URL must be http or https");
      return { kind: "url", url: u.href };
    }
    case "f":
      if (!isStr(t[1], MAX_NAME) || t[1].length === 0) throw new LinkError("the file name in the link is malformed");
      if (!isStr(t[2], 64) || !/^[0-9a-f]{64}$/.test(t[2])) throw new LinkError("the file's SHA-256 in the link is malformed");
      return { kind: "file", name: t[1], sha256: t[2] };
    default:
      throw new LinkError("the trace reference has an unknown kind");
  }
}

function decodeEntry(reg: Registry, row: unknown, n: number): PolicyEntry {
  if (!Array.isArray(row) || row.length < 3 || row.length > 4) throw new LinkError(`policy ${n} is malformed`);
  const [id, params, source, sweep] = row;
  if (!isStr(id, 100)) throw new LinkError(`policy ${n} is malformed`);
  const p = findPolicy(reg, id);
  if (!p) throw new LinkError(`the link names a policy this page does not know (policy ${n})`);
  let src: string | null = null;
  if (p.uses_runtime_source) {
    if (!isStr(source, 100) || !findSource(reg, source)) throw new LinkError(`${p.name}: unknown runtime source in the link`);
    src = source;
  } else if (source !== "") throw new LinkError(`${p.name} takes no runtime source`);
  const e: PolicyEntry = { policy: id, params: {}, source: src, sweep: null };
  if (!isPlainObject(params)) throw new LinkError(`${p.name}: parameters are malformed`);
  const specs = entryParams(reg, e);
  for (const [k, v] of Object.entries(params)) {
    const spec = specs.find((s) => s.key === k);
    if (!spec) throw new LinkError(`${p.name}: unknown parameter in the link`);
    if (!isStr(v, 50)) throw new LinkError(`${p.name}: parameter ${spec.name} is malformed`);
    const problem = checkParam(spec, v);
    if (problem) throw new LinkError(`${p.name}: ${problem}`);
    e.params[k] = v;
  }
  for (const s of specs) if (!(s.key in e.params)) e.params[s.key] = String(s.default);
  if (sweep !== undefined) {
    if (!Array.isArray(sweep) || sweep.length !== 4) throw new LinkError(`${p.name}: sweep is malformed`);
    const [key, from, to, step] = sweep;
    const spec = specs.find((s) => s.key === key);
    if (!spec || spec.type === "choice") throw new LinkError(`${p.name}: the sweep names an unknown numeric parameter`);
    if (!isNum(from, -1e12, 1e12) || !isNum(to, -1e12, 1e12) || !isNum(step, 1e-12, 1e12))
      throw new LinkError(`${p.name}: sweep bounds are malformed`);
    const sw: Sweep = { key: spec.key, from, to, step };
    const pts = sweepValues(sw);
    if (pts.length === 0 || pts.length > MAX_SWEEP_POINTS) throw new LinkError(`${p.name}: the sweep has too many or no points`);
    e.sweep = sw;
  }
  return e;
}

/** Decodes a fragment (without '#'); throws LinkError with a readable reason. */
export function decodeExperiment(fragment: string, reg: Registry, sampleIds: string[], presetIds: string[] = []): Experiment {
  if (!fragment.startsWith(PREFIX)) throw new LinkError("the link is not a Schedlab experiment (expected #v1=…)");
  const data = fragment.slice(PREFIX.length);
  if (data.length > MAX_LINK) throw new LinkError("the link is too long");
  let c: unknown;
  try {
    c = JSON.parse(b64urlDecode(data));
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError("the link's data is not valid JSON");
  }
  if (!isPlainObject(c)) throw new LinkError("the link's data is malformed");
  const cc = c as Compact;
  const ex: Experiment = {
    trace: null,
    workload: { machineSize: null, loadFactor: null, first: null, queues: [], clamp: false },
    globals: {},
    policies: [],
    reps: 1,
    seed: 0,
  };
  if (cc.t !== undefined) ex.trace = decodeTrace(cc.t, sampleIds);
  if (cc.w !== undefined) {
    const w = cc.w;
    if (!Array.isArray(w) || w.length !== 5) throw new LinkError("the workload options are malformed");
    const [m, l, f, q, cl] = w;
    if (!isInt(m, 0, 100_000_000)) throw new LinkError("machine size in the link is out of range");
    if (!isNum(l, 0, 1000)) throw new LinkError("load factor in the link is out of range");
    if (!isInt(f, 0, 100_000_000)) throw new LinkError("window in the link is out of range");
    if (!Array.isArray(q) || q.length > 100 || !q.every((x) => isInt(x, -1, 1_000_000_000)))
      throw new LinkError("queue filter in the link is malformed");
    if (cl !== 0 && cl !== 1) throw new LinkError("oversize option in the link is malformed");
    ex.workload = { machineSize: m || null, loadFactor: l || null, first: f || null, queues: q as number[], clamp: cl === 1 };
  }
  if (cc.g !== undefined) {
    if (!isPlainObject(cc.g)) throw new LinkError("the global knobs are malformed");
    for (const [k, v] of Object.entries(cc.g)) {
      if (!GLOBAL_KNOBS.some((g) => g.key === k)) throw new LinkError("the link sets an unknown global knob");
      if (!isStr(v, 50) || !Number.isFinite(Number(v)) || v.trim() === "") throw new LinkError("a global knob in the link is not a number");
      ex.globals[k] = v;
    }
  }
  if (!Array.isArray(cc.p) || cc.p.length === 0 || cc.p.length > 50) throw new LinkError("the link names no policy (or too many)");
  ex.policies = cc.p.map((row, i) => decodeEntry(reg, row, i + 1));
  if (cc.r !== undefined) {
    if (!isInt(cc.r, 1, MAX_REPS)) throw new LinkError("repetitions in the link are out of range");
    ex.reps = cc.r;
  }
  if (cc.s !== undefined) {
    if (!isInt(cc.s, 0, 2 ** 53 - 1 - MAX_REPS)) throw new LinkError("seed in the link is out of range");
    ex.seed = cc.s;
  }
  if (cc.x !== undefined) {
    if (!isStr(cc.x, 100) || !presetIds.includes(cc.x)) throw new LinkError("the link names a preset that does not exist");
    ex.preset = cc.x;
  }
  // global knob values are checked against every parameter spec they reach
  for (const e of ex.policies) {
    for (const s of entryParams(reg, e)) {
      const g = ex.globals[s.key];
      if (g !== undefined) {
        const problem = checkParam(s, g);
        if (problem) throw new LinkError(problem);
      }
    }
  }
  return ex;
}
