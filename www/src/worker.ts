/// <reference lib="webworker" />
// A run worker: one trace, one run (or one summary, or one generated trace).
// Parsing happens here, never on the page's thread.
import type { Phase } from "./generated/types";
import type { FromWorker, ToWorker } from "./protocol";
import { errorMessage, loadCore } from "./wasm";

declare const self: DedicatedWorkerGlobalScope;

type Core = Awaited<ReturnType<typeof loadCore>>;
let session: InstanceType<Core["Session"]> | null = null;

/** The phase of a run that has two ("step 1 of 2: calibration (CBF reference run)"). */
function phaseText(p: Phase): string | undefined {
  return p.steps > 1 ? `step ${p.step} of ${p.steps}: ${p.label}` : undefined;
}

function post(msg: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

async function handle(msg: ToWorker): Promise<void> {
  const core = await loadCore();
  switch (msg.type) {
    case "registry":
      post({ type: "registry", registry: core.registry() });
      return;
    case "summary": {
      const s = new core.Session(new Uint8Array(msg.bytes), msg.name, msg.options);
      post({ type: "summary", summary: s.summary() });
      s.free();
      return;
    }
    case "run": {
      session?.free();
      const tp = performance.now();
      session = new core.Session(new Uint8Array(msg.bytes), msg.name, msg.options);
      const t0 = performance.now();
      let last = 0;
      const doc = session.run(msg.request, (p) => {
        const now = performance.now();
        if (now - last > 50) {
          last = now;
          post({ type: "progress", progress: { completed: p.completed, jobs: p.jobs, events: p.events, phase: phaseText(p.phase) } });
        }
      });
      post({ type: "result", document: doc, elapsedMs: performance.now() - t0, parseMs: t0 - tp });
      return;
    }
    case "point": {
      session?.free();
      session = new core.Session(new Uint8Array(msg.bytes), msg.name, msg.options);
      const t0 = performance.now();
      let last = 0;
      const result = session.run_point(msg.experiment, msg.index, (p) => {
        const now = performance.now();
        if (now - last > 50) {
          last = now;
          post({ type: "progress", progress: { completed: p.completed, jobs: p.jobs, events: p.events, phase: phaseText(p.phase) } });
        }
      });
      post({ type: "point", result, identity: session.identity(), elapsedMs: performance.now() - t0 });
      return;
    }
    case "export": {
      if (!session) throw new Error("no finished run in this worker");
      const text = msg.format === "csv" ? session.jobs_csv() : session.schedule_swf();
      post({ type: "exported", format: msg.format, text });
      return;
    }
    case "generate": {
      const bytes: Uint8Array = core.generate_lublin(msg.request);
      const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      post({ type: "generated", bytes: buf }, [buf]);
      return;
    }
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  handle(ev.data).catch((e: unknown) => post({ type: "error", message: errorMessage(e) }));
};
post({ type: "ready" });
