// The schedule view in a real browser, on the bundled sample and on a
// generated 250,000-job trace: EASY and CBF run, the pair opened, a week
// zoomed into (the readout, and pixels of run colours on the canvas), a run
// clicked and a blocked job searched in the inspector (its reservations, and
// culprits checked against the command line's per-job table: each held
// processors at the instant the job could have started, and without them
// the job did not fit), the scatter's drag selection, the replay advancing,
// the exported SVG, and keyboard pan and zoom.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, ROOT, sharedSession, SHOTS } from "./harness.mjs";

const SAMPLE = join(ROOT, "samples", "kth-sp2-first3000.swf");
const CLI = join(ROOT, "target", "release", "schedlab");
const WEEK = 7 * 86_400;
/** The generated trace of the large case, as scripts/bench-browser.mjs generates it. */
const GEN = { procs: 256, jobs: 250_000, load: 0.7, seed: 1 };
const session = sharedSession(SHOTS);

/** The generated trace's bytes from the core's Node build (the same generator as the page's), written to `file`. */
function generated(file) {
  const core = createRequire(import.meta.url)(join(ROOT, "target", "wasm-node", "schedlab_wasm.js"));
  writeFileSync(file, core.generate_lublin(GEN));
  return file;
}

/** The command line's EASY run of `trace`: its metrics and its per-job table (by job number). */
function cliEasy(trace) {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-schedule-"));
  try {
    const csv = join(dir, "jobs.csv");
    const doc = JSON.parse(
      execFileSync(CLI, ["run", trace, "--policy", "easy", "--json", "-q", "--jobs-csv", csv], { maxBuffer: 256 << 20 }).toString(),
    );
    const [head, ...lines] = readFileSync(csv, "utf8").trim().split("\n");
    const cols = head.split(",");
    const jobs = new Map();
    for (const line of lines) {
      const cells = line.split(",");
      const row = Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
      jobs.set(Number(row.job), row);
    }
    return { doc, jobs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function newPage() {
  const page = await session.browser.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(session.server.url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return { page, errors };
}

async function waitTrace(page) {
  await page.waitForFunction(() => /^Loaded/.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 600_000 });
}

/** EASY and CBF on the loaded trace, then the schedule tab with the pair open. */
async function runPairAndOpen(page, timeout) {
  await choosePolicies(page, ["easy", "cbf"]);
  await page.click("#run");
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout });
  await page.click("#view-schedule");
  await page.click("#schedule-open");
  await page.waitForSelector("[data-testid='schedule-view']:not([data-mode='empty'])", { timeout });
}

async function readout(page) {
  return page.$eval("[data-testid='schedule-window']", (o) => ({ from: Number(o.dataset.from), to: Number(o.dataset.to) }));
}

/** Pixels of the Gantt's plot in one of the legend's run colours (±8 per channel). */
async function runPixels(page) {
  return page.$eval("[data-testid='schedule-view']", (c) => {
    const colours = ["#0072b2", "#e69f00", "#009e73", "#d55e00"].map((h) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)));
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
      if (colours.some(([r, g, b]) => Math.abs(d[i] - r) < 8 && Math.abs(d[i + 1] - g) < 8 && Math.abs(d[i + 2] - b) < 8)) n++;
    return { n, total: c.width * c.height };
  });
}

/** Waits until the Gantt draws the runs of the window the readout shows. */
async function waitRunsDrawn(page) {
  await page.waitForFunction(() => document.querySelector("[data-testid='schedule-view']")?.dataset.mode === "runs", null, { timeout: 30_000 });
  await page.waitForTimeout(200);
}

/** Types a window (the command line's `--window` syntax) and shows it. */
async function typeWindow(page, text) {
  await page.fill("#window-input", text);
  await page.click(".window-input button[type='submit']");
}

async function zoomWeek(page, shot) {
  await page.click("#zoom-week");
  const w = await readout(page);
  assert.equal(w.to - w.from, WEEK, "the window readout shows a week");
  assert.match(await page.textContent("[data-testid='schedule-window']"), /\(7 d\)/);
  await waitRunsDrawn(page);
  await page.locator("#schedule").screenshot({ path: join(SHOTS, shot) });
  const px = await runPixels(page);
  assert.ok(px.n > px.total / 50, `the week's runs cover the canvas (${px.n} of ${px.total} pixels in run colours)`);
  return w;
}

/** Clicks the first pixel in a run colour; the inspector opens a job that ran there then (per the command line's table). */
async function clickRun(page, easy) {
  const hit = await page.$eval("[data-testid='schedule-view']", (c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const dpr = c.width / c.clientWidth;
    for (let y = Math.floor(c.height / 2); y < c.height; y += 3)
      for (let x = Math.floor(c.width / 3); x < c.width; x += 3) {
        const i = 4 * (y * c.width + x);
        if (Math.abs(d[i]) < 8 && Math.abs(d[i + 1] - 0x72) < 8 && Math.abs(d[i + 2] - 0xb2) < 8) return { x: x / dpr, y: y / dpr };
      }
    return null;
  });
  assert.ok(hit, "a run drawn in order (blue) to click");
  await page.click("[data-testid='schedule-view']", { position: hit });
  await page.waitForSelector("[data-testid='job-inspector'] .inspector-run[data-slot='0']");
  const id = Number((await page.textContent("#inspector-title")).match(/Job (\d+)/)[1]);
  const row = easy.jobs.get(id);
  assert.ok(row, `job ${id} is in the command line's table`);
}

/** Searches a job the command line found blocked and delayed under EASY; checks reservations and culprits. */
async function inspectBlocked(page, easy, procs) {
  const rows = [...easy.jobs.values()];
  const blocked = rows.find((r) => r.blocked === "1" && r.fair_start !== "" && Number(r.fair_start) < Number(r.start));
  assert.ok(blocked, "EASY blocks and delays some job (command line)");
  assert.ok(easy.doc.metrics.fairness_all.delayed >= 1, "the full strict-fairness audit counts delayed jobs");
  await page.fill("#job-search", blocked.job);
  await page.click(".inspector-search button[type='submit']");
  await page.waitForFunction((id) => document.getElementById("inspector-title")?.textContent?.startsWith(`Job ${id} `), blocked.job);
  const easyPart = "[data-testid='job-inspector'] .inspector-run[data-slot='0']";
  assert.equal(await page.getAttribute(easyPart, "data-blocked"), "1");
  const reservations = Number(await page.getAttribute(`${easyPart} table.reservations`, "data-count"));
  assert.ok(reservations >= 1, "a blocked job held a reservation");
  const culprits = await page.$$eval(`${easyPart} .culprits .job-link`, (bs) => bs.map((b) => Number(b.textContent.replace("job ", ""))));
  assert.ok(culprits.length >= 1, "the inspector names its culprits");
  const from = Number((await page.textContent(`${easyPart} .culprits p`)).match(/could have started at d(\d+)(?: (\d+):(\d+))?/).slice(1).reduce((t, v, i) => t + (Number(v ?? 0) * [86_400, 3600, 60][i]), 0));
  // By the command line's own table: at `from` (to the minute) the job waited and every culprit ran.
  const j = Number(blocked.job);
  const running = (r, t) => Number(r.start) <= t + 60 && t < Number(r.end);
  for (const c of culprits) {
    const r = easy.jobs.get(c);
    assert.ok(c > j || Number(r.submit) > Number(blocked.submit), `culprit ${c} has a lower priority than job ${j}`);
    assert.ok(running(r, from), `culprit ${c} held processors at the instant job ${j} could have started`);
  }
  const busy = rows.filter((r) => Number(r.start) <= from && from < Number(r.end)).reduce((s, r) => s + Number(r.size), 0);
  const mine = culprits.reduce((s, c) => s + Number(easy.jobs.get(c).size), 0);
  assert.ok(procs - busy + mine >= Number(blocked.size), "with the culprits' processors the job fits");
  // A culprit's button opens that job.
  await page.click(`${easyPart} .culprits .job-link`);
  await page.waitForFunction((id) => document.getElementById("inspector-title")?.textContent?.startsWith(`Job ${id} `), culprits[0]);
}

async function scatterSelects(page) {
  await page.$eval("[data-testid='job-scatter']", (c) => c.scrollIntoView({ block: "center" }));
  const box = await (await page.$("[data-testid='job-scatter']")).boundingBox();
  await page.mouse.move(box.x + 40, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20, { steps: 5 });
  await page.mouse.up();
  await page.waitForSelector(".scatter-picked");
  const total = Number(await page.getAttribute(".scatter-picked", "data-total"));
  assert.ok(total >= 1, `the drag selected ${total} jobs`);
  const first = await page.textContent(".scatter-picked .job-link");
  await page.click(".scatter-picked .job-link");
  await page.waitForFunction((id) => document.getElementById("inspector-title")?.textContent?.startsWith(`Job ${id} `), first.replace("job ", ""));
}

async function replayAdvances(page) {
  const now = async () => Number(await page.getAttribute("#replay-now", "data-t"));
  await page.click("#replay-next");
  await page.waitForFunction(() => document.getElementById("replay-now")?.dataset.t !== "");
  const t0 = await now();
  await page.click("#replay-next");
  await page.waitForFunction((t) => Number(document.getElementById("replay-now")?.dataset.t) > t, t0);
  await page.click("#replay-play");
  await page.waitForTimeout(600);
  await page.click("#replay-play");
  const t1 = await now();
  assert.ok(t1 > t0, `replay advanced from ${t0} to ${t1}`);
}

async function exportedSvg(page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#schedule-svg")]);
  const svg = readFileSync(await download.path(), "utf8");
  assert.ok(svg.startsWith("<svg") && svg.length > 5000, `an SVG of ${svg.length} bytes`);
  assert.ok((svg.match(/<rect/g) ?? []).length > 20, "the SVG draws boxes");
}

async function badWindow(page) {
  const before = await readout(page);
  await typeWindow(page, "17d:10d");
  assert.match(await page.textContent("#schedule p.msg.error"), /time window `17d:10d`: its end must come after its start/);
  await typeWindow(page, "ten days:2w");
  assert.match(await page.textContent("#schedule p.msg.error"), /`ten days` is not a time/);
  assert.deepEqual(await readout(page), before, "a bad window leaves the view where it was");
}

async function keyboard(page) {
  await page.focus("[data-testid='schedule-view']");
  const w0 = await readout(page);
  await page.keyboard.press("+");
  const w1 = await readout(page);
  assert.ok(Math.abs(w1.to - w1.from - (w0.to - w0.from) / 1.5) <= 2, "+ zooms in by 1.5");
  await page.keyboard.press("ArrowRight");
  const w2 = await readout(page);
  assert.ok(Math.abs(w2.from - w1.from - 0.1 * (w1.to - w1.from)) <= 2, "→ pans a tenth of the window");
  // ] selects a run drawn in the window (the first starting in its second half), [ the one before it.
  await waitRunsDrawn(page);
  await page.keyboard.press("]");
  await page.waitForSelector("[data-testid='job-inspector'] .inspector-run[data-slot='0']");
  const picked = Number(await page.getAttribute("[data-testid='job-inspector'] .inspector-run[data-slot='0']", "data-job"));
  await page.keyboard.press("[");
  await page.waitForFunction(
    (j) => Number(document.querySelector("[data-testid='job-inspector'] .inspector-run[data-slot='0']")?.dataset.job) !== j,
    picked,
  );
  await page.keyboard.press("-");
  await page.keyboard.press("Home");
  const w3 = await readout(page);
  assert.ok(w3.to - w3.from > WEEK, "Home shows the whole run");
  const label = await page.getAttribute("[data-testid='schedule-view']", "aria-label");
  assert.match(label, /^Schedule of EASY.* from d\d+/);
  const outline = await page.$eval("[data-testid='schedule-view']", (c) => getComputedStyle(c).outlineStyle);
  assert.equal(outline, "solid", "the focused canvas shows a focus ring");
}

/** The address's link restores the view: a new page opens the pair, the window and the job inspected. */
async function linkRestores(page, jobId) {
  await typeWindow(page, "10d:12d");
  await page.fill("#job-search", String(jobId));
  await page.click(".inspector-search button[type='submit']");
  await page.waitForFunction((id) => document.getElementById("inspector-title")?.textContent?.startsWith(`Job ${id} `), jobId);
  await page.waitForFunction(() => location.hash.length > 10);
  await page.waitForTimeout(600);
  const hash = await page.evaluate(() => location.hash);
  const other = await session.browser.context.newPage();
  try {
    await other.goto(session.server.url + hash);
    await other.waitForSelector("[data-testid='schedule-view']:not([data-mode='empty'])", { timeout: 120_000 });
    await other.waitForFunction((id) => document.getElementById("inspector-title")?.textContent?.startsWith(`Job ${id} `), jobId, {
      timeout: 30_000,
    });
    assert.deepEqual(await readout(other), { from: 10 * 86_400, to: 12 * 86_400 });
    assert.equal(await other.$$eval("input[name='gantt-slot']", (r) => r.length), 2, "the pair is open");
    assert.match(await other.textContent(".schedule-info"), /^A: EASY.*B: Conservative/);
    await landsOnTheView(other, "#inspector-title");
  } finally {
    await other.close();
  }
}

/** The page opened on a link shows the schedule at the screen's top, the element `focused` having the focus. */
async function landsOnTheView(page, focused) {
  await page.waitForFunction((sel) => document.activeElement === document.querySelector(sel), focused, { timeout: 30_000 });
  const top = await page.$eval("#schedule", (s) => s.getBoundingClientRect().top);
  assert.ok(Math.abs(top) <= 2 && (await page.evaluate(() => window.scrollY)) > 0, `the schedule view is at the top (${top} px), not the page's start`);
}

/** A link made with the Gantts stacked opens them stacked, scrolled to and focused; both exports draw A above B. */
async function stackedLinkRestores(page) {
  await page.check("#gantt-stack");
  await page.waitForSelector("[data-testid='schedule-view-b']");
  await page.waitForFunction(() => location.hash.length > 10);
  await page.waitForTimeout(600);
  const hash = await page.evaluate(() => location.hash);
  const other = await session.browser.context.newPage();
  try {
    await other.setViewportSize({ width: 1280, height: 900 });
    await other.goto(session.server.url + hash);
    await other.waitForSelector("[data-testid='schedule-view-b'][data-mode='runs']", { timeout: 120_000 });
    assert.ok(await other.isChecked("#gantt-stack"), "stacked, as the link was made");
    await landsOnTheView(other, "#inspector-title");
    await other.screenshot({ path: join(SHOTS, "link-stacked-1280.png") });
    // The SVG export draws what the view shows: both runs' titles, A above B.
    const [download] = await Promise.all([other.waitForEvent("download"), other.click("#schedule-svg")]);
    const svg = readFileSync(await download.path(), "utf8");
    const y = (title) => Number(svg.split("<text").find((t) => t.includes(`>\n${title}`))?.match(/ y="([0-9.]+)"/)?.[1]);
    assert.ok(y("EASY") < y("Conservative backfilling"), `A (${y("EASY")}) above B (${y("Conservative backfilling")})`);
    assert.match(download.suggestedFilename(), /^kth-sp2-first3000-easy-vs-conservative-backfilling-schedule\.svg$/);
  } finally {
    await other.close();
  }
  // On a phone and on a projector the link lands on the stacked view as well.
  for (const [width, height] of [
    [390, 844],
    [1920, 1080],
  ]) {
    const narrow = await session.browser.context.newPage();
    try {
      await narrow.setViewportSize({ width, height });
      await narrow.goto(session.server.url + hash);
      await narrow.waitForSelector("[data-testid='schedule-view-b'][data-mode='runs']", { timeout: 120_000 });
      await narrow.waitForFunction(() => document.activeElement === document.querySelector("#inspector-title"), null, { timeout: 30_000 });
      const top = await narrow.$eval("#schedule", (s) => s.getBoundingClientRect().top);
      assert.ok(Math.abs(top) <= 2, `the schedule view is at the top at ${width} px (${top} px)`);
      assert.ok((await narrow.evaluate(() => document.documentElement.scrollWidth)) <= width, `no sideways scrolling at ${width} px`);
      await narrow.waitForTimeout(300);
      await narrow.screenshot({ path: join(SHOTS, `link-stacked-${width}.png`) });
    } finally {
      await narrow.close();
    }
  }
  await page.uncheck("#gantt-stack");
}

/** A link whose view is wrong opens nothing and says which field is wrong. */
async function badViewLink() {
  const link = { trace: { kind: "sample", id: "kth-sp2-first3000" }, experiment: { runs: [{ policy: "easy" }] }, view: { points: [0], from: 50, to: 20 } };
  const page = await session.browser.context.newPage();
  try {
    await page.goto(`${session.server.url}#v2=${Buffer.from(JSON.stringify(link)).toString("base64url")}`);
    await page.waitForSelector("#banner:not([hidden])");
    assert.match(await page.textContent("#banner"), /view\.to: the window's end \(20\) must come after its start \(50\)/);
  } finally {
    await page.close();
  }
}

/** The views for the documentation: at 1280 pixels, and in the presentation layout at 1920. */
async function screenshots(page) {
  await typeWindow(page, "24d:31d");
  await page.fill("#job-search", "162");
  await page.click(".inspector-search button[type='submit']");
  await page.click("#replay-next");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(500);
  await page.locator("#results-panel").screenshot({ path: join(SHOTS, "schedule-1280.png") });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.check("#opt-present");
  await page.waitForTimeout(500);
  await page.locator("#results-panel").screenshot({ path: join(SHOTS, "schedule-present-1920.png") });
  await page.uncheck("#opt-present");
}

/** The whole path on one trace; `procs` is the machine's size. */
async function wholePath(page, trace, procs, prefix) {
  const easy = cliEasy(trace);
  // Two weeks from the median start (a busy time, whatever idle stretches the trace has), then a week about their middle.
  const starts = [...easy.jobs.values()].map((r) => Number(r.start)).sort((a, b) => a - b);
  const busy = starts[Math.floor(starts.length / 2)];
  await typeWindow(page, `${busy}:${busy + 2 * WEEK}`);
  assert.deepEqual(await readout(page), { from: busy, to: busy + 2 * WEEK });
  const w = await zoomWeek(page, `${prefix}-week.png`);
  assert.ok(w.from >= 0);
  await clickRun(page, easy);
  await inspectBlocked(page, easy, procs);
  await scatterSelects(page);
  await replayAdvances(page);
  await page.locator("#schedule").screenshot({ path: join(SHOTS, `${prefix}-views.png`) });
  await exportedSvg(page);
  await badWindow(page);
  await keyboard(page);
}

/** "1996-10-01 21:12 UTC+1": trace second `t` of the sample as a date at its header's offset, by JavaScript's calendar. */
function utcPlusOne(t) {
  const iso = new Date((843_480_031 + Math.round(t) + 3600) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC+1`;
}

describe("schedule view", () => {
  test("bundled sample: Gantt, inspector, scatter, replay, export, keyboard, share link", async () => {
    const { page, errors } = await newPage();
    await page.setInputFiles("#file-input", SAMPLE);
    await waitTrace(page);
    await runPairAndOpen(page, 120_000);
    await wholePath(page, SAMPLE, 100, "schedule-sample");
    await linkRestores(page, 162);
    await stackedLinkRestores(page);
    await badViewLink();
    await screenshots(page);
    // A new run of the same form: the view says it still shows the earlier runs.
    assert.equal(await page.$("#schedule-stale"), null);
    await page.click("#run");
    await page.waitForSelector("#schedule-stale", { timeout: 60_000 });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("before/after: the two Gantts stacked on one time axis, A above B, the selected job outlined in both", async () => {
    const { page, errors } = await newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.setInputFiles("#file-input", SAMPLE);
    await waitTrace(page);
    await runPairAndOpen(page, 120_000);
    // Job 162 is submitted on day 7 (its SWF line): the window holds its run under both policies.
    await typeWindow(page, "7d:14d");
    await page.fill("#job-search", "162");
    await page.click(".inspector-search button[type='submit']");
    await page.waitForSelector("[data-testid='job-inspector'] .inspector-run[data-slot='0']");
    await page.check("#gantt-stack");
    const both = "[data-testid='schedule-view'][data-mode='runs'][data-outlined]:not([data-outlined='0'])";
    await page.waitForSelector(`${both} ~ [data-testid='schedule-view-b'][data-mode='runs']:not([data-outlined='0'])`, { timeout: 30_000 });
    assert.equal(await page.textContent("#gantt-caption-0"), "A: EASY");
    assert.equal(await page.textContent("#gantt-caption-1"), "B: Conservative backfilling");
    const [a, b] = await Promise.all(
      ["schedule-view", "schedule-view-b"].map((id) => page.$eval(`[data-testid='${id}']`, (c) => c.getBoundingClientRect().toJSON())),
    );
    assert.deepEqual([b.left, b.width], [a.left, a.width], "one time axis: the same left edge and width");
    assert.ok(b.top >= a.bottom, `B (top ${b.top}) is below A (bottom ${a.bottom})`);
    // The window is the one shared axis: zooming moves both.
    const week = await page.$$eval("canvas.gantt", (cs) => cs.map((c) => Number(c.dataset.runs)));
    await page.click("#zoom-all");
    await page.waitForFunction(
      (w) => [...document.querySelectorAll("canvas.gantt")].every((c, i) => Number(c.dataset.runs) > w[i]),
      week,
      { timeout: 30_000 },
    );
    await typeWindow(page, "7d:14d");
    await page.waitForFunction(
      (w) => [...document.querySelectorAll("canvas.gantt")].every((c, i) => Number(c.dataset.runs) === w[i]),
      week,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(300);
    await page.locator("#schedule").screenshot({ path: join(SHOTS, "schedule-stacked-1280.png") });
    await page.uncheck("#gantt-stack");
    assert.equal(await page.$("[data-testid='schedule-view-b']"), null, "unstacked: one Gantt and the A/B choice again");
    assert.ok(await page.$("input[name='gantt-slot']"));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("calendar dates from the header (UnixStartTime, TimeZone) beside the trace time: inspector and replay; the scatter's durations", async () => {
    const { page, errors } = await newPage();
    await page.setInputFiles("#file-input", SAMPLE);
    await waitTrace(page);
    await runPairAndOpen(page, 120_000);
    await typeWindow(page, "7d:9d");
    await page.fill("#job-search", "162");
    await page.click(".inspector-search button[type='submit']");
    await page.waitForSelector("[data-testid='job-inspector'] .inspector-run[data-slot='0']");
    // The sample's header: UnixStartTime 843480031, TimeZone 3600 (UTC+1); job 162 was submitted at t = 681117
    // (its SWF line). The date is worked out here with JavaScript's own calendar, not the core's.
    const submitted = await page.$eval("[data-testid='job-inspector'] .inspector-run[data-slot='0'] .inspector-times", (dl) =>
      [...dl.querySelectorAll("div")].find((d) => d.querySelector("dt")?.textContent === "submitted")?.querySelector("dd")?.textContent,
    );
    // 681117 s after the start is 7 d 21 h 11 min 57 s.
    assert.equal(submitted, `${utcPlusOne(681_117)} (+7\u00a0d\u00a021\u00a0h), t = 681117\u00a0s`);
    // The scatter's wait axis ticks at round durations, as the wait ECDF's do.
    await page.waitForSelector("[data-testid='job-scatter'] canvas[data-ticks]");
    const ticks = (await page.getAttribute("[data-testid='job-scatter'] canvas[data-ticks]", "data-ticks")).split("|");
    assert.deepEqual(ticks.slice(0, 5), ["1 s", "10 s", "1 min", "10 min", "1 h"], ticks.join(", "));
    await page.click("#replay-next");
    await page.waitForFunction(() => document.getElementById("replay-now")?.dataset.t !== "");
    const t = Number(await page.getAttribute("#replay-now", "data-t"));
    const now = await page.textContent("#replay-now");
    assert.ok(now.includes(`now ${utcPlusOne(t)} (+`) && now.endsWith(`, t = ${t} s`), now);
    await page.waitForTimeout(300);
    await page.locator("#schedule").screenshot({ path: join(SHOTS, "schedule-dates-1280.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("generated 250,000-job trace: the same path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "schedlab-gen-"));
    try {
      const trace = generated(join(dir, "generated.swf"));
      const { page, errors } = await newPage();
      for (const [k, v] of Object.entries(GEN)) await page.fill(`#gen-${k}`, String(v));
      await page.click("#gen-run");
      await waitTrace(page);
      await runPairAndOpen(page, 600_000);
      // The whole run holds far more runs than the Gantt draws one by one: it is drawn by columns.
      assert.equal(await page.getAttribute("[data-testid='schedule-view']", "data-mode"), "columns");
      await wholePath(page, trace, GEN.procs, "schedule-250k");
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
