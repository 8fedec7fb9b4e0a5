// Embeddable views: a chart's "Embed" button gives <iframe> code whose
// address opens that chart alone (`?embed=chart-…` before the share link),
// and the code works on another origin: a page served here on a second
// server (another host name and port, no isolation headers, as a blog or
// slides would be) shows the chart filling the frame, with a link back to
// the full page.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, pageAt, sharedSession, SHOTS } from "./harness.mjs";

const session = sharedSession(SHOTS);
const pageErrors = [];

/** Serves one HTML page on localhost (a second origin beside the page's 127.0.0.1); resolves { url, close }. */
function embedder(html) {
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  return new Promise((ok) =>
    server.listen(0, "127.0.0.1", () =>
      ok({
        url: `http://localhost:${server.address().port}/`,
        // The browser keeps its connection alive; without closing it, `close` waits for its timeout.
        close: () => {
          server.closeAllConnections();
          return new Promise((c) => server.close(c));
        },
      }),
    ),
  );
}

describe("embeddable views", () => {
  test("a chart's embed code opens that chart alone in an <iframe> on a second origin", async () => {
    const page = await pageAt(session, 1280, 900, pageErrors);
    await page.selectOption("#sample-select", "kth-sp2-first3000");
    await page.click("#sample-load");
    await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
    await choosePolicies(page, ["easy", "cbf"]);
    await page.click("#run");
    await page.waitForSelector("#results[data-complete='1'] #chart-mbs[data-drawn='1']", { timeout: 120_000 });
    await page.click("figure:has(#chart-mbs) button[data-export='embed']");
    const code = await page.inputValue("figure:has(#chart-mbs) textarea.embed-code");
    const m = code.match(/^<iframe src="(http:\/\/127\.0\.0\.1:\d+\/\?embed=chart-mbs#v2=[A-Za-z0-9_-]+)" title="[^"<>]+" width="900" height="660" style="border:0" loading="lazy"><\/iframe>$/);
    assert.ok(m, code);
    await page.close();

    const host = await embedder(`<!doctype html><title>A talk's slide</title><h1>Our results</h1>${code}`);
    try {
      const slide = await session.browser.context.newPage();
      slide.on("pageerror", (e) => pageErrors.push(String(e)));
      await slide.setViewportSize({ width: 1000, height: 800 });
      await slide.goto(host.url);
      const frame = slide.frameLocator("iframe");
      await frame.locator("#chart-mbs[data-drawn='1']").waitFor({ timeout: 120_000 });
      assert.notEqual(new URL(slide.url()).origin, new URL(m[1]).origin, "the slide is another origin");
      assert.equal(await frame.locator("#experiment, #trace, #results-table").count(), 0, "the chart alone: no panels");
      assert.equal(await frame.locator("header.top").isHidden(), true, "no page header");
      assert.equal(await frame.locator("#embed-open").getAttribute("href"), m[1].replace("?embed=chart-mbs", ""), "open in Schedlab: the full page");
      const [canvas, iframe] = await Promise.all([
        frame.locator("#chart-mbs").boundingBox(),
        slide.locator("iframe").boundingBox(),
      ]);
      assert.ok(canvas.width >= 0.9 * iframe.width, `the chart fills the frame's width (${canvas.width} of ${iframe.width})`);
      await slide.screenshot({ path: join(SHOTS, "embed-iframe-1000.png") });
      await slide.close();
    } finally {
      await host.close();
    }
  });

  test("the schedule view embeds with its pair, window and job", async () => {
    const page = await pageAt(session, 1280, 900, pageErrors);
    await page.selectOption("#sample-select", "kth-sp2-first3000");
    await page.click("#sample-load");
    await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
    await choosePolicies(page, ["easy", "cbf"]);
    await page.click("#run");
    await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 120_000 });
    await page.click("#view-schedule");
    await page.click("#schedule-open");
    await page.waitForSelector("[data-testid='schedule-view']:not([data-mode='empty'])", { timeout: 60_000 });
    await page.fill("#window-input", "7d:9d");
    await page.click(".window-input button[type='submit']");
    await page.fill("#job-search", "162");
    await page.click(".inspector-search button[type='submit']");
    await page.waitForSelector("[data-testid='job-inspector'] .inspector-run[data-slot='0']");
    await page.click("#schedule-embed");
    const code = await page.inputValue("#schedule-embed-code");
    const m = code.match(/^<iframe src="(http:\/\/127\.0\.0\.1:\d+\/\?embed=schedule#v2=[A-Za-z0-9_-]+)"/);
    assert.ok(m, code);
    await page.close();

    // As copied (900 × 660): the Gantt of the link's window and its legend, nothing else, inside the frame.
    // With `&controls=1`: the whole tab, the link's job in the inspector.
    const withControls = code.replace("?embed=schedule#", "?embed=schedule&controls=1#").replace('height="660"', 'height="900"');
    const host = await embedder(`<!doctype html><title>A blog post</title><p>The schedule:</p>${code}<p>With controls:</p>${withControls}`);
    try {
      const post = await session.browser.context.newPage();
      post.on("pageerror", (e) => pageErrors.push(String(e)));
      await post.setViewportSize({ width: 1000, height: 1000 });
      await post.goto(host.url);
      const plain = post.frameLocator("iframe").first();
      const gantt = plain.locator("[data-testid='schedule-view'][data-mode='runs']");
      await gantt.waitFor({ timeout: 120_000 });
      assert.match(await gantt.getAttribute("aria-label"), / from d7 to d9,/);
      assert.equal(await plain.locator("#experiment, #results-table, #schedule-window, #job-search, #replay-next, .schedule-pair").count(), 0, "the Gantt alone");
      assert.equal(await plain.locator(".schedule-legend").count(), 1, "with its legend");
      const box = await gantt.evaluate((c) => c.getBoundingClientRect().bottom);
      assert.ok(box <= 660, `the Gantt ends ${box} px down a 660 px frame`);
      await post.locator("iframe").first().screenshot({ path: join(SHOTS, "embed-schedule-view-only-900.png") });
      const full = post.frameLocator("iframe").nth(1);
      await full.locator("[data-testid='schedule-view'][data-mode='runs']").waitFor({ timeout: 120_000 });
      await full.locator("#inspector-title").waitFor({ timeout: 30_000 });
      assert.match(await full.locator("#inspector-title").textContent(), /^Job 162\b/);
      const w = full.locator("#schedule-window");
      assert.deepEqual([await w.getAttribute("data-from"), await w.getAttribute("data-to")], [String(7 * 86_400), String(9 * 86_400)]);
      assert.equal(await full.locator("#experiment, #results-table").count(), 0, "the schedule view alone");
      await post.screenshot({ path: join(SHOTS, "embed-schedule-1000.png"), fullPage: true });
      await post.close();
      // The embed opened alone on a phone and on a projector: the Gantt and its legend, within the width.
      for (const [width, height] of [
        [390, 660],
        [1920, 1080],
      ]) {
        const alone = await session.browser.context.newPage();
        alone.on("pageerror", (e) => pageErrors.push(String(e)));
        await alone.setViewportSize({ width, height });
        await alone.goto(m[1]);
        await alone.locator("[data-testid='schedule-view'][data-mode='runs']").waitFor({ timeout: 120_000 });
        assert.equal(await alone.locator("#experiment, #results-table, #job-search").count(), 0, "the Gantt alone");
        assert.ok((await alone.evaluate(() => document.documentElement.scrollWidth)) <= width, `no sideways scrolling at ${width} px`);
        await alone.waitForTimeout(300);
        // Full screen, the Gantt takes the height the legend and the strips leave, and all of it fits one screen.
        const [ganttHeight, stripsBottom] = await alone.evaluate(() => [
          document.querySelector("[data-testid='schedule-view']").getBoundingClientRect().height,
          document.querySelector("[data-testid='timeseries']").getBoundingClientRect().bottom,
        ]);
        if (height >= 1000) assert.ok(ganttHeight >= 600 && stripsBottom <= height, `a Gantt ${ganttHeight} px high, strips ending at ${stripsBottom}`);
        else assert.ok(ganttHeight >= 300, `a Gantt ${ganttHeight} px high`);
        await alone.screenshot({ path: join(SHOTS, `embed-schedule-${width}.png`) });
        await alone.close();
      }
    } finally {
      await host.close();
    }
  });

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
