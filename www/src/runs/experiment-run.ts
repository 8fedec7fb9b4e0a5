// Running the form's experiment: the core plans it, its points run in the
// worker pool, and as points finish the core summarises them into the
// result, its table and its figures.
import { core, errorMessage } from "../core";
import type { Figure, PlanView, SummaryTable } from "../generated/types";
import { updateLocation } from "../share/link";
import { blocked, bump, experimentRun, formNote, runnable, trace } from "../store";
import type { PointJob } from "../worker/pool";
import { Execution } from "./execution";

/** The points of one (run, sweep value): its repetitions. */
interface Cell {
  /** The spec, with `PARAM=VALUE` for a sweep value (tooltips, file names, tests). */
  label: string;
  /** The core's title for people. */
  title: string;
  /** The sweep value as text, for a swept run. */
  value: string | null;
  jobs: PointJob[];
}

export interface ExperimentRun {
  id: number;
  /** The trace, its machine size and workload options (the core's `trace_context`). */
  context: string;
  execution: Execution;
  cells: Cell[];
  /** Every catalogue column with a value (the core's table). */
  table: SummaryTable | null;
  figures: Figure[];
  /** Every point has ended and the result is summarised. */
  complete: boolean;
  error: string | null;
}

let serial = 0;
let timer = 0;

function cells(plan: PlanView, jobs: PointJob[]): Cell[] {
  const out = new Map<string, Cell>(
    plan.cells.map((c) => [
      `${c.run}/${c.value}`,
      { label: c.label, title: c.title, value: c.value === null ? null : plan.values[c.value], jobs: [] },
    ]),
  );
  plan.points.forEach((p, i) => {
    out.get(`${p.run}/${p.value}`)?.jobs.push(jobs[i]);
  });
  return [...out.values()];
}

/** Recomputes the run's result, table and figures (soon after a point ends). */
function scheduleSummary(run: ExperimentRun): void {
  clearTimeout(timer);
  timer = window.setTimeout(() => {
    if (experimentRun.value?.id !== run.id) return;
    try {
      if (run.execution.summarise() && run.execution.resultJson && run.execution.result) {
        run.table = core().summary_table(run.execution.resultJson);
        run.figures = core().figures(run.execution.result);
        // The trace as the runs read it (the form's summary may lag a change of options).
        run.context = core().trace_context(run.execution.result.trace);
      }
    } catch (e) {
      run.error = `The results could not be summarised: ${errorMessage(e)}`;
    }
    run.complete = run.execution.settled;
    bump();
  }, 80);
}

/** Starts the form's experiment on the loaded trace (replacing a previous one). */
export function startExperiment(): void {
  const t = trace.value;
  const experiment = runnable.value;
  const why = blocked.value;
  if (!t || !experiment || why) {
    formNote.value = { kind: "error", text: why ?? "Load a trace first." };
    return;
  }
  let plan: PlanView;
  try {
    plan = core().plan(experiment);
  } catch (e) {
    formNote.value = { kind: "error", text: errorMessage(e) };
    return;
  }
  formNote.value = null;
  experimentRun.value?.execution.cancel();
  let run: ExperimentRun | null = null;
  // Points report from the workers, after this function has returned.
  const execution = new Execution(experiment, plan, (job) => {
    if (run && job.status !== "queued" && job.status !== "running") scheduleSummary(run);
    bump();
  });
  const grouped = cells(plan, execution.jobs);
  const context = core().trace_context(t.summary.identity);
  run = { id: ++serial, context, execution, cells: grouped, table: null, figures: [], complete: false, error: null };
  experimentRun.value = run;
  updateLocation(null);
}

/** Cancels every point of the form's experiment still queued or running. */
export function cancelExperiment(): void {
  experimentRun.value?.execution.cancel();
}
