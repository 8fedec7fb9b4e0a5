// The presets: every experiment of a paper the command line reproduces
// (`schedlab reproduce PRESET TRACE`), run on the loaded trace, with the
// section tables and the paper's figures, all made by the core.

import { signal } from "@preact/signals";
import { core, errorMessage } from "../core";
import type { Note } from "../store";
import { formNote, presetRun, trace, useTick } from "../store";
import { ChartFigure, download, NoteLine, Panel } from "../ui";
import { allPresets, cancelPreset, type PresetRun, presetJson, presetNotes, type SectionRun, startPreset } from "./preset-run";

const presetNote = signal<Note | null>(null);

/** Runs a preset (a button, or a share link naming it). */
export function runPreset(id: string): void {
  const why = startPreset(id);
  presetNote.value = why ? { kind: "error", text: why } : null;
}

function PresetList() {
  const t = trace.value;
  return (
    <div class="preset-list" id="preset-list">
      {allPresets().map((p) => {
        // The core's count: its plans know which runs a sweep reaches and which run once.
        const runs = core().preset_runs(p.id);
        const notes = t ? presetNotes(p, t.name) : [];
        return (
          <article class="preset" data-preset={p.id} key={p.id}>
            <header>
              <h3>{p.title}</h3>
              <button
                type="button"
                class="small"
                id={`preset-run-${p.id}`}
                disabled={!t}
                title={t ? undefined : "Load a trace in section 1 first."}
                aria-label={`Run the preset ${p.title}`}
                onClick={() => runPreset(p.id)}
              >
                Run
              </button>
            </header>
            <p class="desc">
              Reproduces {p.reproduces}.{" "}
              <span class="muted">
                {p.id} · {p.figures.length ? `${p.figures.length} figure${p.figures.length === 1 ? "" : "s"}` : "table"} · {runs} run
                {runs === 1 ? "" : "s"}
              </span>
            </p>
            {notes.map((n) => (
              <p class="muted note" key={n}>
                {n}
              </p>
            ))}
          </article>
        );
      })}
    </div>
  );
}

function SectionView(props: { run: PresetRun; s: SectionRun; index: number }) {
  useTick();
  const { s, index } = props;
  const e = s.execution;
  const done = e.finished.length;
  return (
    <div class="preset-section" data-section={index}>
      <h4>{s.section.title}</h4>
      <div class="row preset-progress">
        <progress max={1} value={e.fraction} aria-label={`progress of ${s.section.title}`} />
        <span class="status">
          {done} of {e.jobs.length} runs done{s.error ? ` — ${s.error}` : ""}
        </span>
      </div>
      {s.table ? (
        <div class="table-wrap">
          <table id={`preset-table-${index}`}>
            <thead>
              <tr>
                <th class="lbl" scope="col">
                  run
                </th>
                {s.table.sweep ? <th scope="col">{s.table.sweep}</th> : null}
                {s.table.columns.map((c, k) => (
                  <th scope="col" key={c.key} title={c.description}>
                    {s.table?.headers[k]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {s.table.rows.map((r) => (
                <tr key={`${r.run}/${r.value}`} data-label={r.label} data-title={r.title}>
                  <th class="lbl" scope="row" title={r.label}>
                    {r.title}
                  </th>
                  {s.table?.sweep ? <td>{r.value ?? "–"}</td> : null}
                  {r.cells.map((c, k) => (
                    <td key={s.table?.columns[k].key} data-path={s.table?.columns[k].key} data-mean={c.mean ?? ""}>
                      {c.text}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {s.figures.length ? (
        <div class="charts">
          {s.figures.map((f) => (
            <ChartFigure
              key={`${props.run.id}/${index}/${f.id}`}
              figure={f}
              file={`${props.run.traceName} ${props.run.preset.id}`}
              id={`preset-${index}-${f.id}`}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

function Results(props: { run: PresetRun }) {
  useTick();
  const run = props.run;
  const notes = presetNotes(run.preset, run.traceName);
  const exportJson = () => {
    try {
      download(core().download_name(run.traceName, run.preset.id, "reproduction", "json"), presetJson(run), "application/json");
    } catch (e) {
      formNote.value = { kind: "error", text: `The preset's JSON could not be written: ${errorMessage(e)}` };
    }
  };
  return (
    <div id="preset-results" data-complete={run.complete ? "1" : "0"} data-preset={run.preset.id}>
      <h3>{run.preset.title}</h3>
      <p class="muted">
        Reproduces {run.preset.reproduces} — on {run.traceName}.
      </p>
      {notes.length ? (
        <p class="msg info" id="preset-paper-note">
          {notes.join(" ")}
        </p>
      ) : null}
      {run.sections.map((s, i) => (
        <SectionView key={i} run={run} s={s} index={i} />
      ))}
      {run.complete ? (
        <div class="toolbar">
          <button type="button" id="preset-export-json" onClick={exportJson}>
            Preset result JSON
          </button>
        </div>
      ) : null}
    </div>
  );
}

export function PresetsPanel() {
  useTick();
  const run = presetRun.value;
  return (
    <Panel id="presets-panel" title="Presets: the papers' experiments">
      <p class="muted">
        Each preset reproduces a figure or table of a paper on the loaded trace, as `schedlab reproduce PRESET TRACE` does.
      </p>
      <PresetList />
      <div class="toolbar">
        <button type="button" id="preset-cancel" disabled={!run || run.complete} onClick={() => cancelPreset()}>
          Cancel preset
        </button>
      </div>
      <NoteLine id="preset-msg" note={presetNote.value} />
      {run ? <Results run={run} /> : null}
    </Panel>
  );
}
