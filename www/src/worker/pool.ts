// The page's run workers: one per core (navigator.hardwareConcurrency, at
// most 16), created with the page and kept. Each gets the trace's bytes the
// first time it runs a point of it and keeps its parsed sessions, so a
// trace is parsed once per worker. Points wait in one queue (the form's
// experiment and the presets share it) and go to an idle worker, one that
// has already parsed the trace with the point's options first.
//
// Cancelling a running point sets the worker's cancel flag (a
// SharedArrayBuffer, when the page is cross-origin isolated); the core sees
// it within a few thousand events and the worker is free again. Without
// isolation the worker is terminated and replaced (its trace is parsed
// again when next needed).
//
// A WebAssembly trap (the core's allocator finding no room when the
// browser will not grow the module's memory further, or any other trap)
// leaves that worker's module half-way through Rust code, so it is never
// called again: the worker is terminated and replaced, the point fails
// with the core's sentence, and the new worker gets the trace from the
// page's copy when next needed. Other points and results are untouched.
import * as Comlink from "comlink";
import { core, errorKind } from "../core";
import type { Experiment, GenerateMessage, ProgressMessage, Summary, WorkloadOptions } from "../generated/types";
import type { ExportFormat, PointDone, RunWorkerApi } from "./run-worker";

export type PointStatus = "queued" | "running" | "done" | "error" | "cancelled";

/** One point of an experiment, as the pool runs it. */
export interface PointJob {
  readonly experiment: Experiment;
  readonly index: number;
  status: PointStatus;
  progress: ProgressMessage | null;
  done: PointDone | null;
  error: string | null;
  /** Why the point failed, when it is known: "memory" when the worker's module ran out of memory (the worker was replaced). */
  failure: "memory" | null;
  /** Called on every change of status or progress. */
  onChange: (job: PointJob) => void;
}

interface Slot {
  worker: Worker;
  remote: Comlink.Remote<RunWorkerApi>;
  flag: Int32Array | null;
  /** The serial of the trace this worker holds (0: none). */
  trace: number;
  /** The options of the sessions it has parsed (the last two). */
  sessions: string[];
  job: PointJob | null;
}

const MAX_WORKERS = 16;

/**
 * Whether `e`, thrown by a worker's call, is a WebAssembly trap, after
 * which that worker's module must not be used again. Comlink keeps an
 * error's name across the worker boundary.
 */
export function isTrap(e: unknown): boolean {
  const name = e instanceof Error || (typeof e === "object" && e !== null) ? String((e as { name?: unknown }).name) : "";
  return name === "RuntimeError" || isMemory(e);
}

/**
 * Whether a trap or an error is the module running out of memory: the
 * allocator's failure ends in an "unreachable" trap (Rust aborts), and a
 * growth the browser refuses is a RangeError about memory.
 */
export function isMemory(e: unknown): boolean {
  const name = typeof e === "object" && e !== null ? String((e as { name?: unknown }).name) : "";
  const message = typeof e === "object" && e !== null ? String((e as { message?: unknown }).message) : String(e);
  if (name === "RuntimeError") return /unreachable|memory/i.test(message);
  return name === "RangeError" && /memory|allocation/i.test(message);
}

function newWorker(): Worker {
  return new Worker(new URL("./run-worker.ts", import.meta.url), { type: "module", name: "schedlab-run" });
}

/** A worker's module ran out of memory; its message is the core's sentence. */
class MemoryExhausted extends Error {
  override name = "MemoryExhausted";
}

export class Pool {
  private slots: Slot[] = [];
  private queue: PointJob[] = [];
  private trace: { serial: number; bytes: ArrayBuffer; name: string } | null = null;
  private serial = 0;

  constructor(size = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, MAX_WORKERS))) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  /** Whether a running point can be cancelled without losing its worker. */
  get sharedCancel(): boolean {
    return this.slots[0]?.flag !== null;
  }

  private spawn(): Slot {
    const worker = newWorker();
    const remote = Comlink.wrap<RunWorkerApi>(worker);
    const flag = globalThis.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    if (flag) void remote.setFlag(flag);
    return { worker, remote, flag, trace: 0, sessions: [], job: null };
  }

  /** A new trace: every queued or running point is cancelled. */
  setTrace(bytes: ArrayBuffer, name: string): void {
    for (const job of [...this.queue, ...this.slots.map((s) => s.job)]) if (job) this.cancel(job);
    this.trace = { serial: ++this.serial, bytes, name };
  }

  /** Gives the slot the current trace if it does not have it yet. */
  private async provide(slot: Slot): Promise<void> {
    const t = this.trace;
    if (!t) throw new Error("no trace loaded");
    if (slot.trace === t.serial) return;
    const copy = t.bytes.slice(0);
    await slot.remote.setTrace(Comlink.transfer(copy, [copy]), t.name);
    slot.trace = t.serial;
    slot.sessions = [];
  }

  private noteSession(slot: Slot, options: WorkloadOptions): void {
    const key = JSON.stringify(options);
    slot.sessions = [...slot.sessions.filter((k) => k !== key), key].slice(-2);
  }

  /** An idle slot, preferring one that has parsed the trace with `options`. */
  private idle(options: WorkloadOptions | null): Slot | undefined {
    const free = this.slots.filter((s) => !s.job);
    const key = options && JSON.stringify(options);
    const serial = this.trace?.serial;
    return (
      free.find((s) => s.trace === serial && key !== null && s.sessions.includes(key)) ?? free.find((s) => s.trace === serial) ?? free[0]
    );
  }

  /** The current trace read with `options` (in an idle worker when there is one). */
  async summary(options: WorkloadOptions): Promise<Summary> {
    const slot = this.idle(options) ?? this.slots[0];
    try {
      await this.provide(slot);
      const s = await slot.remote.summary(options);
      this.noteSession(slot, options);
      return s;
    } catch (e) {
      throw this.afterTrap(slot, e, true);
    }
  }

  /**
   * After a call on `slot` threw `e`: a trap replaces the slot's worker
   * (its module cannot be trusted again), and the error to pass on is the
   * core's sentence when memory ran out. Any other error is passed on as is.
   */
  private afterTrap(slot: Slot, e: unknown, reading: boolean): unknown {
    if (!isTrap(e)) return e;
    const i = this.slots.indexOf(slot);
    slot.worker.terminate();
    if (i >= 0) this.slots[i] = this.spawn();
    return isMemory(e) ? new MemoryExhausted(core().memory_exhausted_message(reading)) : e;
  }

  /** A generated trace's bytes. */
  async generate(request: GenerateMessage): Promise<ArrayBuffer> {
    return (this.idle(null) ?? this.slots[0]).remote.generate(request);
  }

  /** Queues point `index` of `experiment`. */
  submit(experiment: Experiment, index: number, onChange: (job: PointJob) => void): PointJob {
    const job: PointJob = { experiment, index, status: "queued", progress: null, done: null, error: null, failure: null, onChange };
    this.queue.push(job);
    queueMicrotask(() => this.pump());
    return job;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0];
      const slot = this.idle(job.experiment.workload);
      if (!slot) return;
      this.queue.shift();
      void this.start(slot, job);
    }
  }

  private async start(slot: Slot, job: PointJob): Promise<void> {
    slot.job = job;
    job.status = "running";
    job.onChange(job);
    if (slot.flag) Atomics.store(slot.flag, 0, 0);
    const progress = Comlink.proxy((p: ProgressMessage) => {
      if (job.status !== "running") return;
      job.progress = p;
      job.onChange(job);
    });
    try {
      await this.provide(slot);
      const done = await slot.remote.runPoint(job.experiment, job.index, progress);
      this.noteSession(slot, job.experiment.workload);
      this.finish(slot, job, "done", { done });
    } catch (e) {
      const cancelled =
        (job.status as PointStatus) === "cancelled" ||
        (slot.flag !== null && Atomics.load(slot.flag, 0) !== 0) ||
        errorKind(e) === "cancelled";
      const err = cancelled ? e : this.afterTrap(slot, e, false);
      if (err instanceof MemoryExhausted) job.failure = "memory";
      this.finish(slot, job, cancelled ? "cancelled" : "error", { error: err instanceof Error ? err.message : String(err) });
    }
  }

  private finish(slot: Slot, job: PointJob, status: PointStatus, r: { done?: PointDone; error?: string }): void {
    if (slot.job === job) slot.job = null;
    if (job.status === "running") {
      job.status = status;
      job.done = r.done ?? null;
      job.error = status === "cancelled" ? "cancelled" : (r.error ?? null);
      job.onChange(job);
    }
    this.pump();
  }

  /** Cancels a queued or running point. */
  cancel(job: PointJob): void {
    if (job.status === "queued") {
      this.queue = this.queue.filter((j) => j !== job);
      job.status = "cancelled";
      job.onChange(job);
      return;
    }
    if (job.status !== "running") return;
    const slot = this.slots.find((s) => s.job === job);
    if (slot?.flag) {
      // The worker stops at its next progress call and stays usable.
      Atomics.store(slot.flag, 0, 1);
      return;
    }
    if (slot) {
      // The worker is busy in the core and hears no message: replace it.
      slot.worker.terminate();
      this.slots[this.slots.indexOf(slot)] = this.spawn();
    }
    job.status = "cancelled";
    job.error = "cancelled";
    job.onChange(job);
    this.pump();
  }

  /**
   * Replaces every idle worker by a fresh one, which gives back the memory
   * its sessions and runs took (a WebAssembly module's memory only grows);
   * the next point there reads the trace again.
   */
  recycleIdle(): void {
    this.slots = this.slots.map((slot) => {
      if (slot.job) return slot;
      slot.worker.terminate();
      return this.spawn();
    });
  }

  /** The per-job CSV, simulated SWF or Batsim jobs.csv of a finished point (in an idle worker, or the first). */
  async exportPoint(job: PointJob, format: ExportFormat): Promise<string> {
    const slot = this.idle(job.experiment.workload) ?? this.slots[0];
    try {
      await this.provide(slot);
      return await slot.remote.exportPoint(job.experiment, job.index, format);
    } catch (e) {
      throw this.afterTrap(slot, e, false);
    }
  }
}
