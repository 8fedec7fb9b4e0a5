// The playground page. Everything the user or a link supplies is untrusted:
// it is validated and only ever shown through textContent (see dom.ts).
import "./style.css";
import * as charts from "./charts";
import type { ChartModel } from "./charts";
import { append, byId, clear, download, h } from "./dom";
import {
  defaultEntry,
  type Experiment,
  emptyWorkload,
  entryParams,
  expand,
  findPolicy,
  GLOBAL_KNOBS,
  knobUsers,
  MAX_REPS,
  type PolicyEntry,
  type RunConfig,
  type TraceRef,
  workloadOptions,
} from "./experiment";
import { getTrace, listTraces, putTrace } from "./idb";
import { oneShot, Pool, type RunJob } from "./pool";
import { drawPresetCharts, initPresets, presetIds, presetsTraceChanged, runPreset } from "./presets";
import { SAMPLES, sampleIds } from "./samples";
import { decodeExperiment, encodeExperiment, LinkError } from "./share";
import { estimate, useQuantile } from "./stats";
import type { ParamSpec, Registry, RunDocument, Summary } from "./types";
import { errorMessage, loadCore } from "./wasm";

const MAX_FILE = 2 * 1024 * 1024 * 1024;

interface LoadedTrace {
  bytes: ArrayBuffer;
  name: string;
  ref: TraceRef;
  summary: Summary;
}

let reg: Registry;
const ex: Experiment = { trace: null, workload: emptyWorkload(), globals: {}, policies: [], reps: 1, seed: 0 };
let trace: LoadedTrace | null = null;
/** a share link that names an uploaded file we do not have yet */
let pendingFile: { name: string; sha256: string } | null = null;
/** run the experiment once the awaited file is loaded */
let autoRunAfterLoad = false;
let pool: Pool;
let jobs: RunJob[] = [];
let chartModels: { id: string; model: ChartModel }[] = [];
let traceSeq = 0;

const concurrency = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 16));

// ---------------------------------------------------------------- messages

function showMsg(el: HTMLElement, kind: "error" | "info" | "ok", text: string): void {
  clear(el);
  if (!text) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.className = `msg ${kind}${el.id === "banner" ? " banner" : ""}`;
  el.textContent = text;
}

function banner(kind: "error" | "info" | "ok", text: string): void {
  showMsg(byId("banner"), kind, text);
}

// ---------------------------------------------------------------- layout

function field(label: string, control: HTMLElement, note?: string): HTMLLabelElement {
  return h("label", { class: "field" }, h("span", { class: "lbl" }, label), control, note ? h("small", {}, note) : null);
}

function numberInput(id: string, value: string, opts: { min?: number | null; max?: number | null; step?: string; placeholder?: string } = {}): HTMLInputElement {
  return h("input", {
    type: "number",
    id,
    value,
    min: opts.min ?? undefined,
    max: opts.max ?? undefined,
    step: opts.step ?? "any",
    placeholder: opts.placeholder,
    inputmode: "decimal",
  });
}

function buildPage(): void {
  const app = byId("app");
  clear(app);

  // --- 1. trace
  const fileInput = h("input", { type: "file", id: "file-input", accept: ".swf,.gz,.swf.gz,text/plain,application/gzip" });
  fileInput.addEventListener("change", () => {
    const f = fileInput.files?.[0];
    if (f) void loadFile(f);
    fileInput.value = "";
  });
  const drop = h(
    "div",
    { class: "drop", id: "drop-zone" },
    h("p", {}, "Drop an SWF trace here (.swf, .swf.gz, .gz) or"),
    h("label", { class: "field", style: "align-items:center" }, h("span", { class: "lbl" }, "Choose a trace file"), fileInput),
  );
  for (const evName of ["dragenter", "dragover"]) {
    document.addEventListener(evName, (e) => {
      e.preventDefault();
      drop.classList.add("over");
    });
  }
  document.addEventListener("dragleave", (e) => {
    if ((e as DragEvent).relatedTarget === null) drop.classList.remove("over");
  });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const f = (e as DragEvent).dataTransfer?.files?.[0];
    if (f) void loadFile(f);
  });

  const sampleSel = h("select", { id: "sample-select" }, ...SAMPLES.map((s) => h("option", { value: s.id }, s.title)));
  const prov = h("p", { id: "sample-provenance", class: "muted provenance" });
  const showProv = () => {
    prov.textContent = SAMPLES.find((s) => s.id === sampleSel.value)?.provenance ?? "";
  };
  sampleSel.addEventListener("change", showProv);
  showProv();
  const sampleBtn = h("button", { type: "button", id: "sample-load" }, "Load sample");
  sampleBtn.addEventListener("click", () => void loadSample(sampleSel.value));

  const urlInput = h("input", { type: "url", id: "url-input", placeholder: "https://…/trace.swf.gz", size: 40 });
  const urlBtn = h("button", { type: "button", id: "url-open" }, "Open URL");
  urlBtn.addEventListener("click", () => void loadUrl(urlInput.value.trim()));
  urlInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") void loadUrl(urlInput.value.trim());
  });

  const gProcs = numberInput("gen-procs", "128", { min: 1, max: 1_000_000, step: "1" });
  const gJobs = numberInput("gen-jobs", "2000", { min: 1, max: 1_000_000, step: "1" });
  const gLoad = numberInput("gen-load", "0.7", { min: 0.01, max: 10, step: "0.05" });
  const gSeed = numberInput("gen-seed", "1", { min: 0, step: "1" });
  const genBtn = h("button", { type: "button", id: "gen-run" }, "Generate");
  genBtn.addEventListener("click", () => {
    const procs = Number(gProcs.value);
    const nj = Number(gJobs.value);
    const load = Number(gLoad.value);
    const seed = Number(gSeed.value);
    if (!Number.isInteger(procs) || procs < 1 || procs > 1_000_000) return showMsg(byId("trace-msg"), "error", "Machine size: a whole number from 1 to 1,000,000.");
    if (!Number.isInteger(nj) || nj < 1 || nj > 1_000_000) return showMsg(byId("trace-msg"), "error", "Jobs: a whole number from 1 to 1,000,000.");
    if (!Number.isFinite(load) || load < 0.01 || load > 10) return showMsg(byId("trace-msg"), "error", "Load: a number from 0.01 to 10.");
    if (!Number.isSafeInteger(seed) || seed < 0) return showMsg(byId("trace-msg"), "error", "Seed: a whole number ≥ 0.");
    void loadGenerated({ kind: "generated", procs, jobs: nj, load, seed });
  });

  const tracePanel = h(
    "section",
    { class: "panel", id: "trace", "aria-labelledby": "trace-h" },
    h("h2", { id: "trace-h" }, "1. Trace"),
    h(
      "div",
      { class: "grid2" },
      h("div", { class: "box" }, h("h3", {}, "Your file"), drop, h("div", { id: "recent" })),
      h(
        "div",
        { class: "box" },
        h("h3", {}, "Bundled sample"),
        h("div", { class: "row" }, field("Sample", sampleSel), sampleBtn),
        prov,
      ),
      h(
        "div",
        { class: "box" },
        h("h3", {}, "Open by URL"),
        h("div", { class: "row" }, field("Trace URL", urlInput), urlBtn),
        h("p", { class: "muted" }, "The server must allow cross-origin requests (CORS)."),
      ),
      h(
        "div",
        { class: "box" },
        h("h3", {}, "Synthetic (Lublin–Feitelson 1999)"),
        h("div", { class: "row" }, field("Machine size", gProcs), field("Jobs", gJobs), field("Target load", gLoad), field("Seed", gSeed), genBtn),
      ),
    ),
    h("div", { id: "trace-msg", class: "msg", role: "status", "aria-live": "polite", hidden: true }),
    h("div", { id: "trace-summary", "aria-live": "polite" }),
  );

  // --- 2. experiment
  const wl = h("div", { class: "row", id: "workload" });
  const knobs = h("div", { class: "row", id: "knobs" });
  const cards = h("div", { class: "cards", id: "cards" });
  const addSel = h("select", { id: "add-policy" }, ...reg.policies.map((p) => h("option", { value: p.id }, p.name)));
  const addBtn = h("button", { type: "button", id: "add-policy-btn" }, "Add policy");
  addBtn.addEventListener("click", () => {
    const p = findPolicy(reg, addSel.value);
    if (!p) return;
    ex.policies.push(defaultEntry(p));
    renderCards();
    renderKnobs();
    const last = cards.lastElementChild?.querySelector<HTMLElement>("select, input, button");
    last?.focus();
  });
  const reps = numberInput("reps", "1", { min: 1, max: MAX_REPS, step: "1" });
  reps.addEventListener("change", () => {
    const v = Number(reps.value);
    ex.reps = Number.isInteger(v) && v >= 1 && v <= MAX_REPS ? v : 1;
    reps.value = String(ex.reps);
  });
  const seed = numberInput("seed", "0", { min: 0, step: "1" });
  seed.addEventListener("change", () => {
    const v = Number(seed.value);
    ex.seed = Number.isSafeInteger(v) && v >= 0 ? v : 0;
    seed.value = String(ex.seed);
  });
  const runBtn = h("button", { type: "button", id: "run", class: "primary" }, "Run experiment");
  runBtn.addEventListener("click", () => runExperiment());
  const cancelAll = h("button", { type: "button", id: "cancel-all" }, "Cancel all");
  cancelAll.addEventListener("click", () => pool.cancelAll());
  const copyBtn = h("button", { type: "button", id: "copy-link" }, "Copy link");
  copyBtn.addEventListener("click", () => void copyLink());
  const shareOut = h("input", { type: "text", id: "share-url", readonly: true, "aria-label": "Share link", size: 50, class: "hidden" });

  const expPanel = h(
    "section",
    { class: "panel", id: "experiment", "aria-labelledby": "exp-h" },
    h("h2", { id: "exp-h" }, "2. Experiment"),
    h("h3", {}, "Global knobs"),
    h("p", { class: "muted" }, "A value here applies to every selected policy that has the parameter; leave it empty to use each policy's own value."),
    knobs,
    h("h3", {}, "Policies"),
    cards,
    h("div", { class: "row", style: "margin-top:.75rem" }, field("Policy to add", addSel), addBtn),
    h("h3", {}, "Workload options"),
    wl,
    h("h3", {}, "Repetitions"),
    h(
      "div",
      { class: "row" },
      field("Repetitions", reps, "run i uses seed + i"),
      field("Seed", seed, "seeds every random draw"),
    ),
    h("div", { class: "toolbar" }, runBtn, cancelAll, copyBtn, shareOut),
    h("div", { id: "exp-msg", class: "msg", role: "status", "aria-live": "polite", hidden: true }),
  );

  // --- 3. runs and 4. results
  const runsPanel = h(
    "section",
    { class: "panel", id: "runs-panel", "aria-labelledby": "runs-h" },
    h("h2", { id: "runs-h" }, "3. Runs"),
    h("p", { class: "muted", id: "runs-note" }, `Each run has a Web Worker of its own; up to ${concurrency} at once.`),
    h("ul", { class: "runs", id: "runs" }),
  );
  const resultsPanel = h(
    "section",
    { class: "panel", id: "results-panel", "aria-labelledby": "results-h" },
    h("h2", { id: "results-h" }, "4. Results"),
    h("div", { id: "results" }, h("p", { class: "muted" }, "Run an experiment to see its metrics and charts.")),
  );

  append(app, [tracePanel, expPanel, runsPanel, resultsPanel]);
  renderWorkload();
  renderKnobs();
  renderCards();
  void renderRecent();
}

// ---------------------------------------------------------------- workload options

function renderWorkload(): void {
  const wl = byId("workload");
  clear(wl);
  const w = ex.workload;
  const procs = trace?.summary.identity.procs;
  const ms = numberInput("wl-machine", w.machineSize === null ? "" : String(w.machineSize), {
    min: 1,
    step: "1",
    placeholder: procs ? `trace: ${procs}` : "from the header",
  });
  const lf = numberInput("wl-load", w.loadFactor === null ? "" : String(w.loadFactor), { min: 0.01, max: 1000, step: "0.05", placeholder: "1" });
  const first = numberInput("wl-first", w.first === null ? "" : String(w.first), { min: 1, step: "1", placeholder: "all jobs" });
  const queues = h("input", { type: "text", id: "wl-queues", value: w.queues.join(","), placeholder: "all queues", inputmode: "numeric" });
  const clamp = h("input", { type: "checkbox", id: "wl-clamp", checked: w.clamp });
  const onChange = () => {
    const msgEl = byId("exp-msg");
    const num = (el: HTMLInputElement, int: boolean, min: number): number | null | "bad" => {
      if (el.value.trim() === "") return null;
      const x = Number(el.value);
      if (!Number.isFinite(x) || x < min || (int && !Number.isInteger(x))) return "bad";
      return x;
    };
    const m = num(ms, true, 1);
    const l = num(lf, false, 0.01);
    const f = num(first, true, 1);
    const qs = queues.value.trim() === "" ? [] : queues.value.split(/[\s,]+/).filter(Boolean).map(Number);
    const bad: string[] = [];
    ms.setAttribute("aria-invalid", String(m === "bad"));
    lf.setAttribute("aria-invalid", String(l === "bad"));
    first.setAttribute("aria-invalid", String(f === "bad"));
    const qBad = qs.some((q) => !Number.isInteger(q) || q < -1);
    queues.setAttribute("aria-invalid", String(qBad));
    if (m === "bad") bad.push("Machine size: a whole number ≥ 1.");
    if (l === "bad") bad.push("Load factor: a number ≥ 0.01.");
    if (f === "bad") bad.push("Window: a whole number of jobs ≥ 1.");
    if (qBad) bad.push("Queue filter: queue numbers separated by commas.");
    if (bad.length) return showMsg(msgEl, "error", bad.join("\n"));
    showMsg(msgEl, "info", "");
    ex.workload = { machineSize: m as number | null, loadFactor: l as number | null, first: f as number | null, queues: qs, clamp: clamp.checked };
    if (trace) void resummarize();
  };
  for (const el of [ms, lf, first, queues, clamp]) el.addEventListener("change", onChange);
  append(wl, [
    field("Machine size", ms, "overrides the header"),
    field("Load factor", lf, "divides submit times"),
    field("Window: first N jobs", first),
    field("Queue filter", queues, "e.g. 1,3"),
    h("label", { class: "field" }, h("span", { class: "lbl" }, "Oversized jobs"), h("span", {}, clamp, " run on the whole machine")),
  ]);
}

// ---------------------------------------------------------------- knobs and cards

function knobSpec(key: string): ParamSpec | undefined {
  for (const p of reg.policies) for (const s of p.params) if (s.key === key) return s;
  for (const p of reg.predictors) for (const s of p.params) if (s.key === key) return s;
  return undefined;
}

function renderKnobs(): void {
  const box = byId("knobs");
  const focused = document.activeElement?.id;
  clear(box);
  for (const k of GLOBAL_KNOBS) {
    const spec = knobSpec(k.key);
    const users = spec ? knobUsers(reg, ex, k.key) : 0;
    const input = numberInput(`knob-${k.key}`, ex.globals[k.key] ?? "", {
      min: spec?.min,
      max: spec?.max,
      step: spec?.type === "int" ? "1" : "any",
      placeholder: "per policy",
    });
    input.disabled = users === 0;
    input.addEventListener("change", () => {
      ex.globals[k.key] = input.value.trim();
      renderCards();
    });
    const unit = spec?.unit ? ` (${spec.unit})` : "";
    const note = !spec
      ? "no policy has this parameter yet"
      : users === 0
        ? "not used by the selected policies"
        : `applies to ${users} selected polic${users === 1 ? "y" : "ies"}`;
    box.appendChild(field(`${k.label}${unit}`, input, note));
  }
  if (focused) document.getElementById(focused)?.focus();
}

function paramControl(e: PolicyEntry, i: number, s: ParamSpec): HTMLElement {
  const id = `p${i}-${s.key}`;
  const global = ex.globals[s.key];
  const byGlobal = global !== undefined && global !== "";
  let control: HTMLInputElement | HTMLSelectElement;
  if (s.type === "choice") {
    control = h("select", { id }, ...(s.options ?? []).map((o) => h("option", { value: o, selected: o === e.params[s.key] }, o)));
  } else {
    control = numberInput(id, byGlobal ? global : (e.params[s.key] ?? String(s.default)), {
      min: s.min,
      max: s.max,
      step: s.type === "int" ? "1" : "any",
    });
  }
  control.title = s.description;
  control.disabled = byGlobal || e.sweep?.key === s.key;
  control.addEventListener("change", () => {
    e.params[s.key] = control.value;
    renderKnobs();
  });
  const unit = s.unit ? ` (${s.unit})` : "";
  const range =
    s.type !== "choice" && (s.min !== null && s.min !== undefined) ? `${s.min}–${s.max ?? "∞"}${s.unit ?? ""}` : undefined;
  return field(`${s.name}${unit}`, control, byGlobal ? "set by the global knob" : e.sweep?.key === s.key ? "swept" : range);
}

function renderCards(): void {
  const box = byId("cards");
  const focused = document.activeElement?.id;
  clear(box);
  ex.policies.forEach((e, i) => {
    const p = findPolicy(reg, e.policy);
    if (!p) return;
    const remove = h("button", { type: "button", class: "small", id: `p${i}-remove`, "aria-label": `Remove ${p.name}` }, "Remove");
    remove.addEventListener("click", () => {
      ex.policies.splice(i, 1);
      renderCards();
      renderKnobs();
      byId("add-policy").focus();
    });
    const body: HTMLElement[] = [];
    if (p.uses_runtime_source) {
      const sel = h(
        "select",
        { id: `p${i}-source` },
        ...reg.predictors.map((s) => h("option", { value: s.id, selected: s.id === e.source, title: s.description }, s.name)),
      );
      sel.addEventListener("change", () => {
        e.source = sel.value;
        const specs = entryParams(reg, e);
        for (const s of specs) if (!(s.key in e.params)) e.params[s.key] = String(s.default);
        if (e.sweep && !specs.some((s) => s.key === e.sweep?.key)) e.sweep = null;
        renderCards();
        renderKnobs();
      });
      body.push(field("Runtime source", sel));
    }
    const specs = entryParams(reg, e);
    for (const s of specs) body.push(paramControl(e, i, s));
    const numeric = specs.filter((s) => s.type !== "choice");
    let sweepRow: HTMLElement | null = null;
    if (numeric.length) {
      const sk = h(
        "select",
        { id: `p${i}-sweep`, "aria-label": `Sweep a parameter of ${p.name}` },
        h("option", { value: "" }, "no sweep"),
        ...numeric.map((s) => h("option", { value: s.key, selected: e.sweep?.key === s.key }, s.name)),
      );
      const from = numberInput(`p${i}-sweep-from`, e.sweep ? String(e.sweep.from) : "", { placeholder: "from" });
      const to = numberInput(`p${i}-sweep-to`, e.sweep ? String(e.sweep.to) : "", { placeholder: "to" });
      const step = numberInput(`p${i}-sweep-step`, e.sweep ? String(e.sweep.step) : "", { placeholder: "step", min: 0 });
      from.setAttribute("aria-label", "Sweep from");
      to.setAttribute("aria-label", "Sweep to");
      step.setAttribute("aria-label", "Sweep step");
      for (const el of [from, to, step]) el.disabled = !e.sweep;
      sk.addEventListener("change", () => {
        if (!sk.value) e.sweep = null;
        else {
          const s = numeric.find((x) => x.key === sk.value) as ParamSpec;
          const lo = s.min ?? 0;
          const hi = s.max ?? Number(s.default) * 2;
          e.sweep = { key: s.key, from: lo, to: hi, step: (hi - lo) / 4 || 1 };
        }
        renderCards();
      });
      const upd = () => {
        if (!e.sweep) return;
        e.sweep = { key: e.sweep.key, from: Number(from.value), to: Number(to.value), step: Number(step.value) };
      };
      for (const el of [from, to, step]) el.addEventListener("change", upd);
      sweepRow = h("div", { class: "sweep" }, h("span", { class: "lbl" }, "Sweep"), sk, from, to, step);
    }
    const color = charts.PALETTE[i % charts.PALETTE.length];
    const card = h(
      "article",
      { class: "card", "aria-label": `${p.name} policy`, "data-policy": p.id },
      h("header", {}, h("h3", {}, p.name), remove),
      h("p", { class: "desc" }, p.description),
      h("div", { class: "row" }, ...body),
      sweepRow,
    );
    card.style.borderLeftColor = color;
    box.appendChild(card);
  });
  if (ex.policies.length === 0) box.appendChild(h("p", { class: "muted" }, "No policy selected: add one below."));
  if (focused) document.getElementById(focused)?.focus();
}

// ---------------------------------------------------------------- loading traces

function nameOk(name: string): string {
  // file names are only ever text, but keep them short and printable
  return name.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || "trace.swf";
}

async function summarize(bytes: ArrayBuffer, name: string): Promise<Summary> {
  const copy = bytes.slice(0);
  const { promise } = oneShot({ type: "summary", bytes: copy, name, options: workloadOptions(ex.workload) }, [copy]);
  const m = await promise;
  if (m.type === "summary") return m.summary;
  if (m.type === "error") throw new Error(m.message);
  throw new Error(`unexpected answer ${m.type}`);
}

async function setTrace(bytes: ArrayBuffer, name: string, ref: TraceRef): Promise<boolean> {
  const seq = ++traceSeq;
  const msg = byId("trace-msg");
  showMsg(msg, "info", `Reading ${name}…`);
  let summary: Summary;
  try {
    summary = await summarize(bytes, name);
  } catch (e) {
    if (seq !== traceSeq) return false;
    const still = trace ? ` The trace in use is still ${trace.name}.` : "";
    showMsg(msg, "error", `${name} could not be read: ${errorMessage(e)}${still}`);
    return false;
  }
  if (seq !== traceSeq) return false;
  if (ref.kind === "file") ref.sha256 = summary.identity.sha256;
  if (pendingFile && ref.kind !== "file") {
    // the user chose another kind of trace: the link's file is no longer awaited
    pendingFile = null;
    autoRunAfterLoad = false;
  }
  if (pendingFile) {
    if (summary.identity.sha256 !== pendingFile.sha256) {
      showMsg(
        msg,
        "error",
        `Refused: the link needs "${pendingFile.name}" with SHA-256 ${pendingFile.sha256}, but ${name} has SHA-256 ${summary.identity.sha256}. Choose the file the link was made with.`,
      );
      return false;
    }
    pendingFile = null;
  }
  trace = { bytes, name, ref, summary };
  ex.trace = ref;
  showMsg(msg, "ok", `Loaded ${name}: ${summary.identity.jobs.toLocaleString("en")} jobs on ${summary.identity.procs} processors.`);
  renderSummary();
  renderWorkload();
  presetsTraceChanged();
  if (ref.kind === "file") {
    await putTrace({ sha256: summary.identity.sha256, name, bytes, used: Date.now() });
    void renderRecent();
  }
  return true;
}

async function resummarize(): Promise<void> {
  if (!trace) return;
  try {
    trace.summary = await summarize(trace.bytes, trace.name);
    renderSummary();
  } catch (e) {
    showMsg(byId("trace-msg"), "error", `With these workload options: ${errorMessage(e)}`);
  }
}

async function loadFile(f: File): Promise<boolean> {
  const msg = byId("trace-msg");
  if (f.size > MAX_FILE) {
    showMsg(msg, "error", `${nameOk(f.name)} is larger than 2 GiB.`);
    return false;
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await f.arrayBuffer();
  } catch (e) {
    showMsg(msg, "error", `${nameOk(f.name)} could not be read: ${errorMessage(e)}`);
    return false;
  }
  const ok = await setTrace(bytes, nameOk(f.name), { kind: "file", name: nameOk(f.name), sha256: "" });
  if (ok && autoRunAfterLoad) {
    autoRunAfterLoad = false;
    if (ex.preset) void startPreset(ex.preset);
    else runExperiment();
  }
  return ok;
}


async function fetchBytes(url: string, what: string): Promise<ArrayBuffer> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "omit", redirect: "follow" });
  } catch {
    throw new Error(
      `${what} could not be fetched: a network error, or the server does not allow cross-origin requests (CORS). Download the file and drop it here instead.`,
    );
  }
  if (!res.ok) throw new Error(`${what} could not be fetched: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}.`);
  const len = Number(res.headers.get("content-length") ?? "0");
  if (len > MAX_FILE) throw new Error(`${what} is larger than 2 GiB.`);
  return res.arrayBuffer();
}

async function loadSample(id: string): Promise<boolean> {
  const s = SAMPLES.find((x) => x.id === id);
  if (!s) return false;
  try {
    const bytes = await fetchBytes(new URL(s.file, document.baseURI).href, s.title);
    return await setTrace(bytes, s.file.split("/").pop() as string, { kind: "sample", id: s.id });
  } catch (e) {
    showMsg(byId("trace-msg"), "error", errorMessage(e));
    return false;
  }
}

async function loadUrl(text: string): Promise<boolean> {
  const msg = byId("trace-msg");
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    showMsg(msg, "error", "That is not a URL (expected https://…).");
    return false;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    showMsg(msg, "error", "Only http and https URLs can be opened.");
    return false;
  }
  showMsg(msg, "info", `Fetching ${u.href}…`);
  try {
    const bytes = await fetchBytes(u.href, u.href);
    const name = nameOk(decodeURIComponent(u.pathname.split("/").pop() || "trace.swf"));
    return await setTrace(bytes, name, { kind: "url", url: u.href });
  } catch (e) {
    showMsg(msg, "error", errorMessage(e));
    return false;
  }
}

async function loadGenerated(ref: TraceRef & { kind: "generated" }): Promise<boolean> {
  const msg = byId("trace-msg");
  showMsg(msg, "info", `Generating ${ref.jobs} jobs…`);
  const { promise } = oneShot({ type: "generate", request: { procs: ref.procs, jobs: ref.jobs, load: ref.load, seed: ref.seed } });
  const m = await promise;
  if (m.type !== "generated") {
    showMsg(msg, "error", `The generator failed: ${m.type === "error" ? m.message : m.type}`);
    return false;
  }
  (byId("gen-procs") as HTMLInputElement).value = String(ref.procs);
  (byId("gen-jobs") as HTMLInputElement).value = String(ref.jobs);
  (byId("gen-load") as HTMLInputElement).value = String(ref.load);
  (byId("gen-seed") as HTMLInputElement).value = String(ref.seed);
  return setTrace(m.bytes, `lublin99-p${ref.procs}-n${ref.jobs}-l${ref.load}-s${ref.seed}.swf`, ref);
}

async function renderRecent(): Promise<void> {
  const box = document.getElementById("recent");
  if (!box) return;
  const list = await listTraces();
  clear(box);
  if (!list.length) return;
  const ul = h("ul", {});
  for (const t of list.slice(0, 5)) {
    const b = h("button", { type: "button", class: "small" }, "Load");
    b.addEventListener("click", async () => {
      const st = await getTrace(t.sha256);
      if (st) await setTrace(st.bytes, st.name, { kind: "file", name: st.name, sha256: st.sha256 });
    });
    ul.appendChild(h("li", {}, `${t.name} (${(t.size / 1024).toFixed(0)} KiB) `, b));
  }
  append(box, [h("details", {}, h("summary", {}, "Recently used on this machine"), ul)]);
}

// ---------------------------------------------------------------- summary

function fmtNum(x: unknown, digits = 3): string {
  if (typeof x !== "number" || !Number.isFinite(x)) return x === null || x === undefined ? "–" : String(x);
  if (Number.isInteger(x)) return x.toLocaleString("en");
  return x.toFixed(digits);
}

function renderSummary(): void {
  const box = byId("trace-summary");
  clear(box);
  if (!trace) return;
  const s = trace.summary;
  const id = s.identity;
  const st = id.stats ?? ({} as Summary["identity"]["stats"]);
  const days = typeof st.duration === "number" ? `${(st.duration / 86400).toFixed(1)} days` : "–";
  const pct = (x: unknown) => (typeof x === "number" ? `${(x * 100).toFixed(1)} %` : "–");
  // The trace as recorded, and what the simulation replays where cleaning changed it.
  const sim = st.simulated ?? {};
  const also = (recorded: unknown, simulated: unknown, show: (x: unknown) => string) =>
    typeof simulated === "number" && simulated !== recorded ? `${show(recorded)} (simulated: ${show(simulated)})` : show(recorded);
  const secs = (x: unknown) => (typeof x === "number" ? `${fmtNum(x, 0)} s` : "–");
  const kv = (pairs: [string, string][]) => h("dl", { class: "kv" }, ...pairs.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  const stats = kv([
    ["Trace", id.name],
    ["SHA-256", id.sha256],
    ["Jobs", fmtNum(id.jobs)],
    ["Processors", fmtNum(id.procs)],
    ["Span", days],
    ["Offered load", also(st.offered_load, sim.offered_load, pct)],
    ["Mean parallelism", fmtNum(st.mean_parallelism, 2)],
    ["Mean runtime", also(st.mean_runtime, sim.mean_runtime, secs)],
    ["Estimate accuracy", also(st.mean_estimate_accuracy, sim.mean_estimate_accuracy, pct)],
    ["Users", fmtNum(st.users)],
    ["Queues", fmtNum(st.queues)],
  ]);
  const clean = Object.entries(id.cleaning ?? {}).filter(([, n]) => typeof n === "number" && n > 0);
  const cleanBox = h(
    "div",
    { id: "cleaning" },
    h("h3", {}, "Cleaning report"),
    clean.length
      ? h("ul", {}, ...clean.map(([k, n]) => h("li", {}, `${k.replace(/_/g, " ")}: ${fmtNum(n)}`)))
      : h("p", {}, "Nothing removed or changed."),
  );
  if (s.bad_lines?.length) {
    cleanBox.appendChild(h("h3", {}, `Bad lines (first ${s.bad_lines.length})`));
    cleanBox.appendChild(
      h(
        "ul",
        { id: "bad-lines" },
        ...s.bad_lines.map((b) =>
          h(
            "li",
            {},
            `line ${b.line}${b.field !== undefined && b.field !== null ? `, field ${b.field}${b.field_name ? ` (${b.field_name})` : ""}` : ""}: ${b.message}`,
          ),
        ),
      ),
    );
  }
  if (s.warnings?.length) {
    cleanBox.appendChild(h("h3", {}, "Warnings"));
    cleanBox.appendChild(h("ul", { id: "warnings" }, ...s.warnings.map((w) => h("li", {}, String(w)))));
  }
  append(box, [h("div", { class: "grid2" }, h("div", { class: "box", id: "stats" }, h("h3", {}, "Statistics"), stats), h("div", { class: "box" }, cleanBox))]);
}

// ---------------------------------------------------------------- runs

function runExperiment(): void {
  const msg = byId("exp-msg");
  if (!trace) {
    showMsg(msg, "error", pendingFile ? `Choose the file "${pendingFile.name}" first (the link needs it).` : "Load a trace first.");
    return;
  }
  let configs: RunConfig[];
  try {
    configs = expand(reg, ex);
  } catch (e) {
    showMsg(msg, "error", errorMessage(e));
    return;
  }
  showMsg(msg, "info", "");
  delete ex.preset;
  pool?.dispose();
  pool = new Pool(concurrency);
  const ul = byId("runs");
  clear(ul);
  const t = { bytes: trace.bytes, name: trace.name };
  const opts = workloadOptions(ex.workload);
  jobs = [];
  chartModels = [];
  clear(byId("results"));
  byId("results").dataset.complete = "0";
  byId("results").appendChild(h("p", { class: "muted" }, "Running…"));
  for (const c of configs) {
    const bar = h("progress", { max: 1, value: 0, "aria-label": `progress of ${c.label}` });
    const status = h("span", { class: "status" }, "queued");
    const cancel = h("button", { type: "button", class: "small cancel" }, "Cancel");
    const extra = h("span", { class: "exports" });
    const suffix = `${c.sweepValue !== null ? ` ${c.sweepKey}=${c.sweepValue}` : ""}${ex.reps > 1 ? ` #${c.rep + 1}` : ""}`;
    const li = h("li", { "data-label": c.label }, h("span", { class: "lbl" }, `${c.sweepValue !== null ? c.label.split(" ")[0] : c.label}${suffix}`), bar, status, h("span", {}, cancel, extra));
    ul.appendChild(li);
    const job = pool.submit(c, t, opts, (j) => {
      li.dataset.status = j.status;
      status.className = `status status-${j.status}`;
      if (j.status === "running") {
        const p = j.progress;
        if (p && p.jobs > 0) bar.value = p.completed / p.jobs;
        const pct = p ? `${Math.round((100 * p.completed) / Math.max(1, p.jobs))} %` : "starting";
        status.textContent = p?.phase ? `${p.phase}, ${pct}` : pct;
      } else if (j.status === "done") {
        bar.value = 1;
        li.dataset.elapsed = String(j.elapsedMs);
        li.dataset.parse = String(j.parseMs);
        status.title = `reading the trace ${(j.parseMs / 1000).toFixed(2)} s, run ${(j.elapsedMs / 1000).toFixed(2)} s`;
        status.textContent = `done, ${(j.elapsedMs / 1000).toFixed(2)} s`;
        cancel.disabled = true;
        const csv = h("button", { type: "button", class: "small", title: "per-job CSV of this run" }, "CSV");
        const swf = h("button", { type: "button", class: "small", title: "simulated schedule as SWF" }, "SWF");
        const base = `${trace?.name.replace(/\.(swf)?(\.gz)?$/, "") ?? "trace"}-${c.request.policy}${suffix.replace(/[^A-Za-z0-9=.#-]+/g, "_")}`;
        csv.addEventListener("click", () => void exportRun(j, "csv", `${base}.csv`));
        swf.addEventListener("click", () => void exportRun(j, "swf", `${base}.swf`));
        clear(extra);
        append(extra, [" ", csv, " ", swf]);
        scheduleResults();
      } else if (j.status === "error" || j.status === "cancelled") {
        status.textContent = j.status === "cancelled" ? "cancelled" : "failed";
        cancel.disabled = true;
        if (j.status === "error") li.appendChild(h("span", { class: "msg error run-error", style: "grid-column:1/-1" }, j.error ?? "failed"));
        scheduleResults();
      } else {
        status.textContent = j.status;
      }
    });
    cancel.addEventListener("click", () => pool.cancel(job));
    jobs.push(job);
  }
  ul.querySelector<HTMLButtonElement>("button.cancel")?.focus({ preventScroll: true });
  history.replaceState(null, "", `#${encodeExperiment(ex)}`);
}

async function exportRun(j: RunJob, format: "csv" | "swf", name: string): Promise<void> {
  try {
    const text = await pool.exportRun(j, format);
    download(name, text, format === "csv" ? "text/csv" : "text/plain");
  } catch (e) {
    showMsg(byId("exp-msg"), "error", `Export failed: ${errorMessage(e)}`);
  }
}

// ---------------------------------------------------------------- results

let resultsTimer = 0;
function scheduleResults(): void {
  clearTimeout(resultsTimer);
  resultsTimer = window.setTimeout(() => void renderResults(), 60);
}

interface Group {
  key: string;
  label: string;
  entry: number;
  sweepKey: string | null;
  sweepValue: number | null;
  docs: RunDocument[];
  elapsed: number[];
}

function groups(): Group[] {
  const map = new Map<string, Group>();
  for (const j of jobs) {
    const c = j.config;
    const key = `${c.entry}|${c.sweepValue}`;
    let g = map.get(key);
    if (!g) {
      g = { key, label: c.label, entry: c.entry, sweepKey: c.sweepKey, sweepValue: c.sweepValue, docs: [], elapsed: [] };
      map.set(key, g);
    }
    if (j.status === "done" && j.doc) {
      g.docs.push(j.doc);
      g.elapsed.push(j.elapsedMs);
    }
  }
  return [...map.values()].filter((g) => g.docs.length > 0);
}

type MetricCol = { key: string; label: string; get: (d: RunDocument) => unknown; digits: number };

const METRICS: MetricCol[] = [
  ["jobs", "jobs", 0],
  ["mbs", "MBS", 3],
  ["mwbs", "MWBS", 3],
  ["mean_wait", "mean wait (s)", 1],
  ["median_wait", "median wait (s)", 1],
  ["p95_wait", "p95 wait (s)", 1],
  ["max_wait", "max wait (s)", 1],
  ["mean_turnaround", "mean turnaround (s)", 1],
  ["mean_slowdown", "mean slowdown", 3],
  ["max_slowdown", "max slowdown", 3],
  ["mean_stretch", "mean stretch", 3],
  ["max_stretch", "max stretch", 3],
  ["utilization", "utilization", 4],
  ["makespan", "makespan (s)", 0],
  ["backfilled", "backfilled", 0],
  ["blocked", "blocked", 0],
].map(([key, label, digits]) => ({ key: key as string, label: label as string, digits: digits as number, get: (d: RunDocument) => d.metrics[key as string] }));

function metricColumns(gs: Group[]): MetricCol[] {
  const cols = [...METRICS];
  const known = new Set([...METRICS.map((m) => m.key), "blocked_groups", "categories", "fairness", "fairness_all", "reservation_violations", "predictions"]);
  // metrics added to the core later appear by themselves
  for (const g of gs)
    for (const [k, v] of Object.entries(g.docs[0].metrics))
      if (!known.has(k) && (typeof v === "number" || v === null)) {
        known.add(k);
        cols.push({ key: k, label: k.replace(/_/g, " "), digits: 3, get: (d) => d.metrics[k] });
      }
  cols.push(
    { key: "fairness.delayed", label: "delayed (fairness)", digits: 0, get: (d) => d.metrics.fairness?.delayed },
    { key: "fairness.mean_delay", label: "mean delay (s)", digits: 1, get: (d) => d.metrics.fairness?.mean_delay },
    { key: "fairness.max_delay", label: "max delay (s)", digits: 0, get: (d) => d.metrics.fairness?.max_delay },
    { key: "fairness_all.delayed", label: "delayed (all jobs)", digits: 0, get: (d) => d.metrics.fairness_all?.delayed },
    { key: "fairness_all.mean_delay", label: "mean delay, all (s)", digits: 1, get: (d) => d.metrics.fairness_all?.mean_delay },
    { key: "fairness_all.max_delay", label: "max delay, all (s)", digits: 0, get: (d) => d.metrics.fairness_all?.max_delay },
    { key: "fairness_all.culprits", label: "culprits", digits: 0, get: (d) => d.metrics.fairness_all?.culprits },
    { key: "reservation_violations.count", label: "reservation violations", digits: 0, get: (d) => d.metrics.reservation_violations?.count },
    { key: "reservation_violations.mean_dtr", label: "mean DTR (s)", digits: 1, get: (d) => d.metrics.reservation_violations?.mean_dtr },
    { key: "predictions.mean_abs_error_pct", label: "prediction error (%)", digits: 2, get: (d) => d.metrics.predictions?.mean_abs_error_pct },
    { key: "events", label: "events", digits: 0, get: (d) => d.events },
    { key: "check", label: "check", digits: 0, get: (d) => d.check },
  );
  return cols;
}

function cell(values: unknown[], digits: number): HTMLTableCellElement {
  const nums = values.filter((v): v is number => typeof v === "number");
  if (nums.length !== values.length || nums.length === 0) {
    const v = values[0];
    return h("td", { "data-value": v === null || v === undefined ? "" : String(v) }, v === null || v === undefined ? "–" : String(v));
  }
  const e = estimate(nums);
  const main = Number.isInteger(e.mean) ? e.mean.toString() : e.mean.toFixed(digits);
  const td = h("td", { "data-value": String(e.mean), title: String(e.mean) }, main);
  if (e.n > 1) {
    td.dataset.ci = String(e.half);
    if (e.half > 0) td.appendChild(h("span", { class: "ci muted" }, ` ± ${e.half.toFixed(digits)}`));
  }
  return td;
}

async function renderResults(): Promise<void> {
  const box = byId("results");
  const gs = groups();
  clear(box);
  const pending = jobs.filter((j) => j.status === "queued" || j.status === "running").length;
  if (!gs.length) {
    box.appendChild(h("p", { class: "muted" }, pending ? "Running…" : "No run finished."));
    box.dataset.complete = pending ? "0" : "1";
    return;
  }
  box.dataset.complete = "0";
  const cols = metricColumns(gs);
  const table = h(
    "table",
    { id: "results-table" },
    h("thead", {}, h("tr", {}, h("th", { class: "lbl", scope: "col" }, "policy"), h("th", { scope: "col" }, "runs"), ...cols.map((c) => h("th", { scope: "col", "data-metric": c.key }, c.label)))),
    h(
      "tbody",
      {},
      ...gs.map((g) =>
        h(
          "tr",
          { "data-label": g.label },
          h("th", { class: "lbl", scope: "row" }, h("span", { class: "swatch", style: `background:${colorOf(gs, g)}` }), g.label),
          h("td", {}, String(g.docs.length)),
          ...cols.map((c) => {
            const td = cell(g.docs.map((d) => c.get(d)), c.digits);
            td.dataset.metric = c.key;
            return td;
          }),
        ),
      ),
    ),
  );
  const exportJson = h("button", { type: "button", id: "export-json" }, "Results JSON");
  exportJson.addEventListener("click", () => {
    const out = {
      schema: "schedlab-playground/1",
      link: location.href,
      trace: trace?.summary.identity ?? null,
      runs: jobs.filter((j) => j.doc).map((j) => ({ label: j.config.label, rep: j.config.rep, sweep: j.config.sweepValue, browser_ms: j.elapsedMs, ...j.doc })),
    };
    download(`schedlab-results.json`, JSON.stringify(out, null, 2), "application/json");
  });
  append(box, [
    pending ? h("p", { class: "muted" }, `${pending} run(s) still going…`) : null,
    h(
      "p",
      { class: "muted caption" },
      ex.reps > 1
        ? `Mean ± 95 % confidence half-width (t distribution) over ${ex.reps} repetitions; times in seconds.`
        : "One run per configuration; times in seconds. Hover a value for its full precision.",
    ),
    h("div", { class: "table-wrap" }, table),
    h("div", { class: "toolbar" }, h("span", { class: "lbl" }, "Export:"), exportJson, h("span", { class: "muted" }, "Per-run CSV and SWF: buttons next to each run.")),
    categoryTable(gs),
  ]);
  await renderCharts(gs);
  // every run has ended and its results are drawn (the tests wait for this)
  box.dataset.complete = pending || jobs.some((j) => j.status === "queued" || j.status === "running") ? "0" : "1";
}

function categoryTable(gs: Group[]): HTMLElement | null {
  const names = gs[0].docs[0].metrics.categories?.map((c) => c.name) ?? [];
  if (!names.length) return null;
  return h(
    "details",
    {},
    h("summary", {}, "Categories (short/long × narrow/wide): MBS and mean wait"),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { id: "categories-table" },
        h("thead", {}, h("tr", {}, h("th", { class: "lbl" }, "policy"), ...names.flatMap((n) => [h("th", {}, `${n} jobs`), h("th", {}, `${n} MBS`), h("th", {}, `${n} wait (s)`)]))),
        h(
          "tbody",
          {},
          ...gs.map((g) =>
            h(
              "tr",
              {},
              h("th", { class: "lbl" }, g.label),
              ...names.flatMap((n) => {
                const cat = (d: RunDocument) => d.metrics.categories?.find((c) => c.name === n);
                return [cell(g.docs.map((d) => cat(d)?.jobs), 0), cell(g.docs.map((d) => cat(d)?.mbs), 3), cell(g.docs.map((d) => cat(d)?.mean_wait), 1)];
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

function colorOf(gs: Group[], g: Group): string {
  return charts.PALETTE[gs.indexOf(g) % charts.PALETTE.length];
}

function interval(e: { n: number; mean: number; half: number }): [number, number] | null {
  return e.n > 1 && Number.isFinite(e.half) ? [e.mean - e.half, e.mean + e.half] : null;
}

function buildModels(gs: Group[]): { id: string; title: string; model: ChartModel }[] {
  const out: { id: string; title: string; model: ChartModel }[] = [];
  const plain = gs.filter((g) => g.sweepValue === null || gs.filter((x) => x.entry === g.entry).length === 1);
  const barGroups = plain.length ? plain : gs;
  const repeated = barGroups.some((g) => g.docs.length > 1);
  const metricSeries = (key: "mbs" | "mwbs") => {
    const es = barGroups.map((g) => estimate(g.docs.map((d) => d.metrics[key])));
    return { name: key.toUpperCase(), values: es.map((e) => (Number.isFinite(e.mean) ? e.mean : null)), intervals: repeated ? es.map(interval) : null };
  };
  const barsTitle = repeated ? "MBS and MWBS per policy (95 % intervals)" : "MBS and MWBS per policy";
  out.push({
    id: "chart-mbs",
    title: barsTitle,
    model: { kind: "bars", title: barsTitle, x_label: "policy", y_label: "bounded slowdown", groups: barGroups.map((g) => g.label), series: [metricSeries("mbs"), metricSeries("mwbs")] },
  });
  const ecdf = barGroups.filter((g) => Array.isArray(g.docs[0].wait_ecdf));
  if (ecdf.length)
    out.push({
      id: "chart-ecdf",
      title: "Wait-time distribution (ECDF, log time axis)",
      model: {
        kind: "ecdf",
        title: "Wait-time ECDF",
        x_label: "wait",
        y_label: "fraction of jobs",
        curves: ecdf.map((g) => ({ name: g.label, points: g.docs[0].wait_ecdf as [number, number][] })),
      },
    });
  const groupNames: string[] = [];
  for (const g of barGroups)
    for (const bg of g.docs[0].metrics.blocked_groups ?? []) if (!groupNames.includes(bg.group) && bg.group !== "big" && bg.group !== "small") groupNames.push(bg.group);
  if (groupNames.length)
    out.push({
      id: "chart-blocked",
      title: "MBS of blocked jobs by parallelism",
      model: {
        kind: "bars",
        title: "MBS of blocked jobs by parallelism",
        x_label: "job size (processors)",
        y_label: "MBS of blocked jobs",
        groups: groupNames,
        series: barGroups.map((g) => {
          const es = groupNames.map((n) =>
            estimate(g.docs.map((d) => d.metrics.blocked_groups?.find((b) => b.group === n)?.mbs ?? Number.NaN)),
          );
          return {
            name: g.label,
            values: es.map((e) => (e.n > 0 && Number.isFinite(e.mean) ? e.mean : null)),
            intervals: repeated ? es.map(interval) : null,
          };
        }),
      },
    });
  const swept = new Map<number, Group[]>();
  for (const g of gs) if (g.sweepValue !== null) swept.set(g.entry, [...(swept.get(g.entry) ?? []), g]);
  for (const [entry, list] of swept) {
    if (list.length < 2) continue;
    const key = list[0].sweepKey as string;
    const p = findPolicy(reg, ex.policies[entry]?.policy ?? "");
    const spec = ex.policies[entry] ? entryParams(reg, ex.policies[entry]).find((s) => s.key === key) : undefined;
    const xLabel = `${spec?.name ?? key}${spec?.unit ? ` (${spec.unit})` : ""}`;
    const title = `MBS and MWBS vs ${spec?.name ?? key} (${p?.name ?? ""})`;
    const line = (metric: "mbs" | "mwbs") => ({
      name: metric.toUpperCase(),
      points: list
        .map((g) => {
          const e = estimate(g.docs.map((d) => d.metrics[metric]));
          const iv = interval(e);
          return { x: g.sweepValue as number, y: e.mean, low: iv ? iv[0] : null, high: iv ? iv[1] : null };
        })
        .sort((a, b) => a.x - b.x),
    });
    out.push({
      id: `chart-sweep-${entry}`,
      title,
      model: { kind: "sweep", title, x_label: xLabel, y_label: "bounded slowdown", lines: [line("mbs"), line("mwbs")] },
    });
  }
  return out;
}

function isLarge(): boolean {
  return document.documentElement.classList.contains("large") || document.documentElement.classList.contains("present");
}

async function renderCharts(gs: Group[]): Promise<void> {
  const box = byId("results");
  const wrap = h("div", { class: "charts", id: "charts" });
  box.appendChild(h("h3", {}, "Charts"));
  box.appendChild(wrap);
  const models = buildModels(gs);
  chartModels = models.map((m) => ({ id: m.id, model: m.model }));
  for (const m of models) {
    const canvas = h("canvas", { id: m.id, role: "img", "aria-label": m.title });
    const svgBtn = h("button", { type: "button", class: "small", "data-export": "svg", "aria-label": `${m.title}: save as SVG` }, "SVG");
    const pngBtn = h("button", { type: "button", class: "small", "data-export": "png", "aria-label": `${m.title}: save as PNG` }, "PNG");
    const fig = h("figure", { class: "chart" }, h("figcaption", {}, h("span", {}, m.title), h("span", {}, svgBtn, " ", pngBtn)), canvas);
    wrap.appendChild(fig);
    svgBtn.addEventListener("click", async () => {
      try {
        download(`${m.id}.svg`, await charts.svg(m.model, 1200, 750), "image/svg+xml");
      } catch (e) {
        showMsg(byId("exp-msg"), "error", `SVG export failed: ${errorMessage(e)}`);
      }
    });
    pngBtn.addEventListener("click", async () => {
      try {
        download(`${m.id}.png`, await charts.png(canvas), "image/png");
      } catch (e) {
        showMsg(byId("exp-msg"), "error", `PNG export failed: ${errorMessage(e)}`);
      }
    });
  }
  await drawAll();
}

async function drawAll(): Promise<void> {
  await charts.drawAll(chartModels, isLarge());
}

// ---------------------------------------------------------------- share links

async function copyLink(): Promise<void> {
  const out = byId<HTMLInputElement>("share-url");
  if (!ex.trace) {
    showMsg(byId("exp-msg"), "error", "Load a trace first: the link names it.");
    return;
  }
  const url = `${location.origin}${location.pathname}#${encodeExperiment(ex)}`;
  history.replaceState(null, "", url);
  out.value = url;
  out.classList.remove("hidden");
  try {
    await navigator.clipboard.writeText(url);
    showMsg(byId("exp-msg"), "ok", "Link copied to the clipboard.");
  } catch {
    out.select();
    showMsg(byId("exp-msg"), "info", "Copy the link from the field next to the button.");
  }
}

function applyExperiment(next: Experiment): void {
  ex.trace = next.trace;
  ex.workload = next.workload;
  ex.globals = next.globals;
  ex.policies = next.policies;
  ex.reps = next.reps;
  ex.seed = next.seed;
  if (next.preset) ex.preset = next.preset;
  else delete ex.preset;
  byId<HTMLInputElement>("reps").value = String(ex.reps);
  byId<HTMLInputElement>("seed").value = String(ex.seed);
  renderWorkload();
  renderKnobs();
  renderCards();
}

async function openLink(fragment: string): Promise<void> {
  let next: Experiment;
  try {
    next = decodeExperiment(fragment, reg, sampleIds(), presetIds());
  } catch (e) {
    const why = e instanceof LinkError ? e.message : "it is malformed";
    banner("error", `This link could not be opened: ${why}. The page starts with its defaults instead.`);
    return;
  }
  banner("info", "");
  applyExperiment(next);
  const t = next.trace;
  if (!t) return;
  let ok = false;
  switch (t.kind) {
    case "sample":
      byId<HTMLSelectElement>("sample-select").value = t.id;
      byId<HTMLSelectElement>("sample-select").dispatchEvent(new Event("change"));
      ok = await loadSample(t.id);
      break;
    case "generated":
      ok = await loadGenerated(t);
      break;
    case "url":
      byId<HTMLInputElement>("url-input").value = t.url;
      ok = await loadUrl(t.url);
      break;
    case "file": {
      const stored = await getTrace(t.sha256);
      if (stored) {
        ok = await setTrace(stored.bytes, stored.name, { kind: "file", name: stored.name, sha256: stored.sha256 });
      } else {
        pendingFile = { name: t.name, sha256: t.sha256 };
        autoRunAfterLoad = true;
        trace = null;
        clear(byId("trace-summary"));
        showMsg(
          byId("trace-msg"),
          "info",
          `This link was made with the file "${t.name}" (SHA-256 ${t.sha256}). Choose or drop that file to run the experiment; a file with another content is refused.`,
        );
        banner("info", `The link needs the file "${t.name}": choose it in section 1.`);
      }
      break;
    }
  }
  if (ok) {
    if (next.preset) await startPreset(next.preset);
    else runExperiment();
  }
}

/** Runs a preset and makes the page's link name it. */
async function startPreset(id: string): Promise<void> {
  ex.preset = id;
  if (ex.trace) history.replaceState(null, "", `#${encodeExperiment(ex)}`);
  await runPreset(id);
}

// ---------------------------------------------------------------- start

function viewOptions(): void {
  const large = byId<HTMLInputElement>("opt-large");
  const present = byId<HTMLInputElement>("opt-present");
  const apply = () => {
    document.documentElement.classList.toggle("large", large.checked);
    document.documentElement.classList.toggle("present", present.checked);
    localStorage.setItem("schedlab-view", JSON.stringify({ large: large.checked, present: present.checked }));
    void drawAll();
    void drawPresetCharts(isLarge());
  };
  try {
    const v = JSON.parse(localStorage.getItem("schedlab-view") ?? "{}");
    large.checked = v.large === true;
    present.checked = v.present === true;
  } catch {
    /* ignore */
  }
  large.addEventListener("change", apply);
  present.addEventListener("change", apply);
  document.documentElement.classList.toggle("large", large.checked);
  document.documentElement.classList.toggle("present", present.checked);
  let t = 0;
  window.addEventListener("resize", () => {
    clearTimeout(t);
    t = window.setTimeout(() => {
      void drawAll();
      void drawPresetCharts(isLarge());
    }, 200);
  });
}

async function start(): Promise<void> {
  viewOptions();
  try {
    const core = await loadCore();
    reg = core.registry();
    useQuantile((df) => core.t975(df));
  } catch (e) {
    byId("boot").textContent = `The WebAssembly core could not be loaded: ${errorMessage(e)}`;
    byId("boot").className = "msg error";
    return;
  }
  pool = new Pool(concurrency);
  ex.policies = reg.policies.slice(0, 2).map(defaultEntry);
  buildPage();
  try {
    const panel = await initPresets({
      trace: () => trace,
      workload: () => workloadOptions(ex.workload),
      concurrency,
      link: (id) => `${location.origin}${location.pathname}#${encodeExperiment({ ...ex, preset: id })}`,
      run: (id) => startPreset(id),
    });
    byId("app").insertBefore(panel, byId("runs-panel"));
  } catch (e) {
    banner("error", `The presets could not be listed: ${errorMessage(e)}`);
  }
  const frag = location.hash.slice(1);
  if (frag) await openLink(frag);
  window.addEventListener("hashchange", () => {
    const f = location.hash.slice(1);
    if (f && f !== encodeExperiment(ex)) void openLink(f);
  });
  document.body.dataset.ready = "1";
  if (import.meta.env.PROD && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(new URL("sw.js", document.baseURI).href).catch(() => {
      /* offline mode is a bonus; the page works without it */
    });
  }
}

void start();
