// The typed message protocol between the page and its Web Workers.
// Every message carries a `type`; both directions are discriminated unions,
// so a `switch (msg.type)` is checked exhaustively by the compiler.
//
// One worker per run. A worker is also used to read a trace's summary (so a
// 250,000-job trace is parsed off the page's thread) and to generate a
// synthetic trace. A finished run's worker may be kept alive so the page can
// ask it for the per-job CSV or the simulated SWF of that run (`export`).

import type {
  LublinRequest,
  Progress,
  Registry,
  RunDocument,
  RunRequest,
  Summary,
  WorkloadOptions,
} from "./types";
import type { Experiment, PointResult, TraceIdentity } from "./generated/types";

/** page → worker */
export type ToWorker =
  | { type: "registry" }
  | {
      type: "summary";
      /** trace bytes (plain or gzip), transferred */
      bytes: ArrayBuffer;
      name: string;
      options: WorkloadOptions;
    }
  | {
      type: "run";
      /** trace bytes (plain or gzip), transferred */
      bytes: ArrayBuffer;
      name: string;
      options: WorkloadOptions;
      request: RunRequest;
    }
  | {
      type: "point";
      /** trace bytes (plain or gzip), transferred */
      bytes: ArrayBuffer;
      name: string;
      options: WorkloadOptions;
      experiment: Experiment;
      index: number;
    }
  | { type: "export"; format: ExportFormat }
  | { type: "generate"; request: LublinRequest };

export type ExportFormat = "csv" | "swf";

/** worker → page */
export type FromWorker =
  | { type: "ready" }
  | { type: "registry"; registry: Registry }
  | { type: "summary"; summary: Summary }
  | { type: "progress"; progress: Progress }
  | { type: "result"; document: RunDocument; elapsedMs: number; parseMs: number }
  | { type: "point"; result: PointResult; identity: TraceIdentity; elapsedMs: number }
  | { type: "exported"; format: ExportFormat; text: string }
  | { type: "generated"; bytes: ArrayBuffer }
  | { type: "error"; message: string };

export function isFromWorker(x: unknown): x is FromWorker {
  return typeof x === "object" && x !== null && typeof (x as { type?: unknown }).type === "string";
}
