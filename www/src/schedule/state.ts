// The schedule view's state: the pair of runs open in the schedule worker,
// the window shown, the job inspected, the replay's instant, and the client
// that asks the worker for what the window needs. At most one view query is
// in flight; while it runs, only the newest window waits (older ones are
// dropped unsent), so panning never queues work in the worker.
import { signal } from "@preact/signals";
import * as Comlink from "comlink";
import { core, errorMessage } from "../core";
import type { Experiment, ScheduleInfo, SeriesData, TraceClock, ViewLink } from "../generated/types";
import { type Note, pool, selection, trace } from "../store";
import { isMemory, isTrap } from "../worker/pool";
import type { GanttFrame, ScheduleWorkerApi, ViewRequest } from "../worker/schedule-worker";

/** Window of the view, trace seconds, `[from, to)`. */
export interface TimeWindow {
  from: number;
  to: number;
}

/** Runs the Gantt draws one by one at most; a window holding more is drawn by columns. */
const RUN_BUDGET = 20_000;
/** The core's most buckets a query. */
const MAX_COLUMNS = 20_000;
/** The narrowest window, seconds: a minute. */
const MIN_WIDTH = 60;
const WEEK = 7 * 86_400;

/** Runs laid out in the worker (slot 0 = run A, slot 1 = run B). */
export const infos = signal<ScheduleInfo[]>([]);
export const opening = signal(false);
export const scheduleNote = signal<Note | null>(null);
export const win = signal<TimeWindow>({ from: 0, to: 1 });
/** The slot the Gantt draws. */
export const ganttSlot = signal(0);
/** The newest frame and series received (drawn at the current window until a newer one arrives). */
export const frame = signal<GanttFrame | null>(null);
/** Before/after: the two runs' Gantts stacked on one time axis, A above B. */
export const stacked = signal(false);
/** With `stacked`, the frame of run B at the same window (run A's is `frame`). */
export const frameB = signal<GanttFrame | null>(null);
export const series = signal<SeriesData[]>([]);
/** The replay's "now" (null: no replay line). */
export const replayNow = signal<number | null>(null);
/** What ran the runs shown: one execution of an experiment (the results' run). */
interface RunSource {
  readonly experiment: Experiment;
}
/** The execution and its points open in the view (what a share link names). */
const openedPair = signal<{ source: RunSource; points: number[] } | null>(null);
/** The number (in the trace) of the job inspected, for the share link. */
export const inspectedId = signal<number | null>(null);
/** A share link's view, restored once its runs have finished. */
export const pendingView = signal<ViewLink | null>(null);

let remote: Comlink.Remote<ScheduleWorkerApi> | null = null;
let scheduleWorker: Worker | null = null;

/** The schedule worker (created when a schedule is first opened, kept for the page's life unless its module traps). */
export function worker(): Comlink.Remote<ScheduleWorkerApi> {
  if (!remote) {
    scheduleWorker = new Worker(new URL("../worker/schedule-worker.ts", import.meta.url), { type: "module", name: "schedlab-schedule" });
    remote = Comlink.wrap<ScheduleWorkerApi>(scheduleWorker);
  }
  return remote;
}

/**
 * The message for an error of the schedule worker, `what` saying what
 * failed. A WebAssembly trap (out of memory, most likely) leaves the
 * worker's module half-way through Rust code, so the worker is dropped
 * and the pair closed: the next opening starts a new worker and sends it
 * the trace again. Running out of memory is the core's sentence alone.
 */
function scheduleError(e: unknown, what: string): string {
  if (!isTrap(e)) return `${what}: ${errorMessage(e)}`;
  scheduleWorker?.terminate();
  scheduleWorker = null;
  remote = null;
  traceSent = -1;
  infos.value = [];
  openedPair.value = null;
  return isMemory(e) ? core().memory_exhausted_message(false) : `${what}: ${errorMessage(e)}`;
}

/** The span of the open runs (the union), or null when none is open. */
function span(): TimeWindow | null {
  const spans = infos.value.map((i) => i.span).filter((s): s is [number, number] => s !== null);
  if (spans.length === 0) return null;
  return { from: Math.min(...spans.map((s) => s[0])), to: Math.max(1 + Math.min(...spans.map((s) => s[0])), ...spans.map((s) => s[1])) };
}

/** `w` kept at least a minute wide and within the runs' span (a tenth of it beyond each end at most). */
function clampWindow(w: TimeWindow): TimeWindow {
  const s = span() ?? { from: 0, to: 1 };
  const margin = (s.to - s.from) / 10;
  const [lo, hi] = [s.from - margin, s.to + margin];
  let width = Math.max(MIN_WIDTH, Math.min(w.to - w.from, hi - lo));
  if (!Number.isFinite(width)) width = hi - lo;
  let from = Math.min(Math.max(w.from, lo), hi - width);
  from = Math.floor(from);
  width = Math.ceil(width);
  return { from, to: from + width };
}

export function setWindow(w: TimeWindow): void {
  const c = clampWindow(w);
  if (c.from !== win.value.from || c.to !== win.value.to) win.value = c;
}

/** The window `factor` times as wide, about the instant at fraction `at` of it. */
export function zoomWindow(w: TimeWindow, factor: number, at = 0.5): TimeWindow {
  const pivot = w.from + at * (w.to - w.from);
  return { from: pivot - (pivot - w.from) * factor, to: pivot + (w.to - pivot) * factor };
}

export function panWindow(w: TimeWindow, fraction: number): TimeWindow {
  const d = fraction * (w.to - w.from);
  return { from: w.from + d, to: w.to + d };
}

export function resetWindow(): void {
  const s = span();
  if (s) setWindow(s);
}

/** A week about the window's middle. */
export function zoomToWeek(): void {
  const w = win.value;
  const mid = (w.from + w.to) / 2;
  setWindow({ from: mid - WEEK / 2, to: mid + WEEK / 2 });
}

let inFlight = false;
let waiting: ViewRequest | null = null;

/** Asks for the frame and series of a window; sent when the query in flight returns, if still the newest. */
export function requestView(columns: number): void {
  if (infos.value.length === 0) return;
  const w = win.value;
  waiting = {
    slot: stacked.value ? 0 : ganttSlot.value,
    from: w.from,
    to: w.to,
    columns: Math.max(1, Math.min(MAX_COLUMNS, Math.round(columns))),
    limit: RUN_BUDGET,
  };
  if (!inFlight) void pump();
}

async function pump(): Promise<void> {
  inFlight = true;
  try {
    while (waiting) {
      const r = waiting;
      waiting = null;
      const answer = await worker().view(r);
      // Stacked, run B's frame comes with the same window, so that both are drawn on one time axis.
      const b = stacked.value && infos.value.length > 1 ? await worker().view({ ...r, slot: 1 }) : null;
      frame.value = answer.frame;
      frameB.value = b?.frame ?? null;
      series.value = answer.series;
    }
  } catch (e) {
    scheduleNote.value = { kind: "error", text: scheduleError(e, "The schedule view could not be drawn") };
  } finally {
    inFlight = false;
  }
}

let traceSent = -1;
let traceSerial = 0;
let lastTrace: unknown = null;

/** Opens the runs `points` (one or two) of `source`'s experiment in the schedule worker, as run A and run B. */
export async function openPair(source: RunSource, points: number[], cells: [number | null, number | null]): Promise<void> {
  const experiment = source.experiment;
  const t = trace.value;
  if (!t) return;
  if (lastTrace !== t) {
    lastTrace = t;
    traceSerial++;
  }
  opening.value = true;
  scheduleNote.value = { kind: "info", text: "Running the pair again in the schedule view's worker…" };
  // The view's worker holds what the views need; the run workers' sessions
  // would double the tab's memory (docs/decisions.md).
  pool().recycleIdle();
  try {
    const send = traceSent !== traceSerial || !(await worker().has(traceSerial));
    const copy = send ? t.bytes.slice(0) : null;
    const opened = await worker().open(traceSerial, copy ? Comlink.transfer(copy, [copy]) : null, t.name, experiment, points);
    traceSent = traceSerial;
    infos.value = opened;
    openedPair.value = { source, points };
    ganttSlot.value = 0;
    selection.value = { runs: cells, job: null };
    frame.value = null;
    frameB.value = null;
    resetWindow();
    scheduleNote.value = null;
  } catch (e) {
    scheduleNote.value = { kind: "error", text: scheduleError(e, "The schedule could not be opened") };
  } finally {
    opening.value = false;
  }
}

/** The clock of the trace on view (its header's start and offset), for dates. */
function clock(): TraceClock {
  return trace.value?.summary.clock ?? { unix_start: null, offset: null, zone: null };
}

/** "d3 04:10": day and time since the trace's second 0 (the core's format, as the SVG chart's labels). */
export function timeLabel(t: number): string {
  return core().trace_time(t);
}

/** "d3 04:10 (1996-09-26 17:10 UTC+1)": with the date when the header gives `UnixStartTime` (the core's format). */
export function timeAndDate(t: number): string {
  return core().time_label(t, clock());
}

/** "1996-09-26 17:10 UTC+1", or undefined when the header gives no start date. */
export function dateLabel(t: number): string | undefined {
  return core().time_date(t, clock());
}

/** How dates are shown (the header's offset), one sentence, or undefined. */
export function dateNote(): string | undefined {
  return core().time_note(clock());
}

/** "3 h 20 min", "2 d 4 h", "45 s" (the core's format). */
export function durationLabel(seconds: number): string {
  return core().duration_label(seconds);
}

/** Whether the view shows runs of `source` (this very execution, not an earlier one of the same experiment). */
export function showsRunOf(source: RunSource): boolean {
  return openedPair.value?.source === source;
}

/** The view as a share link carries it, when it shows runs of `experiment` (the form's). */
export function viewLink(experiment: Experiment): ViewLink | undefined {
  const o = openedPair.value;
  if (!o || infos.value.length === 0 || JSON.stringify(o.source.experiment) !== JSON.stringify(experiment)) return undefined;
  const w = win.value;
  const both = stacked.value && infos.value.length > 1;
  return { points: o.points, from: w.from, to: w.to, job: inspectedId.value ?? undefined, ...(both ? { stacked: true } : {}) };
}

/** Brings the restored view to the screen's top and focuses it: the inspected job's heading, else the Gantt. */
function showRestored(job: boolean): void {
  requestAnimationFrame(() => {
    document.getElementById("schedule")?.scrollIntoView({ block: "start" });
    const target = document.querySelector<HTMLElement>(job ? "#inspector-title" : "[data-testid='schedule-view']");
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
    target.focus({ preventScroll: true });
  });
}

/**
 * Opens a share link's view once its experiment has run: the pair (by
 * point, among the rows' first repetitions), then its window and job.
 */
export async function restoreView(source: RunSource, rowPoints: number[]): Promise<void> {
  const v = pendingView.value;
  if (!v) return;
  pendingView.value = null;
  const rows = v.points.map((p) => rowPoints.indexOf(p));
  if (rows.some((r) => r < 0)) {
    scheduleNote.value = {
      kind: "error",
      text: `The link's view names point ${v.points.join(" and ")}, which is not the first repetition of a row.`,
    };
    return;
  }
  await openPair(source, v.points, [rows[0], rows[1] ?? null]);
  if (infos.value.length === 0) return;
  stacked.value = v.stacked === true;
  setWindow({ from: v.from, to: v.to });
  if (v.job === undefined) return showRestored(false);
  const job = await worker().find(v.job);
  if (job === null) scheduleNote.value = { kind: "error", text: `The link's view inspects job ${v.job}, which the trace does not have.` };
  else selection.value = { ...selection.value, job };
  showRestored(job !== null);
}
