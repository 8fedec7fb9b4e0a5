// Replay for demonstrations: "now" moves forward at a chosen speed (a red
// line on the Gantt, which follows it), and beside the machine at that
// instant (the runs holding processors) the waiting queue in priority
// order, both from the core's replay state. Pause, and step to the
// previous or next instant anything happens.
import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage } from "../core";
import type { ReplayState } from "../generated/types";
import { view } from "../store";
import { surface } from "./draw";
import { legendColours } from "./Gantt";
import { durationLabel, ganttSlot, infos, replayNow, setWindow, timeAndDate, timeLabel, win, worker } from "./state";

/** Simulated seconds per second of replay. */
const SPEEDS: [number, string][] = [
  [60, "1 min/s"],
  [600, "10 min/s"],
  [3600, "1 h/s"],
  [6 * 3600, "6 h/s"],
  [86_400, "1 day/s"],
];
const QUEUE_SHOWN = 40;

/** The widest replay drawn, CSS pixels; narrower when its box is (a phone). */
const MAX_WIDTH = { normal: 900, large: 1400 };

function drawState(canvas: HTMLCanvasElement, st: ReplayState, procs: number, large: boolean, box: number): void {
  const width = Math.max(200, Math.min(large ? MAX_WIDTH.large : MAX_WIDTH.normal, box));
  const height = large ? 420 : 260;
  const s = surface(canvas, width, height);
  if (!s) return;
  const { ctx } = s;
  const colours = legendColours();
  const font = large ? 18 : 12;
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  ctx.font = `${font}px system-ui, sans-serif`;
  ctx.fillStyle = "#333";
  ctx.textBaseline = "top";
  // Wide enough for the "machine: … busy" label, so it never runs into the queue's.
  const mw = Math.min(large ? 260 : 180, Math.round(width * 0.4));
  ctx.fillText(`machine: ${st.busy} of ${procs} busy`, 8, 4);
  // The key to the queue's shapes only where it fits beside the machine's label.
  const key =
    width >= 600 ? ` (first ${Math.min(st.queue.length, QUEUE_SHOWN)} drawn: height = processors, width = requested time, log)` : "";
  ctx.fillText(`queue: ${st.queue_length} waiting${key}`, mw + 32, 4);
  const top = font + 12;
  const h = height - top - 8;
  ctx.strokeStyle = "#666";
  ctx.strokeRect(8, top, mw, h);
  for (const r of st.running) {
    ctx.fillStyle = colours[r.preempted ? "preempted" : r.class];
    for (const b of r.bands) ctx.fillRect(9, top + h * (1 - b.hi / procs), mw - 2, Math.max(0.5, (h * (b.hi - b.lo)) / procs));
  }
  // The queue, first waiting job on the left: height by size, width by requested time (log).
  let x = mw + 32;
  for (const q of st.queue) {
    const qh = Math.max(3, (h * Math.min(procs, q.size)) / procs);
    const qw = Math.max(8, 6 * Math.log2(1 + q.estimate / 60));
    if (x + qw > width - 4) break;
    ctx.fillStyle = q.job === st.head_reservation?.job ? "#999" : "#ccc";
    ctx.fillRect(x, top + h - qh, qw, qh);
    ctx.strokeStyle = "#333";
    ctx.strokeRect(x, top + h - qh, qw, qh);
    x += qw + 3;
  }
  canvas.dataset.drawn = "1";
}

/** The width of the element holding `canvas`, followed as it changes. */
function useBoxWidth(canvas: { current: HTMLCanvasElement | null }): number {
  const [width, setWidth] = useState(MAX_WIDTH.normal);
  useEffect(() => {
    const box = canvas.current?.parentElement;
    if (!box) return;
    const fit = () => setWidth(Math.floor(box.clientWidth));
    fit();
    const ro = new ResizeObserver(fit);
    ro.observe(box);
    return () => ro.disconnect();
  }, [canvas.current]);
  return width;
}

export function Replay() {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [speed, setSpeed] = useState(SPEEDS[2][0]);
  const [playing, setPlaying] = useState(false);
  const [state, setState] = useState<ReplayState | null>(null);
  const [error, setError] = useState("");
  const busy = useRef(false);
  const slot = ganttSlot.value;
  const info = infos.value[slot];

  const show = async (t: number) => {
    if (busy.current) return;
    busy.current = true;
    try {
      setState(await worker().replay(slot, Math.round(t), QUEUE_SHOWN));
    } catch (e) {
      setError(errorMessage(e));
      setPlaying(false);
    } finally {
      busy.current = false;
    }
  };
  const moveTo = (t: number) => {
    replayNow.value = t;
    const w = win.value;
    // The Gantt follows: "now" stays in view, a third from the left once it leaves.
    if (t < w.from || t > w.to) setWindow({ from: t - (w.to - w.from) / 3, to: t + (2 * (w.to - w.from)) / 3 });
    void show(t);
  };

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let raf = requestAnimationFrame(function step(now) {
      const t = (replayNow.value ?? win.value.from) + (speed * (now - last)) / 1000;
      last = now;
      if (info?.span && t > info.span[1]) {
        setPlaying(false);
        return;
      }
      moveTo(t);
      raf = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, slot]);

  const present = view.value.present;
  const box = useBoxWidth(canvas);
  useEffect(() => {
    if (canvas.current && state && info) drawState(canvas.current, state, info.procs, present, box);
  });
  // Leaving the view takes the "now" line off the Gantt.
  useEffect(
    () => () => {
      replayNow.value = null;
    },
    [],
  );

  if (!info) return null;
  const now = replayNow.value;
  return (
    <section data-testid="replay" class="replay" aria-labelledby="replay-title">
      <h3 id="replay-title">Replay of {info.label}</h3>
      <div class="toolbar">
        <button type="button" id="replay-play" onClick={() => setPlaying(!playing)}>
          {playing ? "Pause" : "Play"}
        </button>
        <button
          type="button"
          id="replay-previous"
          disabled={playing || !state || state.previous === null}
          onClick={() => state?.previous != null && moveTo(state.previous)}
        >
          ◀ Previous event
        </button>
        <button
          type="button"
          id="replay-next"
          disabled={playing || state?.next === null}
          onClick={() => moveTo(state?.next ?? now ?? win.value.from)}
        >
          Next event ▶
        </button>
        <label>
          Speed{" "}
          <select id="replay-speed" value={speed} onChange={(e) => setSpeed(Number(e.currentTarget.value))}>
            {SPEEDS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => moveTo(win.value.from)}>
          Start at the window
        </button>
      </div>
      <p id="replay-now" data-t={now ?? ""} aria-live="off">
        {now === null ? "Press Play or Next event." : `now ${timeAndDate(now)}, t = ${Math.round(now)} s`}
        {state?.head_reservation
          ? `; first waiting job ${state.head_reservation.id} is promised ${timeLabel(state.head_reservation.start)} (in ${durationLabel(Math.max(0, state.head_reservation.start - state.time))})`
          : ""}
      </p>
      {error ? <p class="msg error">{error}</p> : null}
      <canvas
        ref={canvas}
        class="replay-canvas"
        role="img"
        aria-label={
          state
            ? `At ${timeLabel(state.time)}: ${state.busy} of ${info.procs} processors busy, ${state.queue_length} jobs waiting`
            : "Replay"
        }
      />
    </section>
  );
}
