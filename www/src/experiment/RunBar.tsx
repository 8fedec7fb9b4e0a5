// Run, cancel and share: Run says why it cannot start (no trace yet, the
// link's file missing, a value the core refuses) instead of failing later.

import { cancelExperiment, startExperiment } from "../runs/experiment-run";
import { copyLink } from "../share/link";
import { blocked, experimentRun, pool, shareUrl, useTick } from "../store";

export function RunBar() {
  useTick();
  const why = blocked.value;
  const running = experimentRun.value && !experimentRun.value.execution.settled;
  return (
    <>
      <div class="toolbar">
        <button
          type="button"
          id="run"
          class="primary"
          aria-disabled={why ? "true" : undefined}
          aria-describedby={why ? "run-why" : undefined}
          onClick={() => startExperiment()}
        >
          Run experiment
        </button>
        <button type="button" id="cancel-all" disabled={!running} onClick={() => cancelExperiment()}>
          Cancel all
        </button>
        <button type="button" id="copy-link" onClick={() => void copyLink()}>
          Copy link
        </button>
        <input type="text" id="share-url" readOnly aria-label="Share link" value={shareUrl.value} class="share" hidden={!shareUrl.value} />
      </div>
      <p id="run-why" class="muted why" hidden={!why}>
        {why}
      </p>
      <p class="muted">
        Runs go to {pool().size} worker{pool().size === 1 ? "" : "s"} (one per core), which keep the trace they have read.
      </p>
    </>
  );
}
