// Replay for demonstrations: "now" moves forward at a chosen speed (a red
// line on the Gantt, which follows it), and beside the machine at that
// instant (the runs holding processors) the waiting queue in priority
// order with each job's shape and number (replay-draw.ts), both from the
// core's replay state. Pause, and step to the
// previous or next instant anything happens.
import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage } from "../core";
import type { ReplayState } from "../generated/types";
import { view } from "../store";
import { surface } from "./draw";
import { legendColours } from "./Gantt";
import { drawReplay } from "./replay-draw";
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

/**
 * The replay's height in CSS pixels for a box `width` wide: in the
 * presentation layout, what the window leaves under the replay's heading
 * and controls (the machine and the queue fill a 1920 × 1080 screen);
 * otherwise in proportion to the width, within bounds.
 */
function replayHeight(width: number, present: boolean): number {
  if (present) return Math.max(360, Math.min(820, window.innerHeight - 260));
  return Math.max(220, Math.min(460, Math.round(width * 0.42)));
}

/** Draws `st` on `canvas`, the width of its box; records the instant, the queue's length and the job numbers drawn in it (`data-t`, `data-waiting`, `data-queue`). */
function drawState(
  canvas: HTMLCanvasElement,
  st: ReplayState,
  procs: number,
  box: number,
  look: { present: boolean; large: boolean },
): void {
  const { present } = look;
  const width = Math.max(200, box);
  const font = present ? 20 : look.large ? 16 : 13;
  const s = surface(canvas, width, replayHeight(width, present), font);
  if (!s) return;
  const drawn = drawReplay(s, st, procs, legendColours(), durationLabel);
  // For readers of the page (and its tests): the instant drawn, how many wait, the numbers drawn.
  canvas.dataset.t = String(st.time);
  canvas.dataset.waiting = String(st.queue_length);
  canvas.dataset.queue = drawn.join(" ");
  canvas.dataset.drawn = "1";
}

/** The first waiting jobs' numbers, for a reader of the canvas's label. */
function queueWords(st: ReplayState): string {
  const first = st.queue.slice(0, 10).map((q) => q.id);
  return first.length ? ` (first: job${first.length > 1 ? "s" : ""} ${first.join(", ")})` : "";
}

/** The width of the element holding `canvas`, followed as it changes. */
function useBoxWidth(canvas: { current: HTMLCanvasElement | null }): number {
  const [width, setWidth] = useState(900);
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

  // One query at a time; an instant asked for meanwhile waits, replaced by
  // any newer one, so that the state drawn ends at the last instant asked.
  const waiting = useRef<number | null>(null);
  const show = async (t: number) => {
    if (busy.current) {
      waiting.current = t;
      return;
    }
    busy.current = true;
    try {
      setState(await worker().replay(slot, Math.round(t), QUEUE_SHOWN));
    } catch (e) {
      setError(errorMessage(e));
      setPlaying(false);
    } finally {
      busy.current = false;
      const next = waiting.current;
      waiting.current = null;
      if (next !== null) void show(next);
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

  const box = useBoxWidth(canvas);
  // Read here, so that a change of layout renders (and redraws) the replay.
  const look = view.value;
  useEffect(() => {
    if (canvas.current && state && info) drawState(canvas.current, state, info.procs, box, look);
  });
  // Before Play or a step, the machine and the queue at the window's start,
  // following the window: the panel is never empty.
  const from = win.value.from;
  useEffect(() => {
    if (replayNow.value === null) void show(from);
  }, [slot, from]);
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
        {now === null
          ? `at the window's start, ${timeAndDate(from)} (press Play or Next event)`
          : `now ${timeAndDate(now)}, t = ${Math.round(now)} s`}
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
            ? `At ${timeLabel(state.time)}: ${state.busy} of ${info.procs} processors busy, ${state.queue_length} jobs waiting${queueWords(state)}`
            : "Replay"
        }
      />
    </section>
  );
}
