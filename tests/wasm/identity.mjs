// Native and WebAssembly runs give the same bytes (SPEC §11): for each
// policy spec, the result document of `schedlab run --json` (minus its
// host-measured `elapsed_ms` line) must equal the wasm `session.run_json`
// text, and the per-job CSV and simulated SWF must be identical too.
//
// One preset section run through the wasm must summarise as `schedlab
// reproduce --json` does.
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
    const wasmJson = session.run_json(r) + "\n";
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
  check("gzip: same run", gz.run_json(request("easy")) === session.run_json(request("easy")));
  gz.free();
  // A preset section through the wasm (plan → session.run per point →
  // experiment_result) gives the summary `schedlab reproduce --json` gives.
  for (const id of ["fairness-audit", "checkpoint-cost"]) {
    const preset = core.presets().find((p) => p.id === id);
    const native = JSON.parse(execFileSync(cli, ["reproduce", id, trace, "--json", "--quiet"], { encoding: "utf8", maxBuffer: 1 << 28 }));
    preset.sections.forEach((section, si) => {
      const s = new core.Session(bytes, "kth-sp2-first3000.swf", { load_factor: section.load_factor });
      const plan = core.plan(section.experiment);
      const points = plan.points.map(({ request, ...point }) => {
        const doc = s.run(request);
        return { ...point, events: doc.events, metrics: doc.metrics };
      });
      const result = core.experiment_result(section.experiment, s.summary().identity, points);
      s.free();
      const a = JSON.stringify(native.sections[si].result.summary);
      const b = JSON.stringify(result.summary);
      check(`preset ${id} section ${si + 1}: summary identical to reproduce --json`, a === b, firstDifference(a.replace(/,/g, ",\n"), b.replace(/,/g, ",\n")));
    });
  }
  session.free();
} catch (e) {
  check("no exception", false, `  ${e?.stack ?? e}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
