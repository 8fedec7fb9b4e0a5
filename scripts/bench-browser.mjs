#!/usr/bin/env node
// Browser benchmark: one EASY run on a large trace in the playground (system
// Chromium, headless), through the page and its run worker, against the
// native command line on the same trace. Prints the figures for
// BENCHMARKS.md. Needs www/dist (cd www && npm run build) and
// target/release/schedlab.
//   node scripts/bench-browser.mjs [TRACE] [--policy easy]
// Memory: the tab's renderer process (the page and its workers share it) is
// sampled from /proc every 50 ms (peak PSS, /proc/PID/smaps_rollup), plus the page's JS heap from
// CDP Performance.getMetrics (performance.measureUserAgentSpecificMemory is
// unavailable headless).
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { launch, ROOT, serve } from "../tests/browser/harness.mjs";

const args = process.argv.slice(2);
const repeatAt = args.indexOf("--repeat");
const repeat = repeatAt >= 0 ? Number(args.splice(repeatAt, 2)[1]) : 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const policyAt = args.indexOf("--policy");
const policy = policyAt >= 0 ? args.splice(policyAt, 2)[1] : "easy";
const trace = args[0] ?? join(ROOT, "..", "shared", "traces", "HPC2N-2002-2.2-cln.swf.gz");
const CLI = join(ROOT, "target", "release", "schedlab");

function rendererPids(profile) {
  const pids = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      if (cmd.includes("--type=renderer") && cmd.includes(profile)) pids.push(Number(d));
    } catch {}
  }
  return pids;
}

/** Proportional set size (shared pages divided among their users), KiB. */
function rssKiB(pid) {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const mib = (kib) => (kib / 1024).toFixed(0);

// ---- native
let doc;
const nativeRuns = [];
const nativeTotals = [];
for (let i = 0; i < repeat; i++) {
  const t0 = process.hrtime.bigint();
  doc = JSON.parse(execFileSync(CLI, ["run", trace, "--policy", policy, "--json", "-q"], { maxBuffer: 256 << 20 }).toString());
  nativeTotals.push(Number(process.hrtime.bigint() - t0) / 1e6);
  nativeRuns.push(doc.elapsed_ms);
}
const nativeTotal = median(nativeTotals);
doc.elapsed_ms = median(nativeRuns);
const nativeRss = (() => {
  const r = spawnSync("/usr/bin/time", ["-f", "%M", CLI, "run", trace, "--policy", policy, "-q"], { stdio: ["ignore", "ignore", "pipe"] });
  const m = /(\d+)\s*$/.exec(String(r.stderr ?? ""));
  return m ? Number(m[1]) : Number.NaN;
})();

// ---- browser
const server = await serve();
const browser = await launch();
const profile = browser.context._options?.userDataDir ?? "";
const page = await browser.context.newPage();
const cdp = await browser.context.newCDPSession(page);
await cdp.send("Performance.enable");
await page.goto(server.url);
await page.waitForSelector("body[data-ready='1']");
const pidsIdle = rendererPids("schedlab-chromium-");
const idleRss = pidsIdle.reduce((a, p) => a + rssKiB(p), 0);
const idleEach = pidsIdle.map((p) => `${p}: ${mib(rssKiB(p))} MiB`).join(", ");

let peak = 0;
const peakEach = new Map();
let peakHeap = 0;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    let rss = 0;
    for (const p of rendererPids("schedlab-chromium-")) {
      const k = rssKiB(p);
      rss += k;
      peakEach.set(p, Math.max(peakEach.get(p) ?? 0, k));
    }
    peak = Math.max(peak, rss);
    await new Promise((r) => setTimeout(r, 50));
  }
})();
const heapSampler = (async () => {
  while (sampling) {
    try {
      const { metrics } = await cdp.send("Performance.getMetrics");
      const used = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
      peakHeap = Math.max(peakHeap, used);
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
})();

const tLoad = Date.now();
await page.setInputFiles("#file-input", trace);
await page.waitForFunction(() => /^(Loaded|.* could not be read)/.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 600_000 });
const loadMs = Date.now() - tLoad;
const loadMsg = await page.textContent("#trace-msg");
while ((await page.$$(".card")).length > 0) await page.click(".card button[id$='-remove']");
await page.selectOption("#add-policy", policy);
await page.click("#add-policy-btn");
// longest main-thread stall while the run goes on (the page must not freeze)
await page.evaluate(() => {
  window.__maxGap = 0;
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    window.__maxGap = Math.max(window.__maxGap, now - last);
    last = now;
    window.__ticker = requestAnimationFrame(tick);
  };
  window.__ticker = requestAnimationFrame(tick);
});
const runs = [];
let wallMs = 0;
let li;
for (let i = 0; i < repeat; i++) {
  const tRun = Date.now();
  await page.click("#run");
  await page.waitForSelector("#runs li[data-status='done'], #runs li[data-status='error']", { timeout: 600_000 });
  wallMs = Date.now() - tRun;
  li = await page.$eval("#runs li", (l) => ({ status: l.dataset.status, elapsed: Number(l.dataset.elapsed), parse: Number(l.dataset.parse), text: l.textContent }));
  if (li.status !== "done") break;
  runs.push(li.elapsed);
}
li.elapsed = median(runs);
await page.waitForSelector("#results-table");
const maxGap = await page.evaluate(() => {
  cancelAnimationFrame(window.__ticker);
  return window.__maxGap;
});
const mbsPage = await page.$eval("#results-table td[data-metric='mbs']", (td) => Number(td.dataset.value));
await new Promise((r) => setTimeout(r, 300));
sampling = false;
await Promise.all([sampler, heapSampler]);
const { metrics } = await cdp.send("Performance.getMetrics");
const heapAfter = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
await browser.close();
await server.close();

if (li.status !== "done") {
  console.error(`browser run failed: ${li.text}`);
  process.exit(1);
}
const ratio = li.elapsed / doc.elapsed_ms;
console.log(`trace: ${basename(trace)} (${(statSync(trace).size / 1048576).toFixed(1)} MiB on disk), ${doc.trace.jobs} jobs, ${doc.trace.procs} processors, policy ${policy}`);
console.log(`page loaded the trace (read + summary in a worker): ${(loadMs / 1000).toFixed(2)} s — ${loadMsg}`);
console.log(`browser run (worker, engine + checker + metrics): ${(li.elapsed / 1000).toFixed(3)} s; reading the trace in the run worker: ${(li.parse / 1000).toFixed(3)} s; click to result: ${(wallMs / 1000).toFixed(2)} s`);
console.log(`native run (elapsed_ms of schedlab run): ${(doc.elapsed_ms / 1000).toFixed(3)} s; whole native command incl. reading: ${(nativeTotal / 1000).toFixed(2)} s`);
console.log(`browser / native (run, median of ${repeat}): ${ratio.toFixed(2)}x (target: within 2x); browser runs ${runs.map((x) => x.toFixed(0)).join(", ")} ms, native ${nativeRuns.map((x) => x.toFixed(0)).join(", ")} ms`);
console.log(`same result: MBS page ${mbsPage} vs native ${doc.metrics.mbs} -> ${mbsPage === doc.metrics.mbs ? "identical" : "DIFFERENT"}`);
console.log(`longest page-thread frame gap during the run: ${maxGap.toFixed(0)} ms`);
console.log(`tab memory (renderer processes' PSS, page + workers): idle ${mib(idleRss)} MiB, peak ${mib(peak)} MiB (target: under 300 MB for 250,000 jobs) [renderers idle: ${idleEach}]`);
const tab = Math.max(...peakEach.values());
console.log(`busiest renderer process (the tab: page + its workers): peak PSS ${mib(tab)} MiB`);
console.log(`page JS heap (CDP JSHeapUsedSize): peak ${(peakHeap / 1048576).toFixed(1)} MiB, after ${(heapAfter / 1048576).toFixed(1)} MiB`);
console.log(`native peak RSS (/usr/bin/time): ${Number.isFinite(nativeRss) ? `${mib(nativeRss)} MiB` : "n/a"}`);
void profile;
