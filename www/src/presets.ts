// The presets panel: every preset of the core (`presets()`, the list
// `schedlab reproduce` runs), one click each on the loaded trace. The core
// plans each section (`plan`), the points run in the worker pool, the core
// aggregates them (`experiment_result`), and the page draws the section's
// table and the figure the way the paper does. No preset is named here.
import * as charts from "./charts";
import type { ChartModel } from "./charts";
import { append, byId, clear, download, h } from "./dom";
import { Pool, type RunJob } from "./pool";
import type { RunDocument, RunRequest, Summary, WorkloadOptions } from "./types";
import { errorMessage, loadCore } from "./wasm";

export interface PresetColumn {
  label: string;
  path: string;
}

export interface PresetExperiment {
  runs: string[];
  params: [string, string][];
  repeat: number;
  seed: number;
  sweep: { param: string; values: string[] } | null;
}

export interface PresetSection {
  title: string;
  runs: string[];
  sweep: [string, string[]] | null;
  repeat: number;
  load_factor: number;
  columns: PresetColumn[];
  experiment: PresetExperiment;
}

export type FigureKind = "bars" | "curves" | "categories" | "table";

export interface Preset {
  id: string;
  title: string;
  reproduces: string;
  figure: FigureKind;
  seed_traces: [string, number][];
  sections: PresetSection[];
}

interface PlanPoint {
  index: number;
  run: number;
  value: number | null;
  seed: number;
  request: RunRequest;
}

interface Plan {
  labels: string[];
  points: PlanPoint[];
}

interface SummaryRow {
  run: number;
  label: string;
  value: string | null;
  seeds: number[];
  mean: unknown;
  ci95: unknown;
}

export interface ExperimentResult {
  schema: string;
  labels: string[];
  trace: Summary["identity"];
  summary: SummaryRow[];
  [k: string]: unknown;
}

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

/** Whether the seed used this trace (its name starts with one of the seed's prefixes). */
function seedTrace(p: Preset, name: string): boolean {
  const n = name.toUpperCase();
  return p.seed_traces.some(([prefix]) => n.startsWith(prefix.toUpperCase()));
}

function seedNote(p: Preset, name: string): string | null {
  if (seedTrace(p, name)) return null;
  const used = p.seed_traces.map(([t, procs]) => (procs ? `${t} (${procs} processors)` : t)).join(", ");
  return `The seed used ${used}, not ${name}: expect other numbers than the paper's.`;
}

export async function initPresets(h0: PresetHost): Promise<HTMLElement> {
  host = h0;
  const core = await loadCore();
  presets = core.presets() as Preset[];
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
        h("p", { class: "desc" }, `Reproduces ${p.reproduces}. `, h("span", { class: "muted" }, `${p.id} · ${p.figure} · ${runs} run${runs === 1 ? "" : "s"}`)),
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
  section: PresetSection;
  plan: Plan;
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
  const userLoad = base.load_factor ?? 1;
  const runs: SectionRun[] = [];
  try {
    p.sections.forEach((section, si) => {
      const plan = core.plan(section.experiment) as Plan;
      const bar = h("progress", { max: 1, value: 0, "aria-label": `progress of ${section.title}` });
      const status = h("span", { class: "status" }, "queued");
      const box = h(
        "div",
        { class: "preset-section", "data-section": si },
        h("h4", {}, section.title),
        h("div", { class: "row preset-progress" }, bar, status),
      );
      out.appendChild(box);
      const options: WorkloadOptions = { ...base };
      if (section.load_factor !== 1 || base.load_factor !== undefined) options.load_factor = userLoad * section.load_factor;
      const sr: SectionRun = { section, plan, jobs: [], result: null, box, bar, status };
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
        const sweepKey = section.experiment.sweep?.param ?? null;
        const config = {
          entry: pt.run,
          label: plan.labels[pt.run],
          sweepKey,
          sweepValue: pt.value === null ? null : Number(section.experiment.sweep?.values[pt.value]),
          rep: pt.seed - section.experiment.seed,
          request: pt.request,
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
      const points = sr.plan.points.map((pt, i) => {
        const doc = sr.jobs[i].doc as RunDocument;
        return { index: pt.index, run: pt.run, value: pt.value, seed: pt.seed, events: doc.events, metrics: doc.metrics };
      });
      const identity = (sr.jobs[0].doc as RunDocument).trace;
      sr.result = core.experiment_result(sr.section.experiment, identity, points) as ExperimentResult;
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
  const sweep = section.experiment.sweep;
  const id = result.trace;
  sr.status.textContent = `${sr.jobs.length} runs done · ${id.jobs.toLocaleString("en")} jobs, ${id.procs} processors, load factor ${id.options?.load_factor ?? section.load_factor}`;
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
        ...section.columns.map((c) => h("th", { scope: "col", "data-path": c.path }, c.label)),
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
            const mean = num(metricAt(row.mean, c.path));
            const half = num(metricAt(row.ci95, c.path));
            return h(
              "td",
              { "data-path": c.path, "data-mean": mean === null ? "" : String(mean), "data-ci": half === null ? "" : String(half), title: mean === null ? "" : String(mean) },
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
  const models = figureModels(p.figure, section, result);
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

const interval = (mean: number | null, half: number | null, repeated: boolean): [number, number] | null =>
  repeated && mean !== null && half !== null ? [mean - half, mean + half] : null;

/**
 * Run labels short enough for an axis: `KEY=VALUE` parts that two or more
 * labels share (`mode=checkpoint`) are left out, the rest joined by spaces
 * (`pv-easy:mode=checkpoint,cost=60` → `pv-easy cost=60`).
 */
export function shortLabels(labels: string[]): string[] {
  const parts = labels.map((l) => l.split(/[:,]/).filter(Boolean));
  const count = new Map<string, number>();
  for (const ps of parts) for (const t of new Set(ps.slice(1))) count.set(t, (count.get(t) ?? 0) + 1);
  const shared = (t: string) => t.includes("=") && (count.get(t) ?? 0) >= 2 && parts.filter((ps) => ps.length > 1).every((ps) => ps.includes(t));
  return parts.map((ps, i) => {
    const kept = [ps[0], ...ps.slice(1).filter((t) => !shared(t))];
    return kept.join(" ") || labels[i];
  });
}

/** The section's figure as the paper draws it, from the existing chart kinds. */
export function figureModels(kind: FigureKind, section: PresetSection, r: ExperimentResult): ChartModel[] {
  const repeated = section.repeat > 1;
  const cols = section.columns;
  if (kind === "table" || cols.length === 0) return [];
  if (kind === "curves" && section.experiment.sweep) {
    const param = section.experiment.sweep.param;
    return cols.slice(0, 2).map((c) => ({
      kind: "sweep",
      title: `${c.label} vs ${param}${repeated ? " (95 % intervals)" : ""}`,
      x_label: param,
      y_label: c.label,
      lines: shortLabels(r.labels).map((label, run) => ({
        name: label,
        points: r.summary
          .filter((row) => row.run === run && row.value !== null)
          .map((row) => {
            const mean = num(metricAt(row.mean, c.path));
            const iv = interval(mean, num(metricAt(row.ci95, c.path)), repeated);
            return { x: Number(row.value), y: mean ?? Number.NaN, low: iv ? iv[0] : null, high: iv ? iv[1] : null };
          })
          .filter((pt) => Number.isFinite(pt.x) && Number.isFinite(pt.y)),
      })),
    }));
  }
  if (kind === "categories") {
    // columns `GROUP METRIC` (e.g. "SN BSD") grouped by metric; % change of
    // every run relative to the section's first run, negative = better
    const byMetric = new Map<string, PresetColumn[]>();
    for (const c of cols) {
      const metric = c.label.includes(" ") ? c.label.slice(c.label.indexOf(" ") + 1) : c.label;
      byMetric.set(metric, [...(byMetric.get(metric) ?? []), c]);
    }
    const rows = r.summary.filter((row) => row.value === null || row.value === r.summary[0].value);
    const baseRow = rows.find((row) => row.run === 0);
    if (!baseRow) return [];
    return [...byMetric].map(([metric, mc]) => ({
      kind: "bars",
      title: `${metric}: % change relative to ${baseRow.label} (negative = better)`,
      x_label: "category",
      y_label: `% change of ${metric}`,
      groups: mc.map((c) => (c.label.includes(" ") ? c.label.slice(0, c.label.indexOf(" ")) : c.label)),
      series: rows
        .filter((row) => row.run !== 0)
        .map((row) => ({
          name: shortLabels(r.labels)[row.run],
          values: mc.map((c) => {
            const b = num(metricAt(baseRow.mean, c.path));
            const v = num(metricAt(row.mean, c.path));
            return b !== null && v !== null && b !== 0 ? (100 * (v - b)) / b : null;
          }),
        })),
    }));
  }
  // bars (and curves without a sweep): runs as groups, the first columns as
  // series; columns of very different magnitude get a chart each
  const first = cols.slice(0, 2);
  const rows = r.summary;
  const magnitude = (c: PresetColumn) => Math.max(...rows.map((row) => Math.abs(num(metricAt(row.mean, c.path)) ?? 0)));
  const [m0, m1] = first.map(magnitude);
  const together = first.length < 2 || (m0 > 0 && m1 > 0 && Math.max(m0, m1) / Math.min(m0, m1) <= 10);
  const sets = together ? [first] : first.map((c) => [c]);
  const short = shortLabels(r.labels);
  const groups = rows.map((row) => (row.value === null ? short[row.run] : `${short[row.run]} ${section.experiment.sweep?.param}=${row.value}`));
  return sets.map((set) => ({
    kind: "bars",
    title: `${set.map((c) => c.label).join(" and ")} per run${repeated ? " (95 % intervals)" : ""}`,
    x_label: "run",
    y_label: set.length === 1 ? set[0].label : "",
    groups,
    series: set.map((c) => ({
      name: c.label,
      values: rows.map((row) => num(metricAt(row.mean, c.path))),
      intervals: repeated ? rows.map((row) => interval(num(metricAt(row.mean, c.path)), num(metricAt(row.ci95, c.path)), true)) : null,
    })),
  }));
}

/** (Re)draws the preset figures (after a run, a resize, a view change). */
export async function drawPresetCharts(large = false): Promise<void> {
  await charts.drawAll(charted, large);
}
