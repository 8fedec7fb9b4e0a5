// Drawing the Gantt and the time series on canvases: only drawing, from
// what the core answered (runs with their processor bands and classes, busy
// fractions per column, series per bucket) in the core's legend colours.
// Both canvases share the x axis: the same margins and the same window.
import { core } from "../core";
import type { JobRect, SeriesData, StripUnit } from "../generated/types";
import type { GanttFrame } from "../worker/schedule-worker";
import { dateLabel, type TimeWindow, timeLabel } from "./state";

/** Margins of the plot inside a canvas, CSS pixels (the same on both canvases, so their time axes align). */
/** The bottom margin holds two lines of tick labels: the trace time and the date. */
const MARGIN = { left: 64, right: 12, top: 8, bottom: 40 };

/** A canvas sized to its box at the device's pixel ratio; drawing is in CSS pixels. */
export interface Surface {
  ctx: CanvasRenderingContext2D;
  /** CSS pixels. */
  width: number;
  height: number;
  /** Text size, CSS pixels (larger in the presentation layout). */
  font: number;
}

/** Sizes `canvas` to `width` × `height` CSS pixels at the device pixel ratio; null without a 2-D context. */
export function surface(canvas: HTMLCanvasElement, width: number, height: number, font = 12): Surface | null {
  const dpr = window.devicePixelRatio || 1;
  const [w, h] = [Math.max(1, Math.round(width * dpr)), Math.max(1, Math.round(height * dpr))];
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height, font };
}

/** Plot width in CSS pixels. */
export function plotWidth(width: number): number {
  return Math.max(1, width - MARGIN.left - MARGIN.right);
}

/** The x of instant `t` in a canvas `width` wide showing `w`. */
function xOf(t: number, w: TimeWindow, width: number): number {
  return MARGIN.left + ((t - w.from) / (w.to - w.from)) * plotWidth(width);
}

/** The instant at x (CSS pixels). */
export function timeAt(x: number, w: TimeWindow, width: number): number {
  return w.from + ((x - MARGIN.left) / plotWidth(width)) * (w.to - w.from);
}

const STEPS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400, 91 * 86_400];

/** Time ticks: the smallest step from a list of round ones that gives at most one tick per 110 pixels. */
function timeTicks(w: TimeWindow, width: number, spacing: number): number[] {
  const most = Math.max(2, Math.floor(plotWidth(width) / spacing));
  const step = STEPS.find((s) => (w.to - w.from) / s <= most) ?? 365 * 86_400;
  const out: number[] = [];
  for (let t = Math.ceil(w.from / step) * step; t <= w.to; t += step) out.push(t);
  return out;
}

/**
 * Draws centred text about `x` on the line at `y`, moved inside the canvas
 * and left out when it would touch the text drawn before it on that line
 * (`line.right`, its right edge so far).
 */
function label(s: Surface, text: string, x: number, y: number, line: { right: number }): void {
  const half = s.ctx.measureText(text).width / 2;
  const at = Math.min(Math.max(x, half + 1), s.width - half - 1);
  if (at - half < line.right + 8) return;
  s.ctx.fillText(text, at, y);
  line.right = at + half;
}

function drawTimeAxis(s: Surface, w: TimeWindow, bottom: number): void {
  const { ctx } = s;
  ctx.fillStyle = "#333";
  ctx.strokeStyle = "#ccc";
  ctx.font = `${s.font}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  // A dated axis spaces its ticks for the date's width ("1996-09-26 17:10 UTC+1").
  const dated = dateLabel(w.from) !== undefined;
  const times = { right: Number.NEGATIVE_INFINITY };
  const dates = { right: Number.NEGATIVE_INFINITY };
  for (const t of timeTicks(w, s.width, dated ? s.font * 14 : 110)) {
    const x = xOf(t, w, s.width);
    ctx.beginPath();
    ctx.moveTo(x, MARGIN.top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    label(s, timeLabel(t), x, bottom + 4, times);
    // The calendar date under the trace time, when the header gives one.
    const date = dateLabel(t);
    if (date) label(s, date, x, bottom + 6 + s.font, dates);
  }
}

/** Colours of the legend by key (`in_order`, …, `reservation`, `busy`). */
export type Colours = Record<string, string>;

let hatch: CanvasPattern | null = null;

/** Diagonal black lines on transparent: lost work of a preempted run. */
function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  if (hatch) return hatch;
  const tile = document.createElement("canvas");
  tile.width = 8;
  tile.height = 8;
  const t = tile.getContext("2d");
  if (!t) return null;
  t.strokeStyle = "rgba(0,0,0,0.85)";
  t.lineWidth = 1.5;
  t.beginPath();
  t.moveTo(0, 8);
  t.lineTo(8, 0);
  t.moveTo(-2, 2);
  t.lineTo(2, -2);
  t.moveTo(6, 10);
  t.lineTo(10, 6);
  t.stroke();
  hatch = ctx.createPattern(tile, "repeat");
  return hatch;
}

export interface GanttScene {
  frame: GanttFrame | null;
  win: TimeWindow;
  procs: number;
  colours: Colours;
  selected: number | null;
  now: number | null;
}

/** The y range (top, height) of processors `lo..hi` in a plot of `height`. */
function bandY(lo: number, hi: number, procs: number, height: number): [number, number] {
  const ph = height - MARGIN.top - MARGIN.bottom;
  const top = MARGIN.top + ph * (1 - hi / procs);
  return [top, Math.max(0.5, (ph * (hi - lo)) / procs)];
}

/** Draws the runs and outlines the selected job's; returns how many of its rectangles were outlined. */
function drawRuns(s: Surface, scene: GanttScene, rects: JobRect[]): number {
  const { ctx, width, height } = s;
  const { win, procs, colours } = scene;
  const pattern = hatchPattern(ctx);
  const selected: JobRect[] = [];
  for (const r of rects) {
    const x0 = Math.max(MARGIN.left, xOf(r.start, win, width));
    const x1 = Math.min(width - MARGIN.right, xOf(r.end, win, width));
    if (x1 < MARGIN.left || x0 > width - MARGIN.right) continue;
    const w = Math.max(1, x1 - x0);
    ctx.fillStyle = colours[r.preempted ? "preempted" : r.class];
    for (const b of r.bands) {
      const [y, h] = bandY(b.lo, b.hi, procs, height);
      ctx.fillRect(x0, y, w, h);
      if (r.lost > 0 && pattern) {
        const lx = Math.max(x0, xOf(r.end - r.lost, win, width));
        ctx.fillStyle = pattern;
        ctx.fillRect(lx, y, Math.max(1, x1 - lx), h);
        ctx.fillStyle = colours.preempted;
      }
    }
    if (r.job === scene.selected) selected.push(r);
  }
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 3;
  for (const r of selected) {
    for (const b of r.bands) {
      const [y, h] = bandY(b.lo, b.hi, procs, height);
      const x0 = xOf(r.start, win, width);
      ctx.strokeRect(x0, y, Math.max(2, xOf(r.end, win, width) - x0), h);
    }
  }
  return selected.length;
}

/** Zoomed out: the busy fraction of each column of the frame's window, as a bar from the bottom. */
function drawColumns(s: Surface, scene: GanttScene, f: GanttFrame, columns: Float64Array): void {
  const { ctx, width, height } = s;
  const ph = height - MARGIN.top - MARGIN.bottom;
  const step = (f.to - f.from) / columns.length;
  ctx.fillStyle = scene.colours.busy;
  for (let k = 0; k < columns.length; k++) {
    const x0 = xOf(f.from + k * step, scene.win, width);
    const x1 = xOf(f.from + (k + 1) * step, scene.win, width);
    if (x1 < MARGIN.left || x0 > width - MARGIN.right) continue;
    const h = ph * Math.min(1, columns[k]);
    ctx.fillRect(x0, MARGIN.top + ph - h, Math.max(0.5, x1 - x0), h);
  }
}

function drawOutline(s: Surface, scene: GanttScene): void {
  const head = scene.frame?.head;
  if (!head) return;
  const { ctx, width, height } = s;
  ctx.strokeStyle = scene.colours.reservation;
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 3]);
  const x0 = xOf(head.start, scene.win, width);
  const x1 = xOf(head.start + head.length, scene.win, width);
  for (const b of head.bands) {
    const [y, h] = bandY(b.lo, b.hi, scene.procs, height);
    ctx.strokeRect(x0, y, Math.max(2, x1 - x0), h);
  }
  ctx.setLineDash([]);
}

function drawProcAxis(s: Surface, procs: number): void {
  const { ctx, height } = s;
  ctx.fillStyle = "#333";
  ctx.font = `${s.font}px system-ui, sans-serif`;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  ctx.fillText(String(procs), MARGIN.left - 6, MARGIN.top + 6);
  ctx.fillText("0", MARGIN.left - 6, height - MARGIN.bottom - 4);
  ctx.save();
  ctx.translate(14, height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText("processors", 0, 0);
  ctx.restore();
}

/** A vertical line at instant `t` (the replay's now). */
function drawNow(s: Surface, w: TimeWindow, t: number | null): void {
  if (t === null) return;
  const x = xOf(t, w, s.width);
  if (x < MARGIN.left || x > s.width - MARGIN.right) return;
  s.ctx.strokeStyle = "#cc0000";
  s.ctx.lineWidth = 2;
  s.ctx.beginPath();
  s.ctx.moveTo(x, 0);
  s.ctx.lineTo(x, s.height - MARGIN.bottom);
  s.ctx.stroke();
}

/** Draws a Gantt; returns how many rectangles of the selected job it outlined (0 when zoomed out to columns). */
export function drawGantt(s: Surface, scene: GanttScene): number {
  const { ctx, width, height } = s;
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  drawTimeAxis(s, scene.win, height - MARGIN.bottom);
  ctx.save();
  ctx.beginPath();
  ctx.rect(MARGIN.left, 0, plotWidth(width), height);
  ctx.clip();
  const f = scene.frame;
  let outlined = 0;
  if (f?.rects) outlined = drawRuns(s, scene, f.rects);
  else if (f?.columns) drawColumns(s, scene, f, f.columns);
  drawOutline(s, scene);
  drawNow(s, scene.win, scene.now);
  ctx.restore();
  ctx.strokeStyle = "#666";
  ctx.lineWidth = 1;
  ctx.strokeRect(MARGIN.left, MARGIN.top, plotWidth(width), height - MARGIN.top - MARGIN.bottom);
  drawProcAxis(s, scene.procs);
  return outlined;
}

/** The run under (x, y) CSS pixels, or null. */
export function runAt(rects: JobRect[], scene: GanttScene, width: number, height: number, x: number, y: number): JobRect | null {
  const t = timeAt(x, scene.win, width);
  const ph = height - MARGIN.top - MARGIN.bottom;
  const p = scene.procs * (1 - (y - MARGIN.top) / ph);
  // A run narrower than a pixel is found within half a pixel of the pointer.
  const slack = (0.5 * (scene.win.to - scene.win.from)) / plotWidth(width);
  return rects.find((r) => r.start - slack <= t && t < r.end + slack && r.bands.some((b) => b.lo <= p && p < b.hi)) ?? null;
}

/** The time series under the Gantt: one strip per measure, a line per open run. */
const STRIPS: { key: keyof Omit<SeriesData, "grid">; label: string; unit: StripUnit }[] = [
  { key: "utilisation", label: "utilisation", unit: "fraction" },
  { key: "queue_jobs", label: "waiting jobs", unit: "count" },
  { key: "queue_work", label: "queued work", unit: "proc_seconds" },
  { key: "head_wait", label: "first job's wait", unit: "seconds" },
];

export function drawSeries(s: Surface, data: SeriesData[], win: TimeWindow, lineColours: string[]): void {
  const { ctx, width, height } = s;
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  const strip = (height - MARGIN.top - MARGIN.bottom) / STRIPS.length;
  drawTimeAxis(s, win, height - MARGIN.bottom);
  ctx.font = `${s.font}px system-ui, sans-serif`;
  STRIPS.forEach((st, i) => {
    const top = MARGIN.top + i * strip;
    const max = Math.max(1e-9, ...data.flatMap((d) => d[st.key] as number[]));
    ctx.strokeStyle = "#999";
    ctx.lineWidth = 1;
    ctx.strokeRect(MARGIN.left, top, plotWidth(width), strip);
    ctx.fillStyle = "#333";
    ctx.textAlign = "right";
    ctx.textBaseline = "top";
    // The strip's top value in the left margin: its unit on a second line
    // when the one line would not fit ("5891640" above "proc·s"), and in
    // smaller type only when even that does not fit.
    const top1 = core().strip_value(st.unit, st.key === "utilisation" ? 1 : max);
    const room = MARGIN.left - 6;
    const cut = top1.lastIndexOf(" ");
    const lines = ctx.measureText(top1).width > room && cut > 0 ? [top1.slice(0, cut), top1.slice(cut + 1)] : [top1];
    const wide = Math.max(...lines.map((l) => ctx.measureText(l).width));
    const size = wide > room ? Math.floor((s.font * room) / wide) : s.font;
    ctx.font = `${size}px system-ui, sans-serif`;
    lines.forEach((l, k) => ctx.fillText(l, MARGIN.left - 4, top + 2 + k * (size + 2)));
    ctx.font = `${s.font}px system-ui, sans-serif`;
    ctx.textAlign = "left";
    ctx.fillText(st.label, MARGIN.left + 4, top + 2);
    const scale = st.key === "utilisation" ? 1 : max;
    ctx.save();
    ctx.beginPath();
    ctx.rect(MARGIN.left, top, plotWidth(width), strip);
    ctx.clip();
    data.forEach((d, slot) => {
      const values = d[st.key] as number[];
      const step = (d.grid.to - d.grid.from) / Math.max(1, values.length);
      ctx.strokeStyle = lineColours[slot % lineColours.length];
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      values.forEach((v, k) => {
        const x = xOf(d.grid.from + (k + 0.5) * step, win, width);
        const y = top + strip - 2 - (strip - 16) * Math.min(1, v / scale);
        if (k === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
    });
    ctx.restore();
  });
}
