// The "Schedule" tab of the results: choose the pair of runs (A, and B to
// compare), open them in the schedule worker, then the Gantt with its time
// series, the window's readout and controls, the exports (SVG through the
// core's chart, PNG of the canvas), the job inspector, the per-job scatter
// and the replay.

import { useSignalEffect } from "@preact/signals";
import { useEffect, useState } from "preact/hooks";
import { core, errorMessage } from "../core";
import { copyEmbed, embedCode } from "../embed";
import type { ExperimentRun } from "../runs/experiment-run";
import { refreshLocation } from "../share/link";
import { reg, selection, trace, useTick } from "../store";
import { download, svgToPng } from "../ui";
import { Gantt } from "./Gantt";
import { Inspector } from "./Inspector";
import { Replay } from "./Replay";
import { Scatter } from "./Scatter";
import {
  dateNote,
  durationLabel,
  ganttSlot,
  infos,
  inspectedId,
  opening,
  openPair,
  pendingView,
  resetWindow,
  restoreView,
  scheduleNote,
  setWindow,
  showsRunOf,
  stacked,
  timeLabel,
  win,
  worker,
  zoomToWeek,
} from "./state";

/** Columns of the exported SVG chart (and of its strips). */
const SVG_COLUMNS = 1000;

/** A choice among the result rows (`none` offered when `none` is set). */
function RowSelect(props: {
  id: string;
  label: string;
  rows: { title: string; label: string }[];
  value: number | null;
  none?: boolean;
  set: (v: number | null) => void;
}) {
  return (
    <label>
      {props.label}{" "}
      <select
        id={props.id}
        value={props.value ?? ""}
        onChange={(e) => props.set(e.currentTarget.value === "" ? null : Number(e.currentTarget.value))}
      >
        {props.none ? <option value="">none</option> : null}
        {props.rows.map((r, i) => (
          <option key={r.label} value={i} title={r.label}>
            {r.title}
          </option>
        ))}
      </select>
    </label>
  );
}

function PairChooser(props: { run: ExperimentRun }) {
  const cells = props.run.cells;
  const [a, setA] = useState(selection.value.runs[0] ?? 0);
  const [b, setB] = useState<number | null>(selection.value.runs[1] ?? (cells.length > 1 ? 1 : null));
  const open = () => {
    // The same row twice is one run shown alone.
    const pair: [number, number | null] = [a, b === a ? null : b];
    const chosen = pair.filter((c): c is number => c !== null && c < cells.length);
    void openPair(
      props.run.execution,
      chosen.map((c) => cells[c].jobs[0].index),
      pair,
    );
  };
  const rows = cells;
  return (
    <div class="toolbar schedule-pair">
      <RowSelect id="schedule-run-a" label="Run A" rows={rows} value={a} set={(v) => setA(v ?? 0)} />
      <RowSelect id="schedule-run-b" label="Run B" rows={rows} value={b} none set={setB} />
      <button type="button" id="schedule-open" disabled={opening.value} onClick={open}>
        {opening.value ? "Opening…" : "Show schedule"}
      </button>
    </div>
  );
}

/** A legend swatch: filled, hatched for preempted runs, dashed for the outline. */
function swatch(key: string, colour: string): Record<string, string> {
  if (key === "reservation") return { borderColor: colour };
  if (key === "preempted") return { background: `repeating-linear-gradient(135deg, ${colour} 0 3px, #000 3px 4px)` };
  return { background: colour };
}

function Legend() {
  return (
    <ul class="schedule-legend" aria-label="Legend">
      {reg().schedule_legend.map((e) => (
        <li key={e.key} data-key={e.key}>
          <span class={`swatch ${e.key}`} style={swatch(e.key, e.colour)} /> {e.label}
        </li>
      ))}
    </ul>
  );
}

/** The schedule's size in exports (SVG, and PNG at twice its pixels). */
const SCHEDULE_EXPORT = { width: 1400, height: 900 };

/** The slots the view shows: A and B stacked (before and after), else the chosen run. */
function shownSlots(): number[] {
  return stacked.value && infos.value.length > 1 ? [0, 1] : [ganttSlot.value];
}

/** The window as the core's charts draw it, as the view shows it (A above B when stacked): runs, legend, strips, titles. */
async function scheduleSvg(): Promise<{ svg: string; height: number }> {
  const w = win.value;
  const slots = shownSlots();
  const specs = await Promise.all(slots.map((slot) => worker().chart(slot, { from: w.from, to: w.to, buckets: SVG_COLUMNS })));
  const height = SCHEDULE_EXPORT.height * slots.length;
  return { svg: core().charts_svg(specs, SCHEDULE_EXPORT.width, height), height };
}

async function exportSchedule(format: "svg" | "png"): Promise<void> {
  const runs = shownSlots()
    .map((slot) => infos.value[slot]?.label ?? "")
    .join(" vs ");
  const name = core().download_name(trace.value?.name ?? "", runs, "schedule", format);
  try {
    const { svg, height } = await scheduleSvg();
    if (format === "svg") download(name, svg, "image/svg+xml");
    else download(name, await svgToPng(svg, SCHEDULE_EXPORT.width, height), "image/png");
  } catch (e) {
    scheduleNote.value = { kind: "error", text: `${format.toUpperCase()} export failed: ${errorMessage(e)}` };
  }
}

/** A window typed as the command line's `--window` takes it (the core parses it). */
function WindowInput() {
  const [text, setText] = useState("");
  const go = (e: Event) => {
    e.preventDefault();
    try {
      const [from, to] = core().parse_window(text.trim());
      setWindow({ from, to });
      scheduleNote.value = null;
    } catch (err) {
      scheduleNote.value = { kind: "error", text: errorMessage(err) };
    }
  };
  return (
    <form class="window-input" onSubmit={go}>
      <label>
        Window <input id="window-input" size={14} placeholder="10d:17d" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>{" "}
      <button type="submit" class="small">
        Show
      </button>
    </form>
  );
}

function ViewBar() {
  const w = win.value;
  const open = infos.value;
  return (
    <div class="toolbar schedule-bar">
      {open.length > 1 ? (
        <label class="stack-toggle">
          <input
            type="checkbox"
            id="gantt-stack"
            checked={stacked.value}
            onChange={(e) => {
              stacked.value = e.currentTarget.checked;
            }}
          />{" "}
          Before/after: A above B
        </label>
      ) : null}
      {open.length > 1 && !stacked.value ? (
        <fieldset class="slot-choice">
          <legend>Gantt of</legend>
          {open.map((i) => (
            <label key={i.slot}>
              <input
                type="radio"
                name="gantt-slot"
                checked={ganttSlot.value === i.slot}
                onChange={() => {
                  ganttSlot.value = i.slot;
                }}
              />{" "}
              {i.slot === 0 ? "A" : "B"}: {i.label}
            </label>
          ))}
        </fieldset>
      ) : null}
      <button type="button" id="zoom-week" onClick={zoomToWeek}>
        Zoom to a week
      </button>
      <button type="button" id="zoom-all" onClick={resetWindow}>
        Whole run
      </button>
      <WindowInput />
      <output data-testid="schedule-window" id="schedule-window" data-from={w.from} data-to={w.to} aria-live="polite" title={dateNote()}>
        {timeLabel(w.from)} – {timeLabel(w.to)} ({durationLabel(w.to - w.from)})
      </output>
      <span class="exports">
        <button type="button" class="small" id="schedule-svg" onClick={() => void exportSchedule("svg")}>
          SVG
        </button>{" "}
        <button type="button" class="small" id="schedule-png" onClick={() => void exportSchedule("png")}>
          PNG
        </button>{" "}
        <button
          type="button"
          class="small"
          id="schedule-embed"
          data-export="embed"
          aria-label="Copy the code that embeds this schedule view in a web page"
          onClick={() => void copyEmbed("schedule", "Schedlab schedule view")}
        >
          Embed
        </button>
      </span>
    </div>
  );
}

/** Keeps the page's address on the view shown (window, job, pair, stacking), a moment after it stops moving. */
function useViewInAddress(): void {
  useSignalEffect(() => {
    void win.value;
    void inspectedId.value;
    void infos.value;
    // The link keeps the stacking too: toggling it alone must rewrite the address.
    void stacked.value;
    const timer = window.setTimeout(refreshLocation, 400);
    return () => clearTimeout(timer);
  });
}

/**
 * The schedule tab; `viewOnly` (an embedded view, unless its address asks for `controls=1`) shows the Gantt
 * and its legend alone, so that a frame of the embed code's size shows the schedule, not the controls.
 */
export function SchedulePanel(props: { run: ExperimentRun; viewOnly?: boolean }) {
  const open = infos.value;
  const note = scheduleNote.value;
  const run = props.run;
  // Runs are mutable objects: re-rendered on every tick to see `complete` change.
  useTick();
  useViewInAddress();
  useEffect(() => {
    if (run.complete && pendingView.value)
      void restoreView(
        run.execution,
        run.cells.map((c) => c.jobs[0].index),
      );
  }, [run.complete]);
  if (props.viewOnly)
    return (
      <div class="schedule view-only" id="schedule">
        {note ? (
          <p class={`msg ${note.kind}`} role="status">
            {note.text}
          </p>
        ) : null}
        {open.length > 0 ? (
          <>
            <Legend />
            <Gantt fill />
          </>
        ) : null}
      </div>
    );
  return (
    <div class="schedule" id="schedule">
      <PairChooser key={selection.value.runs.join()} run={run} />
      {note ? (
        <p class={`msg ${note.kind}`} role="status">
          {note.text}
        </p>
      ) : null}
      {open.length === 0 ? (
        <p class="muted">
          Choose one run, or two to compare, and show their schedule: the runs are run again in a worker of their own, which keeps them for
          the views.
        </p>
      ) : (
        <>
          {showsRunOf(run.execution) ? null : (
            <p class="msg warn" id="schedule-stale">
              The schedule shows the runs of an earlier experiment: choose the rows above and show the schedule again.
            </p>
          )}
          <p class="muted schedule-info">
            {open.map((i) => `${i.slot === 0 ? "A" : "B"}: ${i.label}, ${i.jobs} jobs, ${i.runs} runs on ${i.procs} processors`).join("; ")}
          </p>
          <ViewBar />
          <Legend />
          {embedCode.value?.chart === "schedule" ? (
            <textarea
              class="embed-code"
              id="schedule-embed-code"
              readOnly
              rows={3}
              aria-label="Code that embeds this schedule view"
              value={embedCode.value.code}
            />
          ) : null}
          <p class="muted keys">
            On the focused schedule: ← → pan, + − zoom, Home the whole run, ] [ the next and previous run; drag to pan, wheel or pinch to
            zoom, click a run to inspect it.
          </p>
          <Gantt />
          <div class="schedule-below">
            <Inspector />
            <Scatter />
          </div>
          <Replay />
        </>
      )}
    </div>
  );
}
