// The policy composer: composable backfilling's queue order is written in
// a formula editor whose message comes from the core as it is typed, with
// the presets in a menu and the variables listed; the depth is a field.
// A run made with a formula travels in a share link and gives the same
// numbers in a fresh browser.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, launch, pageAt, sharedSession, SHOTS } from "./harness.mjs";

const session = sharedSession(SHOTS);
const pageErrors = [];

async function loadSample(page) {
  await page.selectOption("#sample-select", "kth-sp2-first3000");
  await page.click("#sample-load");
  await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
}

async function waitResults(page, timeout = 180_000) {
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout });
  await page.waitForFunction(() => [...document.querySelectorAll("#charts canvas")].every((c) => c.dataset.drawn === "1"), null, {
    timeout: 30_000,
  });
}

/** Every row of the results table: its title, its spec (tooltip) and every metric's exact value. */
function tableRows(page) {
  return page.$$eval("#results-table tbody tr", (rs) =>
    rs.map((r) => ({
      title: r.querySelector("th")?.textContent?.trim(),
      spec: r.querySelector("th")?.getAttribute("title"),
      values: [...r.querySelectorAll("td[data-metric]")].map((td) => `${td.dataset.metric}=${td.dataset.value}`),
    })),
  );
}

/** The line under the order field of card `run`: its role (error or note) and text. */
function orderLine(page, run) {
  return page.$eval(`#p${run}-order`, (input) => {
    const small = document.getElementById(input.getAttribute("aria-describedby") ?? "");
    return { role: small?.dataset.role, text: small?.textContent ?? "" };
  });
}

/**
 * The line under the order field of card `run` once the editor has checked
 * the text: it checks when typing pauses (not at every keystroke), so this
 * waits (up to 5 s) for the line to read `want`, then returns what it reads.
 */
async function checkedLine(page, run, want) {
  await page
    .waitForFunction(
      ([r, w]) => {
        const input = document.getElementById(`p${r}-order`);
        const small = document.getElementById(input?.getAttribute("aria-describedby") ?? "");
        return small?.dataset.role === w.role && small.textContent === w.text;
      },
      [run, want],
      { timeout: 5_000 },
    )
    .catch(() => {});
  return orderLine(page, run);
}

const WRONG = "(wiat / requested)^3 * procs";
const RIGHT = "(wait / requested)^3 * procs";

describe("policy composer", () => {
  test("type a formula with an error, see it, fix it, run, and open the link in a fresh browser", async () => {
    const page = await pageAt(session, 1280, 1000, pageErrors);
    await loadSample(page);
    await choosePolicies(page, ["backfill", "backfill"]);

    // The message under the field follows the typing, when it pauses.
    await page.locator("#p0-order").pressSequentially(WRONG);
    const unknown = { role: "error", text: "unknown variable `wiat` at column 2; did you mean `wait`?" };
    assert.deepEqual(await checkedLine(page, 0, unknown), unknown);
    assert.equal(await page.getAttribute("#p0-order", "aria-invalid"), "true");
    assert.equal(await page.getAttribute("#run", "aria-disabled"), "true", "Run is blocked while the formula is wrong");
    await page.locator(".card").nth(0).screenshot({ path: join(SHOTS, "formula-error-1280.png") });

    // Fixed: the note says how often it is scored (it reads `wait`).
    await page.fill("#p0-order", RIGHT);
    const rescored = { role: "note", text: "scored again at every pass (it reads a time-dependent variable)" };
    assert.deepEqual(await checkedLine(page, 0, rescored), rescored);
    assert.equal(await page.getAttribute("#p0-order", "aria-invalid"), "false");
    await page.fill("#p0-depth", "2");
    await page.dispatchEvent("#p0-depth", "change");

    // The presets menu fills the second card's field; its note names the preset's formula.
    await page.selectOption("#p1-order-preset", "saf");
    assert.equal(await page.inputValue("#p1-order"), "saf");
    const saf = { role: "note", text: "smallest area (requested time × processors) first: requested * procs; scored once per job" };
    assert.deepEqual(await checkedLine(page, 1, saf), saf);

    // The variables are listed, one line each, from the core: the thirteen of the language.
    await page.click("#p0-order-ref summary");
    const vars = await page.$$eval("#p0-order-ref ul:first-of-type li", (ls) => ls.map((l) => l.textContent ?? ""));
    assert.equal(vars.length, 13);
    assert.equal(vars[0], "wait seconds the job has waited so far (now − submit)");
    await page.locator("#cards").screenshot({ path: join(SHOTS, "formula-editor-1280.png") });

    await page.click("#run");
    await waitResults(page);
    const rows = await tableRows(page);
    assert.deepEqual(
      rows.map((r) => [r.title, r.spec]),
      [
        [`Composable backfilling, depth 2, order ${RIGHT}`, `backfill:order=${RIGHT},depth=2`],
        // The runs differ in their depth: both titles name it, the default's (1) too.
        ["Composable backfilling, depth 1, order saf", "backfill:order=saf"],
      ],
    );
    assert.ok(rows[0].values.length > 5, "the table shows the metrics");
    assert.notDeepEqual(rows[0].values, rows[1].values, "two different orders give two different schedules");

    await page.click("#copy-link");
    const link = await page.inputValue("#share-url");
    assert.match(link, /#v2=[A-Za-z0-9_-]+$/);
    await page.close();

    // A fresh browser (another profile: no stored trace, no state) opens the link and runs it.
    const fresh = await launch();
    try {
      const p2 = await fresh.context.newPage();
      p2.on("pageerror", (e) => pageErrors.push(String(e)));
      await p2.setViewportSize({ width: 1280, height: 1000 });
      await p2.goto(link);
      await p2.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
      await waitResults(p2);
      assert.equal(await p2.inputValue("#p0-order"), RIGHT);
      assert.equal(await p2.inputValue("#p0-depth"), "2");
      assert.deepEqual(await tableRows(p2), rows, "same titles, specs and values in every column");
    } finally {
      await fresh.close();
    }
  });

  for (const [width, height] of [
    [390, 844],
    [1920, 1080],
  ]) {
    test(`the editor at ${width} px: a wrong formula's message and the variables list fit the screen`, async () => {
      const page = await pageAt(session, width, height, pageErrors);
      await loadSample(page);
      await choosePolicies(page, ["backfill"]);
      await page.fill("#p0-order", `-${WRONG} + 870 * log10(submit) - sqrt(requested) * procs`);
      const unknown = { role: "error", text: "unknown variable `wiat` at column 3; did you mean `wait`?" };
      assert.deepEqual(await checkedLine(page, 0, unknown), unknown);
      await page.click("#p0-order-ref summary");
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, "no sideways scrolling");
      const card = await page.locator(".card").nth(0).boundingBox();
      assert.ok(card && card.x >= 0 && card.x + card.width <= width + 0.5, `the card spans ${card?.x}–${(card?.x ?? 0) + (card?.width ?? 0)}`);
      await page.locator(".card").nth(0).screenshot({ path: join(SHOTS, `formula-editor-${width}.png`) });
      await page.close();
    });
  }

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
