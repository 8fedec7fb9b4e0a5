// Opening a share link: the core reads it (`decode_link`: `#v2=`, the
// first page's `#v1=`, both base64 alphabets, every field checked and a
// refusal naming the field); the page then restores the form, loads the
// trace the link names and runs what it ran. A link to an uploaded file
// runs at once when this machine kept the file, and otherwise asks for it.
import { core, errorMessage } from "../core";
import type { Link } from "../generated/types";
import { runPreset } from "../presets/PresetsPanel";
import { startExperiment } from "../runs/experiment-run";
import { SAMPLES } from "../samples";
import { pendingView } from "../schedule/state";
import { banner, form, pendingFile, resultsView, trace, traceNote } from "../store";
import { loadGenerated, loadSample, loadUrl, setTrace, whenPendingLoaded } from "../trace/load";
import { getTrace } from "../trace/stored";

/** Runs what the link ran: its preset, or the form's experiment (and then opens its schedule view, if it names one). */
function runLinked(link: Link): void {
  if (link.preset) runPreset(link.preset);
  else {
    pendingView.value = link.view ?? null;
    if (link.view) resultsView.value = "schedule";
    startExperiment();
  }
}

export async function openLink(fragment: string): Promise<void> {
  let link: Link;
  try {
    link = core().decode_link(fragment);
  } catch (e) {
    banner.value = { kind: "error", text: `This link could not be opened: ${errorMessage(e)}. The page starts with its defaults instead.` };
    return;
  }
  // The samples are the page's own: the core checks the id's form only.
  if (link.trace?.kind === "sample" && !SAMPLES.some((s) => s.id === (link.trace as { id: string }).id)) {
    const known = SAMPLES.map((s) => s.id).join(", ");
    banner.value = {
      kind: "error",
      text: `This link could not be opened: trace.id: the link names a sample that does not exist (known: ${known}). The page starts with its defaults instead.`,
    };
    return;
  }
  banner.value = null;
  form.value = link.experiment;
  const t = link.trace;
  if (!t) return;
  let ok = false;
  switch (t.kind) {
    case "sample":
      ok = await loadSample(t.id);
      break;
    case "generated":
      ok = await loadGenerated(t);
      break;
    case "url":
      ok = await loadUrl(t.url);
      break;
    case "file": {
      const stored = await getTrace(t.sha256);
      if (stored) {
        ok = await setTrace(stored.bytes, stored.name, { kind: "file", name: stored.name, sha256: t.sha256 });
        break;
      }
      trace.value = null;
      pendingFile.value = { name: t.name, sha256: t.sha256 };
      traceNote.value = {
        kind: "info",
        text: `This link was made with the file "${t.name}" (SHA-256 ${t.sha256}). Choose or drop that file to run the experiment; a file with another content is refused.`,
      };
      whenPendingLoaded(() => runLinked(link));
      return;
    }
  }
  if (ok) runLinked(link);
}
