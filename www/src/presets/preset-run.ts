// Running a preset: each section is an experiment the core builds
// (`preset_experiment`, with the user's workload options), run in the same
// worker pool as the form's; the core summarises each section, prints its
// table (the section's columns) and draws the paper's figures, and writes
// the export exactly as `schedlab reproduce --json` does.
import { core, errorMessage } from "../core";
import type { Figure, Preset, Section, SummaryTable } from "../generated/types";
import { Execution } from "../runs/execution";
import { updateLocation } from "../share/link";
import { bump, presetRun, theForm, trace } from "../store";

export interface SectionRun {
  section: Section;
  execution: Execution;
  table: SummaryTable | null;
  figures: Figure[];
  error: string | null;
}

export interface PresetRun {
  id: number;
  preset: Preset;
  traceName: string;
  sections: SectionRun[];
  complete: boolean;
  error: string | null;
}

let serial = 0;
let presets: Preset[] | null = null;

export function allPresets(): Preset[] {
  presets ??= core().presets();
  return presets;
}

/** The core's notes beside a preset on the trace named `traceName`: the paper's machine size applied, another trace than the paper's. */
export function presetNotes(p: Preset, traceName: string): string[] {
  return core().preset_notes(p.id, traceName, theForm().workload);
}

function summarise(run: PresetRun, s: SectionRun, index: number): void {
  if (presetRun.value?.id !== run.id || !s.execution.settled) return;
  const failed = s.execution.failed;
  if (failed) s.error = failed.status === "cancelled" ? "cancelled" : `failed: ${failed.error ?? "error"}`;
  else {
    try {
      s.execution.summarise();
      if (s.execution.resultJson && s.execution.result) {
        s.table = core().summary_table(s.execution.resultJson, s.section.columns);
        s.figures = core().preset_figures(run.preset.id, index, s.execution.result);
      }
    } catch (e) {
      s.error = errorMessage(e);
    }
  }
  run.complete = run.sections.every((x) => x.execution.settled);
}

/** Starts preset `id` on the loaded trace (replacing a preset under way). */
export function startPreset(id: string): string | null {
  const p = allPresets().find((x) => x.id === id);
  const t = trace.value;
  if (!p) return `There is no preset "${id}".`;
  if (!t) return "Load a trace first.";
  presetRun.value?.sections.forEach((s) => {
    s.execution.cancel();
  });
  const run: PresetRun = { id: ++serial, preset: p, traceName: t.name, sections: [], complete: false, error: null };
  try {
    p.sections.forEach((section, index) => {
      const experiment = core().preset_experiment(p.id, index, theForm().workload, t.name);
      const plan = core().plan(experiment);
      // Points report from the workers, after `s` is set.
      let s: SectionRun | null = null;
      const execution = new Execution(experiment, plan, () => {
        if (s) summarise(run, s, index);
        bump();
      });
      s = { section, execution, table: null, figures: [], error: null };
      run.sections.push(s);
    });
  } catch (e) {
    for (const s of run.sections) s.execution.cancel();
    return `The preset could not be planned: ${errorMessage(e)}`;
  }
  presetRun.value = run;
  updateLocation(p.id);
  return null;
}

export function cancelPreset(): void {
  for (const s of presetRun.value?.sections ?? []) s.execution.cancel();
}

/** The preset's result as `schedlab reproduce --json` writes it. */
export function presetJson(run: PresetRun): string {
  return core().reproduction(
    run.preset.id,
    run.sections.map((s) => s.execution.resultJson ?? ""),
  );
}
