// The presets panel in a real browser: every preset of the command line is
// listed; `fairness-audit` and `checkpoint-cost` run on the bundled sample
// give the section tables of `schedlab reproduce PRESET TRACE --json` to the
// printed digits, the export equals its JSON byte for byte, the figures are
// drawn, and a share link restores and runs a preset (a link naming an
// unknown preset is refused).
// Run by scripts/test-browser.sh after `npm run build` (serves www/dist).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { durationText, ROOT, SHOTS, sharedSession } from "./harness.mjs";

const session = sharedSession(SHOTS);
const CLI = join(ROOT, "target", "release", "schedlab");
const SAMPLE = "samples/kth-sp2-first3000.swf";

const pageErrors = [];

function ensureCli() {
  if (!existsSync(CLI)) execFileSync("cargo", ["build", "--release", "-q", "-p", "schedlab-cli"], { cwd: ROOT, stdio: "inherit" });
}

function reproduceText(preset) {
  ensureCli();
  return execFileSync(CLI, ["reproduce", preset, SAMPLE, "--json", "--quiet"], { cwd: ROOT, maxBuffer: 64 << 20 }).toString();
}

function reproduce(preset) {
  return JSON.parse(reproduceText(preset));
}

/**
 * Each section's column headers as the command line's text tables print
 * them (the seconds' unit in the header: "mean delay (s)"), one array per
 * table, the row-label columns left out: the last `columns` of each header.
 */
function cliHeaders(preset, columns) {
  ensureCli();
  const lines = execFileSync(CLI, ["reproduce", preset, SAMPLE, "--quiet"], { cwd: ROOT, maxBuffer: 64 << 20 }).toString().split("\n");
  const tables = lines.flatMap((l, i) => (/^-+$/.test(lines[i + 1] ?? "") ? [l.trim().split(/\s{2,}/)] : []));
  return tables.map((h, si) => h.slice(h.length - columns[si]));
}

/** The JSON text without the host-measured run times (the only part that differs between runs). */
function stripTimes(text) {
  return text.replace(/\n *"elapsed_ms": [0-9.e+-]+,/g, "").trimEnd();
}

/** The preset ids the command line knows (from its unknown-preset message). */
function cliPresets() {
  ensureCli();
  try {
    execFileSync(CLI, ["reproduce", "no-such-preset", SAMPLE], { cwd: ROOT, stdio: "pipe" });
  } catch (e) {
    const m = /known: ([^)]*)\)/.exec(String(e.stderr));
    if (m) return m[1].split(", ");
  }
  throw new Error("the command line did not list its presets");
}

function metricAt(doc, path) {
  return path.split(".").reduce((v, k) => (v === null || v === undefined ? v : v[k]), doc);
}

async function newPage(hash = "") {
  const page = await session.browser.context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(session.server.url + hash);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return page;
}

async function loadSample(page) {
  await page.selectOption("#sample-select", "kth-sp2-first3000");
  await page.click("#sample-load");
  await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
}

async function waitPreset(page, id, timeout = 180_000) {
  await page.waitForSelector(`#preset-results[data-complete='1'][data-preset='${id}']`, { timeout });
}

/** Checks every section table against the command line's summary means. */
async function checkTables(page, id) {
  const doc = reproduce(id);
  const headers = cliHeaders(
    id,
    doc.preset.sections.map((s) => s.columns.length),
  );
  assert.equal(headers.length, doc.preset.sections.length, `${id}: a text table per section`);
  for (const [si, section] of doc.preset.sections.entries()) {
    const result = doc.sections[si].result;
    const cells = await page.$$eval(`#preset-table-${si} tbody tr`, (rows) =>
      rows.map((r) => ({
        label: r.dataset.label,
        title: r.querySelector("th")?.textContent,
        cells: [...r.querySelectorAll("td[data-path]")].map((td) => ({ path: td.dataset.path, text: td.textContent, mean: td.dataset.mean })),
      })),
    );
    assert.equal(cells.length, result.summary.length, `${id} section ${si}: one row per run`);
    for (const [i, row] of result.summary.entries()) {
      assert.equal(cells[i].label, row.label);
      // The row reads as the run's title for people, as the results table does.
      assert.equal(cells[i].title, result.titles[row.run]);
      assert.equal(cells[i].cells.length, section.columns.length);
      // A column is a metric path, labelled by the core's column catalogue.
      for (const [k, path] of section.columns.entries()) {
        const mean = metricAt(row.mean, path);
        const c = cells[i].cells[k];
        assert.equal(c.path, path);
        assert.equal(Number(c.mean), mean, `${id} ${row.label} ${path}: page ${c.mean}, CLI ${mean}`);
        // A column in seconds (the command line's header names the unit)
        // prints the CLI's mean as a duration, as the core writes one
        // ("2 h 17 min"); "± half-width" when repeated.
        const [shown, half] = c.text.split(" ± ");
        if (headers[si][k].endsWith(" (s)")) {
          assert.equal(shown, durationText(mean), `${id} ${row.label} ${path}: ${c.text} is ${mean} s`);
          if (section.repeat > 1) assert.equal(half, durationText(metricAt(row.ci95, path)), `${id} ${row.label} ${path}: ± ${metricAt(row.ci95, path)} s`);
          else assert.equal(half, undefined);
          continue;
        }
        // Any other column prints the CLI's mean rounded to the digits shown.
        const digits = (shown.split(".")[1] ?? "").length;
        assert.ok(Math.abs(Number(shown) - mean) <= 0.5 * 10 ** -digits + 1e-12, `${id} ${row.label} ${path}: ${c.text} is ${mean} rounded`);
        if (section.repeat > 1) {
          const ci = metricAt(row.ci95, path);
          assert.ok(half !== undefined && Math.abs(Number(half) - ci) <= 0.5 * 10 ** -digits + 1e-12, `${id} ${row.label} ${path}: ± ${ci}`);
        } else assert.equal(half, undefined);
      }
    }
  }
  return doc;
}

async function presetInk(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("#preset-results canvas")].map((c) => {
      const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
      let ink = 0;
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) {
          ink++;
          if (colours.size < 50) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        }
      }
      return { id: c.id, drawn: c.dataset.drawn, ink, colours: colours.size, size: c.width * c.height };
    }),
  );
}


describe("presets", () => {
  test("every preset of the command line is listed, one button each", async () => {
    const page = await newPage();
    const ids = await page.$$eval("#preset-list .preset", (ps) => ps.map((p) => p.dataset.preset));
    assert.deepEqual(ids, cliPresets());
    // How many runs a preset makes: the depth preset sweeps backfilling over
    // eight depths and runs EASY (no randomness, no depth) once beside them,
    // 8 + 1 = 9; the prediction-error preset's four runs use the random
    // virtual predictor at 11 errors, 10 repetitions each, 4 × 11 × 10 = 440.
    assert.match(await page.textContent(".preset[data-preset='reservation-depth'] .desc"), /· 9 runs$/);
    assert.match(await page.textContent(".preset[data-preset='prediction-error'] .desc"), /· 440 runs$/);
    assert.equal(await page.$eval("#preset-run-fairness-audit", (b) => b.disabled), true, "disabled without a trace");
    await loadSample(page);
    assert.equal(await page.$eval("#preset-run-fairness-audit", (b) => b.disabled), false);
    // the paper used CTC-SP2: a note; slack-factor's paper used KTH-SP2
    // (the sample is KTH's) on 128 processors, which the preset applies
    assert.match(await page.textContent(".preset[data-preset='fairness-audit']"), /paper used CTC-SP2/);
    const slack = await page.textContent(".preset[data-preset='slack-factor']");
    assert.match(slack, /simulated on 128 processors, the paper's machine/);
    assert.doesNotMatch(slack, /paper used/);
    await page.close();
  });

  test("fairness-audit and checkpoint-cost equal `schedlab reproduce`; the figure is drawn", async () => {
    const page = await newPage();
    await loadSample(page);
    await page.click("#preset-run-fairness-audit");
    await waitPreset(page, "fairness-audit");
    await checkTables(page, "fairness-audit");
    assert.match(await page.textContent("#preset-paper-note"), /CTC-SP2/);
    assert.equal((await presetInk(page)).length, 0, "a table preset has no figure");
    const [auditDl] = await Promise.all([page.waitForEvent("download"), page.click("#preset-export-json")]);
    const audit = Buffer.concat(await (await auditDl.createReadStream()).toArray()).toString();
    assert.equal(stripTimes(audit), stripTimes(reproduceText("fairness-audit")), "fairness-audit: the export is `schedlab reproduce --json`");

    await page.click("#preset-run-checkpoint-cost");
    await waitPreset(page, "checkpoint-cost");
    await checkTables(page, "checkpoint-cost");
    const ink = await presetInk(page);
    assert.ok(ink.length >= 1, "a figure");
    for (const c of ink) assert.ok(c.drawn === "1" && c.ink > c.size * 0.01 && c.colours > 2, `${c.id} is drawn (${c.ink} ink pixels)`);
    // exports: the preset's JSON (`schedlab reproduce --json`, byte for byte) and a figure's SVG
    const [jsonDl] = await Promise.all([page.waitForEvent("download"), page.click("#preset-export-json")]);
    const exported = Buffer.concat(await (await jsonDl.createReadStream()).toArray()).toString();
    assert.equal(stripTimes(exported), stripTimes(reproduceText("checkpoint-cost")));
    assert.equal(JSON.parse(exported).sections[0].result.summary.length, 4);
    const [svgDl] = await Promise.all([page.waitForEvent("download"), page.click("#preset-results button[data-export='svg']")]);
    assert.match(Buffer.concat(await (await svgDl.createReadStream()).toArray()).toString(), /<svg/);
    // the link names the preset
    assert.match(await page.evaluate(() => location.hash), /^#v2=[A-Za-z0-9_-]+$/);
    await page.locator("#presets-panel").scrollIntoViewIfNeeded();
    await page.locator("#preset-results").screenshot({ path: join(SHOTS, "preset.png") });
    await page.close();
  });

  test("pv-easy-vs-easy draws all three of the paper's figures", async () => {
    const page = await newPage();
    await loadSample(page);
    await page.click("#preset-run-pv-easy-vs-easy");
    await waitPreset(page, "pv-easy-vs-easy");
    await checkTables(page, "pv-easy-vs-easy");
    await page.waitForFunction(() => [...document.querySelectorAll("#preset-results canvas")].every((c) => c.dataset.drawn), null, { timeout: 30_000 });
    const ink = await presetInk(page);
    assert.equal(ink.length, 3, "figures 5-6, 2 and 3");
    for (const c of ink) assert.ok(c.drawn === "1" && c.ink > c.size * 0.01 && c.colours > 2, `${c.id} is drawn (${c.ink} ink pixels)`);
    await page.locator("#preset-results").screenshot({ path: join(SHOTS, "preset-pv-easy-vs-easy.png") });
    await page.close();
  });

  test("a share link restores and runs a preset; an unknown preset is refused", async () => {
    const page = await newPage();
    await loadSample(page);
    await page.click("#preset-run-fairness-audit");
    await waitPreset(page, "fairness-audit");
    const hash = await page.evaluate(() => location.hash);
    await page.close();
    const data = JSON.parse(Buffer.from(hash.slice("#v2=".length), "base64url").toString());
    assert.equal(data.preset, "fairness-audit");

    const again = await newPage(hash);
    await waitPreset(again, "fairness-audit");
    await checkTables(again, "fairness-audit");
    await again.close();

    const bad = `#v2=${Buffer.from(JSON.stringify({ ...data, preset: "no-such-preset" })).toString("base64url")}`;
    const refused = await newPage(bad);
    await refused.waitForSelector("#banner:not([hidden])");
    assert.match(await refused.textContent("#banner"), /^This link could not be opened: preset: the link names a preset that does not exist/);
    await refused.close();
  });

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
