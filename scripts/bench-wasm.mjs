#!/usr/bin/env node
// Times the WebAssembly core under Node against the native binary on one
// trace: load (gunzip + parse + clean + statistics) and runs (engine, run
// checker and metrics), and prints one JSON object.
//
//   node scripts/bench-wasm.mjs TRACE [--policy SPEC]... [--repeat N]
//
// Needs target/wasm-node (scripts/build-wasm.sh) and, for the native
// figures, target/release/schedlab (skipped with a note when missing).
// Default policies: easy and cbf; best of 3 timings.
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { request } from "../tests/wasm/spec.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const policies = [];
let repeat = 3;
let trace = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--policy") policies.push(args[++i]);
  else if (args[i] === "--repeat") repeat = Math.max(1, Number(args[++i]));
  else trace = args[i];
}
if (!trace) {
  console.error("usage: node scripts/bench-wasm.mjs TRACE [--policy SPEC]... [--repeat N]");
  process.exit(2);
}
if (policies.length === 0) policies.push("easy", "cbf");
trace = resolve(trace);
const name = basename(trace);


function best(n, f) {
  let t = Infinity;
  let out;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    out = f();
    t = Math.min(t, (performance.now() - t0) / 1000);
  }
  return [t, out];
}

const core = createRequire(import.meta.url)(join(root, "target/wasm-node/schedlab_wasm.js"));
const bytes = new Uint8Array(readFileSync(trace));
const [loadSeconds, session] = best(repeat, () => new core.Session(bytes, name));
const identity = session.summary().identity;
const wasm = { load_seconds: loadSeconds, runs: [] };
for (const spec of policies) {
  const [seconds, text] = best(repeat, () => session.run(request(spec)));
  const doc = JSON.parse(text);
  wasm.runs.push({ policy: spec, seconds, events: doc.events, mbs: doc.metrics.mbs, check: doc.check });
}
wasm.module_memory_bytes = core.wasm_memory_bytes();
wasm.process_rss_bytes = process.memoryUsage().rss;

// Native: `schedlab-bench` on a directory holding only this trace.
let native = null;
const cli = join(root, "target/release/schedlab-bench");
if (existsSync(cli)) {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-bench-"));
  try {
    symlinkSync(trace, join(dir, name));
    const cmd = ["--traces", dir, "--repeat", String(repeat), "--json", "--quiet"];
    for (const p of policies) cmd.push("--policy", p);
    const rows = JSON.parse(execFileSync(cli, cmd, { encoding: "utf8", maxBuffer: 1 << 26 }));
    const parse = rows.find((r) => r.kind === "parse");
    native = {
      load_seconds: parse.file_seconds,
      runs: rows.filter((r) => r.kind === "run").map((r) => ({ policy: r.policy, seconds: r.seconds, events: r.events, mbs: r.mbs })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ratio = (a, b) => (b > 0 ? a / b : null);
const out = {
  trace: name,
  jobs: identity.jobs,
  procs: identity.procs,
  node: process.version,
  repeat,
  wasm,
  native,
  wasm_over_native: native && {
    load: ratio(wasm.load_seconds, native.load_seconds),
    runs: Object.fromEntries(
      wasm.runs.map((r) => [r.policy, ratio(r.seconds, native.runs.find((n) => n.policy === r.policy)?.seconds ?? 0)]),
    ),
  },
  same_results: native && wasm.runs.every((r) => {
    const n = native.runs.find((x) => x.policy === r.policy);
    return n && n.events === r.events && n.mbs === r.mbs;
  }),
};
if (!native) out.note = "target/release/schedlab-bench not found: native figures skipped (cargo build --release -p schedlab-bench)";
console.log(JSON.stringify(out, null, 2));
