// The page's layout on a phone (390 and 360 CSS pixels wide) and on a
// projector (1920 × 1080): no horizontal scrolling on any results tab with
// every view of the schedule open (Gantt, inspector, scatter, replay),
// charts and legends inside the screen, runs that do not overlap, content
// that uses a wide screen and a presentation layout that fits a chart in
// one screen.
// Screenshots go to SHOTS (scripts/screenshots.sh: docs/screenshots).
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pageAt as openPage, SHOTS, sharedSession } from "./harness.mjs";

const session = sharedSession(SHOTS);
const pageErrors = [];

function pageAt(width, height) {
  return openPage(session, width, height, pageErrors);
}

/** Loads the sample and runs FCFS and EASY; resolves when the charts are drawn. */
async function runSample(page) {
  await page.click("#sample-load");
  await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
  await page.click("#run");
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 120_000 });
  await page.waitForFunction(() => {
    const cs = [...document.querySelectorAll("#charts canvas")];
    return cs.length > 0 && cs.every((c) => c.dataset.drawn === "1");
  }, null, { timeout: 30_000 });
}

/**
 * What sticks out of a screen `screen` CSS pixels wide, and runs whose parts overlap. Measured against the
 * screen's width as the test set it, not the document's own (which a too-wide page widens with it on a phone).
 */
function layoutFaults(page, screen) {
  return page.evaluate((width) => {
    const faults = [];
    const root = document.documentElement;
    for (const [what, w] of [["scrollWidth", root.scrollWidth], ["clientWidth", root.clientWidth], ["body", document.body.getBoundingClientRect().right]])
      if (w > width + 0.5) faults.push(`the page is wider than the screen: ${what} ${w} > ${width}`);
    for (const el of document.querySelectorAll("canvas, figure, .panel, .card, .preset, #runs li, .toolbar, h1, .demo, table, .schedule section, .schedule-legend")) {
      // A table may scroll inside its own box (.table-wrap); what counts is the box.
      if (el.tagName === "TABLE" && el.closest(".table-wrap")) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.left < -0.5 || r.right > width + 0.5)) faults.push(`${el.tagName.toLowerCase()}#${el.id || el.className} spans ${r.left.toFixed(0)}–${r.right.toFixed(0)}`);
    }
    for (const li of document.querySelectorAll("#runs li")) {
      const parts = [...li.children].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
      for (let i = 0; i < parts.length; i++)
        for (let j = i + 1; j < parts.length; j++) {
          const [a, b] = [parts[i], parts[j]];
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) faults.push(`runs: parts ${i} and ${j} of "${li.dataset.label}" overlap`);
        }
    }
    return faults;
  }, screen);
}

/** Opens the Schedule tab with both runs, a job in the inspector, the scatter and a step of the replay. */
async function openEveryScheduleView(page) {
  await page.click("#view-schedule");
  await page.click("#schedule-open");
  await page.waitForSelector("[data-testid='schedule-view'][data-mode='runs'], [data-testid='schedule-view'][data-mode='columns']", { timeout: 60_000 });
  await page.waitForSelector("[data-testid='job-scatter']");
  // The sample's first job (samples/README.md: jobs 15 to 3014).
  const first = 15;
  await page.fill("#job-search", String(first));
  await page.click(".inspector-search button[type='submit']");
  await page.waitForFunction((id) => document.getElementById("inspector-title")?.textContent?.startsWith(`Job ${id} `), first);
  await page.click("#replay-next");
  await page.waitForSelector(".replay-canvas[data-drawn='1']");
}

describe("layout", () => {
  for (const width of [390, 360]) {
    test(`a phone ${width} px wide: no tab scrolls sideways or is cut, with every schedule view open; runs do not overlap`, async () => {
      const page = await pageAt(width, 844);
      await runSample(page);
      assert.deepEqual(await layoutFaults(page, width), [], "the table and charts tab");
      await openEveryScheduleView(page);
      assert.deepEqual(await layoutFaults(page, width), [], "the schedule tab with every view open");
      // A job that waited, with dates and reservations in the inspector.
      await page.fill("#job-search", "162");
      await page.click(".inspector-search button[type='submit']");
      await page.waitForFunction(() => document.getElementById("inspector-title")?.textContent?.startsWith("Job 162 "));
      assert.deepEqual(await layoutFaults(page, width), [], "the schedule tab with job 162 in the inspector");
      await page.locator("[data-testid='job-inspector']").screenshot({ path: join(SHOTS, `phone-${width}-inspector.png`) });
      const scatter = await page.$eval("[data-testid='job-scatter']", (s) => s.getBoundingClientRect().width);
      assert.ok(scatter <= width - 20, `the scatter (${scatter} px) fits the phone`);
      await page.locator("#schedule").screenshot({ path: join(SHOTS, `phone-${width}-schedule.png`) });
      await page.click("#view-glossary");
      assert.deepEqual(await layoutFaults(page, width), [], "the glossary tab");
      await page.click("#view-summary");
      await page.waitForFunction(() => [...document.querySelectorAll("#charts canvas")].every((c) => c.dataset.drawn === "1"));
      // A chart's canvas is drawn for its width (legend and labels inside it).
      const charts = await page.$$eval("#charts canvas", (cs) => cs.map((c) => ({ css: c.getBoundingClientRect().width, ratio: c.width / c.height })));
      for (const c of charts) assert.ok(c.css <= width && c.ratio < 1.4, `a chart ${c.css} px wide, drawn taller for a phone (ratio ${c.ratio.toFixed(2)})`);
      await page.screenshot({ path: join(SHOTS, `phone-${width}.png`), fullPage: true });
      await page.close();
    });
  }

  test("a projector (1920 × 1080): the content uses the width; the presentation layout fits a chart in one screen", async () => {
    const page = await pageAt(1920, 1080);
    await runSample(page);
    assert.deepEqual(await layoutFaults(page, 1920), []);
    const main = await page.$eval("main", (m) => m.getBoundingClientRect().width);
    assert.ok(main >= 1800, `the content is ${main} px wide`);
    await page.screenshot({ path: join(SHOTS, "projector-1920.png") });
    await page.check("#opt-large");
    await page.check("#opt-present");
    await page.waitForFunction(() => [...document.querySelectorAll("#charts canvas")].every((c) => c.dataset.drawn === "1"));
    const fig = page.locator("#charts figure").first();
    await fig.scrollIntoViewIfNeeded();
    const box = await fig.boundingBox();
    assert.ok(box && box.height <= 1080, `a chart with its caption is ${box?.height} px high`);
    // large type: the figure's text is larger than in the normal layout
    const font = await page.$eval("#charts figcaption", (c) => parseFloat(getComputedStyle(c).fontSize));
    assert.ok(font >= 28, `caption text ${font} px`);
    await page.evaluate(() => document.querySelector("#charts figure")?.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: join(SHOTS, "projector-1920-presentation.png") });
    await page.uncheck("#opt-large");
    await page.uncheck("#opt-present");
    await page.close();
  });

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
