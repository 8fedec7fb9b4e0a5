// A projector with a high-density screen: 1920 × 1080 CSS pixels at device
// pixel ratio 2. Every canvas (the charts, the Gantt, the time series, the
// scatter, the replay) has one pixel per device pixel, in the normal and in
// the presentation layout, never fewer pixels scaled up; one chart with its
// caption fits the screen; the replay is drawn before it is started, fills
// the panel, and its queue shows
// the first waiting jobs' numbers, checked against the command line's
// per-job table of the same run.
// Screenshots go to SHOTS (scripts/screenshots.sh: docs/screenshots).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, pageAt, ROOT, SHOTS, sharedSession } from "./harness.mjs";

const SAMPLE = join(ROOT, "samples", "kth-sp2-first3000.swf");
const CLI = join(ROOT, "target", "release", "schedlab");
const DPR = 2;
const session = sharedSession(SHOTS, { deviceScaleFactor: DPR });
const pageErrors = [];

/** The command line's EASY run of the sample: each job's number, submit and start. */
function cliEasyJobs() {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-projector-"));
  try {
    const csv = join(dir, "jobs.csv");
    execFileSync(CLI, ["run", SAMPLE, "--policy", "easy", "-q", "--jobs-csv", csv]);
    const [head, ...lines] = readFileSync(csv, "utf8").trim().split("\n");
    const cols = head.split(",");
    const at = (name) => cols.indexOf(name);
    return lines.map((l) => l.split(",")).map((c) => ({ job: Number(c[at("job")]), submit: Number(c[at("submit")]), start: Number(c[at("start")]) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The canvases under `selector` (shown ones) whose pixel width is not their
 * CSS width times the device pixel ratio (within the rounding of a pixel).
 */
function blurred(page, selector) {
  return page.$$eval(
    selector,
    (cs, dpr) =>
      cs
        .map((c) => ({ canvas: c.id || c.className || c.dataset.testid, css: c.getBoundingClientRect().width, pixels: c.width }))
        .filter((c) => c.css > 0 && Math.abs(c.pixels - c.css * dpr) > 1.5),
    DPR,
  );
}

/** Waits (up to 10 s) for every canvas under `selector` to be redrawn at the device's pixels; returns those that are not. */
async function settledBlurred(page, selector) {
  await page
    .waitForFunction(
      ([sel, dpr]) => [...document.querySelectorAll(sel)].every((c) => c.getBoundingClientRect().width === 0 || Math.abs(c.width - c.getBoundingClientRect().width * dpr) <= 1.5),
      [selector, DPR],
      { timeout: 10_000 },
    )
    .catch(() => {});
  return blurred(page, selector);
}

async function runSample(page) {
  await page.click("#sample-load");
  await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
  await choosePolicies(page, ["easy", "cbf"]);
  await page.click("#run");
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 120_000 });
  await page.waitForFunction(() => [...document.querySelectorAll("#charts canvas")].every((c) => c.dataset.drawn === "1"), null, { timeout: 30_000 });
}

/** Steps the replay (Next event) until at least `least` jobs wait; returns the state the canvas drew. */
async function replayWithAQueue(page, least) {
  for (let i = 0; i < 200; i++) {
    const before = await page.getAttribute(".replay-canvas", "data-t");
    await page.click("#replay-next");
    await page.waitForFunction((t) => {
      const c = document.querySelector(".replay-canvas");
      return c?.dataset.drawn === "1" && c.dataset.t !== t;
    }, before);
    const drawn = await page.$eval(".replay-canvas", (c) => ({ t: Number(c.dataset.t), waiting: Number(c.dataset.waiting), queue: c.dataset.queue }));
    if (drawn.waiting >= least) return drawn;
  }
  throw new Error(`fewer than ${least} jobs waited in 200 events of the replay`);
}

describe("projector at device pixel ratio 2", () => {
  test("every canvas at the device's pixels in both layouts; a chart fits the screen; the replay fills the panel and numbers its queue", async () => {
    const page = await pageAt(session, 1920, 1080, pageErrors);
    assert.equal(await page.evaluate(() => window.devicePixelRatio), DPR);
    await runSample(page);
    assert.deepEqual(await settledBlurred(page, "#charts canvas"), [], "charts, normal layout");
    await page.check("#opt-present");
    assert.deepEqual(await settledBlurred(page, "#charts canvas"), [], "charts, presentation layout");
    const fig = page.locator("#charts figure").first();
    await fig.scrollIntoViewIfNeeded();
    const box = await fig.boundingBox();
    assert.ok(box && box.height <= 1080, `a chart with its caption is ${box?.height} px high`);
    await page.evaluate(() => document.querySelector("#charts figure")?.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: join(SHOTS, "chart-present-1920-dpr2.png") });

    await page.click("#view-schedule");
    await page.click("#schedule-open");
    await page.waitForSelector("[data-testid='schedule-view'][data-mode='runs'], [data-testid='schedule-view'][data-mode='columns']", { timeout: 60_000 });
    await page.waitForSelector("[data-testid='job-scatter']");
    // Before Play or a step the replay is not empty: it shows the window's start.
    await page.waitForSelector(".replay-canvas[data-drawn='1']");
    // The sample's header gives its start date: the instant reads as a date, and its distance from the trace's start.
    assert.match(await page.textContent("#replay-now"), /^at the window's start, \d{4}-\d\d-\d\d \d\d:\d\d UTC\S* \(\+[^)]+\) /);
    // A busy week of the sample (the first Next event then finds jobs waiting).
    await page.fill("#window-input", "24d:31d");
    await page.click(".window-input button[type='submit']");
    const drawn = await replayWithAQueue(page, 4);
    assert.deepEqual(await settledBlurred(page, "#schedule canvas"), [], "Gantt, time series, scatter and replay, presentation layout");

    // The queue drawn is the run's queue at that instant: the jobs submitted
    // by then and not yet started, in priority order (submit time, then job
    // number), by the command line's table of the same EASY run.
    const waiting = cliEasyJobs()
      .filter((j) => j.submit <= drawn.t && j.start > drawn.t)
      .sort((a, b) => a.submit - b.submit || a.job - b.job)
      .map((j) => j.job);
    assert.equal(drawn.waiting, waiting.length, `jobs waiting at t = ${drawn.t}`);
    const numbers = drawn.queue.split(" ").map(Number);
    assert.ok(numbers.length >= 1, "at least the first waiting job is drawn with its number");
    assert.deepEqual(numbers, waiting.slice(0, numbers.length), "the queue's numbers are the first waiting jobs, in order");
    assert.match(await page.getAttribute(".replay-canvas", "aria-label"), new RegExp(`first: jobs? ${waiting[0]}\\b`));

    // The replay fills the panel's width and most of the screen's height, heading and controls included.
    await page.evaluate(() => document.querySelector("[data-testid='replay']")?.scrollIntoView({ block: "start" }));
    const replay = await page.$eval("[data-testid='replay']", (s) => {
      const c = s.querySelector("canvas").getBoundingClientRect();
      const r = s.getBoundingClientRect();
      return { section: { width: r.width, height: r.height }, canvas: { width: c.width, height: c.height } };
    });
    assert.ok(replay.canvas.width >= replay.section.width * 0.95, `the replay is ${replay.canvas.width} px of ${replay.section.width}`);
    assert.ok(replay.section.height <= 1080, `the replay, with its controls, is ${replay.section.height} px high`);
    assert.ok(replay.canvas.height >= 1080 * 0.6, `the machine and the queue are ${replay.canvas.height} px high`);
    await page.screenshot({ path: join(SHOTS, "replay-present-1920.png") });
    await page.uncheck("#opt-present");
    assert.deepEqual(await settledBlurred(page, "#schedule canvas"), [], "the schedule's canvases, normal layout");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => document.querySelector("[data-testid='replay']")?.scrollIntoView({ block: "start" }));
    await page.waitForTimeout(300);
    await page.locator("[data-testid='replay']").screenshot({ path: join(SHOTS, "replay-1280.png") });
    await page.close();
  });

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
