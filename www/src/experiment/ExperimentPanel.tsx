// Section 2: the policies to compare (one card each, a field per parameter
// the policy and its runtime source take), the global knobs, and what
// reaches which run: every note on a field is the core's answer
// (`param_scope`), never worked out here.

import { useState } from "preact/hooks";
import type { ParamSpec, ParamState, RunSpec, SharedScope } from "../generated/types";
import { form, formNote, reg, scope } from "../store";
import { Field, NoteLine, Panel } from "../ui";
import { FormulaField, isFormula } from "./FormulaField";
import { addPolicy, policy, removePolicy, setRunParam, setShared, setSource, useSourceEverywhere } from "./form";
import { RunBar } from "./RunBar";
import { Settings } from "./Settings";

function unit(spec: ParamSpec): string {
  return spec.unit ? ` (${spec.unit})` : "";
}

/** A field for a parameter: a list for a choice, a text box for text or
 *  "a number or a word" (checked by the core when the form is read), a
 *  number box otherwise. */
function ParamInput(props: {
  id: string;
  spec: ParamSpec;
  value: string;
  disabled?: boolean;
  placeholder?: string;
  onValue: (v: string) => void;
  live?: boolean;
}) {
  const s = props.spec;
  if (s.type === "choice")
    return (
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        title={s.description}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        {s.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  const handler = (e: { currentTarget: HTMLInputElement }) => props.onValue(e.currentTarget.value);
  if (s.type === "text" || s.type === "intor")
    return (
      <input
        type="text"
        id={props.id}
        value={props.value}
        maxLength={s.type === "text" ? s.max_len : undefined}
        placeholder={props.placeholder}
        disabled={props.disabled}
        title={s.description}
        onInput={props.live ? handler : undefined}
        onChange={props.live ? undefined : handler}
      />
    );
  return (
    <input
      type="number"
      id={props.id}
      value={props.value}
      min={s.min}
      max={s.max}
      step={s.type === "int" ? 1 : "any"}
      inputMode="decimal"
      placeholder={props.placeholder}
      disabled={props.disabled}
      title={s.description}
      onInput={props.live ? handler : undefined}
      onChange={props.live ? undefined : handler}
    />
  );
}

const FROM: Record<ParamState["from"], string> = {
  run: "",
  shared: "from the global knob; a value here overrides it",
  sweep: "swept",
  default: "",
};

function ParamField(props: { run: number; spec: RunSpec; state: ParamState }) {
  const { spec, value, from, matters, condition } = props.state;
  const own = props.spec.params[spec.key];
  // The core's words for the values it takes ("0–100 %", "0–1000000 or all").
  const range = props.state.range ?? "";
  const note = [FROM[from] || range, matters ? "" : `not used: ${condition ?? "with these values"}`].filter(Boolean).join("; ");
  return (
    <Field label={`${spec.name}${unit(spec)}`} note={note} class={matters ? "" : "unused"}>
      <ParamInput
        id={`p${props.run}-${spec.key}`}
        spec={spec}
        value={own ?? value ?? ""}
        disabled={from === "sweep"}
        onValue={(v) => setRunParam(props.run, spec.key, v)}
      />
    </Field>
  );
}

function Card(props: { index: number; run: RunSpec }) {
  const i = props.index;
  const p = policy(props.run.policy);
  const runScope = scope.value?.runs[i];
  if (!p) return null;
  return (
    <article class="card" aria-label={`${p.name} policy`} data-policy={p.id}>
      <header>
        <h3>
          {i + 1}. {p.name}
        </h3>
        <button type="button" class="small" id={`p${i}-remove`} aria-label={`Remove ${p.name}`} onClick={() => removePolicy(i)}>
          Remove
        </button>
      </header>
      <p class="desc">{p.description}</p>
      {p.uses_runtime_source ? (
        <Field label="Runtime source">
          <select id={`p${i}-source`} value={props.run.predictor ?? p.default_source} onChange={(e) => setSource(i, e.currentTarget.value)}>
            {reg().predictors.map((s) => (
              <option key={s.id} value={s.id} title={s.description}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      {runScope?.params.map((st) =>
        isFormula(p.id, st.spec.key) ? (
          <FormulaField key={st.spec.key} run={i} spec={props.run} state={st} />
        ) : (
          <ParamField key={st.spec.key} run={i} spec={props.run} state={st} />
        ),
      )}
      {runScope ? (
        <p class="muted run-label" title={runScope.label}>
          Name in the results: {runScope.title}
        </p>
      ) : null}
    </article>
  );
}

function names(runs: number[]): string {
  const s = scope.value;
  return runs.map((r) => s?.runs[r]?.title ?? `run ${r + 1}`).join(", ");
}

/** What a knob reaches, in words, from the core's scope. */
function KnobNote(props: { k: SharedScope }) {
  const k = props.k;
  const sources = k.sources.map((id) => reg().predictors.find((p) => p.id === id)).filter((x) => x !== undefined);
  const parts: string[] = [];
  if (k.reaches.length) parts.push(`applies to ${names(k.reaches)}`);
  if (k.overridden.length) parts.push(`overridden by the value of ${names(k.overridden)}`);
  for (const g of k.ignored) parts.push(`ignored by ${names([g.run])} (${g.why})`);
  if (k.swept.length) parts.push(`swept for ${names(k.swept)}`);
  if (!k.spec) parts.push("no policy has this parameter");
  else if (parts.length === 0 && sources.length === 0) parts.push("no selected policy takes it");
  // The switch to a runtime source is offered only while no run takes the knob in any way (a swept one is taken).
  const offer = sources.length > 0 && k.reaches.length + k.overridden.length + k.ignored.length + k.swept.length === 0;
  return (
    <small id={`knob-${k.key}-note`}>
      {parts.join("; ")}
      {offer ? (
        <>
          {parts.length ? "; " : ""}a policy takes it only with the {sources.map((s) => s.name).join(" or ")} runtime source.{" "}
          <button type="button" class="small" id={`knob-${k.key}-switch`} onClick={() => useSourceEverywhere(sources[0].id)}>
            Use {sources[0].name} for every policy
          </button>
        </>
      ) : null}
    </small>
  );
}

function Knobs() {
  const s = scope.value;
  const f = form.value;
  if (!s || !f) return null;
  const knobs = s.shared.filter((k) => reg().knobs.includes(k.key));
  return (
    <div class="row knobs" id="knobs">
      {knobs.map((k) => (
        <div class="field knob" key={k.key}>
          <label class="lbl" for={`knob-${k.key}`}>
            {k.spec ? `${k.spec.name}${unit(k.spec)}` : k.key}
          </label>
          {k.spec ? (
            <ParamInput
              id={`knob-${k.key}`}
              spec={k.spec}
              value={f.params[k.key] ?? ""}
              placeholder="per policy"
              live
              onValue={(v) => setShared(k.key, v)}
            />
          ) : null}
          <KnobNote k={k} />
        </div>
      ))}
    </div>
  );
}

function AddPolicy() {
  const [id, setId] = useState(reg().policies[0]?.id ?? "");
  return (
    <div class="row add-policy">
      <Field label="Policy to add">
        <select id="add-policy" value={id} onChange={(e) => setId(e.currentTarget.value)}>
          {reg().policies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" id="add-policy-btn" onClick={() => addPolicy(id)}>
        Add policy
      </button>
    </div>
  );
}

export function ExperimentPanel() {
  const f = form.value;
  return (
    <Panel id="experiment" title="2. Experiment">
      <h3>Policies</h3>
      <div class="cards" id="cards">
        {f?.runs.map((r, i) => (
          <Card key={`${i}-${r.policy}`} index={i} run={r} />
        ))}
      </div>
      <AddPolicy />
      <h3>Global knobs</h3>
      <p class="muted">
        A value here goes to every selected policy that takes the parameter (unless the card sets its own); leave it empty to use each
        policy's own.
      </p>
      <Knobs />
      <Settings />
      <RunBar />
      <NoteLine id="exp-msg" note={formNote.value} />
    </Panel>
  );
}
