// One experiment under way: its points queued in the worker pool, and its
// result, which the core computes from the finished points (the only
// averaging there is) as the JSON text `schedlab sweep --json` writes. The
// form's experiment is one execution, a preset one per section.
import { core } from "../core";
import type { Experiment, ExperimentResult, PlanView } from "../generated/types";
import { pool } from "../store";
import type { PointJob } from "../worker/pool";

export class Execution {
  readonly jobs: PointJob[];
  /** The result as JSON text (exact: the export), once some point finished. */
  resultJson: string | null = null;
  result: ExperimentResult | null = null;

  constructor(
    readonly experiment: Experiment,
    readonly plan: PlanView,
    onChange: (job: PointJob) => void,
  ) {
    this.jobs = plan.points.map((p) => pool().submit(experiment, p.index, onChange));
  }

  /** Whether every point has finished, failed or been cancelled. */
  get settled(): boolean {
    return this.jobs.every((j) => j.status !== "queued" && j.status !== "running");
  }

  get finished(): PointJob[] {
    return this.jobs.filter((j) => j.status === "done");
  }

  /** The first point that failed or was cancelled. */
  get failed(): PointJob | undefined {
    return this.jobs.find((j) => j.status === "error" || j.status === "cancelled");
  }

  /** Share of the work done (running points count by their progress). */
  get fraction(): number {
    let sum = 0;
    for (const j of this.jobs) {
      if (j.status === "done") sum += 1;
      else if (j.status === "running" && j.progress && j.progress.jobs > 0) {
        const { step, steps } = j.progress.phase;
        sum += (step - 1 + j.progress.completed / j.progress.jobs) / steps;
      }
    }
    return sum / Math.max(1, this.jobs.length);
  }

  /** Recomputes the result from the finished points; false when none has. */
  summarise(): boolean {
    const done = this.finished;
    if (done.length === 0) return false;
    const identity = done[0].done?.identity ?? "{}";
    this.resultJson = core().experiment_result(
      this.experiment,
      identity,
      done.map((j) => j.done?.json ?? ""),
    );
    this.result = JSON.parse(this.resultJson) as ExperimentResult;
    return true;
  }

  cancel(): void {
    for (const j of this.jobs) pool().cancel(j);
  }
}

/** "step 1 of 2: calibration (CBF reference run), 43 %" or "run, 43 %", and the core's "1.2 M plan changes so far" once the plan grows. */
export function progressText(job: PointJob): string {
  const p = job.progress;
  if (!p) return "starting";
  const pct = `${Math.round((100 * p.completed) / Math.max(1, p.jobs))} %`;
  const plan = p.plan ? `, ${p.plan.so_far}` : "";
  return p.phase.steps > 1
    ? `step ${p.phase.step} of ${p.phase.steps}: ${p.phase.label}, ${pct}${plan}`
    : `${p.phase.label}, ${pct}${plan}`;
}
