// The workload options, repetitions and the sweep of the form's
// experiment. Values go to the core as typed; it names a bad one (shown
// next to Run).
import { useState } from "preact/hooks";
import { core, errorMessage } from "../core";
import type { SweepValues } from "../generated/types";
import { form, scope, trace } from "../store";
import { Field } from "../ui";
import { numberOrUnset, setRepeat, setSweep, setWorkload } from "./form";
import { MachineEditor } from "./MachineEditor";

function num(x: number | undefined): string {
  return x === undefined ? "" : String(x);
}

function Workload() {
  const w = form.value?.workload ?? {};
  const procs = trace.value?.summary.identity.procs;
  const first = typeof w.window === "object" && "first_jobs" in w.window ? w.window.first_jobs : undefined;
  return (
    <div class="row" id="workload">
      <Field label="Machine size" note="overrides the header">
        <input
          type="number"
          id="wl-machine"
          min={1}
          step={1}
          value={num(w.machine_size)}
          placeholder={procs ? `trace: ${procs}` : "from the header"}
          onChange={(e) => setWorkload({ machine_size: numberOrUnset(e.currentTarget.value) })}
        />
      </Field>
      <Field label="Load factor" note="divides inter-arrival times">
        <input
          type="number"
          id="wl-load"
          min={0.01}
          step="any"
          value={num(w.load_factor)}
          placeholder="1"
          onChange={(e) => setWorkload({ load_factor: numberOrUnset(e.currentTarget.value) })}
        />
      </Field>
      <Field label="Window: first N jobs">
        <input
          type="number"
          id="wl-first"
          min={1}
          step={1}
          value={num(first)}
          placeholder="all jobs"
          onChange={(e) => {
            const n = numberOrUnset(e.currentTarget.value);
            setWorkload({ window: n === undefined ? undefined : { first_jobs: n } });
          }}
        />
      </Field>
      <Field label="Queue filter" note="queue numbers, e.g. 1,3">
        <input
          type="text"
          id="wl-queues"
          inputMode="numeric"
          value={(w.queues ?? []).join(",")}
          placeholder="all queues"
          onChange={(e) => {
            const t = e.currentTarget.value.trim();
            setWorkload({
              queues:
                t === ""
                  ? undefined
                  : t
                      .split(/[\s,]+/)
                      .filter(Boolean)
                      .map(Number),
            });
          }}
        />
      </Field>
      <label class="field">
        <span class="lbl">Oversized jobs</span>
        <span>
          <input
            type="checkbox"
            id="wl-clamp"
            checked={w.oversize === "clamp"}
            onChange={(e) => setWorkload({ oversize: e.currentTarget.checked ? "clamp" : undefined })}
          />{" "}
          run on the whole machine
        </span>
      </label>
    </div>
  );
}

function Repetitions() {
  const f = form.value;
  if (!f) return null;
  return (
    <div class="row">
      <Field label="Repetitions" note="repetition i uses seed + i">
        <input
          type="number"
          id="reps"
          min={1}
          step={1}
          value={f.repeat}
          onChange={(e) => setRepeat(Number(e.currentTarget.value), f.seed)}
        />
      </Field>
      <Field label="Seed" note="seeds every random draw">
        <input
          type="number"
          id="seed"
          min={0}
          step={1}
          value={f.seed}
          onChange={(e) => setRepeat(f.repeat, Number(e.currentTarget.value))}
        />
      </Field>
    </div>
  );
}

function Sweep() {
  const f = form.value;
  const s = f?.sweep;
  const [typed, setTyped] = useState<{ text: string; error: string | null } | null>(null);
  if (!f) return null;
  // The numeric parameters some run takes, with the core's first values for each (a depth's list ends in `all`).
  const params = scope.value?.sweepable ?? [];
  const set = (param: string, values: SweepValues) => setSweep(param ? { param, values } : undefined);
  // What the field shows: the text being typed, or the sweep's values as the core writes them.
  const text = typed?.text ?? (s ? core().sweep_text(s.values) : "");
  const edit = (value: string) => {
    if (!s) return;
    try {
      set(s.param, core().sweep_values(s.param, value));
      setTyped(null);
    } catch (e) {
      setTyped({ text: value, error: errorMessage(e) });
    }
  };
  return (
    <div class="row" id="sweep">
      <Field label="Sweep a parameter" note="every run that takes it, once per value">
        <select
          id="sweep-param"
          value={s?.param ?? ""}
          onChange={(e) => {
            const key = e.currentTarget.value;
            const offered = params.find((p) => p.spec.key === key);
            setTyped(null);
            set(key, offered ? offered.values : (s?.values ?? { from: 0, to: 0, step: 1 }));
          }}
        >
          <option value="">no sweep</option>
          {params.map(({ spec }) => (
            <option key={spec.key} value={spec.key}>
              {spec.name}
            </option>
          ))}
        </select>
      </Field>
      {s ? (
        <Field label="Values" note={typed?.error ?? "from:to:step, or a list: 0,1,2,4,8,all"} class={typed?.error ? "invalid" : ""}>
          <input
            type="text"
            id="sweep-values"
            spellcheck={false}
            value={text}
            aria-invalid={typed?.error ? "true" : undefined}
            onChange={(e) => edit(e.currentTarget.value)}
          />
        </Field>
      ) : null}
    </div>
  );
}

export function Settings() {
  return (
    <>
      <h3>Sweep and repetitions</h3>
      <Sweep />
      <Repetitions />
      <details class="workload-box" id="workload-options">
        <summary>Workload options</summary>
        <Workload />
        <MachineEditor />
      </details>
    </>
  );
}
