// Two runs per job: each job's wait (or bounded slowdown) under run A
// against run B, log-log, with the diagonal, coloured by size class (the
// core's scatter). Dragging a rectangle lists the jobs inside it (the
// core's selection) as buttons that open them in the inspector.
import { useEffect, useRef, useState } from "preact/hooks";
import { core, errorMessage } from "../core";
import type { Measure, Scatter as ScatterData, Selection } from "../generated/types";
import { reg, selection, view } from "../store";
import { surface } from "./draw";
import { infos, worker } from "./state";

/** The scatter's side, CSS pixels, at most (larger in the presentation layout): narrower when its box is (a phone). */
const MAX_SIZE = { normal: 420, present: 640 };
const PAD = 44;
const LIST_LIMIT = 50;

/** Log-scale axes from 1 to the largest value (values below 1 are placed at 1, as the core selects them). */
function axis(values: number[]): number {
  let max = 1;
  for (const v of values) if (v > max) max = v;
  return Math.log10(max) * 1.02 || 1;
}

function toPixel(v: number, top: number, size: number): number {
  return PAD + (Math.log10(Math.max(1, v)) / top) * (size - 2 * PAD);
}

function fromPixel(p: number, top: number, size: number): number {
  return 10 ** (((p - PAD) / (size - 2 * PAD)) * top);
}

function draw(canvas: HTMLCanvasElement, d: ScatterData, labels: string[], size: number, font: number): void {
  const s = surface(canvas, size, size);
  if (!s) return;
  const { ctx } = s;
  const top = Math.max(axis(d.x), axis(d.y));
  const palette = reg().palette;
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, size, size);
  for (let i = 0; i < d.x.length; i++) {
    ctx.fillStyle = palette[d.size_class[i] % palette.length];
    ctx.fillRect(toPixel(d.x[i], top, size) - 1, size - toPixel(d.y[i], top, size) - 1, 2.5, 2.5);
  }
  ctx.strokeStyle = "#444";
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(PAD, size - PAD);
  ctx.lineTo(size - PAD, PAD);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.strokeRect(PAD, PAD, size - 2 * PAD, size - 2 * PAD);
  ctx.fillStyle = "#333";
  ctx.font = `${font}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  const unit = d.measure === "wait" ? "wait" : "bounded slowdown";
  ctx.fillText(`${labels[0]}: ${unit}, log scale`, size / 2, size - 10);
  // The core's ticks: waits at round durations as the wait ECDF's (1 min, 10 min, 1 h), slowdowns at powers of ten.
  const ticks = core().log_axis_ticks(d.measure === "wait", 10 ** top);
  // A tick label that would touch the one before it is left out (a narrow scatter, a phone).
  let right = Number.NEGATIVE_INFINITY;
  for (const t of ticks) {
    const x = toPixel(t.value, top, size);
    const half = ctx.measureText(t.label).width / 2;
    if (x - half < right + 6) continue;
    ctx.fillText(t.label, x, size - PAD + 14);
    right = x + half;
  }
  canvas.dataset.ticks = ticks.map((t) => t.label).join("|");
  ctx.save();
  ctx.translate(12, size / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(`${labels[1]}: ${unit}, log scale`, 0, 0);
  ctx.restore();
}

/** The rectangle being dragged, on a transparent canvas over the points (which are not redrawn). */
function drawDrag(canvas: HTMLCanvasElement, drag: number[] | null, size: number): void {
  const s = surface(canvas, size, size);
  if (!s || !drag) return;
  s.ctx.strokeStyle = "#cc0000";
  s.ctx.lineWidth = 2;
  s.ctx.strokeRect(Math.min(drag[0], drag[2]), Math.min(drag[1], drag[3]), Math.abs(drag[2] - drag[0]), Math.abs(drag[3] - drag[1]));
}

export function Scatter() {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [measure, setMeasure] = useState<Measure>("wait");
  const [data, setData] = useState<ScatterData | null>(null);
  const [drag, setDrag] = useState<number[] | null>(null);
  const [picked, setPicked] = useState<Selection | null>(null);
  const [error, setError] = useState("");
  const present = view.value.present;
  const [size, setSize] = useState(MAX_SIZE.normal);
  const box = useRef<HTMLElement>(null);
  const labels = infos.value.map((i) => i.label);
  // The scatter is square and as wide as its box allows, so that a phone
  // never scrolls sideways to see it.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const most = present ? MAX_SIZE.present : MAX_SIZE.normal;
    const fit = () => setSize(Math.max(200, Math.min(most, Math.floor(el.clientWidth))));
    fit();
    const ro = new ResizeObserver(fit);
    ro.observe(el);
    return () => ro.disconnect();
  }, [labels.length, present]);

  const pair = infos.value;
  useEffect(() => {
    setPicked(null);
    if (pair.length < 2) return;
    worker()
      .scatter(measure)
      .then(setData, (e) => setError(errorMessage(e)));
  }, [measure, pair]);
  const overlay = useRef<HTMLCanvasElement>(null);
  const labelText = labels.join("\n");
  useEffect(() => {
    if (canvas.current && data) draw(canvas.current, data, labelText.split("\n"), size, present ? 16 : 12);
  }, [data, labelText, size, present]);
  useEffect(() => {
    if (overlay.current) drawDrag(overlay.current, drag, size);
  }, [drag, size]);

  if (labels.length < 2) return <p class="muted">Open two runs to compare them job by job.</p>;
  const at = (e: PointerEvent) => {
    const r = canvas.current?.getBoundingClientRect();
    return r ? [e.clientX - r.left, e.clientY - r.top] : [0, 0];
  };
  const finish = async (rect: number[]) => {
    if (!data) return;
    const top = Math.max(axis(data.x), axis(data.y));
    const [x0, x1] = [fromPixel(Math.min(rect[0], rect[2]), top, size), fromPixel(Math.max(rect[0], rect[2]), top, size)];
    const [y0, y1] = [fromPixel(size - Math.max(rect[1], rect[3]), top, size), fromPixel(size - Math.min(rect[1], rect[3]), top, size)];
    try {
      setPicked(await worker().select(measure, { x_min: x0, x_max: x1, y_min: y0, y_max: y1 }, LIST_LIMIT));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <section class="scatter" aria-labelledby="scatter-title" ref={box}>
      <h3 id="scatter-title">
        Per job: {labels[0]} (x) against {labels[1]} (y)
      </h3>
      <label>
        Measure{" "}
        <select id="scatter-measure" value={measure} onChange={(e) => setMeasure(e.currentTarget.value as Measure)}>
          <option value="wait">wait</option>
          <option value="bsd">bounded slowdown</option>
        </select>
      </label>
      <p class="muted">
        Below the diagonal a job waited less under {labels[1]}. Drag a rectangle to list the jobs inside.{" "}
        {data?.classes.map((c, i) => (
          <span key={c} class="swatch-label">
            <span class="swatch" style={{ background: reg().palette[i % reg().palette.length] }} /> {c}{" "}
          </span>
        ))}
      </p>
      <div class="scatter-stack" data-testid="job-scatter" style={{ width: `${size}px`, height: `${size}px` }}>
        <canvas
          ref={canvas}
          class="scatter-layer"
          role="img"
          aria-label={`Scatter of every job's ${measure === "wait" ? "wait" : "bounded slowdown"} under ${labels[0]} against ${labels[1]}`}
        />
        <canvas
          ref={overlay}
          class="scatter-layer"
          style={{ touchAction: "none" }}
          onPointerDown={(e) => {
            overlay.current?.setPointerCapture(e.pointerId);
            const [x, y] = at(e);
            setDrag([x, y, x, y]);
          }}
          onPointerMove={(e) => drag && setDrag([drag[0], drag[1], ...at(e)])}
          onPointerUp={() => {
            if (drag) void finish(drag);
            setDrag(null);
          }}
        />
      </div>
      {error ? <p class="msg error">{error}</p> : null}
      {picked ? (
        <div class="scatter-picked" data-total={picked.total} aria-live="polite">
          <p>
            {picked.total} jobs selected{picked.total > picked.jobs.length ? ` (the first ${picked.jobs.length} listed)` : ""}:
          </p>
          <ul class="job-list">
            {picked.jobs.map((j) => (
              <li key={j.job}>
                <button type="button" class="small job-link" onClick={() => (selection.value = { ...selection.value, job: j.job })}>
                  job {j.id}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
