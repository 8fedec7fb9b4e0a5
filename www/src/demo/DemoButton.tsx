// The first visit's one click: loads the bundled sample, puts the core's
// demo experiment in the form, runs it and opens the results. The form
// stays below for everyone else.
import { useEffect, useState } from "preact/hooks";
import { core, errorMessage } from "../core";
import { setExperiment } from "../experiment/form";
import { startExperiment } from "../runs/experiment-run";
import { SAMPLES } from "../samples";
import { experimentRun, resultsView, trace, useTick, view } from "../store";
import { loadSample } from "../trace/load";

/** The demo's run, until its results are shown. */
let shownWhenDone: number | null = null;

async function runDemo(): Promise<string | null> {
  // The experiment first: the sample is then read with its workload options.
  setExperiment(core().demo().experiment);
  const loaded = await loadSample(SAMPLES[0].id);
  if (!loaded || !trace.value) return "The sample could not be loaded (see section 1).";
  startExperiment();
  resultsView.value = "summary";
  shownWhenDone = experimentRun.value?.id ?? null;
  showResults();
  return null;
}

/** The results panel, or in the presentation layout its first chart, at the screen's top. */
function showResults(): void {
  const chart = view.value.present ? document.querySelector("#charts figure") : null;
  (chart ?? document.getElementById("results-panel"))?.scrollIntoView({ block: "start" });
}

/** Brings the results into view again once the demo's runs are done (the runs list above them has grown meanwhile). */
function useResultsWhenDone(): void {
  useTick();
  const run = experimentRun.value;
  const done = run !== null && run.id === shownWhenDone && run.complete;
  useEffect(() => {
    if (!done) return;
    shownWhenDone = null;
    showResults();
  }, [done]);
}

export function DemoButton() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const demo = core().demo();
  useResultsWhenDone();
  return (
    <section class="demo" id="demo" aria-label="Demo">
      <button
        type="button"
        id="demo-run"
        class="primary demo-run"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            setError(await runDemo());
          } catch (e) {
            setError(errorMessage(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        {demo.button}
      </button>
      <span class="muted">
        {" "}
        One click: loads {SAMPLES[0].title}, runs the three, opens the results. Or set up your own experiment below.
      </span>
      {error ? <p class="msg error">{error}</p> : null}
    </section>
  );
}
