// The machine the runs are on: the trace's processors, or a machine of
// nodes typed in the command line's `--nodes` form or read from a dropped
// slurm.conf. The core reads both (the command line's readers, so its
// messages and notes), and says what the field and its note show: the
// machine's `--nodes` text and a one-line summary. The machine travels in
// the experiment's workload options, so a share link carries it.
import { useState } from "preact/hooks";
import { core, errorMessage } from "../core";
import { form } from "../store";
import { Field } from "../ui";
import { setWorkload } from "./form";

const HINT = "the trace's processors; or nodes, e.g. 4x(cpu=16,mem=64G) or cpu:8x(cpu=32)+gpu:2x(cpu=32,gpu=4)";

export function MachineEditor() {
  const machine = form.value?.workload?.machine;
  // What the user typed while it does not read as a machine, with why.
  const [typed, setTyped] = useState<{ text: string; error: string } | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const shown = machine ? core().machine_text(machine) : null;
  const text = typed?.text ?? shown?.spec ?? "";
  const apply = (value: string) => {
    const spec = value.trim();
    setNotes([]);
    try {
      setWorkload({ machine: spec === "" ? undefined : core().machine_of_nodes(spec) });
      setTyped(null);
    } catch (e) {
      setTyped({ text: value, error: errorMessage(e) });
    }
  };
  const readConf = async (file: File) => {
    try {
      const read = core().machine_of_slurm_conf(await file.text(), file.name);
      setWorkload({ machine: read.machine });
      setNotes(read.notes);
      setTyped(null);
    } catch (e) {
      setTyped({ text, error: errorMessage(e) });
    }
  };
  const note = typed?.error ?? shown?.summary ?? HINT;
  return (
    <div class="row" id="machine">
      <Field label="Nodes" note={<span id="wl-nodes-note">{note}</span>} class={`grow ${typed ? "invalid" : ""}`}>
        <input
          type="text"
          id="wl-nodes"
          spellcheck={false}
          value={text}
          placeholder={shown && !shown.spec ? "from slurm.conf (no --nodes form)" : "processors"}
          aria-invalid={typed ? "true" : undefined}
          onChange={(e) => apply(e.currentTarget.value)}
        />
      </Field>
      <label class="field">
        <span class="lbl">or a slurm.conf</span>
        <input
          type="file"
          id="wl-slurm-conf"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) void readConf(file);
            e.currentTarget.value = "";
          }}
        />
      </label>
      {notes.length > 0 ? (
        <ul class="muted" id="wl-machine-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
