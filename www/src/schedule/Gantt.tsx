// The Gantt and the time series under it: canvases redrawn once a frame
// from the newest answer of the schedule worker at the current window, and
// the input that moves the window: drag and wheel (mouse), one- and
// two-finger drags (pointer events: pan, pinch), and the keyboard (arrows
// pan, + and - zoom, Home shows everything).
import { useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import { reg, selection, view } from "../store";
import { type Colours, drawGantt, drawSeries, type GanttScene, plotWidth, runAt, surface, timeAt } from "./draw";
import {
  frame,
  frameB,
  ganttSlot,
  infos,
  panWindow,
  replayNow,
  requestView,
  resetWindow,
  series,
  setWindow,
  stacked,
  type TimeWindow,
  timeLabel,
  win,
  zoomWindow,
} from "./state";

const ZOOM_STEP = 1.5;
const PAN_STEP = 0.1;

/** Colours by legend key, from the core's registry. */
export function legendColours(): Colours {
  return Object.fromEntries(reg().schedule_legend.map((e) => [e.key, e.colour]));
}

/** The width of an element, kept up to date. */
function useWidth(ref: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);
  return width;
}

/** The window's inner height, followed as it changes. */
function useWindowHeight(): number {
  const [height, setHeight] = useState(window.innerHeight);
  useEffect(() => {
    const onResize = () => setHeight(window.innerHeight);
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return height;
}

/** What a view-only embed keeps below its Gantts: the series key, the strips and their margins, in CSS pixels. */
const BELOW_THE_GANTT = 300;

/**
 * A Gantt's height: 300 px, 460 in the presentation layout. A view-only embed (`fill`) gives its Gantts
 * what the frame has left between the legend above (`top`) and the strips below, shared when stacked,
 * so that a full-screen embed shows a tall schedule; never less than the usual height.
 */
function ganttHeight(fill: boolean, top: number, windowHeight: number): number {
  const usual = view.value.present ? 460 : 300;
  if (!fill) return usual;
  const room = (windowHeight - top - BELOW_THE_GANTT) / (isStacked() ? 2 : 1);
  return Math.max(usual, Math.floor(room));
}

/** Whether the Gantts of A and B are shown stacked (two runs open and the toggle on). */
function isStacked(): boolean {
  return stacked.value && infos.value.length > 1;
}

/** What the Gantt of slot `slot` draws: run A's (or the chosen run's) frame, or, stacked, run B's below it. */
function scene(slot: "main" | "b" = "main"): GanttScene {
  const index = slot === "b" ? 1 : isStacked() ? 0 : ganttSlot.value;
  const info = infos.value[index];
  return {
    frame: slot === "b" ? frameB.value : frame.value,
    win: win.value,
    procs: info?.procs ?? 1,
    colours: legendColours(),
    selected: selection.value.job,
    now: replayNow.value,
  };
}

/** Drag, pinch and wheel on the Gantt: the window moves with the pointer. */
function usePointerInput(canvas: { current: HTMLCanvasElement | null }, width: number, onClick: (x: number, y: number) => void) {
  const pointers = useRef(new Map<number, number>());
  const start = useRef<{ win: TimeWindow; x: number; spread: number; moved: boolean } | null>(null);
  const begin = () => {
    const xs = [...pointers.current.values()];
    const mid = xs.reduce((a, b) => a + b, 0) / xs.length;
    start.current = { win: win.value, x: mid, spread: xs.length > 1 ? Math.abs(xs[0] - xs[1]) : 0, moved: false };
  };
  const localX = (e: PointerEvent) => e.clientX - (canvas.current?.getBoundingClientRect().left ?? 0);
  return {
    onPointerDown(e: PointerEvent) {
      canvas.current?.setPointerCapture(e.pointerId);
      pointers.current.set(e.pointerId, localX(e));
      begin();
    },
    onPointerMove(e: PointerEvent) {
      const s = start.current;
      if (!s || !pointers.current.has(e.pointerId)) return;
      pointers.current.set(e.pointerId, localX(e));
      const xs = [...pointers.current.values()];
      const mid = xs.reduce((a, b) => a + b, 0) / xs.length;
      if (Math.abs(mid - s.x) > 3) s.moved = true;
      let w = panWindow(s.win, -(mid - s.x) / plotWidth(width));
      if (xs.length > 1 && s.spread > 10) {
        s.moved = true;
        const factor = s.spread / Math.max(10, Math.abs(xs[0] - xs[1]));
        w = zoomWindow(w, factor, (timeAt(mid, s.win, width) - s.win.from) / (s.win.to - s.win.from));
      }
      setWindow(w);
    },
    onPointerUp(e: PointerEvent) {
      const s = start.current;
      pointers.current.delete(e.pointerId);
      if (s && !s.moved && pointers.current.size === 0) {
        const r = canvas.current?.getBoundingClientRect();
        if (r) onClick(e.clientX - r.left, e.clientY - r.top);
      }
      if (pointers.current.size > 0) begin();
      else start.current = null;
    },
    onWheel(e: WheelEvent) {
      e.preventDefault();
      const w = win.value;
      const at = (timeAt(localX(e as unknown as PointerEvent), w, width) - w.from) / (w.to - w.from);
      setWindow(zoomWindow(w, 1.2 ** (e.deltaY / 100), Math.min(1, Math.max(0, at))));
    },
  };
}

/**
 * The run `step` places after (or before) the selected one among the runs
 * drawn, in start order; with none selected, the first run that starts in
 * the window's middle or later.
 */
function stepRun(step: 1 | -1): void {
  const rects = frame.value?.rects;
  if (!rects || rects.length === 0) return;
  const at = rects.findIndex((r) => r.job === selection.value.job);
  const mid = (win.value.from + win.value.to) / 2;
  const from = at >= 0 ? at + step : rects.findIndex((r) => r.start >= mid);
  const r = rects[Math.min(rects.length - 1, Math.max(0, from < 0 ? rects.length - 1 : from))];
  selection.value = { ...selection.value, job: r.job };
}

function onKey(e: KeyboardEvent): void {
  if (e.key === "]" || e.key === "[") {
    e.preventDefault();
    stepRun(e.key === "]" ? 1 : -1);
    return;
  }
  const w = win.value;
  const moves: Record<string, () => TimeWindow | null> = {
    ArrowLeft: () => panWindow(w, -PAN_STEP),
    ArrowRight: () => panWindow(w, PAN_STEP),
    "+": () => zoomWindow(w, 1 / ZOOM_STEP),
    "=": () => zoomWindow(w, 1 / ZOOM_STEP),
    "-": () => zoomWindow(w, ZOOM_STEP),
    Home: () => {
      resetWindow();
      return null;
    },
  };
  const move = moves[e.key];
  if (!move) return;
  e.preventDefault();
  const next = move();
  if (next) setWindow(next);
}

/** A click on a Gantt selects the job of the run under the pointer. */
function selectAt(slot: "main" | "b", width: number, height: number, x: number, y: number): void {
  const sc = scene(slot);
  const rects = sc.frame?.rects;
  if (!rects) return;
  const r = runAt(rects, sc, width, height, x, y);
  if (r) selection.value = { ...selection.value, job: r.job };
}

/** The name of a stacked Gantt, above it. */
function Caption(props: { slot: number }) {
  const i = infos.value[props.slot];
  return (
    <p class="gantt-caption" id={`gantt-caption-${props.slot}`}>
      <b>{props.slot === 0 ? "A" : "B"}</b>: {i?.label}
    </p>
  );
}

export function Gantt(props: { fill?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const gantt = useRef<HTMLCanvasElement>(null);
  const ganttB = useRef<HTMLCanvasElement>(null);
  const strips = useRef<HTMLCanvasElement>(null);
  const width = useWidth(box);
  const windowHeight = useWindowHeight();
  const height = ganttHeight(props.fill === true, box.current?.offsetTop ?? 0, windowHeight);
  // A signal, so that a new height (a resized embed) redraws.
  const drawnHeight = useSignal(height);
  drawnHeight.value = height;
  const input = usePointerInput(gantt, width, (x, y) => selectAt("main", width, height, x, y));
  const inputB = usePointerInput(ganttB, width, (x, y) => selectAt("b", width, height, x, y));

  // A new window (or slot, or width) asks the worker; what it answers is drawn below.
  useSignalEffect(() => {
    void win.value;
    void ganttSlot.value;
    void stacked.value;
    requestView(plotWidth(width) * (window.devicePixelRatio || 1));
  });
  useEffect(() => requestView(plotWidth(width) * (window.devicePixelRatio || 1)), [width]);

  // Redrawn at most once a frame, whatever changed.
  const drawn = useRef(0);
  useSignalEffect(() => {
    const sc = scene();
    const scB = isStacked() ? scene("b") : null;
    const data = series.value;
    // Read here so that a change of layout or height redraws.
    const present = view.value.present;
    const h = drawnHeight.value;
    if (drawn.current) cancelAnimationFrame(drawn.current);
    drawn.current = requestAnimationFrame(() => {
      drawn.current = 0;
      const font = present ? 17 : 12;
      const g = gantt.current && surface(gantt.current, width, h, font);
      if (g && gantt.current) gantt.current.dataset.outlined = String(drawGantt(g, sc));
      const gb = scB && ganttB.current && surface(ganttB.current, width, h, font);
      if (gb && scB && ganttB.current) ganttB.current.dataset.outlined = String(drawGantt(gb, scB));
      const s = strips.current && surface(strips.current, width, present ? 300 : 220, font);
      if (s) drawSeries(s, data, sc.win, reg().palette);
    });
  });

  const w = win.value;
  const f = frame.value;
  const both = isStacked();
  const info = infos.value[both ? 0 : ganttSlot.value];
  const fb = frameB.value;
  const shown = f?.rects ? `${f.rects.length} runs` : "busy fraction per pixel column";
  const label = `Schedule of ${info?.label ?? "no run"} from ${timeLabel(w.from)} to ${timeLabel(w.to)}, ${shown}. Arrows pan, plus and minus zoom, Home shows the whole run; ] and [ select the next and previous run drawn.`;
  return (
    <div ref={box} class="gantt-box" data-stacked={both ? "1" : "0"}>
      {both ? <Caption slot={0} /> : null}
      <canvas
        ref={gantt}
        data-testid="schedule-view"
        class="gantt"
        tabIndex={0}
        role="img"
        aria-label={label}
        style={{ width: `${width}px`, height: `${height}px` }}
        data-mode={f?.rects ? "runs" : f?.columns ? "columns" : "empty"}
        data-runs={f?.rects?.length ?? 0}
        onKeyDown={onKey}
        {...input}
      />
      {both ? (
        <>
          <Caption slot={1} />
          <canvas
            ref={ganttB}
            data-testid="schedule-view-b"
            class="gantt"
            tabIndex={0}
            role="img"
            aria-label={`Schedule of ${infos.value[1]?.label ?? "run B"} on the same time axis as the one above.`}
            style={{ width: `${width}px`, height: `${height}px` }}
            data-mode={fb?.rects ? "runs" : fb?.columns ? "columns" : "empty"}
            data-runs={fb?.rects?.length ?? 0}
            onKeyDown={onKey}
            {...inputB}
          />
        </>
      ) : null}
      <p class="muted series-key">
        Series:{" "}
        {infos.value.map((i) => (
          <span key={i.slot}>
            <span class="swatch" style={{ background: reg().palette[i.slot] }} /> {i.slot === 0 ? "A" : "B"}: {i.label}{" "}
          </span>
        ))}
      </p>
      <canvas
        ref={strips}
        data-testid="timeseries"
        class="timeseries"
        role="img"
        aria-label={`Utilisation, queue length, queued work and the first job's wait from ${timeLabel(w.from)} to ${timeLabel(w.to)}, ${infos.value.map((i) => i.label).join(" and ")}`}
        style={{ width: `${width}px`, height: `${view.value.present ? 300 : 220}px` }}
      />
    </div>
  );
}
