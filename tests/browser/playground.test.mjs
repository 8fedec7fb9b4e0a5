// End-to-end tests of the playground in a real browser (system Chromium via
// playwright-core): upload, runs in workers, results equal to the command
// line's (byte for byte in the export), charts drawn, cancel, share links
// (today's and the first page's), malformed files, hostile links, what Run
// and the knobs say before a run, the results table's columns and glossary.
// Run by scripts/test-browser.sh after `npm run build` (serves www/dist).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, durationText, launch, ROOT, sharedSession, SHOTS } from "./harness.mjs";

const SAMPLE = join(ROOT, "samples", "kth-sp2-first3000.swf");
const SAMPLE_GZ = join(ROOT, "tests", "fixtures", "kth-sp2-first3000.swf.gz");
const BAD_FIELD = join(ROOT, "tests", "fixtures", "bad-field.swf");
const EMPTY = join(ROOT, "tests", "fixtures", "empty.swf");
const SAMPLE_SHA = "ebb7dc7da59da0f41d7a64c9aebdb46ed6207a3adf6f6fb326d37000264a47b4";
const session = sharedSession(SHOTS);
const CLI = join(ROOT, "target", "release", "schedlab");

const pageErrors = [];

function cli(...args) {
  if (!existsSync(CLI)) execFileSync("cargo", ["build", "--release", "-q", "-p", "schedlab-cli"], { cwd: ROOT, stdio: "inherit" });
  return JSON.parse(execFileSync(CLI, args, { cwd: ROOT, maxBuffer: 64 << 20 }).toString());
}

async function newPage(hash = "") {
  const page = await session.browser.context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("dialog", (d) => {
    pageErrors.push(`dialog: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  await page.goto(session.server.url + hash);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return page;
}

/** The number of the trace message shown before an action, so waitLoaded waits for a newer one. */
const seenSerial = new WeakMap();

async function markMessage(page) {
  seenSerial.set(page, Number((await page.getAttribute("#trace-msg", "data-serial")) ?? 0));
}

async function upload(page, file) {
  await markMessage(page);
  await page.setInputFiles("#file-input", file);
}

async function waitLoaded(page) {
  await page.waitForFunction(
    (seen) => {
      const m = document.getElementById("trace-msg");
      return m && !m.hidden && Number(m.dataset.serial) > seen && /^(Loaded|.* could not be read|Refused)/.test(m.textContent ?? "");
    },
    seenSerial.get(page) ?? 0,
    { timeout: 60_000 },
  );
  seenSerial.set(page, Number(await page.getAttribute("#trace-msg", "data-serial")));
  return page.textContent("#trace-msg");
}

/**
 * The form the link tests share: EASY (shortest first, virtual at 25 %) and
 * FCFS, 2 repetitions from seed 5, all 3 runs done: EASY's virtual source
 * draws from the seed, so it runs twice; FCFS uses no seed and runs once.
 */
async function assertRestored(page) {
  assert.equal(await page.inputValue("#p0-order"), "shortest");
  assert.equal(await page.inputValue("#p0-source"), "virtual");
  assert.equal(await page.inputValue("#p0-error"), "25");
  assert.equal(await page.inputValue("#reps"), "2");
  assert.equal(await page.inputValue("#seed"), "5");
  assert.equal(await page.$$eval("#runs li[data-status='done']", (l) => l.length), 3);
}

/** Sets a workload option (the options sit in a folded section). */
async function workloadField(page, id, value) {
  await page.evaluate(() => {
    document.getElementById("workload-options").open = true;
  });
  await page.fill(id, value);
  await page.dispatchEvent(id, "change");
}

async function runAndWait(page, timeout = 120_000) {
  await page.click("#run");
  await waitRuns(page, timeout);
}

async function waitRuns(page, timeout = 120_000) {
  await page.waitForFunction(
    () => {
      const lis = [...document.querySelectorAll("#runs li")];
      return lis.length > 0 && lis.every((li) => ["done", "error", "cancelled"].includes(li.dataset.status ?? ""));
    },
    null,
    { timeout },
  );
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 30_000 });
  await page.waitForFunction(() => [...document.querySelectorAll("#charts canvas")].every((c) => c.dataset.drawn), null, { timeout: 30_000 });
}

/** A cell of the results table (every column shown), by the start of its row's label. */
async function tableValue(page, labelStart, metric) {
  if (!(await page.isChecked("#more-columns"))) await page.check("#more-columns");
  return page.evaluate(
    ([l, m]) => {
      const row = [...document.querySelectorAll("#results-table tbody tr")].find((r) => (r.dataset.label ?? "").startsWith(l));
      const td = row?.querySelector(`td[data-metric='${m}']`);
      return td ? { text: td.textContent ?? "", value: td.dataset.value ?? "" } : null;
    },
    [labelStart, metric],
  );
}

/** Non-background pixels of every chart canvas. */
async function chartInk(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("#charts canvas")].map((c) => {
      const ctx = c.getContext("2d");
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      const [r0, g0, b0] = [data[0], data[1], data[2]];
      let ink = 0;
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] !== r0 || data[i + 1] !== g0 || data[i + 2] !== b0) {
          ink++;
          if (colours.size < 50) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        }
      }
      return { id: c.id, ink, colours: colours.size, size: c.width * c.height };
    }),
  );
}

function assertNoInjection(page) {
  return page.evaluate(() => ({
    imgs: document.querySelectorAll("img").length,
    scripts: [...document.querySelectorAll("script")].filter((s) => !s.src).length,
    pwned: typeof window.__pwned !== "undefined",
  }));
}


describe("playground", () => {
  test("forms come from the registry", async () => {
    const page = await newPage();
    const reg = cli("policies", "--json");
    const options = await page.$$eval("#add-policy option", (os) => os.map((o) => o.value));
    assert.deepEqual(options, reg.policies.map((p) => p.id));
    // a card for each of the first two policies, with a field per parameter
    const cards = await page.$$eval(".card", (cs) => cs.map((c) => c.dataset.policy));
    assert.deepEqual(cards, reg.policies.slice(0, 2).map((p) => p.id));
    for (const p of reg.policies) {
      await choosePolicies(page, [p.id]);
      for (const s of p.params) assert.ok(await page.$(`#p0-${s.key}`), `${p.id}: a field for ${s.key}`);
      assert.equal(!!(await page.$("#p0-source")), p.uses_runtime_source, `${p.id}: runtime source select`);
    }
    await page.close();
  });

  test("upload the sample, run two policies: MBS/MWBS equal the CLI's, charts drawn", async () => {
    const page = await newPage();
    await upload(page, SAMPLE);
    const msg = await waitLoaded(page);
    assert.match(msg, /^Loaded kth-sp2-first3000\.swf: 3,000 jobs on 100 processors/);
    assert.match(await page.textContent("#stats"), new RegExp(SAMPLE_SHA));
    assert.match(await page.textContent("#cleaning"), /runtime capped: 35/);
    await page.screenshot({ path: join(SHOTS, "trace-loaded.png"), fullPage: false });

    const reg = cli("policies", "--json");
    const second = reg.policies.find((p) => p.id !== "easy" && p.id !== "fcfs")?.id ?? "fcfs";
    await choosePolicies(page, ["easy", second]);
    await runAndWait(page);
    for (const id of ["easy", second]) {
      const doc = cli("run", "samples/kth-sp2-first3000.swf", "--policy", id, "--json", "-q");
      // A row is labelled by the run's spec, as the command line labels it.
      const name = id;
      // Of these, the metric the catalogue measures in seconds.
      const SECONDS = new Set(["mean_wait"]);
      const metrics = ["mbs", "mwbs", "mean_wait", "utilization", "backfilled", "fairness_all.delayed", "fairness_all.culprits", "reservation_violations.count"];
      for (const m of metrics) {
        const v = await tableValue(page, name, m);
        const want = m.split(".").reduce((o, k) => o[k], doc.metrics);
        assert.ok(v, `${name}: a ${m} cell`);
        assert.equal(Number(v.value), want, `${name} ${m}: page ${v.value}, CLI ${want}`);
        if (SECONDS.has(m)) {
          // Seconds print as a duration, as the core writes one ("2 h 10 min").
          assert.equal(v.text, durationText(want), `${name} ${m}: printed duration of ${want} s`);
          continue;
        }
        const digits = (v.text.split(".")[1] ?? "").length;
        assert.equal(v.text, Number.isInteger(want) && digits === 0 ? String(want) : want.toFixed(digits), `${name} ${m}: printed digits`);
      }
    }
    const ink = await chartInk(page);
    assert.ok(ink.length >= 3, `at least 3 charts, got ${ink.length}`);
    for (const c of ink) assert.ok(c.ink > c.size * 0.01 && c.colours > 2, `${c.id} is drawn (${c.ink} ink pixels, ${c.colours} colours)`);
    // exports: SVG of a chart, per-job CSV and SWF of a run
    const [svgDl] = await Promise.all([page.waitForEvent("download"), page.click("#chart-mbs-fig button[data-export='svg'], figure:has(#chart-mbs) button[data-export='svg']")]);
    const svgText = await (await svgDl.createReadStream()).toArray();
    assert.match(Buffer.concat(svgText).toString(), /<svg/);
    const [csvDl] = await Promise.all([page.waitForEvent("download"), page.click("#runs li:first-child .exports button:text('CSV')")]);
    const csv = Buffer.concat(await (await csvDl.createReadStream()).toArray()).toString();
    assert.match(csv.split("\n")[0], /^job,user,size,submit,start,end,wait/);
    assert.equal(csv.trim().split("\n").length, 3001);
    const [pngDl] = await Promise.all([page.waitForEvent("download"), page.click("figure:has(#chart-ecdf) button[data-export='png']")]);
    const png = Buffer.concat(await (await pngDl.createReadStream()).toArray());
    assert.equal(png.subarray(1, 4).toString(), "PNG");
    await page.locator("#results-panel").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "results.png"), fullPage: true });
    await page.close();
  });

  test("a gzipped trace gives the same trace and results", async () => {
    const page = await newPage();
    await upload(page, SAMPLE_GZ);
    const msg = await waitLoaded(page);
    assert.match(msg, /^Loaded kth-sp2-first3000\.swf\.gz: 3,000 jobs/);
    assert.match(await page.textContent("#stats"), new RegExp(SAMPLE_SHA));
    await choosePolicies(page, ["easy"]);
    await runAndWait(page);
    const doc = cli("run", "tests/fixtures/kth-sp2-first3000.swf.gz", "--policy", "easy", "--json", "-q");
    const v = await tableValue(page, "easy", "mbs");
    assert.equal(Number(v.value), doc.metrics.mbs);
    await page.close();
  });

  test("drag and drop a trace onto the page", async () => {
    const page = await newPage();
    await page.evaluate(async () => {
      const blob = await (await fetch("samples/kth-sp2-first3000.swf.gz")).blob();
      const dt = new DataTransfer();
      dt.items.add(new File([blob], "dropped.swf.gz"));
      document.getElementById("drop-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    assert.match(await waitLoaded(page), /^Loaded dropped\.swf\.gz: 3,000 jobs on 100 processors/);
    assert.match(await page.textContent("#stats"), new RegExp(SAMPLE_SHA));
    await page.close();
  });

  test("repetitions give a 95 % interval; a sweep gives a curve", async () => {
    const page = await newPage();
    await upload(page, SAMPLE);
    await waitLoaded(page);
    await choosePolicies(page, ["easy"]);
    await page.selectOption("#p0-source", "virtual");
    await page.fill("#reps", "3");
    await page.dispatchEvent("#reps", "change");
    await page.selectOption("#sweep-param", "error");
    await page.fill("#sweep-values", "0:40:20");
    await page.dispatchEvent("#sweep-values", "change");
    await runAndWait(page);
    assert.equal(await page.$$eval("#runs li", (l) => l.length), 9);
    const cis = await page.$$eval("#results-table td[data-metric='mbs']", (tds) => tds.map((t) => t.dataset.ci));
    assert.equal(cis.length, 3);
    assert.ok(cis.every((c) => c !== undefined));
    assert.deepEqual(await page.$$eval("#results-table tbody tr", (rs) => rs.map((r) => r.dataset.value)), ["0", "20", "40"]);
    assert.ok(await page.$("#chart-sweep-mbs"), "a sweep chart");
    const ink = await chartInk(page);
    for (const c of ink) assert.ok(c.ink > c.size * 0.01, `${c.id} drawn`);
    await page.screenshot({ path: join(SHOTS, "sweep.png"), fullPage: true });
    await page.close();
  });

  test("a run without randomness runs once among repetitions, and the page says so", async () => {
    const page = await newPage();
    await upload(page, SAMPLE);
    await waitLoaded(page);
    // EASY with user estimates draws nothing from the seed; DBF draws its deadline-driven jobs.
    await choosePolicies(page, ["easy", "dbf"]);
    await page.fill("#reps", "3");
    await page.dispatchEvent("#reps", "change");
    await runAndWait(page);
    assert.equal(await page.$$eval("#runs li", (l) => l.length), 1 + 3);
    const cis = await page.$$eval("#results-table td[data-metric='mbs']", (tds) => tds.map((t) => t.dataset.ci));
    assert.equal(cis[0], undefined, "EASY ran once: no interval");
    assert.notEqual(cis[1], undefined, "DBF ran three times: an interval");
    assert.equal(await page.textContent("#results-note"), "EASY uses no randomness: run once.");
    await page.close();
  });

  test("cancel stops a run at once and the page stays responsive", async () => {
    const page = await newPage();
    await page.fill("#gen-procs", "256");
    await page.fill("#gen-jobs", "250000");
    await page.fill("#gen-load", "0.95");
    await page.click("#gen-run");
    const msg = await waitLoaded(page);
    assert.match(msg, /250,000 jobs/);
    const reg = cli("policies", "--json");
    const slow = reg.policies.find((p) => p.id === "cbf") ? "cbf" : "easy";
    await choosePolicies(page, [slow]);
    await page.click("#run");
    await page.waitForSelector("#runs li[data-status='running']", { timeout: 30_000 });
    // the phase and its progress, as the core reports them
    await page.waitForFunction(() => /run, \d+ %/.test(document.querySelector("#runs li .status")?.textContent ?? ""), null, { timeout: 30_000 });
    // the page is cross-origin isolated: cancelling sets the worker's flag, which the core reads
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    // the page's thread is free while the worker runs
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => setTimeout(r, 10)));
    assert.ok(Date.now() - t0 < 1000, "the page answers while a run goes on");
    const t1 = Date.now();
    await page.click("#runs li button.cancel");
    await page.waitForSelector("#runs li[data-status='cancelled']", { timeout: 2_000 });
    assert.ok(Date.now() - t1 < 2000, "cancelled at once");
    assert.match(await page.textContent("#runs li"), /cancelled/);
    // the workers are still usable: a small run on the same trace finishes
    await workloadField(page, "#wl-first", "2000");
    await choosePolicies(page, ["fcfs"]);
    await runAndWait(page);
    assert.equal((await tableValue(page, "fcfs", "jobs")).value, "2000");
    await page.close();
  });

  test("a malformed file is reported clearly", async () => {
    const page = await newPage();
    await upload(page, BAD_FIELD);
    const msg = await waitLoaded(page);
    assert.match(msg, /^Loaded bad-field\.swf: \d+ jobs on 100 processors; 1 malformed line skipped \(see below\)\.$/);
    const bad = await page.textContent("#bad-lines");
    assert.match(bad, /line 7/);
    await upload(page, EMPTY);
    const msg2 = await waitLoaded(page);
    // The reason ends its sentence before the next begins.
    assert.match(msg2, /^empty\.swf could not be read: .+[.!?…] The trace in use is still bad-field\.swf\.$/);
    await page.screenshot({ path: join(SHOTS, "malformed-file.png") });
    await page.close();
  });

  test("share link round trip (sample, options, parameters, seeds)", async () => {
    const page = await newPage();
    await page.selectOption("#sample-select", "kth-sp2-first3000");
    await page.click("#sample-load");
    await waitLoaded(page);
    await choosePolicies(page, ["easy", "fcfs"]);
    await page.selectOption("#p0-order", "shortest");
    await page.selectOption("#p0-source", "virtual");
    await page.fill("#p0-error", "25");
    await page.dispatchEvent("#p0-error", "change");
    await page.fill("#reps", "2");
    await page.dispatchEvent("#reps", "change");
    await page.fill("#seed", "5");
    await page.dispatchEvent("#seed", "change");
    await workloadField(page, "#wl-first", "2000");
    await page.click("#copy-link");
    const link = await page.inputValue("#share-url");
    assert.match(link, /#v2=[A-Za-z0-9_-]+$/);
    await page.close();

    const p2 = await session.browser.context.newPage();
    p2.on("pageerror", (e) => pageErrors.push(String(e)));
    await p2.goto(link);
    await p2.waitForSelector("body[data-ready='1']");
    await waitRuns(p2);
    await assertRestored(p2);
    assert.equal(await p2.inputValue("#wl-first"), "2000");
    const v = await tableValue(p2, "fcfs", "jobs");
    assert.equal(v.value, "2000");
    // the same link again gives the same numbers (deterministic runs)
    const mbs = (await tableValue(p2, "easy", "mbs")).value;
    await p2.reload();
    await p2.waitForSelector("body[data-ready='1']");
    await waitRuns(p2);
    assert.equal((await tableValue(p2, "easy", "mbs")).value, mbs);
    await p2.close();
  });

  test("a link made by the first page (#v1=) still opens and runs", async () => {
    // What the first page's encodeExperiment wrote for: the sample, first
    // 2000 jobs, EASY (shortest first, virtual predictor at 25 %) and FCFS,
    // 2 repetitions from seed 5 (every card carries its parameters).
    const old = { t: ["s", "kth-sp2-first3000"], w: [0, 0, 2000, [], 0], p: [["easy", { order: "shortest", error: "25" }, "virtual"], ["fcfs", {}, ""]], r: 2, s: 5 };
    for (const encode of [(b) => b.toString("base64url"), (b) => b.toString("base64")]) {
      const p = await newPage(`#v1=${encode(Buffer.from(JSON.stringify(old)))}`);
      await waitRuns(p);
      await assertRestored(p);
      assert.equal((await tableValue(p, "easy:order=shortest,error=25@virtual", "jobs")).value, "2000");
      assert.equal(await p.isHidden("#banner"), true, "no message: the link opened");
      await p.close();
    }
  });

  test("open by URL: HTTP and network errors are clear; URL and generated traces travel in links", async () => {
    const page = await newPage();
    const bad = `${session.server.url}no-such-trace.swf`;
    await page.fill("#url-input", bad);
    await page.click("#url-open");
    await page.waitForFunction(() => /could not be fetched/.test(document.getElementById("trace-msg")?.textContent ?? ""));
    assert.match(await page.textContent("#trace-msg"), /could not be fetched: HTTP 404/);
    await page.fill("#url-input", "http://127.0.0.1:9/trace.swf");
    await page.click("#url-open");
    await page.waitForFunction(() => /network error/.test(document.getElementById("trace-msg")?.textContent ?? ""));
    assert.match(await page.textContent("#trace-msg"), /network error, or the server does not allow cross-origin requests \(CORS\)/);
    await page.fill("#url-input", `${session.server.url}samples/kth-sp2-first3000.swf.gz`);
    await page.click("#url-open");
    assert.match(await waitLoaded(page), /^Loaded kth-sp2-first3000\.swf\.gz: 3,000 jobs/);
    await choosePolicies(page, ["easy"]);
    await page.click("#copy-link");
    const urlLink = await page.inputValue("#share-url");
    await page.fill("#gen-jobs", "500");
    await page.fill("#gen-seed", "42");
    await page.click("#gen-run");
    assert.match(await waitLoaded(page), /^Loaded lublin99-p128-n500-l0\.7-s42\.swf: 500 jobs on 128 processors/);
    await page.click("#copy-link");
    const genLink = await page.inputValue("#share-url");
    await page.close();
    // The link's trace settings show in the fields that would have chosen
    // them (the generator's, the URL box), not the page's defaults.
    const url = `${session.server.url}samples/kth-sp2-first3000.swf.gz`;
    const generator = { "#gen-procs": "128", "#gen-jobs": "500", "#gen-load": "0.7", "#gen-seed": "42" };
    for (const [link, jobs, fields] of [
      [urlLink, "3000", { "#url-input": url, "#gen-jobs": "2000", "#gen-seed": "1" }],
      [genLink, "500", { ...generator, "#url-input": "" }],
    ]) {
      const p = await session.browser.context.newPage();
      p.on("pageerror", (e) => pageErrors.push(String(e)));
      await p.goto(link);
      await p.waitForSelector("body[data-ready='1']");
      await waitRuns(p);
      assert.equal((await tableValue(p, "easy", "jobs")).value, jobs);
      for (const [selector, value] of Object.entries(fields)) {
        assert.equal(await p.inputValue(selector), value, `${selector} after opening ${link}`);
      }
      await p.close();
    }
  });

  test("share link to an uploaded file: asks for it, refuses another, works again from storage", async () => {
    const page = await newPage();
    await upload(page, SAMPLE_GZ);
    await waitLoaded(page);
    await choosePolicies(page, ["easy"]);
    await page.click("#copy-link");
    const link = await page.inputValue("#share-url");
    await page.close();

    // same browser: the trace is in IndexedDB, the link runs at once
    const p2 = await session.browser.context.newPage();
    await p2.goto(link);
    await p2.waitForSelector("body[data-ready='1']");
    await waitRuns(p2);
    await p2.close();

    // a fresh browser profile: the page asks for the file and checks its hash
    const other = await launch();
    try {
      const p3 = await other.context.newPage();
      p3.on("pageerror", (e) => pageErrors.push(String(e)));
      await p3.goto(link);
      await p3.waitForSelector("body[data-ready='1']");
      assert.match(await p3.textContent("#trace-msg"), /This link was made with the file "kth-sp2-first3000\.swf\.gz"/);
      assert.match(await p3.textContent("#banner"), /The link needs the file "kth-sp2-first3000\.swf\.gz": choose it in section 1/);
      assert.equal(await p3.getAttribute("#run", "aria-disabled"), "true");
      assert.match(await p3.textContent("#run-why"), /Choose the file "kth-sp2-first3000\.swf\.gz" in section 1 first/);
      await upload(p3, BAD_FIELD);
      const refused = await waitLoaded(p3);
      assert.match(refused, /^Refused: the link needs "kth-sp2-first3000\.swf\.gz"/);
      await p3.setInputFiles("#file-input", SAMPLE);
      await waitRuns(p3);
      assert.equal(await p3.$$eval("#runs li[data-status='done']", (l) => l.length), 1);
      // resolved: the banner and the reason on Run are gone
      assert.equal(await p3.isHidden("#banner"), true);
      assert.equal(await p3.getAttribute("#run", "aria-disabled"), null);
      assert.equal(await p3.isHidden("#run-why"), true);
    } finally {
      await other.close();
    }
  });

  test("hostile and broken links give a message and inject nothing", async () => {
    const b64 = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const evil = "<img src=x onerror=\"window.__pwned=1\">";
    const cases = [
      [`#v1=${b64({ t: ["f", `${evil}.swf`, "a".repeat(64)], p: [["easy", {}, "estimate"]] })}`, new RegExp(`This link was made with the file "${evil.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.swf"`), "#trace-msg"],
      ["#v1=%%%not-base64", /^This link could not be opened: the link's data is not base64 \(`%` at position 1\)\. The page starts with its defaults instead\.$/, "#banner"],
      [`#v1=${b64({ p: [[evil, {}, ""]] })}`, /^This link could not be opened: field `p\[0\]` \(policy 1\): the link names a policy this page does not know/, "#banner"],
      [`#v1=${b64({ p: [["easy", { order: evil }, "estimate"]] })}`, /^This link could not be opened: .*`order`: `<img src=x onerror="window.__pwned=1">` is not one of/, "#banner"],
      [`#v1=${b64({ t: ["u", "javascript:alert(1)"], p: [["easy", {}, "estimate"]] })}`, /^This link could not be opened: trace\.url: the trace URL must be an http or https URL/, "#banner"],
      [`#v1=${b64({ t: ["s", "../../etc/passwd"], p: [["easy", {}, "estimate"]] })}`, /^This link could not be opened: trace\.id: the link names a sample that does not exist \(known: kth-sp2-first3000, kth-sp2-first3000-gz\)/, "#banner"],
      [`#v2=${b64({ experiment: { runs: [{ policy: "easy" }], sed: 1 } })}`, /^This link could not be opened: .*unknown field `sed`/, "#banner"],
      ["#v1=" + "A".repeat(20000), /^This link could not be opened: the link is too long \(20000 characters; at most 16000\)/, "#banner"],
      ["#nonsense", /^This link could not be opened: the link is not a Schedlab experiment \(expected #v2=… or #v1=…\)/, "#banner"],
    ];
    for (const [hash, re, where] of cases) {
      const page = await newPage(hash);
      const text = await page.textContent(where);
      assert.match(text ?? "", re, `${hash.slice(0, 60)}: message`);
      assert.deepEqual(await assertNoInjection(page), { imgs: 0, scripts: 0, pwned: false }, `${hash.slice(0, 60)}: nothing injected`);
      // the page still works: the forms are there
      assert.ok((await page.$$(".card")).length > 0);
      if (hash === cases[0][0]) await page.screenshot({ path: join(SHOTS, "hostile-link.png") });
      if (hash === cases[2][0]) await page.screenshot({ path: join(SHOTS, "bad-link.png") });
      await page.close();
    }
  });

  test("keyboard: every control is reachable and labelled", async () => {
    const page = await newPage();
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll("input, select, button")]
        .filter((el) => !el.closest("[hidden]"))
        .filter((el) => {
          const aria = el.getAttribute("aria-label");
          const lab = el.closest("label") || (el.id && document.querySelector(`label[for='${el.id}']`));
          const text = el.tagName === "BUTTON" && el.textContent.trim();
          return !aria && !lab && !text;
        })
        .map((el) => el.id || el.outerHTML.slice(0, 60)),
    );
    assert.deepEqual(unlabelled, []);
    // Tab reaches the run button
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      await page.keyboard.press("Tab");
      found = await page.evaluate(() => document.activeElement?.id === "run");
    }
    assert.ok(found, "Tab reaches Run");
    await page.close();
  });

  test("works offline after the first load (service worker)", async () => {
    const page = await newPage();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await page.evaluate(() => navigator.serviceWorker.ready);
    await session.browser.context.setOffline(true);
    try {
      await page.reload();
      await page.waitForSelector("body[data-ready='1']", { timeout: 15_000 });
      await page.click("#sample-load");
      const msg = await waitLoaded(page);
      assert.match(msg, /^Loaded kth-sp2-first3000\.swf/);
    } finally {
      await session.browser.context.setOffline(false);
      await page.close();
    }
  });

  test("large type and presentation layout", async () => {
    const page = await newPage();
    await page.click("#sample-load");
    await waitLoaded(page);
    await choosePolicies(page, ["fcfs", "easy"]);
    await page.check("#opt-large");
    await page.check("#opt-present");
    await runAndWait(page);
    const ink = await chartInk(page);
    for (const c of ink) assert.ok(c.ink > c.size * 0.01, `${c.id} drawn`);
    await page.locator("#charts").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "presentation.png") });
    await page.uncheck("#opt-large");
    await page.uncheck("#opt-present");
    await page.close();
  });

  test("before a run: Run says why it cannot start; the knobs say which runs they reach", async () => {
    const page = await newPage();
    assert.equal(await page.getAttribute("#run", "aria-disabled"), "true");
    assert.equal(await page.textContent("#run-why"), "Load a trace in section 1 first.");
    // Run stays focusable and clickable (aria-disabled), which Playwright counts as not enabled.
    await page.click("#run", { force: true });
    assert.equal(await page.textContent("#exp-msg"), "Load a trace in section 1 first.");
    await page.click("#sample-load");
    await waitLoaded(page);
    // the reason and the error are gone once a trace is loaded
    assert.equal(await page.getAttribute("#run", "aria-disabled"), null);
    assert.equal(await page.isHidden("#run-why"), true);
    assert.equal(await page.isHidden("#exp-msg"), true);

    // The virtual-error knob: no run takes it until one uses the Virtual predictor, which the note offers.
    await choosePolicies(page, ["easy", "fcfs"]);
    assert.match(await page.textContent("#knob-error-note"), /a policy takes it only with the Virtual predictor runtime source/);
    await page.click("#knob-error-switch");
    assert.equal(await page.inputValue("#p0-source"), "virtual");
    assert.equal(await page.$("#p1-source"), null, "FCFS reads no runtime");
    assert.match(await page.textContent("#knob-error-note"), /^applies to EASY, virtual$/, "runs named by their titles");
    // A value the core refuses is named next to Run, and Run waits.
    await page.fill("#knob-error", "-5");
    assert.equal(await page.getAttribute("#run", "aria-disabled"), "true");
    assert.match(await page.textContent("#run-why"), /error/);
    await page.fill("#knob-error", "");

    // The checkpoint-cost knob does not claim PV-EASY in kill mode.
    await choosePolicies(page, ["pv-easy"]);
    assert.equal(await page.inputValue("#p0-mode"), "kill");
    const killNote = await page.textContent("#knob-cost-note");
    assert.doesNotMatch(killNote, /applies to/);
    assert.match(killNote, /^ignored by PV-EASY \(only when mode is checkpoint or suspend\)$/);
    assert.match(await page.textContent("#p0-cost >> xpath=.."), /not used: only when mode is checkpoint or suspend/);
    await page.selectOption("#p0-mode", "checkpoint");
    assert.match(await page.textContent("#knob-cost-note"), /^applies to PV-EASY, checkpoint$/);
    // A swept parameter also set in a knob: the message names the knob, in the page's words.
    await page.fill("#knob-cost", "30");
    await page.dispatchEvent("#knob-cost", "change");
    await page.selectOption("#sweep-param", "cost");
    // The first range is the core's: zero to twice the default of 60 s, in four steps.
    assert.equal(await page.inputValue("#sweep-values"), "0:120:30");
    assert.equal(await page.textContent("#run-why"), "Checkpoint / resume cost is swept and also set in its global knob: clear the Checkpoint / resume cost knob, or stop sweeping it.");
    await page.selectOption("#sweep-param", "");
    await page.fill("#knob-cost", "");
    await page.dispatchEvent("#knob-cost", "change");
    await page.evaluate(() => document.getElementById("knobs").scrollIntoView({ block: "center" }));
    await page.screenshot({ path: join(SHOTS, "knobs.png") });
    await page.close();
  });

  test("results: key columns first, more columns, a tooltip per header, a glossary; cleaning lines say what they mean", async () => {
    const page = await newPage();
    await page.click("#sample-load");
    await waitLoaded(page);
    const capped = await page.textContent("#cleaning li[data-rule='runtime_capped']");
    assert.match(capped, /^changed: runtime capped: 35 jobs/);
    assert.match(capped, /run time is cut to the request/);
    await choosePolicies(page, ["easy"]);
    await runAndWait(page);
    const headers = () => page.$$eval("#results-table thead th[data-metric]", (ths) => ths.map((t) => ({ key: t.dataset.metric, title: t.title, text: t.textContent })));
    const key = await headers();
    assert.ok(key.length >= 5 && key.length <= 14, `a few key columns by default (${key.length})`);
    assert.ok(key.some((h) => h.key === "mbs"));
    await page.check("#more-columns");
    const all = await headers();
    assert.ok(all.length > key.length + 10, `more columns (${all.length})`);
    for (const h of all) assert.ok(h.title.length > 20, `${h.key}: a tooltip that explains it`);
    await page.click("#view-glossary");
    const glossary = await page.$$eval("#glossary > div", (ds) => ds.map((d) => ({ key: d.dataset.metric, dt: d.querySelector("dt").textContent, dd: d.querySelector("dd").textContent })));
    for (const h of all) {
      const g = glossary.find((x) => x.key === h.key);
      assert.ok(g, `${h.key} is in the glossary`);
      assert.equal(g.dd, h.title, `${h.key}: the same explanation`);
      assert.equal(g.dt, h.text, `${h.key}: the same label`);
    }
    await page.screenshot({ path: join(SHOTS, "glossary.png") });
    await page.click("#view-summary");
    await page.close();
  });

  test("the results export equals `schedlab sweep --json` byte for byte (a hand-built experiment)", async () => {
    const page = await newPage();
    await page.click("#sample-load");
    await waitLoaded(page);
    await choosePolicies(page, ["easy", "cbf", "pv-easy"]);
    await page.selectOption("#p0-order", "shortest");
    await page.selectOption("#p2-mode", "checkpoint");
    await page.fill("#knob-cost", "120");
    await page.fill("#reps", "2");
    await page.dispatchEvent("#reps", "change");
    await page.fill("#seed", "3");
    await page.dispatchEvent("#seed", "change");
    await workloadField(page, "#wl-first", "1500");
    await runAndWait(page);
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#export-json")]);
    const fromPage = Buffer.concat(await (await dl.createReadStream()).toArray()).toString();
    await page.close();
    if (!existsSync(CLI)) execFileSync("cargo", ["build", "--release", "-q", "-p", "schedlab-cli"], { cwd: ROOT, stdio: "inherit" });
    const args = ["sweep", "samples/kth-sp2-first3000.swf", "--policy", "easy:order=shortest", "--policy", "cbf", "--policy", "pv-easy:mode=checkpoint"];
    const fromCli = execFileSync(CLI, [...args, "--param", "cost=120", "--repeat", "2", "--seed", "3", "--first", "1500", "--wait-ecdf", "--json", "-q"], { cwd: ROOT, maxBuffer: 64 << 20 }).toString();
    // Only the host-measured run times differ.
    const strip = (t) => t.replace(/\n *"elapsed_ms": [0-9.e+-]+,/g, "").trimEnd();
    assert.ok(strip(fromPage).length > 10_000);
    assert.equal(strip(fromPage), strip(fromCli));
  });

  test("no page error anywhere", () => {
    assert.deepEqual(pageErrors, []);
  });
});
