// The page's entry: loads the core, sets up the store (the registry, the
// form's first experiment), renders the panels, opens a share link if the
// address carries one, and registers the offline precache.
import "./style.css";
import "./panels.css";
import { render } from "preact";
import { App } from "./App";
import { core, errorMessage, loadCore } from "./core";
import { embeddedView } from "./embed";
import { currentFragment } from "./share/link";
import { openLink } from "./share/open-link";
import { form, registry, view } from "./store";

const VIEW_KEY = "schedlab-view";

/** The display options in the page's header (large type, presentation layout), kept on this machine. */
function viewOptions(): void {
  const large = document.getElementById("opt-large") as HTMLInputElement;
  const present = document.getElementById("opt-present") as HTMLInputElement;
  try {
    const v = JSON.parse(localStorage.getItem(VIEW_KEY) ?? "{}");
    large.checked = v.large === true;
    present.checked = v.present === true;
  } catch {
    // A broken stored value: the defaults.
  }
  const apply = () => {
    document.documentElement.classList.toggle("large", large.checked);
    document.documentElement.classList.toggle("present", present.checked);
    view.value = { large: large.checked, present: present.checked };
    try {
      localStorage.setItem(VIEW_KEY, JSON.stringify(view.value));
    } catch {
      // Storage unavailable: the choice lasts for this visit.
    }
  };
  large.addEventListener("change", apply);
  present.addEventListener("change", apply);
  apply();
}

async function start(): Promise<void> {
  const app = document.getElementById("app") as HTMLElement;
  viewOptions();
  try {
    await loadCore();
    registry.value = core().registry();
  } catch (e) {
    app.textContent = `The WebAssembly core could not be loaded: ${errorMessage(e)}`;
    app.className = "msg error";
    return;
  }
  const first = core().default_experiment();
  form.value = { ...first, runs: (registry.value?.policies ?? []).slice(0, 2).map((p) => ({ policy: p.id, params: {} })) };
  app.textContent = "";
  // An embedded view fills its frame: no page header or footer around it.
  document.body.classList.toggle("embed", embeddedView() !== null);
  render(<App />, app);
  const fragment = currentFragment();
  if (fragment) await openLink(fragment);
  window.addEventListener("hashchange", () => {
    const f = currentFragment();
    if (f) void openLink(f);
  });
  document.body.dataset.ready = "1";
  if (import.meta.env.PROD && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(new URL("sw.js", document.baseURI).href).catch(() => {
      // Offline use is a bonus: the page works without it.
    });
  }
}

void start();
