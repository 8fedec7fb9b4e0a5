// A run worker whose WebAssembly module runs out of memory (issue 21, §3):
// the page says so in one sentence, replaces that worker, and keeps the
// other results and the loaded trace; the next run succeeds on the new
// worker. Run by scripts/test-browser.sh after `npm run build`.
//
// How exhaustion is forced, through the real failure path and with nothing
// test-only in the page: the test serves the run worker's script with a
// prologue that keeps the module's memory and exports in the worker's
// global scope (the production script never exposes them), then grows that
// memory to the 4 GiB a wasm32 module may have. Untouched pages cost the
// machine nothing, and the core's allocator knows nothing of those pages.
// What it already holds free (the reading of the trace may have left more
// than a run of the sample needs) is then taken through the module's own
// allocator (`__wbindgen_malloc`, blocks from 1 MiB down to 8 bytes, until
// it refuses), so that its next request finds the browser refusing to grow
// the memory further: Rust aborts with an "unreachable" trap, exactly as on
// a trace too large.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { choosePolicies, ROOT, sharedSession, SHOTS } from "./harness.mjs";

const SAMPLE = join(ROOT, "samples", "kth-sp2-first3000.swf");
const session = sharedSession(SHOTS);
/** The run workers' and the schedule worker's built scripts. */
const WORKERS = /\/assets\/(run|schedule)-worker[^/]*\.js$/;

/** Keeps the instantiated module's memory and exports as `self.__schedlabMemory` and `self.__schedlabExports` (this test's worker prologue). */
const PROLOGUE = `{
  const keep = (r) => { const x = (r.instance ?? r).exports; self.__schedlabExports = x; self.__schedlabMemory = x.memory; return r; };
  const instantiate = WebAssembly.instantiate, streaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiate = (...a) => instantiate.apply(WebAssembly, a).then(keep);
  WebAssembly.instantiateStreaming = (...a) => streaming.apply(WebAssembly, a).then(keep);
}
`;

/**
 * Grows to 4 GiB the memory of every `name` worker of `page` ("run" or
 * "schedule") that has loaded the core, and takes what its allocator holds
 * free; resolves the sizes.
 */
async function growToLimit(page, name) {
  const grown = [];
  for (const w of page.workers()) {
    if (!w.url().includes(`/${name}-worker`)) continue;
    const bytes = await w
      .evaluate(() => {
        const m = self.__schedlabMemory;
        if (!m) return null;
        m.grow(65536 - m.buffer.byteLength / 65536);
        const malloc = self.__schedlabExports.__wbindgen_malloc;
        for (let size = 1 << 20; size >= 8; size >>= 1) {
          try {
            for (;;) malloc(size, 8);
          } catch {
            // the allocator has no block of this size left; try a smaller one
          }
        }
        return m.buffer.byteLength;
      })
      .catch(() => null);
    if (bytes !== null) grown.push(bytes);
  }
  return grown;
}

async function runsDone(page, count) {
  await page.waitForFunction(
    (n) => {
      const lis = [...document.querySelectorAll("#runs li")];
      return lis.length === n && lis.every((li) => ["done", "error", "cancelled"].includes(li.dataset.status ?? ""));
    },
    count,
    { timeout: 120_000 },
  );
}

test("a worker out of WebAssembly memory is replaced; the other result and the trace are kept", async () => {
  const errors = [];
  const context = session.browser.context;
  await context.route(WORKERS, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: PROLOGUE + (await response.text()) });
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(session.server.url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  await page.setInputFiles("#file-input", SAMPLE);
  await page.waitForFunction(() => /^Loaded/.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
  await choosePolicies(page, ["easy", "fcfs"]);

  // The worker that read the trace for the summary holds its session, so
  // the pool gives it the first point (EASY); grow its memory to the limit.
  const grown = await growToLimit(page, "run");
  assert.deepEqual(grown, [2 ** 32], "one run worker had loaded the core, and its memory is now 4 GiB");

  await page.click("#run");
  await runsDone(page, 2);
  const items = await page.$$eval("#runs li", (lis) =>
    lis.map((li) => ({ label: li.dataset.label, status: li.dataset.status, failure: li.dataset.failure ?? null, text: li.querySelector(".status")?.textContent ?? "" })),
  );
  const failed = items.filter((i) => i.status === "error");
  assert.equal(failed.length, 1, `one point failed: ${JSON.stringify(items)}`);
  assert.equal(failed[0].failure, "memory");
  const SENTENCE = "This run needed more memory than the browser gives the page (4 GiB); the other results and the trace are kept.";
  assert.equal(failed[0].text, SENTENCE);
  const other = items.find((i) => i.status === "done");
  assert.ok(other, "the other point finished");
  // The other result is shown, and the trace is still the one loaded.
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 30_000 });
  const rows = await page.$$eval("#results-table tbody tr", (rs) => rs.map((r) => r.dataset.label));
  assert.deepEqual(rows, [other.label]);
  assert.equal(await page.textContent("#results-failed"), SENTENCE, "the results panel says it in the same one sentence");
  assert.match((await page.textContent("#trace-msg")) ?? "", /^Loaded kth-sp2-first3000\.swf/);
  await page.locator("#runs").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "memory-exhausted.png"), fullPage: false });

  // Run again: both points finish, the failed one on the replaced worker,
  // which got the trace from the page's copy.
  await page.click("#run");
  await page.waitForFunction(() => [...document.querySelectorAll("#runs li")].some((li) => li.dataset.status !== "done"), null, { timeout: 10_000 }).catch(() => {});
  await runsDone(page, 2);
  const again = await page.$$eval("#runs li", (lis) => lis.map((li) => li.dataset.status));
  assert.deepEqual(again, ["done", "done"]);
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 30_000 });
  assert.equal((await page.$$("#results-table tbody tr")).length, 2);

  // The schedule view's worker: opened once, its memory grown to the
  // limit, opened again (the pair runs again there): the same sentence,
  // the pair closed, the results kept; the next opening starts a new worker.
  await page.click("#view-schedule");
  await page.click("#schedule-open");
  await page.waitForSelector("[data-testid='schedule-view']:not([data-mode='empty'])", { timeout: 60_000 });
  assert.deepEqual(await growToLimit(page, "schedule"), [2 ** 32], "the schedule worker's memory is now 4 GiB");
  await page.click("#schedule-open");
  await page.waitForFunction((s) => document.querySelector("#schedule > p.msg[role='status']")?.textContent === s, SENTENCE, {
    timeout: 60_000,
  });
  assert.equal(await page.$("[data-testid='schedule-view']"), null, "the pair is closed");
  await page.screenshot({ path: join(SHOTS, "memory-exhausted-schedule.png"), fullPage: false });
  await page.click("#schedule-open");
  await page.waitForSelector("[data-testid='schedule-view']:not([data-mode='empty'])", { timeout: 60_000 });
  assert.equal(await page.$("#schedule > p.msg.error"), null);
  await page.click("#view-summary");
  assert.equal((await page.$$("#results-table tbody tr")).length, 2);
  assert.deepEqual(errors, []);
  await context.unroute(WORKERS);
  await page.close();
});
