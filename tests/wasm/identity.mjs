// Native and WebAssembly runs give the same bytes (docs/semantics.md,
// "Simulation"): for each
// policy spec, the result document of `schedlab run --json` (minus its
// host-measured `elapsed_ms` line) must equal the wasm `session.run`
// text, and the per-job CSV and simulated SWF must be identical too.
//
// The experiment pipeline through the binding (plan → session.run_point →
// experiment_result) must give the very result document of the command
// line, for two presets (`schedlab reproduce --json`) and one hand-built
// experiment (`schedlab sweep --json`), host-measured times aside.
//
// Needs target/release/schedlab and target/wasm-node (scripts/test-wasm.sh
// builds both). Prints "N passed, M failed"; exits non-zero on a failure.
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { request as specRequest } from "./spec.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const core = createRequire(import.meta.url)(join(root, "target/wasm-node/schedlab_wasm.js"));
const cli = join(root, "target/release/schedlab");
const trace = join(root, "samples/kth-sp2-first3000.swf");
const gzipped = join(root, "tests/fixtures/kth-sp2-first3000.swf.gz");
// The issue's five configurations, one more predictor, then every other
// policy of the registry with its defaults.
const specs = ["fcfs", "easy", "cbf", "easy@last", "easy:error=30@virtual", "easy:order=shortest@tsafrir"];
for (const p of core.registry().policies) if (!specs.includes(p.id)) specs.push(p.id);
const seed = 3;
const request = (spec) => specRequest(spec, { seed });

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed += 1;
    console.log(`ok    ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL  ${name}${detail ? `\n${detail}` : ""}`);
  }
}


/** The first line where two texts differ, for the failure message. */
function firstDifference(a, b) {
  const x = a.split("\n");
  const y = b.split("\n");
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `  line ${i + 1}\n  native: ${x[i]}\n  wasm:   ${y[i]}`;
  }
  return "";
}

const dir = mkdtempSync(join(tmpdir(), "schedlab-identity-"));
try {
  const bytes = new Uint8Array(readFileSync(trace));
  const session = new core.Session(bytes, "kth-sp2-first3000.swf");
  for (const spec of specs) {
    const r = request(spec);
    const args = ["run", trace, "--policy", r.policy, "--seed", String(seed), "--json", "--quiet"];
    for (const [k, v] of Object.entries(r.params)) args.push("--param", `${k}=${v}`);
    if (r.predictor) args.push("--predictor", r.predictor);
    const csvPath = join(dir, "jobs.csv");
    const swfPath = join(dir, "schedule.swf");
    args.push("--jobs-csv", csvPath, "--swf-out", swfPath);
    const nativeJson = execFileSync(cli, args, { encoding: "utf8", maxBuffer: 1 << 28 });
    const withoutElapsed = nativeJson.replace(/^  "elapsed_ms": [^\n]*,\n/m, "");
    check(`${spec}: native document has elapsed_ms`, withoutElapsed !== nativeJson);
    const wasmJson = session.run(r) + "\n";
    check(`${spec}: result document identical`, wasmJson === withoutElapsed, firstDifference(withoutElapsed, wasmJson));
    const csv = session.jobs_csv();
    const nativeCsv = readFileSync(csvPath, "utf8");
    check(`${spec}: per-job CSV identical`, csv === nativeCsv, firstDifference(nativeCsv, csv));
    const swf = session.schedule_swf();
    const nativeSwf = readFileSync(swfPath, "utf8");
    check(`${spec}: simulated SWF identical`, swf === nativeSwf, firstDifference(nativeSwf, swf));
  }
  // The same trace gzipped has the same identity and gives the same run.
  const gz = new core.Session(new Uint8Array(readFileSync(gzipped)), "kth-sp2-first3000.swf");
  const plain = session.summary().identity;
  const packed = gz.summary().identity;
  check("gzip: same sha256 and jobs", plain.sha256 === packed.sha256 && plain.jobs === packed.jobs);
  check("gzip: same run", gz.run(request("easy")) === session.run(request("easy")));
  gz.free();
  // Options given as null, or left out, are the defaults.
  const nulled = new core.Session(bytes, "kth-sp2-first3000.swf", null);
  check("options null: the defaults' identity", JSON.stringify(nulled.summary().identity) === JSON.stringify(plain));
  nulled.free();
  // The experiment pipeline through the wasm gives the command line's result.
  const strip = (r) => JSON.stringify({ ...r, points: r.points.map(({ elapsed_ms, ...p }) => p) });
  const viaWasm = (experiment) => {
    const s = new core.Session(bytes, "kth-sp2-first3000.swf", experiment.workload);
    const plan = core.plan(experiment);
    const points = plan.points.map((p) => s.run_point(experiment, p.index));
    const result = JSON.parse(core.experiment_result(experiment, s.identity(), points));
    s.free();
    return result;
  };
  const compare = (name, native, wasm) => {
    const a = strip(native);
    const b = strip(wasm);
    check(name, a === b, firstDifference(a.replace(/,/g, ",\n"), b.replace(/,/g, ",\n")));
  };
  for (const id of ["fairness-audit", "checkpoint-cost"]) {
    const preset = core.presets().find((p) => p.id === id);
    const native = JSON.parse(execFileSync(cli, ["reproduce", id, trace, "--json", "--quiet"], { encoding: "utf8", maxBuffer: 1 << 28 }));
    preset.sections.forEach((_, si) => {
      const experiment = core.preset_experiment(id, si, {});
      compare(`preset ${id} section ${si + 1}: result identical to reproduce --json`, native.sections[si].result, viaWasm(experiment));
    });
  }
  // A hand-built experiment: two runs, a sweep that applies to one, two
  // repetitions, a window and a bounded-slowdown threshold.
  const sweepArgs = ["sweep", trace, "--policy", "easy@virtual", "--policy", "fcfs", "--sweep", "error=0:40:20", "--repeat", "2", "--seed", "7", "--first", "1500", "--bsd-threshold", "60", "--json", "--quiet"];
  const native = JSON.parse(execFileSync(cli, sweepArgs, { encoding: "utf8", maxBuffer: 1 << 28 }));
  const experiment = {
    runs: [{ policy: "easy", params: {}, predictor: "virtual" }, { policy: "fcfs", params: {} }],
    params: {},
    repeat: 2,
    seed: 7,
    sweep: { param: "error", values: { from: 0, to: 40, step: 20 } },
    workload: { window: { first_jobs: 1500 } },
    metrics: { bsd_threshold: 60, skip_percent: 0, short_runtime: 3600, narrow_size: 8, check: true },
  };
  compare("hand-built experiment: result identical to sweep --json", native, viaWasm(experiment));
  session.free();
} catch (e) {
  check("no exception", false, `  ${e?.stack ?? e}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
