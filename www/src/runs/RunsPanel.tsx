// Section 3: every point of the experiment (a run, a sweep value, a
// repetition) with its phase and progress (and, when its plan grows, the
// core's sentence saying why), a cancel button while it waits or runs, and
// its per-job CSV, simulated SWF and Batsim jobs.csv once done.
import { core, errorMessage } from "../core";
import { experimentRun, formNote, pool, trace, useTick } from "../store";
import { download, Panel } from "../ui";
import type { PointJob } from "../worker/pool";
import type { ExportFormat } from "../worker/run-worker";
import { progressText } from "./execution";

const STATUS: Record<PointJob["status"], string> = {
  queued: "queued",
  running: "running",
  done: "done",
  error: "failed",
  cancelled: "cancelled",
};

/** What each export holds (its file name's kind), its ending, media type and name in messages. */
const EXPORTS: Record<ExportFormat, { kind: string; ending: string; type: string; label: string }> = {
  csv: { kind: "jobs", ending: "csv", type: "text/csv", label: "CSV" },
  swf: { kind: "schedule", ending: "swf", type: "text/plain", label: "SWF" },
  batsim: { kind: "batsim jobs", ending: "csv", type: "text/csv", label: "Batsim CSV" },
};

/** Saves a run's export, named by the core's one scheme: trace, the run's label, kind. */
async function exportPoint(job: PointJob, format: ExportFormat, what: string): Promise<void> {
  const { kind, ending, type, label } = EXPORTS[format];
  try {
    const text = await pool().exportPoint(job, format);
    download(core().download_name(trace.value?.name ?? "", what, kind, ending), text, type);
  } catch (e) {
    formNote.value = { kind: "error", text: `The ${label} export failed: ${errorMessage(e)}` };
  }
}

function RunItem(props: { job: PointJob; label: string; title: string; rep: number; reps: number }) {
  useTick();
  const j = props.job;
  const label = props.reps > 1 ? `${props.title} · repetition ${props.rep + 1}` : props.title;
  const file = props.reps > 1 ? `${props.label} rep${props.rep + 1}` : props.label;
  const fraction = j.status === "done" ? 1 : j.progress ? j.progress.completed / Math.max(1, j.progress.jobs) : 0;
  // Running out of memory is the core's whole sentence (what happened and what is kept), not a "failed:" detail.
  const failed = j.failure === "memory" ? (j.error ?? "") : `failed: ${j.error ?? ""}`;
  const status = j.status === "running" ? progressText(j) : j.status === "error" ? failed : STATUS[j.status];
  // The core's sentence on why the plan grows, while the run goes on.
  const planNote = j.status === "running" ? j.progress?.plan?.why : undefined;
  const timing = j.done
    ? ` in ${(j.done.elapsedMs / 1000).toFixed(2)} s${j.done.parseMs > 0 ? ` (+ ${(j.done.parseMs / 1000).toFixed(2)} s reading the trace)` : ""}`
    : "";
  return (
    <li
      data-status={j.status}
      data-failure={j.failure ?? undefined}
      data-label={props.label}
      data-title={props.title}
      data-elapsed={j.done?.elapsedMs}
      data-parse={j.done?.parseMs}
    >
      <span class="lbl" title={props.label}>
        {label}
      </span>
      <progress max={1} value={fraction} aria-label={`progress of ${label}`} />
      <span class={`status status-${j.status}`}>
        {status}
        {timing}
      </span>
      <span class="exports">
        {j.status === "queued" || j.status === "running" ? (
          <button type="button" class="small cancel" aria-label={`Cancel ${label}`} onClick={() => pool().cancel(j)}>
            Cancel
          </button>
        ) : null}
        {j.status === "done" ? (
          <>
            <button type="button" class="small" aria-label={`${label}: per-job CSV`} onClick={() => void exportPoint(j, "csv", file)}>
              CSV
            </button>{" "}
            <button
              type="button"
              class="small"
              aria-label={`${label}: Batsim jobs.csv (for evalys)`}
              onClick={() => void exportPoint(j, "batsim", file)}
            >
              Batsim CSV
            </button>{" "}
            <button
              type="button"
              class="small"
              aria-label={`${label}: simulated schedule as SWF`}
              onClick={() => void exportPoint(j, "swf", file)}
            >
              SWF
            </button>
          </>
        ) : null}
      </span>
      {planNote ? (
        <p class="plan-note" role="note">
          {planNote}
        </p>
      ) : null}
    </li>
  );
}

export function RunsPanel() {
  useTick();
  const run = experimentRun.value;
  return (
    <Panel id="runs-panel" title="3. Runs">
      {run ? (
        <>
          <p class="muted" id="runs-note">
            {run.execution.jobs.length} run{run.execution.jobs.length === 1 ? "" : "s"}, {Math.round(100 * run.execution.fraction)} % done,
            on <span id="runs-context">{run.context}</span>.
          </p>
          <ul class="runs" id="runs">
            {run.cells.flatMap((c) =>
              c.jobs.map((j, k) => (
                <RunItem key={`${c.label}/${k}`} job={j} label={c.label} title={c.title} rep={k} reps={c.jobs.length} />
              )),
            )}
          </ul>
        </>
      ) : (
        <p class="muted" id="runs-note">
          No experiment yet: load a trace and press Run experiment (or run a preset above).
        </p>
      )}
    </Panel>
  );
}
