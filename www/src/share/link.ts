// Share links: the core writes them (`encode_link`, `#v2=`) from the
// loaded trace's reference, the form's experiment and the preset last run,
// and reads them back (`decode_link`, which also opens the first page's
// `#v1=` links and accepts both base64 alphabets). The page's address
// carries the link of what ran last.
import { core, errorMessage } from "../core";
import { viewLink } from "../schedule/state";
import { formNote, runnable, shareUrl, trace } from "../store";

/** The preset the link names: the one last run, until the form runs. */
let linkedPreset: string | null = null;

/** The fragment (without `#`) of the current setup, or null without a trace. */
export function linkFragment(): string | null {
  const t = trace.value;
  const experiment = runnable.value;
  if (!t || !experiment) return null;
  return core().encode_link({ trace: t.ref, experiment, preset: linkedPreset ?? undefined, view: viewLink(experiment) });
}

/** The fragment the page's address carries now (to tell a user's edit from ours). */
export function currentFragment(): string {
  return location.hash.slice(1);
}

/** Puts the link of what just started in the page's address (`preset`: the preset that started, or null for the form). */
export function updateLocation(preset: string | null): void {
  linkedPreset = preset;
  try {
    const f = linkFragment();
    if (f) history.replaceState(null, "", `#${f}`);
  } catch (e) {
    formNote.value = { kind: "error", text: `The share link could not be written: ${errorMessage(e)}` };
  }
}

/** Rewrites the page's address with the current link (the schedule view moved), keeping the preset it names. */
export function refreshLocation(): void {
  updateLocation(linkedPreset);
}

/** Copies the share link to the clipboard (or shows it to copy by hand). */
export async function copyLink(): Promise<void> {
  let f: string | null;
  try {
    f = linkFragment();
  } catch (e) {
    formNote.value = { kind: "error", text: `The share link could not be written: ${errorMessage(e)}` };
    return;
  }
  if (!f) {
    formNote.value = { kind: "error", text: "Load a trace first: the link names it." };
    return;
  }
  const url = `${location.origin}${location.pathname}#${f}`;
  history.replaceState(null, "", url);
  shareUrl.value = url;
  try {
    await navigator.clipboard.writeText(url);
    formNote.value = { kind: "ok", text: "Link copied to the clipboard." };
  } catch {
    formNote.value = { kind: "info", text: "Copy the link from the field next to the button." };
  }
}
