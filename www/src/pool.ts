// Run workers: one Web Worker per run, at most `limit` running at once.
// Cancel terminates the worker at once. A finished run keeps its worker (and
// so its session) alive for exports, up to KEEP_ALIVE finished workers; an
// older run's export re-runs it in a fresh worker (runs are deterministic, so
// the export is the same bytes).
import type { RunConfig } from "./experiment";
import type { ExportFormat, FromWorker, ToWorker } from "./protocol";
import type { PointResult, TraceIdentity } from "./generated/types";
import type { Progress, RunDocument, WorkloadOptions } from "./types";

export const KEEP_ALIVE = 6;

export function newWorker(): Worker {
  return new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "schedlab-run" });
}

export interface TraceBytes {
  bytes: ArrayBuffer;
  name: string;
}

/** One message in, one answer out, in a worker of its own. */
export function oneShot(msg: ToWorker, transfer: Transferable[] = []): { promise: Promise<FromWorker>; cancel: () => void } {
  const w = newWorker();
  let settle: (m: FromWorker) => void = () => {};
  const promise = new Promise<FromWorker>((resolve) => {
    settle = resolve;
    w.onmessage = (ev: MessageEvent<FromWorker>) => {
      if (ev.data.type === "ready" || ev.data.type === "progress") return;
      w.terminate();
      resolve(ev.data);
    };
    w.onerror = (ev) => {
      w.terminate();
      resolve({ type: "error", message: ev.message || "the worker failed to start" });
    };
  });
  w.postMessage(msg, transfer);
  return {
    promise,
    cancel: () => {
      w.terminate();
      settle({ type: "error", message: "cancelled" });
    },
  };
}

export type RunStatus = "queued" | "running" | "done" | "error" | "cancelled";

export class RunJob {
  status: RunStatus = "queued";
  progress: Progress | null = null;
  doc: RunDocument | null = null;
  point: PointResult | null = null;
  identity: TraceIdentity | null = null;
  elapsedMs = 0;
  parseMs = 0;
  error: string | null = null;
  worker: Worker | null = null;
  finishedAt = 0;
  onchange: (job: RunJob) => void = () => {};
  constructor(
    readonly id: number,
    readonly config: RunConfig,
    readonly trace: TraceBytes,
    readonly options: WorkloadOptions,
  ) {}
}

export class Pool {
  private queue: RunJob[] = [];
  private running = new Set<RunJob>();
  private alive: RunJob[] = [];
  private nextId = 1;
  onidle: () => void = () => {};

  constructor(readonly limit: number) {}

  submit(config: RunConfig, trace: TraceBytes, options: WorkloadOptions, onchange: (j: RunJob) => void): RunJob {
    const job = new RunJob(this.nextId++, config, trace, options);
    job.onchange = onchange;
    this.queue.push(job);
    queueMicrotask(() => this.pump());
    return job;
  }

  get busy(): boolean {
    return this.queue.length > 0 || this.running.size > 0;
  }

  private pump(): void {
    while (this.running.size < this.limit && this.queue.length > 0) {
      const job = this.queue.shift() as RunJob;
      this.start(job);
    }
    if (!this.busy) this.onidle();
  }

  private start(job: RunJob): void {
    const w = newWorker();
    job.worker = w;
    job.status = "running";
    this.running.add(job);
    job.onchange(job);
    w.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      switch (m.type) {
        case "ready":
        case "registry":
        case "summary":
        case "generated":
        case "exported":
          return;
        case "progress":
          job.progress = m.progress;
          job.onchange(job);
          return;
        case "point":
          job.point = m.result;
          job.identity = m.identity;
          job.elapsedMs = m.elapsedMs;
          this.finish(job, "done");
          return;
        case "result":
          job.doc = m.document;
          job.elapsedMs = m.elapsedMs;
          job.parseMs = m.parseMs;
          this.finish(job, "done");
          return;
        case "error":
          job.error = m.message;
          this.finish(job, "error");
          return;
      }
    };
    w.onerror = (ev) => {
      ev.preventDefault();
      job.error = ev.message || "the run's worker failed";
      this.finish(job, "error");
    };
    const bytes = job.trace.bytes.slice(0);
    const p = job.config.point;
    const msg: ToWorker = p
      ? { type: "point", bytes, name: job.trace.name, options: job.options, experiment: p.experiment, index: p.index }
      : { type: "run", bytes, name: job.trace.name, options: job.options, request: job.config.request };
    w.postMessage(msg, [bytes]);
  }

  private finish(job: RunJob, status: RunStatus): void {
    if (!this.running.has(job)) return;
    this.running.delete(job);
    job.status = status;
    job.finishedAt = performance.now();
    if (status === "done" && job.worker) {
      this.alive.push(job);
      while (this.alive.length > KEEP_ALIVE) {
        const old = this.alive.shift() as RunJob;
        old.worker?.terminate();
        old.worker = null;
      }
    } else {
      job.worker?.terminate();
      job.worker = null;
    }
    job.onchange(job);
    this.pump();
  }

  cancel(job: RunJob): void {
    if (job.status === "queued") {
      this.queue = this.queue.filter((j) => j !== job);
      job.status = "cancelled";
      job.onchange(job);
      if (!this.busy) this.onidle();
    } else if (job.status === "running") {
      job.worker?.terminate();
      job.worker = null;
      job.error = "cancelled";
      this.finish(job, "cancelled");
    }
  }

  cancelAll(): void {
    for (const j of [...this.queue]) this.cancel(j);
    for (const j of [...this.running]) this.cancel(j);
  }

  /** Terminates every worker (a new experiment replaces the old one). */
  dispose(): void {
    this.cancelAll();
    for (const j of this.alive) {
      j.worker?.terminate();
      j.worker = null;
    }
    this.alive = [];
  }

  /** The per-job CSV or simulated SWF of a finished run. */
  async exportRun(job: RunJob, format: ExportFormat): Promise<string> {
    if (job.status !== "done") throw new Error("the run has not finished");
    let w = job.worker;
    let fresh = false;
    if (!w) {
      fresh = true;
      w = newWorker();
    }
    const worker = w;
    return new Promise<string>((resolve, reject) => {
      worker.onmessage = (ev: MessageEvent<FromWorker>) => {
        const m = ev.data;
        if (m.type === "result") {
          worker.postMessage({ type: "export", format } satisfies ToWorker);
        } else if (m.type === "exported") {
          if (fresh) worker.terminate();
          resolve(m.text);
        } else if (m.type === "error") {
          if (fresh) worker.terminate();
          reject(new Error(m.message));
        }
      };
      if (fresh) {
        const bytes = job.trace.bytes.slice(0);
        const msg: ToWorker = { type: "run", bytes, name: job.trace.name, options: job.options, request: job.config.request };
        worker.postMessage(msg, [bytes]);
      } else {
        worker.postMessage({ type: "export", format } satisfies ToWorker);
      }
    });
  }
}
