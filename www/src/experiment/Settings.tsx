// The workload options, repetitions and the sweep of the form's
// experiment. Values go to the core as typed; it names a bad one (shown
// next to Run).
import type { SweepValues } from "../generated/types";
import { form, scope, trace } from "../store";
import { Field } from "../ui";
import { numberOrUnset, setRepeat, setSweep, setWorkload } from "./form";

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
  if (!f) return null;
  const s = f.sweep;
  const range: { from: number; to: number; step: number } = s && !Array.isArray(s.values) ? s.values : { from: 0, to: 0, step: 1 };
  // The numeric parameters some run takes, with the core's first range for each.
  const params = scope.value?.sweepable ?? [];
  const set = (param: string, values: SweepValues) => setSweep(param ? { param, values } : undefined);
  const edit = (k: "from" | "to" | "step") => (e: { currentTarget: HTMLInputElement }) =>
    s && set(s.param, { ...range, [k]: Number(e.currentTarget.value) });
  return (
    <div class="row" id="sweep">
      <Field label="Sweep a parameter" note="every run that takes it, once per value">
        <select
          id="sweep-param"
          value={s?.param ?? ""}
          onChange={(e) => {
            const key = e.currentTarget.value;
            const offered = params.find((p) => p.spec.key === key);
            set(key, offered ? offered.values : range);
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
        <>
          <Field label="From">
            <input type="number" id="sweep-from" step="any" value={range.from} onChange={edit("from")} />
          </Field>
          <Field label="To">
            <input type="number" id="sweep-to" step="any" value={range.to} onChange={edit("to")} />
          </Field>
          <Field label="Step">
            <input type="number" id="sweep-step" step="any" value={range.step} onChange={edit("step")} />
          </Field>
        </>
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
      </details>
    </>
  );
}
