// The page's one store: signals for what the user set up and what ran,
// and the values derived from them by the core (which parameters reach
// which runs, whether the experiment can run and why not). Components read
// these; actions in the feature modules write them.
import { computed, signal } from "@preact/signals";
import { core, errorMessage } from "./core";
import type { Experiment, Registry, Scope, Summary, TraceRef } from "./generated/types";
import type { PresetRun } from "./presets/preset-run";
import type { ExperimentRun } from "./runs/experiment-run";
import { Pool } from "./worker/pool";

type NoteKind = "error" | "info" | "ok" | "warn";

/** A message shown in a status line. */
export interface Note {
  kind: NoteKind;
  text: string;
}

export interface LoadedTrace {
  bytes: ArrayBuffer;
  name: string;
  ref: TraceRef;
  summary: Summary;
}

/** A view of the results panel (a tab in results/ResultsPanel.tsx). */
export type ResultsView = "summary" | "schedule" | "glossary";

/** What the user selected for views of single runs and jobs: a pair of runs compared (summary rows), a job (by index). */
export interface Selection {
  runs: [number | null, number | null];
  job: number | null;
}

export const registry = signal<Registry | null>(null);
export const trace = signal<LoadedTrace | null>(null);
export const traceNote = signal<Note | null>(null);
/** A share link names a file the page does not have yet. */
export const pendingFile = signal<{ name: string; sha256: string } | null>(null);
export const banner = signal<Note | null>(null);
/** The experiment the form holds. */
export const form = signal<Experiment | null>(null);
/** Results of actions on the experiment (link copied, an export failed). */
export const formNote = signal<Note | null>(null);
export const experimentRun = signal<ExperimentRun | null>(null);
export const presetRun = signal<PresetRun | null>(null);
/** Bumped (at most once a frame) when a run's progress or results change. */
const tick = signal(0);
export const view = signal({ large: false, present: false });
export const resultsView = signal<ResultsView>("summary");
/** The selected run pair (result rows) and job, for the schedule view. */
export const selection = signal<Selection>({ runs: [null, null], job: null });
/** The share link last copied, shown for copying by hand. */
export const shareUrl = signal("");

/**
 * Subscribes a component to `tick`: runs and their results are mutable
 * objects, so a component that shows one re-renders on every tick (the
 * signals integration skips a component whose props did not change).
 */
export function useTick(): number {
  return tick.value;
}

let frame = 0;
/** Schedules one `tick` bump for the next frame. */
export function bump(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    tick.value++;
  });
}

export function reg(): Registry {
  const r = registry.value;
  if (!r) throw new Error("the registry is not loaded yet");
  return r;
}

export function theForm(): Experiment {
  const f = form.value;
  if (!f) throw new Error("the form is not set up yet");
  return f;
}

let thePool: Pool | null = null;
/** The page's run workers (created on first use, kept for the page's life). */
export function pool(): Pool {
  thePool ??= new Pool();
  return thePool;
}

/** Which parameters reach which runs of the form's experiment (the core's answer). */
export const scope = computed<Scope | null>(() => (form.value ? core().param_scope(form.value) : null));

/**
 * The experiment a click on Run starts: the form's, keeping the wait-time
 * ECDFs (for the ECDF figure), and only the shared parameters some run
 * takes (a knob no selected run takes is shown as unused, not sent).
 */
export const runnable = computed<Experiment | null>(() => {
  const f = form.value;
  const s = scope.value;
  if (!f || !s) return null;
  const taken = new Set(
    s.shared.filter((k) => k.reaches.length + k.overridden.length + k.ignored.length + k.swept.length > 0).map((k) => k.key),
  );
  const params = Object.fromEntries(Object.entries(f.params).filter(([k]) => taken.has(k)));
  return { ...f, params, wait_ecdf: true };
});

/** Why Run is disabled, or null when the experiment can run. */
export const blocked = computed<string | null>(() => {
  const want = pendingFile.value;
  if (!trace.value)
    return want ? `Choose the file "${want.name}" in section 1 first: the link was made with it.` : "Load a trace in section 1 first.";
  const e = runnable.value;
  if (!e) return "The form is not ready.";
  try {
    core().plan(e);
    return null;
  } catch (err) {
    return errorMessage(err);
  }
});
