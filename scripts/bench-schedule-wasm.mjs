#!/usr/bin/env node
// Times the schedule view's queries in WebAssembly under Node, as
// `schedlab-bench schedule` does natively, and prints one JSON object:
// laying a run out, the module's linear memory with one and two runs laid
// out, and the median of 41 queries of each kind spread over the run.
//
//   node scripts/bench-schedule-wasm.mjs [TRACE] [--policy ID] [--against ID]
//
// Without TRACE it generates a 250,000-job Lublin–Feitelson trace (256
// processors, load 0.85, seed 7, estimates 3 × runtime). Needs
// target/wasm-node (scripts/build-wasm.sh).
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const core = createRequire(import.meta.url)(join(root, "target/wasm-node/schedlab_wasm.js"));
const args = process.argv.slice(2);
let trace = null;
let policy = "easy";
let against = "fcfs";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--policy") policy = args[++i];
  else if (args[i] === "--against") against = args[++i];
  else trace = args[i];
}
const SAMPLES = 41;
const COLUMNS = 1600;
const WEEK = 7 * 86400;

function median(query) {
  const times = [];
  for (let k = 0; k < SAMPLES; k++) {
    const t0 = performance.now();
    query(k);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[SAMPLES >> 1];
}

const params = { procs: 256, jobs: 250000, load: 0.85, seed: 7, estimate_factor: 3 };
const bytes = trace ? readFileSync(resolve(trace)) : core.generate_lublin(params);
const session = new core.Session(bytes, trace ? basename(trace) : "lublin-250000.swf");
const jobs = JSON.parse(session.identity()).jobs;
const mb = () => core.wasm_memory_bytes() / 1e6;
const memoryLoaded = mb();
session.run({ policy: against });
session.schedule_open(1);
session.run({ policy });
const memoryBeforeOpen = mb();
let t0 = performance.now();
const info = session.schedule_open(0);
const openMs = performance.now() - t0;
const [first, last] = info.span;
const at = (k) => Math.floor(first + ((last - first) * k) / SAMPLES);
const whole = { from: first, to: Math.max(last, first + 1), buckets: COLUMNS };
let runs = 0;
const figures = {
  trace: trace ? basename(trace) : `lublin ${JSON.stringify(params)}`,
  jobs,
  policy,
  against,
  open_ms: openMs,
  view_bytes_per_job: info.view_bytes / jobs,
  record_bytes_per_job: info.record_bytes / jobs,
  week_window_ms: median((k) => {
    runs += session.schedule_window(0, at(k), at(k) + WEEK, 100000).rects.length;
  }),
  week_window_runs: 0,
  whole_buckets_ms: median(() => session.schedule_buckets(0, whole)),
  week_buckets_ms: median((k) => session.schedule_buckets(0, { from: at(k), to: at(k) + WEEK, buckets: COLUMNS })),
  whole_series_ms: median(() => session.schedule_series(0, whole)),
  inspect_ms: median((k) => session.schedule_job(0, Math.floor((jobs * k) / SAMPLES))),
  replay_ms: median((k) => session.schedule_replay(0, at(k), 200)),
  scatter_ms: median(() => session.schedule_scatter("bsd")),
  memory_mb_loaded: memoryLoaded,
  memory_mb_two_views: mb(),
  memory_mb_before_second_open: memoryBeforeOpen,
};
figures.week_window_runs = runs / SAMPLES;
console.log(JSON.stringify(figures, null, 2));
