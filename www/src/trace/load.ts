// Loading a trace: from a file, a bundled sample, a URL, the generator or
// this machine's storage. The bytes go to the run workers, which read them
// (the page's thread never parses a trace); the first reading gives the
// summary shown in section 1. Every failure keeps the trace in use.
import { signal } from "@preact/signals";
import { core, errorMessage } from "../core";
import type { GenerateMessage, TraceRef, WorkloadOptions } from "../generated/types";
import { SAMPLES } from "../samples";
import { formNote, type LoadedTrace, type Note, pendingFile, pool, theForm, trace, traceNote } from "../store";
import { putTrace } from "./stored";

const MAX_FILE = 2 * 1024 * 1024 * 1024;

let loads = 0;
/** Run once the awaited file of a share link is loaded. */
let afterPending: (() => void) | null = null;

/** Has `action` run once the file a share link awaits is loaded. */
export function whenPendingLoaded(action: () => void): void {
  afterPending = action;
}

function shortName(name: string): string {
  // Names are only ever text on the page; keep them short and printable.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return name.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || "trace.swf";
}

/** "Loaded X: 3,000 jobs on 100 processors", with what was skipped or warned about. */
function loadedNote(t: LoadedTrace): Note {
  const id = t.summary.identity;
  const base = `Loaded ${t.name}: ${id.jobs.toLocaleString("en")} jobs on ${id.procs.toLocaleString("en")} processors`;
  const bad = id.cleaning.bad_lines ?? 0;
  const warned = t.summary.warnings.length;
  const notes: string[] = [];
  if (bad > 0) notes.push(`${bad.toLocaleString("en")} malformed line${bad === 1 ? "" : "s"} skipped`);
  if (warned > 0) notes.push(`${warned} warning${warned === 1 ? "" : "s"} about the trace`);
  if (notes.length === 0) return { kind: "ok", text: `${base}.` };
  return { kind: "warn", text: `${base}; ${notes.join(" and ")} (see below).` };
}

/** Makes `bytes` the trace in use; false (with a message) if it cannot be read or is not the one a link needs. */
export async function setTrace(bytes: ArrayBuffer, name: string, ref: TraceRef): Promise<boolean> {
  const seq = ++loads;
  const previous = trace.value;
  traceNote.value = { kind: "info", text: `Reading ${name}…` };
  const restore = (text: string) => {
    if (previous) pool().setTrace(previous.bytes, previous.name);
    // The core's reason ends without a full stop; the next sentence needs one before it.
    const ended = /[.!?…]$/.test(text) ? text : `${text}.`;
    traceNote.value = { kind: "error", text: previous ? `${ended} The trace in use is still ${previous.name}.` : ended };
    return false;
  };
  pool().setTrace(bytes, name);
  let summary: LoadedTrace["summary"];
  try {
    summary = await pool().summary(theForm().workload);
  } catch (e) {
    return seq === loads && restore(`${name} could not be read: ${errorMessage(e)}`);
  }
  if (seq !== loads) return false;
  const sha = summary.identity.sha256;
  const want = pendingFile.value;
  if (want && ref.kind !== "file") pendingFile.value = null;
  else if (want && sha !== want.sha256) {
    return restore(
      `Refused: the link needs "${want.name}" with SHA-256 ${want.sha256}, but ${name} has SHA-256 ${sha}. Choose the file the link was made with.`,
    );
  }
  const loaded: LoadedTrace = { bytes, name, ref: ref.kind === "file" ? { ...ref, sha256: sha } : ref, summary };
  trace.value = loaded;
  traceNote.value = loadedNote(loaded);
  // "Load a trace first." and the like no longer hold.
  if (formNote.value?.kind === "error") formNote.value = null;
  if (ref.kind === "file") void putTrace(sha, name, bytes);
  if (want && ref.kind === "file") {
    pendingFile.value = null;
    const action = afterPending;
    afterPending = null;
    action?.();
  }
  return true;
}

export async function loadFile(f: File): Promise<boolean> {
  const name = shortName(f.name);
  if (f.size > MAX_FILE) {
    traceNote.value = { kind: "error", text: `${name} is larger than 2 GiB.` };
    return false;
  }
  try {
    return await setTrace(await f.arrayBuffer(), name, { kind: "file", name, sha256: "" });
  } catch (e) {
    traceNote.value = { kind: "error", text: `${name} could not be read: ${errorMessage(e)}` };
    return false;
  }
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
  if (Number(res.headers.get("content-length") ?? "0") > MAX_FILE) throw new Error(`${what} is larger than 2 GiB.`);
  return res.arrayBuffer();
}

/**
 * The trace last asked for from a sample, a URL or the generator, by the
 * page's own forms or by a share link: those forms show its settings, so a
 * link's trace is visible (and editable) where it would have been chosen.
 */
export const requested = signal<TraceRef | null>(null);

export async function loadSample(id: string): Promise<boolean> {
  requested.value = { kind: "sample", id };
  const s = SAMPLES.find((x) => x.id === id);
  if (!s) {
    traceNote.value = { kind: "error", text: `There is no sample "${id}".` };
    return false;
  }
  try {
    const bytes = await fetchBytes(new URL(s.file, document.baseURI).href, s.title);
    return await setTrace(bytes, s.file.split("/").pop() ?? s.file, { kind: "sample", id: s.id });
  } catch (e) {
    traceNote.value = { kind: "error", text: errorMessage(e) };
    return false;
  }
}

export async function loadUrl(text: string): Promise<boolean> {
  requested.value = { kind: "url", url: text };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    traceNote.value = { kind: "error", text: "That is not a URL (expected https://…)." };
    return false;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    traceNote.value = { kind: "error", text: "Only http and https URLs can be opened." };
    return false;
  }
  traceNote.value = { kind: "info", text: `Fetching ${u.href}…` };
  try {
    const bytes = await fetchBytes(u.href, u.href);
    const name = shortName(decodeURIComponent(u.pathname.split("/").pop() || "trace.swf"));
    return await setTrace(bytes, name, { kind: "url", url: u.href });
  } catch (e) {
    traceNote.value = { kind: "error", text: errorMessage(e) };
    return false;
  }
}

export type GeneratedRef = Extract<TraceRef, { kind: "generated" }>;

export async function loadGenerated(ref: GeneratedRef): Promise<boolean> {
  requested.value = ref;
  traceNote.value = { kind: "info", text: `Generating ${ref.jobs.toLocaleString("en")} jobs…` };
  let bytes: ArrayBuffer;
  try {
    const request: GenerateMessage = { procs: ref.procs, jobs: ref.jobs, load: ref.load, seed: ref.seed };
    bytes = await pool().generate(request);
  } catch (e) {
    traceNote.value = { kind: "error", text: `The generator failed: ${errorMessage(e)}` };
    return false;
  }
  return setTrace(bytes, core().generated_trace_name(ref.procs, ref.jobs, ref.load, ref.seed), ref);
}

let resummary = 0;
/** Reads the trace again with new workload options (soon after they change). */
export function workloadChanged(options: WorkloadOptions): void {
  clearTimeout(resummary);
  resummary = window.setTimeout(async () => {
    const t = trace.value;
    if (!t) return;
    try {
      const summary = await pool().summary(options);
      if (trace.value === t) trace.value = { ...t, summary };
      traceNote.value = loadedNote({ ...t, summary });
    } catch (e) {
      traceNote.value = { kind: "error", text: `With these workload options: ${errorMessage(e)}` };
    }
  }, 250);
}
