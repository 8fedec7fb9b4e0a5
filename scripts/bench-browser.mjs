#!/usr/bin/env node
// Browser benchmark of the playground (system Chromium, headless). Prints the
// figures for BENCHMARKS.md. Needs www/dist (cd www && npm run build) and
// target/release/schedlab. Three parts, all by default (`--only PART` for one):
//   bundle       the built site's sizes (raw and gzip) by kind of file
//   first-chart  time to first chart, each case in a fresh browser profile:
//                the trace chosen (the TRACE file, then a generated
//                250,000-job trace), EASY alone, Run, until the first chart
//                is drawn; the tab's memory meanwhile and after
//   native       EASY (or --policy) run REPEAT times in the page against the
//                native command line on TRACE, at --load-factor X if given
//                (the page's load factor field and the CLI's flag), with
//                each --param K=V (the card's field #p0-K and the CLI's
//                --param, e.g. --policy backfill --param order=wfp3).
//                What each side times: the page's figure (#runs li's
//                data-elapsed) is the run worker's `run_point` call: the
//                engine, the run checker, the metrics, the point's result
//                with its wait-time ECDF and that result as JSON text (plus
//                a progress message at most every 100 ms). The native one
//                is `schedlab run`'s elapsed_ms: the engine, the run checker
//                and the metrics. Neither includes reading the trace (both
//                read it once before). The ECDF and the JSON text are the
//                page's only extra work: under Node they cost 2 % of an
//                HPC2N formula run, so the ratio is, if anything, against
//                the page. `schedlab sweep --wait-ecdf` times the same work
//                as the page but is not the reference: its point runs on a
//                fresh thread, which natively made it 40-60 % slower than
//                `run` on SDSC-SP2 (measured with and without the ECDF).
//   schedule     the schedule view: frame times (requestAnimationFrame
//                intervals) while dragging the Gantt across TRACE's whole
//                span and across a week of it (EASY alone), then the tab's
//                memory with the generated trace's EASY and CBF runs and
//                their schedule view open
//   [SCHEDLAB_TRACES=DIR] node scripts/bench-browser.mjs [TRACE] [--policy easy] [--repeat 3]
//        [--only bundle|first-chart|native|schedule] [--gen PROCS,JOBS,LOAD,SEED] [--dist DIR]
//        [--load-factor X] [--param K=V]...
// --dist serves another build of the page (a copy of an older www/dist, for
// before/after figures); the default is www/dist.
// The page is driven through stable element ids (#file-input, #trace-msg,
// #gen-*, #add-policy, #run, #runs li[data-status], #charts canvas[data-drawn]).
// Memory: the tab's renderer process (the page and its dedicated workers
// share it) is sampled from /proc every 50 ms (PSS, /proc/PID/smaps_rollup),
// plus the page's JS heap from CDP Performance.getMetrics
// (performance.measureUserAgentSpecificMemory is unavailable headless).
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { DIST, launch, ROOT, serve } from "../tests/browser/harness.mjs";

const args = process.argv.slice(2);
function option(name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
}
const repeat = Number(option("--repeat", "3"));
const policy = option("--policy", "easy");
const only = option("--only", null);
const [genProcs, genJobs, genLoad, genSeed] = option("--gen", "256,250000,0.7,1").split(",");
const dist = option("--dist", DIST);
const loadFactor = option("--load-factor", null);
const loadArgs = loadFactor === null ? [] : ["--load-factor", loadFactor];
/** The policy's parameters, each `--param K=V` as [K, V]. */
const params = [];
for (let p = option("--param", null); p !== null; p = option("--param", null)) {
  const at = p.indexOf("=");
  if (at <= 0) throw new Error(`--param ${p}: write K=V`);
  params.push([p.slice(0, at), p.slice(at + 1)]);
}
const paramArgs = params.flatMap(([k, v]) => ["--param", `${k}=${v}`]);
const policyName = [policy, ...params.map(([k, v]) => `${k}=${v}`)].join(params.length > 0 ? " " : "");
const trace = args[0] ?? join(process.env.SCHEDLAB_TRACES ?? join(ROOT, "..", "shared", "traces"), "HPC2N-2002-2.2-cln.swf.gz");
const CLI = join(ROOT, "target", "release", "schedlab");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (kib) => (kib / 1024).toFixed(0);
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

function rendererPids() {
  const pids = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      if (cmd.includes("--type=renderer") && cmd.includes("schedlab-chromium-")) pids.push(Number(d));
    } catch {}
  }
  return pids;
}

/** Proportional set size (shared pages divided among their users), KiB. */
function pssKiB(pid) {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Samples the renderers' PSS and the page's JS heap until `stop()`. */
function memorySampler(cdp) {
  const state = { peakTab: 0, peakAll: 0, peakHeap: 0, sampling: true };
  const pss = (async () => {
    while (state.sampling) {
      let all = 0;
      for (const p of rendererPids()) {
        const k = pssKiB(p);
        all += k;
        state.peakTab = Math.max(state.peakTab, k);
      }
      state.peakAll = Math.max(state.peakAll, all);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const heap = (async () => {
    while (state.sampling) {
      try {
        const { metrics } = await cdp.send("Performance.getMetrics");
        state.peakHeap = Math.max(state.peakHeap, metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0);
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    state,
    async stop() {
      state.sampling = false;
      await Promise.all([pss, heap]);
      return state;
    },
  };
}

/** The busiest renderer's PSS now (the tab), KiB. */
function tabNow() {
  return Math.max(0, ...rendererPids().map(pssKiB));
}

async function openPage(browser, url) {
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.goto(url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 60_000 });
  return { page, cdp };
}

async function waitLoaded(page) {
  await page.waitForFunction(
    () => /^(Loaded|.* could not be read)/.test(document.getElementById("trace-msg")?.textContent ?? ""),
    null,
    { timeout: 900_000 },
  );
  return page.textContent("#trace-msg");
}

async function chooseOnly(page, id) {
  while ((await page.$$(".card")).length > 0) await page.click(".card button[id$='-remove']");
  await page.selectOption("#add-policy", id);
  await page.click("#add-policy-btn");
}

// ---------------------------------------------------------------- bundle

function bundle() {
  const rows = new Map();
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const rel = relative(dist, p);
        const kind = rel.startsWith("samples") ? "samples" : extname(f).slice(1) || "other";
        const raw = readFileSync(p);
        const row = rows.get(kind) ?? { files: 0, raw: 0, gz: 0 };
        row.files += 1;
        row.raw += raw.length;
        row.gz += gzipSync(raw, { level: 9 }).length;
        rows.set(kind, row);
      }
    }
  };
  walk(dist);
  const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
  console.log(`== bundle (${relative(ROOT, dist) || dist}): kind, files, raw, gzip -9`);
  let code = { raw: 0, gz: 0 };
  for (const [kind, r] of [...rows].sort()) {
    console.log(`${kind}: ${r.files} file(s), ${kb(r.raw)}, ${kb(r.gz)} gzipped`);
    if (kind === "js" || kind === "css" || kind === "html") code = { raw: code.raw + r.raw, gz: code.gz + r.gz };
  }
  console.log(`page code (js + css + html, without the wasm core and samples): ${kb(code.raw)}, ${kb(code.gz)} gzipped`);
}

// ---------------------------------------------------------------- first chart

/** Loads a trace (`choose` does it), runs `policy` alone, times the first chart. */
async function firstChart(server, what, choose) {
  const browser = await launch();
  try {
    const { page, cdp } = await openPage(browser, server.url);
    const idle = tabNow();
    const mem = memorySampler(cdp);
    const t0 = Date.now();
    await choose(page);
    const msg = await waitLoaded(page);
    const loaded = Date.now() - t0;
    await chooseOnly(page, policy);
    const t1 = Date.now();
    await page.click("#run");
    await page.waitForSelector("#charts canvas[data-drawn='1']", { timeout: 900_000 });
    const charted = Date.now() - t1;
    await new Promise((r) => setTimeout(r, 500));
    const after = tabNow();
    const { peakTab, peakAll, peakHeap } = await mem.stop();
    console.log(`${what}: ${msg}`);
    console.log(`  trace chosen -> "Loaded": ${secs(loaded)}; Run -> first chart drawn: ${secs(charted)}; time to first chart: ${secs(loaded + charted)}`);
    console.log(
      `  tab (busiest renderer, page + workers) PSS: idle ${mib(idle)} MiB, peak ${mib(peakTab)} MiB, after ${mib(after)} MiB; all renderers peak ${mib(peakAll)} MiB; page JS heap peak ${(peakHeap / 1048576).toFixed(1)} MiB`,
    );
  } finally {
    await browser.close();
  }
}

async function firstCharts() {
  const server = await serve(dist);
  try {
    console.log(`== time to first chart (${policy} alone), a fresh browser each`);
    await firstChart(server, basename(trace), (page) => page.setInputFiles("#file-input", trace));
    await firstChart(server, `generated ${genJobs} jobs on ${genProcs} processors, load ${genLoad}, seed ${genSeed}`, async (page) => {
      await page.fill("#gen-procs", genProcs);
      await page.fill("#gen-jobs", genJobs);
      await page.fill("#gen-load", genLoad);
      await page.fill("#gen-seed", genSeed);
      await page.click("#gen-run");
    });
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------- against native

async function againstNative() {
  let doc;
  const nativeRuns = [];
  const nativeTotals = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = process.hrtime.bigint();
    doc = JSON.parse(execFileSync(CLI, ["run", trace, "--policy", policy, ...paramArgs, ...loadArgs, "--json", "-q"], { maxBuffer: 256 << 20 }).toString());
    nativeTotals.push(Number(process.hrtime.bigint() - t0) / 1e6);
    nativeRuns.push(doc.elapsed_ms);
  }
  const nativeRss = (() => {
    const r = spawnSync("/usr/bin/time", ["-f", "%M", CLI, "run", trace, "--policy", policy, ...paramArgs, ...loadArgs, "-q"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const m = /(\d+)\s*$/.exec(String(r.stderr ?? ""));
    return m ? Number(m[1]) : Number.NaN;
  })();

  const server = await serve(dist);
  const browser = await launch();
  const { page, cdp } = await openPage(browser, server.url);
  const idleAll = rendererPids().reduce((a, p) => a + pssKiB(p), 0);
  const mem = memorySampler(cdp);
  const tLoad = Date.now();
  await page.setInputFiles("#file-input", trace);
  const loadMsg = await waitLoaded(page);
  const loadMs = Date.now() - tLoad;
  if (loadFactor !== null) {
    await page.evaluate(() => {
      document.getElementById("workload-options").open = true;
    });
    await page.fill("#wl-load", loadFactor);
    await page.dispatchEvent("#wl-load", "change");
  }
  await chooseOnly(page, policy);
  for (const [k, v] of params) {
    await page.fill(`#p0-${k}`, v);
    await page.dispatchEvent(`#p0-${k}`, "change");
  }
  // longest main-thread stall while the runs go on (the page must not freeze)
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
  const walls = [];
  let li;
  for (let i = 0; i < repeat; i++) {
    const tRun = Date.now();
    await page.click("#run");
    await page.waitForSelector("#runs li[data-status='done'], #runs li[data-status='error']", { timeout: 600_000 });
    await page.waitForSelector("#results[data-complete='1']", { timeout: 600_000 });
    walls.push(Date.now() - tRun);
    li = await page.$eval("#runs li", (l) => ({ status: l.dataset.status, elapsed: Number(l.dataset.elapsed), text: l.textContent, label: l.dataset.label }));
    if (li.status !== "done") break;
    runs.push(li.elapsed);
  }
  const maxGap = await page.evaluate(() => {
    cancelAnimationFrame(window.__ticker);
    return window.__maxGap;
  });
  const mbsPage = await page.$eval("#results-table td[data-metric='mbs']", (td) => Number(td.dataset.value));
  await new Promise((r) => setTimeout(r, 300));
  const { peakTab, peakAll, peakHeap } = await mem.stop();
  await browser.close();
  await server.close();
  if (li.status !== "done") {
    console.error(`browser run failed: ${li.text}`);
    process.exit(1);
  }
  const browserRun = median(runs);
  const nativeRun = median(nativeRuns);
  console.log(`== ${policyName} in the page against the native command line, median of ${repeat}`);
  console.log(`the page ran ${li.label}; the command line ${JSON.stringify(doc.params)}`);
  console.log(`trace: ${basename(trace)}${loadFactor === null ? "" : ` at load factor ${loadFactor}`} (${(statSync(trace).size / 1048576).toFixed(1)} MiB on disk), ${doc.trace.jobs} jobs, ${doc.trace.procs} processors`);
  console.log(`page loaded the trace: ${secs(loadMs)} — ${loadMsg}`);
  console.log(
    `browser run (worker's run_point: engine + checker + metrics + result with ECDF + JSON text): ${(browserRun / 1000).toFixed(3)} s (${runs.map((x) => x.toFixed(0)).join(", ")} ms); click to results: ${secs(median(walls))}`,
  );
  console.log(
    `native run (elapsed_ms of schedlab run: engine + checker + metrics): ${(nativeRun / 1000).toFixed(3)} s (${nativeRuns.map((x) => x.toFixed(0)).join(", ")} ms); whole command incl. reading: ${secs(median(nativeTotals))}`,
  );
  console.log(`browser / native: ${(browserRun / nativeRun).toFixed(2)}x (target: within 1.6x for formula runs, 2x otherwise)`);
  console.log(`same result: MBS page ${mbsPage} vs native ${doc.metrics.mbs} -> ${mbsPage === doc.metrics.mbs ? "identical" : "DIFFERENT"}`);
  console.log(`longest page-thread frame gap during the runs: ${maxGap.toFixed(0)} ms`);
  console.log(`tab memory (PSS): busiest renderer peak ${mib(peakTab)} MiB; all renderers idle ${mib(idleAll)} MiB, peak ${mib(peakAll)} MiB; page JS heap peak ${(peakHeap / 1048576).toFixed(1)} MiB`);
  console.log(`native peak RSS (/usr/bin/time): ${Number.isFinite(nativeRss) ? `${mib(nativeRss)} MiB` : "n/a"}`);
}

// ---------------------------------------------------------------- schedule view

/** Starts recording requestAnimationFrame intervals in the page. */
async function recordFrames(page) {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      window.__ticker = requestAnimationFrame(tick);
    };
    window.__ticker = requestAnimationFrame(tick);
  });
}

/** Stops recording; p50, p95 and max of the intervals, ms. */
async function frameFigures(page) {
  const xs = await page.evaluate(() => {
    cancelAnimationFrame(window.__ticker);
    return window.__frames.slice(1);
  });
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `${xs.length} frames, p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms, over 50 ms: ${xs.filter((x) => x > 50).length}`;
}

/** Drags the Gantt from its right part to its left part and back, `steps` mouse moves each way. */
async function dragGantt(page, steps) {
  const gantt = page.locator("[data-testid='schedule-view']");
  await gantt.scrollIntoViewIfNeeded();
  const box = await gantt.boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.8, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, y, { steps });
  await page.mouse.move(box.x + box.width * 0.8, y, { steps });
  await page.mouse.up();
}

/** Runs the form's policies, opens the schedule tab with the first two runs. */
async function openSchedule(page) {
  await page.click("#run");
  await page.waitForSelector("#results[data-complete='1']", { timeout: 900_000 });
  await page.click("#view-schedule");
  await page.click("#schedule-open");
  await page.waitForSelector("[data-testid='schedule-view']:not([data-mode='empty'])", { timeout: 900_000 });
}

/** The tab's memory with the generated trace's runs of `policies` laid out in the schedule view. */
async function scheduleMemory(server, policies) {
  const browser = await launch();
  try {
    const { page, cdp } = await openPage(browser, server.url);
    await page.fill("#gen-procs", genProcs);
    await page.fill("#gen-jobs", genJobs);
    await page.fill("#gen-load", genLoad);
    await page.fill("#gen-seed", genSeed);
    await page.click("#gen-run");
    await waitLoaded(page);
    await chooseOnly(page, policies[0]);
    for (const id of policies.slice(1)) {
      await page.selectOption("#add-policy", id);
      await page.click("#add-policy-btn");
    }
    const mem = memorySampler(cdp);
    await openSchedule(page);
    await new Promise((r) => setTimeout(r, 1000));
    const after = tabNow();
    const { peakTab, peakHeap } = await mem.stop();
    console.log(`== tab memory, generated ${genJobs} jobs on ${genProcs} processors: ${policies.join(" and ")} run and laid out in the schedule view`);
    console.log(
      `tab (busiest renderer: page + run workers + schedule worker) PSS: now ${mib(after)} MiB, peak ${mib(peakTab)} MiB (target < 400 MB for one run); page JS heap peak ${(peakHeap / 1048576).toFixed(1)} MiB`,
    );
  } finally {
    await browser.close();
  }
}

async function scheduleView() {
  const server = await serve(dist);
  try {
    const browser = await launch();
    const { page } = await openPage(browser, server.url);
    await page.setInputFiles("#file-input", trace);
    await waitLoaded(page);
    await chooseOnly(page, policy);
    await openSchedule(page);
    console.log(`== schedule view: ${basename(trace)}, ${policy}; requestAnimationFrame intervals while dragging the Gantt (200 mouse moves each way)`);
    await recordFrames(page);
    await dragGantt(page, 200);
    console.log(`whole span (${await page.getAttribute("[data-testid='schedule-view']", "data-mode")}): ${await frameFigures(page)}`);
    const mid = await page.$eval("[data-testid='schedule-window']", (o) => Math.round((Number(o.dataset.from) + Number(o.dataset.to)) / 2));
    await page.fill("#window-input", `${mid}:${mid + 7 * 86_400}`);
    await page.click(".window-input button[type='submit']");
    await page.waitForFunction(() => document.querySelector("[data-testid='schedule-view']")?.dataset.mode === "runs", null, { timeout: 60_000 });
    const runs = await page.getAttribute("[data-testid='schedule-view']", "data-runs");
    await recordFrames(page);
    await dragGantt(page, 200);
    console.log(`a week (${runs} runs drawn one by one): ${await frameFigures(page)}`);
    await browser.close();

    await scheduleMemory(server, ["easy"]);
    await scheduleMemory(server, ["easy", "cbf"]);
  } finally {
    await server.close();
  }
}

if (!only || only === "bundle") bundle();
if (!only || only === "first-chart") await firstCharts();
if (!only || only === "native") await againstNative();
if (!only || only === "schedule") await scheduleView();
