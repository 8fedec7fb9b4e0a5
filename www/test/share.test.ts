import { describe, expect, it } from "vitest";
import { type Experiment, expand, sweepValues } from "../src/experiment";
import { b64urlEncode, decodeExperiment, encodeExperiment, LinkError, PREFIX } from "../src/share";
import { createRequire } from "node:module";
import { estimate, useQuantile } from "../src/stats";
import type { Registry } from "../src/types";

// the same shape as `schedlab policies --json`, plus a policy with numeric params
const reg: Registry = {
  policies: [
    { id: "fcfs", name: "FCFS", description: "", params: [], uses_runtime_source: false, default_source: "estimate" },
    {
      id: "easy",
      name: "EASY",
      description: "",
      params: [{ key: "order", name: "Backfill order", description: "", type: "choice", options: ["priority", "shortest"], default: "priority", unit: null }],
      uses_runtime_source: true,
      default_source: "estimate",
    },
    {
      id: "slack",
      name: "Slack",
      description: "",
      params: [{ key: "sf", name: "Slack factor", description: "", type: "float", min: 1, max: 10, default: 2, unit: null }],
      uses_runtime_source: true,
      default_source: "estimate",
    },
  ],
  predictors: [
    { id: "estimate", name: "User estimate", description: "", params: [] },
    {
      id: "virtual",
      name: "Virtual",
      description: "",
      params: [{ key: "error", name: "Prediction error", description: "", type: "float", min: 0, max: 100, default: 10, unit: "%" }],
    },
  ],
};

const base: Experiment = {
  trace: { kind: "sample", id: "kth" },
  workload: { machineSize: 128, loadFactor: 1.2, first: 1000, queues: [1, 3], clamp: true },
  globals: { sf: "3" },
  policies: [
    { policy: "easy", params: { order: "shortest", error: "20" }, source: "virtual", sweep: null },
    { policy: "slack", params: { sf: "2" }, source: "estimate", sweep: { key: "sf", from: 1, to: 3, step: 0.5 } },
    { policy: "fcfs", params: {}, source: null, sweep: null },
  ],
  reps: 3,
  seed: 7,
};

describe("share links", () => {
  it("round-trip the whole experiment", () => {
    const link = encodeExperiment(base);
    expect(link.startsWith(PREFIX)).toBe(true);
    expect(decodeExperiment(link, reg, ["kth"])).toEqual(base);
  });
  it("carry a preset id, checked against the core's presets", () => {
    const link = encodeExperiment({ ...base, preset: "fairness-audit" });
    expect(decodeExperiment(link, reg, ["kth"], ["fairness-audit", "dbf"])).toEqual({ ...base, preset: "fairness-audit" });
    expect(() => decodeExperiment(link, reg, ["kth"], ["dbf"])).toThrow(LinkError);
    expect(() => decodeExperiment(link, reg, ["kth"])).toThrow(/preset/);
  });
  it("round-trip every trace kind", () => {
    for (const trace of [
      { kind: "generated" as const, procs: 128, jobs: 500, load: 0.8, seed: 3 },
      { kind: "url" as const, url: "https://example.org/a%20b.swf.gz" },
      { kind: "file" as const, name: "<img src=x onerror=alert(1)>.swf", sha256: "a".repeat(64) },
    ]) {
      const ex = { ...base, trace };
      expect(decodeExperiment(encodeExperiment(ex), reg, ["kth"]).trace).toEqual(trace);
    }
  });
  const bad = (obj: unknown) => PREFIX + b64urlEncode(JSON.stringify(obj));
  it.each([
    ["broken base64", `${PREFIX}%%%`],
    ["not JSON", PREFIX + b64urlEncode("{")],
    ["unknown version", "v9=abc"],
    ["unknown policy", bad({ p: [["<script>", {}, ""]] })],
    ["unknown param", bad({ p: [["easy", { "<b>": "1" }, "estimate"]] })],
    ["choice not in options", bad({ p: [["easy", { order: "<img>" }, "estimate"]] })],
    ["out of range", bad({ p: [["slack", { sf: "99" }, "estimate"]] })],
    ["unknown source", bad({ p: [["easy", {}, "oracle"]] })],
    ["bad sha", bad({ t: ["f", "x.swf", "zz"], p: [["fcfs", {}, ""]] })],
    ["javascript url", bad({ t: ["u", "javascript:alert(1)"], p: [["fcfs", {}, ""]] })],
    ["unknown sample", bad({ t: ["s", "nope"], p: [["fcfs", {}, ""]] })],
    ["no policy", bad({})],
    ["reps", bad({ p: [["fcfs", {}, ""]], r: 1e9 })],
    ["global knob", bad({ p: [["slack", {}, "estimate"]], g: { sf: "100" } })],
    ["array", bad([1, 2])],
  ])("refuse %s", (_what, link) => {
    expect(() => decodeExperiment(link, reg, ["kth"])).toThrow(LinkError);
  });
});

describe("expansion", () => {
  it("applies global knobs, sweeps and repetitions", () => {
    const runs = expand(reg, base);
    // easy: 1 point x 3 reps; slack: 5 points x 3 reps; fcfs: 3 reps
    expect(runs.length).toBe(3 + 15 + 3);
    expect(runs[0].request).toEqual({ policy: "easy", params: { order: "shortest", error: "20" }, seed: 7, predictor: "virtual" });
    expect(runs[2].request.seed).toBe(9);
    // the sweep wins over the global knob on the swept key
    expect(runs.filter((r) => r.entry === 1).map((r) => r.request.params?.sf)).toEqual(
      ["1", "1", "1", "1.5", "1.5", "1.5", "2", "2", "2", "2.5", "2.5", "2.5", "3", "3", "3"],
    );
    expect(runs[runs.length - 1].request).toEqual({ policy: "fcfs", params: {}, seed: 9 });
  });
  it("global knob applies where the key exists", () => {
    const ex = { ...base, policies: [{ policy: "slack", params: { sf: "2" }, source: "estimate", sweep: null }], reps: 1 };
    expect(expand(reg, ex)[0].request.params).toEqual({ sf: "3" });
  });
  it("sweep points", () => {
    expect(sweepValues({ key: "x", from: 0, to: 1, step: 0.1 }).length).toBe(11);
  });
});

describe("statistics", () => {
  // The quantile is the core's (the Node build of the WebAssembly module,
  // written by scripts/build-wasm.sh), as in the page.
  const core = createRequire(import.meta.url)("../../target/wasm-node/schedlab_wasm.js") as { t975(df: number): number };
  useQuantile((df) => core.t975(df));
  it("t quantiles are the core's exact ones (published tables)", () => {
    expect(core.t975(1)).toBeCloseTo(12.706, 3);
    expect(core.t975(9)).toBeCloseTo(2.262, 3);
    expect(core.t975(60)).toBeCloseTo(2.0, 3);
    expect(core.t975(100)).toBeCloseTo(1.984, 3);
  });
  it("mean and 95 % interval; one run has none", () => {
    const e = estimate([1, 2, 3, 4]);
    expect(e.mean).toBe(2.5);
    // t(0.975, 3) = 3.182446
    expect(e.half).toBeCloseTo((3.182446 * Math.sqrt(5 / 3)) / 2, 5);
    expect(Number.isNaN(estimate([5]).half)).toBe(true);
  });
});
