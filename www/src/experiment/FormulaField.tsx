// The editor of a parameter whose value is a priority formula (composable
// backfilling's queue order): the text, the core's verdict under it as it
// is typed, a menu of the presets that fills the field, and the variables
// and functions with one line each. Every list and every check is the
// core's (`formula_language`, `formula_check`); nothing is parsed here.
import { useEffect, useId, useState } from "preact/hooks";
import { core } from "../core";
import type { FormulaLanguage, ParamState, RunSpec } from "../generated/types";
import { setRunParam } from "./form";

let language: FormulaLanguage | null = null;

/** How long typing pauses before the text is checked. */
const CHECK_AFTER_MS = 400;

/** The language's lists, read from the core once. */
function lang(): FormulaLanguage {
  language ??= core().formula_language();
  return language;
}

/** Whether the parameter `key` of `policy` takes a formula (the core says which). */
export function isFormula(policy: string, key: string): boolean {
  return lang().fields.some((f) => f.policy === policy && f.key === key);
}

/** What the line under the field says when the text is accepted. */
function verdict(text: string): { error: string | null; note: string } {
  const check = core().formula_check(text);
  if (check.error) return { error: check.error, note: "" };
  const preset = lang().presets.find((p) => p.name === check.preset);
  const scoring = check.rescored ? "scored again at every pass (it reads a time-dependent variable)" : "scored once per job";
  return { error: null, note: preset ? `${preset.title}: ${preset.source}; ${scoring}` : scoring };
}

function PresetMenu(props: { id: string; onPick: (name: string) => void }) {
  return (
    <select
      id={props.id}
      aria-label="Fill the order with a preset"
      value=""
      onChange={(e) => {
        const v = e.currentTarget.value;
        if (v) props.onPick(v);
      }}
    >
      <option value="">Presets…</option>
      {lang().presets.map((p) => (
        <option key={p.name} value={p.name} title={`${p.source} (${p.origin})`}>
          {p.name}: {p.title}
        </option>
      ))}
    </select>
  );
}

function Reference(props: { id: string }) {
  const l = lang();
  return (
    <details class="formula-ref" id={props.id}>
      <summary>Variables and functions</summary>
      <ul>
        {l.variables.map((v) => (
          <li key={v.name}>
            <code>{v.name}</code> {v.line}
          </li>
        ))}
      </ul>
      <ul>
        {l.functions.map((f) => (
          <li key={f.name}>{f.line}</li>
        ))}
      </ul>
      <p class="muted">
        Operators + − * / ^, comparisons, and, or, not. At most {l.max_length} characters. Ties go by submission, then job number.
      </p>
    </details>
  );
}

export function FormulaField(props: { run: number; spec: RunSpec; state: ParamState }) {
  const { spec, from } = props.state;
  const id = `p${props.run}-${spec.key}`;
  const own = props.spec.params[spec.key] ?? "";
  const fallback = spec.type === "text" ? spec.default : "";
  // The verdict of the text as it stood when typing paused, so that a
  // valid formula does not flash an error at every keystroke on its way.
  const [paused, setPaused] = useState(own || fallback);
  useEffect(() => {
    const timer = window.setTimeout(() => setPaused(own || fallback), CHECK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [own, fallback]);
  const { error, note } = verdict(paused);
  const noteId = useId();
  const preset = lang().presets.find((p) => p.name === own.trim());
  return (
    <div class="field formula">
      <label class="lbl" for={id}>
        {spec.name}
      </label>
      <input
        type="text"
        id={id}
        class={error ? "invalid" : ""}
        value={own}
        placeholder={fallback}
        maxLength={lang().max_length}
        spellcheck={false}
        autocomplete="off"
        aria-invalid={error ? "true" : "false"}
        aria-describedby={noteId}
        disabled={from === "sweep"}
        onInput={(e) => setRunParam(props.run, spec.key, e.currentTarget.value)}
      />
      <small id={noteId} class={error ? "formula-error" : ""} data-role={error ? "error" : "note"} role={error ? "alert" : undefined}>
        {error ?? note}
      </small>
      <div class="formula-row">
        <PresetMenu id={`${id}-preset`} onPick={(name) => setRunParam(props.run, spec.key, name)} />
        {preset ? (
          <button type="button" class="small" id={`${id}-edit`} onClick={() => setRunParam(props.run, spec.key, preset.source)}>
            Edit {preset.name}'s formula
          </button>
        ) : null}
      </div>
      <Reference id={`${id}-ref`} />
    </div>
  );
}
