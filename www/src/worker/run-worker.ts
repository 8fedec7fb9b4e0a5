/// <reference lib="webworker" />
// A run worker. It lives as long as the page: it keeps the trace's bytes
// and its parsed sessions (one per set of workload options, the last two),
// so a trace is parsed once per worker, not once per run. The page calls it
// through Comlink (typed promises); a run is cancelled through the cancel
// flag the page shares with it (a SharedArrayBuffer, read by the progress
// callback that the core calls every few thousand events).
import * as Comlink from "comlink";
import { type Core, loadCore } from "../core";
import type { Experiment, GenerateMessage, ProgressMessage, Summary, WorkloadOptions } from "../generated/types";

type Session = InstanceType<Core["Session"]>;

/** What a finished point can be exported as: our per-job CSV, the simulated SWF, Batsim's jobs.csv. */
export type ExportFormat = "csv" | "swf" | "batsim";

/** Sessions kept: the form's options and one preset section's, say. */
const KEPT_SESSIONS = 2;
/** Least time between two progress messages to the page, ms. */
const PROGRESS_MS = 100;

let trace: { bytes: Uint8Array; name: string } | null = null;
const sessions = new Map<string, Session>();
let flag: Int32Array | null = null;
/** The point whose run the session of its options keeps (for exports). */
let lastPoint = "";

/** What a finished point sends back: its result and the trace's identity, as JSON text. */
export interface PointDone {
  json: string;
  identity: string;
  /** Time in the run, ms (host-measured; not part of the result). */
  elapsedMs: number;
  /** Time spent reading the trace first, ms (0 when already read). */
  parseMs: number;
}

function optionsKey(options: WorkloadOptions): string {
  return JSON.stringify(options);
}

async function session(options: WorkloadOptions): Promise<{ s: Session; parseMs: number }> {
  const core = await loadCore();
  const key = optionsKey(options);
  const kept = sessions.get(key);
  if (kept) {
    // most recently used last
    sessions.delete(key);
    sessions.set(key, kept);
    return { s: kept, parseMs: 0 };
  }
  if (!trace) throw new Error("no trace in this worker");
  const t0 = performance.now();
  const s = new core.Session(trace.bytes, trace.name, options);
  sessions.set(key, s);
  while (sessions.size > KEPT_SESSIONS) {
    const [oldest, old] = sessions.entries().next().value as [string, Session];
    sessions.delete(oldest);
    old.free();
  }
  return { s, parseMs: performance.now() - t0 };
}

function pointKey(experiment: Experiment, index: number): string {
  return `${index}:${JSON.stringify(experiment)}`;
}

const api = {
  /** The flag the page sets (to 1) to cancel the run in progress. */
  setFlag(shared: Int32Array): void {
    flag = shared;
  },

  /** Replaces the trace (its bytes, transferred); parsed when first needed. */
  setTrace(bytes: ArrayBuffer, name: string): void {
    for (const s of sessions.values()) s.free();
    sessions.clear();
    lastPoint = "";
    trace = { bytes: new Uint8Array(bytes), name };
  },

  /** The trace read with `options`: statistics, cleaning report, bad lines. */
  async summary(options: WorkloadOptions): Promise<Summary> {
    return (await session(options)).s.summary();
  },

  /** Point `index` of `experiment`; `onProgress` hears of it every 100 ms. */
  async runPoint(experiment: Experiment, index: number, onProgress: (p: ProgressMessage) => void): Promise<PointDone> {
    const { s, parseMs } = await session(experiment.workload);
    let last = 0;
    const t0 = performance.now();
    lastPoint = "";
    const json = s.run_point_json(experiment, index, (p) => {
      if (flag && Atomics.load(flag, 0) !== 0) return false;
      const now = performance.now();
      if (now - last >= PROGRESS_MS) {
        last = now;
        onProgress(p);
      }
      return true;
    });
    lastPoint = pointKey(experiment, index);
    return { json, identity: s.identity_json(), elapsedMs: performance.now() - t0, parseMs };
  },

  /** The per-job CSV, the simulated SWF or Batsim's jobs.csv of a point (run again unless it was the last). */
  async exportPoint(experiment: Experiment, index: number, format: ExportFormat): Promise<string> {
    const { s } = await session(experiment.workload);
    if (lastPoint !== pointKey(experiment, index)) {
      lastPoint = "";
      s.run_point_json(experiment, index, () => true);
      lastPoint = pointKey(experiment, index);
    }
    if (format === "batsim") return s.batsim_jobs_csv();
    return format === "csv" ? s.jobs_csv() : s.schedule_swf();
  },

  /** A Lublin–Feitelson trace, as SWF bytes (transferred). */
  async generate(request: GenerateMessage): Promise<ArrayBuffer> {
    const core = await loadCore();
    const bytes = core.generate_lublin(request);
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return Comlink.transfer(buf, [buf]);
  },
};

export type RunWorkerApi = typeof api;

Comlink.expose(api);
