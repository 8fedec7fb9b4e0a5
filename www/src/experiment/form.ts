// Changes to the form's experiment. The form holds an `Experiment` exactly
// as the core takes it (parameters as text); every check of a value is the
// core's (`plan` refuses a bad one, naming it, and Run shows why).
import type { Experiment, PolicyInfo, RunSpec, Sweep, WorkloadOptions } from "../generated/types";
import { form, formNote, reg, theForm } from "../store";
import { workloadChanged } from "../trace/load";

function update(change: (e: Experiment) => Experiment): void {
  const before = theForm();
  const after = change(before);
  form.value = after;
  // A note about the form as it was ("Link copied") no longer applies.
  formNote.value = null;
  if (JSON.stringify(after.workload) !== JSON.stringify(before.workload)) workloadChanged(after.workload);
}

export function policy(id: string): PolicyInfo | undefined {
  return reg().policies.find((p) => p.id === id);
}

export function addPolicy(id: string): void {
  update((e) => ({ ...e, runs: [...e.runs, { policy: id, params: {} }] }));
}

export function removePolicy(index: number): void {
  update((e) => {
    const runs = e.runs.filter((_, i) => i !== index);
    // A sweep restricted to some runs keeps pointing at the same runs.
    const sweep = e.sweep?.runs
      ? { ...e.sweep, runs: e.sweep.runs.filter((r) => r !== index).map((r) => (r > index ? r - 1 : r)) }
      : e.sweep;
    return { ...e, runs, sweep };
  });
}

function setRun(index: number, change: (r: RunSpec) => RunSpec): void {
  update((e) => ({ ...e, runs: e.runs.map((r, i) => (i === index ? change(r) : r)) }));
}

/** A run's own value of a parameter (empty: back to the shared or default value). */
export function setRunParam(index: number, key: string, value: string): void {
  setRun(index, (r) => {
    const params = { ...r.params };
    if (value === "") delete params[key];
    else params[key] = value;
    return { ...r, params };
  });
}

/** A run's runtime source; parameters only the old source took are dropped. */
export function setSource(index: number, source: string): void {
  const old = reg().predictors.find((p) => p.id === (theForm().runs[index].predictor ?? ""));
  setRun(index, (r) => {
    const params = { ...r.params };
    for (const s of old?.params ?? []) delete params[s.key];
    const p = policy(r.policy);
    return { ...r, params, predictor: p && source === p.default_source ? undefined : source };
  });
}

/** Gives every run that reads runtimes the runtime source `source` (a knob only it takes). */
export function useSourceEverywhere(source: string): void {
  update((e) => ({ ...e, runs: e.runs.map((r) => (policy(r.policy)?.uses_runtime_source ? { ...r, predictor: source } : r)) }));
}

/** A global knob's value (empty: unset). */
export function setShared(key: string, value: string): void {
  update((e) => {
    const params = { ...e.params };
    if (value === "") delete params[key];
    else params[key] = value;
    return { ...e, params };
  });
}

/** Reads a number field: empty is unset; anything else goes to the core as typed (it names a bad value). */
export function numberOrUnset(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

export function setWorkload(change: Partial<WorkloadOptions>): void {
  update((e) => {
    const w: WorkloadOptions = { ...e.workload, ...change };
    for (const k of Object.keys(w) as (keyof WorkloadOptions)[]) if (w[k] === undefined) delete w[k];
    return { ...e, workload: w };
  });
}

export function setRepeat(repeat: number, seed: number): void {
  update((e) => ({ ...e, repeat, seed }));
}

export function setSweep(sweep: Sweep | undefined): void {
  update((e) => {
    const next = { ...e, sweep };
    if (!sweep) delete next.sweep;
    return next;
  });
}

/** Replaces the form's experiment (the demo's, a link's). */
export function setExperiment(experiment: Experiment): void {
  update(() => experiment);
}
