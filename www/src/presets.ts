// The presets panel: every preset of the core (`presets()`, the list
// `schedlab reproduce` runs), one click each on the loaded trace. The core
// plans each section (`plan`), the points run in the worker pool, the core
// aggregates them (`experiment_result`), and the page draws the section's
// table and the figure the way the paper does. No preset is named here.
import * as charts from "./charts";
import type { ChartModel } from "./charts";
import { append, byId, clear, download, h } from "./dom";
import { Pool, type RunJob } from "./pool";
import type * as G from "./generated/types";
import type { Summary, WorkloadOptions } from "./types";
import { errorMessage, loadCore } from "./wasm";

type Preset = G.Preset;
type ExperimentResult = G.ExperimentResult;

/** What the panel needs from the page. */
export interface PresetHost {
  trace(): { bytes: ArrayBuffer; name: string; summary: Summary } | null;
  /** the user's workload options (their load factor multiplies the section's) */
  workload(): WorkloadOptions;
  concurrency: number;
  /** the share link of the page with this preset */
  link(presetId: string): string;
  /** runs a preset (the page also records it in its link) */
  run(presetId: string): Promise<void>;
}

let presets: Preset[] = [];
let wasm: Awaited<ReturnType<typeof loadCore>> | null = null;
let columns: G.Column[] = [];
let host: PresetHost;
let pool: Pool | null = null;
let charted: { id: string; model: ChartModel }[] = [];
let runSeq = 0;

export function presetIds(): string[] {
  return presets.map((p) => p.id);
}

export function findPreset(id: string): Preset | undefined {
  return presets.find((p) => p.id === id);
}

/** Follows a dotted path (`fairness.delayed`, `categories.0.mbs`). */
export function metricAt(doc: unknown, path: string): unknown {
  let v: unknown = doc;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = Array.isArray(v) ? v[Number(part)] : (v as Record<string, unknown>)[part];
  }
  return v;
}

function num(x: unknown): number | null {
  return typeof x === "number" && Number.isFinite(x) ? x : null;
}

/** As `schedlab reproduce` prints a cell: integers whole, others with 3 decimals. */
export function formatCell(mean: number | null, half: number | null, repeated: boolean): string {
  if (mean === null) return "–";
  if (repeated) return `${mean.toFixed(3)} ± ${(half ?? 0).toFixed(3)}`;
  return Number.isInteger(mean) ? mean.toFixed(0) : mean.toFixed(3);
}

/** Whether the paper used this trace (its name starts with one of the paper's prefixes). */
function paperTrace(p: Preset, name: string): boolean {
  const n = name.toUpperCase();
  return p.paper_traces.some(([prefix]) => n.startsWith(prefix.toUpperCase()));
}

function seedNote(p: Preset, name: string): string | null {
  if (paperTrace(p, name)) return null;
  const used = p.paper_traces.map(([t, procs]) => (procs ? `${t} (${procs} processors)` : t)).join(", ");
  return `The paper used ${used}, not ${name}: expect other numbers than the paper's.`;
}

/** A column's label from the core's catalogue. */
function columnLabel(path: string): string {
  const c = columns.find((x) => x.key === path);
  return c ? (c.unit ? `${c.label} (${c.unit})` : c.label) : path;
}

export async function initPresets(h0: PresetHost): Promise<HTMLElement> {
  host = h0;
  const core = await loadCore();
  wasm = core;
  presets = core.presets();
  columns = core.registry().columns;
  const list = h("div", { class: "preset-list", id: "preset-list" });
  const cancel = h("button", { type: "button", id: "preset-cancel", disabled: true }, "Cancel preset");
  cancel.addEventListener("click", () => pool?.cancelAll());
  const panel = h(
    "section",
    { class: "panel", id: "presets-panel", "aria-labelledby": "presets-h" },
    h("h2", { id: "presets-h" }, "Presets: the papers' experiments"),
    h("p", { class: "muted" }, "Each preset reproduces a figure or table of a paper on the loaded trace, as `schedlab reproduce PRESET TRACE` does."),
    list,
    h("div", { class: "toolbar" }, cancel),
    h("div", { id: "preset-msg", class: "msg", role: "status", "aria-live": "polite", hidden: true }),
    h("div", { id: "preset-results" }),
  );
  renderList(list);
  return panel;
}

/** Re-renders the list's notes (the loaded trace changed). */
export function presetsTraceChanged(): void {
  const list = document.getElementById("preset-list");
  if (list) renderList(list);
}

function renderList(list: HTMLElement): void {
  clear(list);
  const t = host.trace();
  for (const p of presets) {
    const btn = h("button", { type: "button", class: "small", id: `preset-run-${p.id}`, "data-preset": p.id, disabled: !t }, "Run");
    btn.addEventListener("click", () => void host.run(p.id));
    const note = t ? seedNote(p, t.name) : null;
    const runs = p.sections.reduce((n, s) => n + s.runs.length * (s.sweep ? s.sweep[1].length : 1) * s.repeat, 0);
    list.appendChild(
      h(
        "article",
        { class: "preset", "data-preset": p.id },
        h("header", {}, h("h3", {}, p.title), btn),
        h("p", { class: "desc" }, `Reproduces ${p.reproduces}. `, h("span", { class: "muted" }, `${p.id} · ${p.figures.length ? `${p.figures.length} figure${p.figures.length === 1 ? "" : "s"}` : "table"} · ${runs} run${runs === 1 ? "" : "s"}`)),
        note ? h("p", { class: "muted note" }, note) : null,
      ),
    );
  }
}

function msg(kind: "error" | "info" | "ok", text: string): void {
  const el = byId("preset-msg");
  el.hidden = !text;
  el.className = `msg ${kind}`;
  el.textContent = text;
}

interface SectionRun {
  section: G.Section;
  experiment: G.Experiment;
  plan: G.PlanView;
  jobs: RunJob[];
  result: ExperimentResult | null;
  box: HTMLElement;
  bar: HTMLProgressElement;
  status: HTMLElement;
}

/** Runs a preset on the loaded trace; resolves when every section is shown. */
export async function runPreset(id: string): Promise<void> {
  const p = findPreset(id);
  const t = host.trace();
  if (!p) return msg("error", `Unknown preset "${id}".`);
  if (!t) return msg("error", "Load a trace first.");
  const seq = ++runSeq;
  pool?.dispose();
  pool = new Pool(host.concurrency);
  const myPool = pool;
  const core = await loadCore();
  const out = byId("preset-results");
  clear(out);
  out.dataset.complete = "0";
  out.dataset.preset = p.id;
  charted = [];
  msg("info", "");
  const cancel = byId<HTMLButtonElement>("preset-cancel");
  cancel.disabled = false;
  const note = seedNote(p, t.name);
  append(out, [
    h("h3", {}, `${p.title}`),
    h("p", { class: "muted" }, `Reproduces ${p.reproduces} — on ${t.name}.`),
    note ? h("p", { class: "msg info", id: "preset-seed-note" }, note) : null,
  ]);
  const base = host.workload();
  const runs: SectionRun[] = [];
  try {
    p.sections.forEach((section, si) => {
      const experiment = core.preset_experiment(p.id, si, base);
      const plan = core.plan(experiment);
      const bar = h("progress", { max: 1, value: 0, "aria-label": `progress of ${section.title}` });
      const status = h("span", { class: "status" }, "queued");
      const box = h(
        "div",
        { class: "preset-section", "data-section": si },
        h("h4", {}, section.title),
        h("div", { class: "row preset-progress" }, bar, status),
      );
      out.appendChild(box);
      const options: WorkloadOptions = experiment.workload;
      const sr: SectionRun = { section, experiment, plan, jobs: [], result: null, box, bar, status };
      const update = () => {
        let done = 0;
        let frac = 0;
        for (const j of sr.jobs) {
          if (j.status === "done") done += 1;
          else if (j.status === "running" && j.progress && j.progress.jobs > 0) frac += j.progress.completed / j.progress.jobs;
        }
        sr.bar.value = (done + frac) / Math.max(1, sr.jobs.length);
        const failed = sr.jobs.filter((j) => j.status === "error" || j.status === "cancelled").length;
        sr.status.textContent = `${done} of ${sr.jobs.length} runs done${failed ? `, ${failed} failed or cancelled` : ""}`;
      };
      for (const pt of plan.points) {
        const config = {
          entry: pt.run,
          label: plan.labels[pt.run],
          sweepKey: experiment.sweep?.param ?? null,
          sweepValue: pt.value,
          rep: pt.seed - experiment.seed,
          request: { policy: experiment.runs[pt.run].policy },
          point: { experiment, index: pt.index },
        };
        sr.jobs.push(myPool.submit(config, { bytes: t.bytes, name: t.name }, options, update));
      }
      runs.push(sr);
    });
  } catch (e) {
    myPool.dispose();
    cancel.disabled = true;
    return msg("error", `The preset could not be planned: ${errorMessage(e)}`);
  }
  // every section's points are queued; show each section as it completes
  for (const sr of runs) {
    await whenSettled(sr.jobs);
    if (seq !== runSeq) return;
    const failed = sr.jobs.find((j) => j.status !== "done");
    if (failed) {
      sr.status.textContent = failed.status === "cancelled" ? "cancelled" : `failed: ${failed.error ?? "error"}`;
      sr.box.appendChild(h("p", { class: "msg error" }, `${sr.section.title}: ${failed.status === "cancelled" ? "cancelled" : `${failed.config.label}: ${failed.error ?? "failed"}`}`));
      continue;
    }
    try {
      const points = sr.jobs.map((j) => j.point).filter((x): x is G.PointResult => x !== null);
      const identity = sr.jobs[0].identity;
      if (!identity) throw new Error("no trace identity");
      sr.result = core.experiment_result(sr.experiment, identity, points);
      renderSection(p, sr, runs.indexOf(sr));
    } catch (e) {
      sr.box.appendChild(h("p", { class: "msg error" }, `${sr.section.title}: ${errorMessage(e)}`));
    }
  }
  if (seq !== runSeq) return;
  cancel.disabled = true;
  const exportJson = h("button", { type: "button", id: "preset-export-json" }, "Preset result JSON");
  exportJson.addEventListener("click", () => {
    const doc = {
      preset: p,
      link: host.link(p.id),
      sections: runs.map((sr) => ({ title: sr.section.title, load_factor: sr.section.load_factor, result: sr.result })),
    };
    download(`schedlab-${p.id}.json`, JSON.stringify(doc, null, 2), "application/json");
  });
  out.appendChild(h("div", { class: "toolbar" }, h("span", { class: "lbl" }, "Export:"), exportJson));
  await drawPresetCharts();
  myPool.dispose();
  out.dataset.complete = "1";
}

function whenSettled(jobs: RunJob[]): Promise<void> {
  const settled = () => jobs.every((j) => j.status === "done" || j.status === "error" || j.status === "cancelled");
  return new Promise((resolve) => {
    const tick = () => (settled() ? resolve() : setTimeout(tick, 100));
    tick();
  });
}

function renderSection(p: Preset, sr: SectionRun, si: number): void {
  const { section, result } = sr;
  if (!result) return;
  const repeated = section.repeat > 1;
  const sweep = sr.experiment.sweep;
  const id = result.trace;
  sr.status.textContent = `${sr.jobs.length} runs done · ${id.jobs.toLocaleString("en")} jobs, ${id.procs} processors, load factor ${id.options.load_factor}`;
  const table = h(
    "table",
    { class: "preset-table", id: `preset-table-${si}` },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { class: "lbl", scope: "col" }, "run"),
        sweep ? h("th", { scope: "col" }, sweep.param) : null,
        ...section.columns.map((c) => h("th", { scope: "col", "data-path": c }, columnLabel(c))),
      ),
    ),
    h(
      "tbody",
      {},
      ...result.summary.map((row) =>
        h(
          "tr",
          { "data-label": row.label, "data-value": row.value ?? "" },
          h("th", { class: "lbl", scope: "row" }, row.label),
          sweep ? h("td", {}, row.value ?? "") : null,
          ...section.columns.map((c) => {
            const mean = num(metricAt(row.mean, c));
            const half = num(metricAt(row.ci95, c));
            return h(
              "td",
              { "data-path": c, "data-mean": mean === null ? "" : String(mean), "data-ci": half === null ? "" : String(half), title: mean === null ? "" : String(mean) },
              formatCell(mean, half, repeated),
            );
          }),
        ),
      ),
    ),
  );
  sr.box.appendChild(
    h(
      "p",
      { class: "muted caption" },
      repeated ? `Mean ± 95 % interval half-width over ${section.repeat} repetitions.` : "One run per configuration; times in seconds.",
    ),
  );
  sr.box.appendChild(h("div", { class: "table-wrap" }, table));
  const models: ChartModel[] = wasm ? wasm.preset_figures(p.id, si, result).map((f) => f.spec) : [];
  if (!models.length) return;
  const wrap = h("div", { class: "charts" });
  models.forEach((model, k) => {
    const cid = `preset-chart-${si}-${k}`;
    charted.push({ id: cid, model });
    const canvas = h("canvas", { id: cid, class: "preset-chart", role: "img", "aria-label": model.title });
    const svgBtn = h("button", { type: "button", class: "small", "data-export": "svg", "aria-label": `${model.title}: save as SVG` }, "SVG");
    const pngBtn = h("button", { type: "button", class: "small", "data-export": "png", "aria-label": `${model.title}: save as PNG` }, "PNG");
    svgBtn.addEventListener("click", async () => {
      try {
        download(`${p.id}-${si + 1}-${k + 1}.svg`, await charts.svg(model, 1200, 750), "image/svg+xml");
      } catch (e) {
        msg("error", `SVG export failed: ${errorMessage(e)}`);
      }
    });
    pngBtn.addEventListener("click", async () => {
      try {
        download(`${p.id}-${si + 1}-${k + 1}.png`, await charts.png(canvas), "image/png");
      } catch (e) {
        msg("error", `PNG export failed: ${errorMessage(e)}`);
      }
    });
    wrap.appendChild(h("figure", { class: "chart" }, h("figcaption", {}, h("span", {}, model.title), h("span", {}, svgBtn, " ", pngBtn)), canvas));
  });
  sr.box.appendChild(wrap);
}

/** (Re)draws the preset figures (after a run, a resize, a view change). */
export async function drawPresetCharts(large = false): Promise<void> {
  await charts.drawAll(charted, large);
}
