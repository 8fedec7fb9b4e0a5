// Figures that never break, in the page: charts of six composable-
// backfilling runs with formula titles on a phone (390 px) and a desktop
// (1920 px), a sweep of a list of depths ending in `all` with its figure
// against the depth, a share link that lands on the results. The charts'
// layout itself (overlaps, cuts, thin bars over every name length, run
// count and width) is checked natively: crates/schedlab-charts, tests/grid.rs.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, pageAt, SHOTS, sharedSession } from "./harness.mjs";

const session = sharedSession(SHOTS);
const pageErrors = [];

/** Six composable-backfilling runs, each with its own order formula, the longest titles a user makes. */
const LONG_RUNS = [
  ["0", "-(wait / requested)^3 * procs"],
  ["1", "requested * sqrt(procs) + 530000 * log10(submit)"],
  ["2", "-(wait + 1e-15) / (log2(procs + 1e-15) * requested)"],
  ["4", "log10(requested) * procs + 870 * log10(submit)"],
  ["8", "sqrt(requested) * procs + 25600 * log10(submit)"],
  ["all", "requested * procs + 6860000 * log10(submit)"],
].map(([depth, order]) => ({ policy: "backfill", params: { depth, order } }));

function link(experiment) {
  const body = { trace: { kind: "sample", id: "kth-sp2-first3000" }, experiment };
  return `#v2=${Buffer.from(JSON.stringify(body)).toString("base64url")}`;
}

async function chartsDrawn(page) {
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 300_000 });
  await page.waitForFunction(() => {
    const cs = [...document.querySelectorAll("#charts canvas")];
    return cs.length > 0 && cs.every((c) => c.dataset.drawn === "1");
  }, null, { timeout: 60_000 });
}

describe("figures", () => {
  for (const [width, height] of [
    [390, 844],
    [1920, 1080],
  ]) {
    test(`six composable-backfilling runs with formula titles at ${width} px: every chart drawn inside the screen, taller for its names`, async () => {
      const page = await pageAt(session, width, height, pageErrors);
      await page.goto(`${session.server.url}${link({ runs: LONG_RUNS })}`);
      await chartsDrawn(page);
      // Each run's title names its depth, the default 1 included, since the runs differ in it.
      const titles = await page.$$eval("#results-table tbody tr", (rows) => rows.map((r) => r.dataset.title ?? r.cells[0].textContent));
      assert.ok(titles.some((t) => /depth 1\b/.test(t)), titles.join(" | "));
      // Waits read as durations, as the inspector words them, and their header names no unit.
      const wait = await page.$$eval("#results-table [data-metric='max_wait']", (cs) => cs.map((c) => c.textContent));
      assert.equal(wait[0], "max wait");
      for (const w of wait.slice(1)) assert.match(w, /^\d+ (s|min|h|d)( \d+ (s|min|h))?$/, `max wait ${w}`);
      // The canvases fit the screen; the per-run bars, with six long names, are drawn taller than 16:10.
      const charts = await page.$$eval("#charts canvas", (cs) =>
        cs.map((c) => ({ id: c.id, right: c.getBoundingClientRect().right, ratio: c.width / c.height })),
      );
      for (const c of charts) assert.ok(c.right <= width + 0.5, `${c.id} ends at ${c.right}`);
      const mbs = charts.find((c) => c.id === "chart-mbs");
      assert.ok(mbs && mbs.ratio < 1.6, `the per-run chart grows for its names (width/height ${mbs?.ratio})`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, "no sideways scrolling");
      await page.locator("#chart-mbs").scrollIntoViewIfNeeded();
      await page.locator("#charts").screenshot({ path: join(SHOTS, `figures-long-titles-${width}.png`) });
      // The table of the six runs: durations in words, long titles wrapped in their column.
      await page.locator(".table-wrap:has(#results-table)").screenshot({ path: join(SHOTS, `results-table-${width}.png`) });
      await page.close();
    });
  }

  for (const [width, height] of [
    [390, 844],
    [1920, 1080],
  ]) {
    test(`a sweep of a list of depths, \`all\` included, and the figure against the depth, at ${width} px`, async () => {
      const page = await pageAt(session, width, height, pageErrors);
      await page.click("#sample-load");
      await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
      await choosePolicies(page, ["backfill"]);
      await page.selectOption("#sweep-param", "depth");
      // The core offers the depths as a list ending in its word.
      assert.equal(await page.inputValue("#sweep-values"), "0,1,2,4,8,all");
      // A bad list is named, and the sweep keeps its values.
      await page.fill("#sweep-values", "0,1:2");
      await page.dispatchEvent("#sweep-values", "change");
      await page.waitForSelector("#sweep-values[aria-invalid='true']");
      await page.fill("#sweep-values", "0,1,all");
      await page.dispatchEvent("#sweep-values", "change");
      await page.waitForSelector("#sweep-values:not([aria-invalid])");
      await page.click("#run");
      await chartsDrawn(page);
      const rows = await page.$$eval("#results-table tbody tr", (r) => r.length);
      assert.equal(rows, 3);
      assert.ok(await page.$("#chart-sweep-mbs"), "MBS against the depth");
      await page.locator("#chart-sweep-mbs").scrollIntoViewIfNeeded();
      const right = await page.$eval("#chart-sweep-mbs", (c) => c.getBoundingClientRect().right);
      assert.ok(right <= width + 0.5, `the sweep's chart ends at ${right}`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, "no sideways scrolling");
      await page.locator("#chart-sweep-mbs").screenshot({ path: join(SHOTS, `figures-depth-sweep-${width}.png`) });
      await page.close();
    });
  }

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
