// Drawing the replay's state: the machine at an instant (the runs holding
// processors, each band labelled with its job number where it is tall
// enough) and, beside it, the waiting queue in priority order, each job a
// box as tall as the processors it asks for on the machine's own scale and
// as wide as its requested time on a log scale, with its job number (and
// its processors × requested time where the box holds them). Only
// drawing, from the core's replay state; readable from the back of a room
// in the presentation layout (larger text, a taller canvas).
import type { JobRect, QueuedJob, ReplayState } from "../generated/types";
import type { Colours, Surface } from "./draw";

const PAD = 8;
/** The queue's width holds this many units; a job is log2(2 + minutes requested) units wide (4 h: a quarter). */
const QUEUE_UNITS = 32;
const QUEUED = "#d9d9d9";
const HEAD = "#a9a9a9";

/** Where the machine and the queue go on the canvas. */
interface Frame {
  top: number;
  height: number;
  machine: { x: number; width: number };
  queue: { x: number; right: number };
}

function frame(s: Surface): Frame {
  const { ctx, width, height, font } = s;
  const axis = ctx.measureText("00000").width + 6;
  const top = PAD + font * 1.5;
  const mw = Math.max(90, Math.min(600, Math.round((width - axis) * 0.32)));
  return {
    top,
    height: height - top - PAD - font * 1.6,
    machine: { x: PAD + axis, width: mw },
    queue: { x: PAD + axis + mw + font * 2, right: width - PAD },
  };
}

/** Text with a white halo, readable on every colour of the legend. */
function haloText(ctx: CanvasRenderingContext2D, text: string, x: number, y: number): void {
  ctx.lineWidth = 3;
  ctx.lineJoin = "round";
  ctx.strokeStyle = "#fff";
  ctx.strokeText(text, x, y);
  ctx.fillStyle = "#111";
  ctx.fillText(text, x, y);
}

/** The y and height of processors lo..hi on the machine's scale. */
function bandY(f: Frame, lo: number, hi: number, procs: number): [number, number] {
  return [f.top + f.height * (1 - hi / procs), Math.max(0.5, (f.height * (hi - lo)) / procs)];
}

function drawMachine(s: Surface, f: Frame, running: JobRect[], procs: number, colours: Colours): void {
  const { ctx, font } = s;
  const { x, width } = f.machine;
  for (const r of running) {
    ctx.fillStyle = colours[r.preempted ? "preempted" : r.class];
    for (const b of r.bands) {
      const [y, h] = bandY(f, b.lo, b.hi, procs);
      ctx.fillRect(x, y, width, h);
    }
  }
  // A white line between runs, so that two runs of one class stay two.
  ctx.strokeStyle = "#fff";
  ctx.lineWidth = 1;
  for (const r of running)
    for (const b of r.bands) {
      const [y, h] = bandY(f, b.lo, b.hi, procs);
      if (h >= 3) ctx.strokeRect(x + 0.5, y + 0.5, width - 1, h - 1);
    }
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  // Every band tall enough carries the number: a run on a fragmented machine has several.
  for (const r of running)
    for (const b of r.bands) {
      const [y, h] = bandY(f, b.lo, b.hi, procs);
      if (h >= font + 2) haloText(ctx, String(r.id), x + width / 2, y + h / 2);
    }
  ctx.strokeStyle = "#666";
  ctx.strokeRect(x, f.top, width, f.height);
  ctx.fillStyle = "#333";
  ctx.textAlign = "right";
  ctx.textBaseline = "top";
  ctx.fillText(String(procs), x - 4, f.top);
  ctx.textBaseline = "bottom";
  ctx.fillText("0", x - 4, f.top + f.height);
}

/** A queued job's box width: its requested time on a log scale, never narrower than its number. */
function boxWidth(ctx: CanvasRenderingContext2D, f: Frame, q: QueuedJob): number {
  const unit = (f.queue.right - f.queue.x) / QUEUE_UNITS;
  return Math.max(ctx.measureText(String(q.id)).width + 10, unit * Math.log2(2 + q.estimate / 60));
}

/** Draws the queue from the left; returns the job numbers drawn, in order. */
function drawQueue(s: Surface, f: Frame, st: ReplayState, procs: number, colours: Colours, duration: (s: number) => string): number[] {
  const { ctx, font } = s;
  const bottom = f.top + f.height;
  const drawn: number[] = [];
  let x = f.queue.x;
  ctx.textAlign = "center";
  for (const q of st.queue) {
    const w = boxWidth(ctx, f, q);
    const more = st.queue_length - drawn.length - 1;
    // Room is kept for the "+N more" note after the last box drawn.
    const reserve = more > 0 ? ctx.measureText(`+${more} more`).width + 8 : 0;
    if (x + w > f.queue.right - reserve && drawn.length > 0) break;
    const h = Math.max(2, (f.height * Math.min(procs, q.size)) / procs);
    const head = q.job === st.head_reservation?.job;
    ctx.fillStyle = head ? HEAD : QUEUED;
    ctx.fillRect(x, bottom - h, w, h);
    ctx.lineWidth = 1;
    ctx.strokeStyle = "#333";
    ctx.strokeRect(x + 0.5, bottom - h + 0.5, w - 1, h - 1);
    if (head) {
      ctx.lineWidth = 2;
      ctx.strokeStyle = colours.reservation ?? "#000";
      ctx.setLineDash([6, 3]);
      ctx.strokeRect(x + 1, bottom - h + 1, w - 2, h - 2);
      ctx.setLineDash([]);
    }
    // The number inside the box when it fits, else just above it.
    const inside = h >= font + 6;
    ctx.textBaseline = inside ? "top" : "bottom";
    haloText(ctx, String(q.id), x + w / 2, inside ? bottom - h + 3 : bottom - h - 2);
    // Its size and requested time under the number, when the box holds them.
    const shape = `${q.size} × ${duration(q.estimate)}`;
    if (h >= 2 * font + 10 && ctx.measureText(shape).width + 8 <= w) haloText(ctx, shape, x + w / 2, bottom - h + font + 7);
    drawn.push(q.id);
    x += w + 4;
  }
  const rest = st.queue_length - drawn.length;
  if (rest > 0) {
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    ctx.fillStyle = "#333";
    ctx.fillText(`+${rest} more`, x + 4, bottom);
  }
  return drawn;
}

/** The key to the queue's boxes, longest first: the longest that fits is drawn. */
const KEYS = [
  "queue: box height = processors asked for (on the machine's scale), width = requested time (log scale); dashed: the first waiting job",
  "box height = processors, width = requested time (log); dashed: first waiting job",
  "height = processors, width = time (log)",
];

/** Draws the first of `texts` that fits in `room` pixels (the last one, cut by the canvas, when none does). */
function fitted(ctx: CanvasRenderingContext2D, texts: string[], x: number, y: number, room: number): void {
  const text = texts.find((t) => ctx.measureText(t).width <= room) ?? texts[texts.length - 1];
  ctx.fillText(text, x, y);
}

/** Draws the state (`duration` is the core's text of a duration); returns the job numbers drawn in the queue, first waiting job first. */
export function drawReplay(s: Surface, st: ReplayState, procs: number, colours: Colours, duration: (s: number) => string): number[] {
  const { ctx, width, height, font } = s;
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  ctx.font = `${font}px system-ui, sans-serif`;
  const f = frame(s);
  ctx.fillStyle = "#333";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  fitted(ctx, [`machine: ${st.busy} of ${procs} processors busy`, `${st.busy} of ${procs} busy`], PAD, PAD, f.queue.x - PAD - font);
  fitted(
    ctx,
    [`queue: ${st.queue_length} waiting, first in priority order on the left`, `queue: ${st.queue_length} waiting`],
    f.queue.x,
    PAD,
    f.queue.right - f.queue.x,
  );
  drawMachine(s, f, st.running, procs, colours);
  const drawn = drawQueue(s, f, st, procs, colours, duration);
  ctx.fillStyle = "#555";
  ctx.textAlign = "left";
  ctx.textBaseline = "bottom";
  fitted(ctx, KEYS, PAD, height - PAD / 2, width - 2 * PAD);
  return drawn;
}
