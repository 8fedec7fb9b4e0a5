// End-to-end tests of the playground in a real browser (system Chromium via
// playwright-core): upload, runs in workers, results equal to the command
// line's, charts drawn, cancel, share links, malformed files, hostile links.
// Run by scripts/test-browser.sh after `npm run build` (serves www/dist).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { launch, ROOT, sharedSession } from "./harness.mjs";

const SAMPLE = join(ROOT, "samples", "kth-sp2-first3000.swf");
const SAMPLE_GZ = join(ROOT, "tests", "fixtures", "kth-sp2-first3000.swf.gz");
const BAD_FIELD = join(ROOT, "tests", "fixtures", "bad-field.swf");
const EMPTY = join(ROOT, "tests", "fixtures", "empty.swf");
const SAMPLE_SHA = "ebb7dc7da59da0f41d7a64c9aebdb46ed6207a3adf6f6fb326d37000264a47b4";
const SHOTS = join(ROOT, "docs", "screenshots");
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

async function upload(page, file) {
  // forget the previous message, so waitLoaded waits for this file's
  await page.evaluate(() => {
    const m = document.getElementById("trace-msg");
    if (m) m.textContent = "";
  });
  await page.setInputFiles("#file-input", file);
}

async function waitLoaded(page) {
  await page.waitForFunction(() => {
    const m = document.getElementById("trace-msg");
    return m && !m.hidden && /^(Loaded|.* could not be read|Refused)/.test(m.textContent ?? "");
  }, null, { timeout: 60_000 });
  return page.textContent("#trace-msg");
}

/** Keeps only the policy cards whose registry ids are given, in that order. */
async function choosePolicies(page, ids) {
  while ((await page.$$(".card")).length > 0) await page.click(".card button[id$='-remove']");
  for (const id of ids) {
    await page.selectOption("#add-policy", id);
    await page.click("#add-policy-btn");
  }
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

async function tableValue(page, labelStart, metric) {
  return page.evaluate(
    ([l, m]) => {
      const row = [...document.querySelectorAll("#results-table tbody tr")].find((r) => (r.dataset.label ?? "").startsWith(l));
      const td = row?.querySelector(`td[data-metric='${m}']`);
      return td ? { text: td.firstChild?.textContent ?? "", value: td.dataset.value ?? "" } : null;
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
      const name = reg.policies.find((p) => p.id === id).name;
      const metrics = ["mbs", "mwbs", "mean_wait", "utilization", "backfilled", "fairness_all.delayed", "fairness_all.culprits", "reservation_violations.count"];
      for (const m of metrics) {
        const v = await tableValue(page, name, m);
        const want = m.split(".").reduce((o, k) => o[k], doc.metrics);
        assert.ok(v, `${name}: a ${m} cell`);
        assert.equal(Number(v.value), want, `${name} ${m}: page ${v.value}, CLI ${want}`);
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
    const v = await tableValue(page, "EASY", "mbs");
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
    await page.selectOption("#p0-sweep", "error");
    await page.fill("#p0-sweep-from", "0");
    await page.fill("#p0-sweep-to", "40");
    await page.fill("#p0-sweep-step", "20");
    await page.dispatchEvent("#p0-sweep-step", "change");
    await runAndWait(page);
    assert.equal(await page.$$eval("#runs li", (l) => l.length), 9);
    const cis = await page.$$eval("#results-table td[data-metric='mbs']", (tds) => tds.map((t) => t.dataset.ci));
    assert.equal(cis.length, 3);
    assert.ok(cis.every((c) => c !== undefined));
    assert.ok(await page.$("#chart-sweep-0"), "a sweep chart");
    const ink = await chartInk(page);
    for (const c of ink) assert.ok(c.ink > c.size * 0.01, `${c.id} drawn`);
    await page.screenshot({ path: join(SHOTS, "sweep.png"), fullPage: true });
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
    // the page's thread is free while the worker runs
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => setTimeout(r, 10)));
    assert.ok(Date.now() - t0 < 1000, "the page answers while a run goes on");
    const t1 = Date.now();
    await page.click("#runs li button.cancel");
    await page.waitForSelector("#runs li[data-status='cancelled']", { timeout: 2_000 });
    assert.ok(Date.now() - t1 < 2000, "cancelled at once");
    assert.match(await page.textContent("#runs li"), /cancelled/);
    await page.close();
  });

  test("a malformed file is reported clearly", async () => {
    const page = await newPage();
    await upload(page, BAD_FIELD);
    const msg = await waitLoaded(page);
    assert.match(msg, /^Loaded bad-field\.swf/);
    const bad = await page.textContent("#bad-lines");
    assert.match(bad, /line 7/);
    await upload(page, EMPTY);
    const msg2 = await waitLoaded(page);
    assert.match(msg2, /^empty\.swf could not be read: .+/);
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
    await page.fill("#wl-first", "2000");
    await page.dispatchEvent("#wl-first", "change");
    await page.click("#copy-link");
    const link = await page.inputValue("#share-url");
    assert.match(link, /#v1=[A-Za-z0-9_-]+$/);
    await page.close();

    const p2 = await session.browser.context.newPage();
    p2.on("pageerror", (e) => pageErrors.push(String(e)));
    await p2.goto(link);
    await p2.waitForSelector("body[data-ready='1']");
    await waitRuns(p2);
    assert.equal(await p2.inputValue("#p0-order"), "shortest");
    assert.equal(await p2.inputValue("#p0-source"), "virtual");
    assert.equal(await p2.inputValue("#p0-error"), "25");
    assert.equal(await p2.inputValue("#reps"), "2");
    assert.equal(await p2.inputValue("#seed"), "5");
    assert.equal(await p2.inputValue("#wl-first"), "2000");
    assert.equal(await p2.$$eval("#runs li", (l) => l.length), 4);
    const v = await tableValue(p2, "FCFS", "jobs");
    assert.equal(v.value, "2000");
    // the same link again gives the same numbers (deterministic runs)
    const mbs = (await tableValue(p2, "EASY", "mbs")).value;
    await p2.reload();
    await p2.waitForSelector("body[data-ready='1']");
    await waitRuns(p2);
    assert.equal((await tableValue(p2, "EASY", "mbs")).value, mbs);
    await p2.close();
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
    for (const [link, jobs] of [
      [urlLink, "3000"],
      [genLink, "500"],
    ]) {
      const p = await session.browser.context.newPage();
      p.on("pageerror", (e) => pageErrors.push(String(e)));
      await p.goto(link);
      await p.waitForSelector("body[data-ready='1']");
      await waitRuns(p);
      assert.equal((await tableValue(p, "EASY", "jobs")).value, jobs);
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
      await upload(p3, BAD_FIELD);
      const refused = await waitLoaded(p3);
      assert.match(refused, /^Refused: the link needs "kth-sp2-first3000\.swf\.gz"/);
      await p3.setInputFiles("#file-input", SAMPLE);
      await waitRuns(p3);
      assert.equal(await p3.$$eval("#runs li[data-status='done']", (l) => l.length), 1);
    } finally {
      await other.close();
    }
  });

  test("hostile and broken links give a message and inject nothing", async () => {
    const b64 = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const evil = "<img src=x onerror=\"window.__pwned=1\">";
    const cases = [
      [`#v1=${b64({ t: ["f", `${evil}.swf`, "a".repeat(64)], p: [["easy", {}, "estimate"]] })}`, new RegExp(`This link was made with the file "${evil.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.swf"`), "#trace-msg"],
      ["#v1=%%%not-base64", /This link could not be opened: the link's data is not base64url/, "#banner"],
      [`#v1=${b64({ p: [[evil, {}, ""]] })}`, /This link could not be opened: the link names a policy this page does not know/, "#banner"],
      [`#v1=${b64({ p: [["easy", { order: evil }, "estimate"]] })}`, /This link could not be opened: EASY: Backfill order: ".*" is not one of/, "#banner"],
      [`#v1=${b64({ t: ["u", "javascript:alert(1)"], p: [["easy", {}, "estimate"]] })}`, /the trace URL must be http or https/, "#banner"],
      [`#v1=${b64({ t: ["s", "../../etc/passwd"], p: [["easy", {}, "estimate"]] })}`, /names a sample that does not exist/, "#banner"],
      ["#v1=" + "A".repeat(20000), /too long/, "#banner"],
      ["#nonsense", /not a Schedlab experiment/, "#banner"],
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
        .filter((el) => !el.closest(".hidden"))
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

  test("no page error anywhere", () => {
    assert.deepEqual(pageErrors, []);
  });
});
