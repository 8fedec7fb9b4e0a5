// A run whose plan grows (issue 20, item 5): conservative backfilling on a
// backlog whose estimates are too long re-plans the waiting jobs at every
// early end, so its reservation changes outgrow its jobs. The runs list
// then shows the changes so far in the run's progress and the core's one
// sentence saying why, pointing to the depth. Run by
// scripts/test-browser.sh after `npm run build`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { choosePolicies, pageAt, sharedSession, SHOTS } from "./harness.mjs";

const session = sharedSession(SHOTS);

/**
 * A backlog as SWF text: `jobs` jobs submitted at 0 on 128 processors,
 * 1 to 32 processors and 1 to 61 minutes each (a fixed linear
 * congruential sequence), every estimate ten times the runtime, as users'
 * too-long estimates are: each job ends long before its reservation
 * assumed, and CBF re-plans the queue behind it.
 */
function backlog(jobs) {
  const lines = ["; Version: 2.2", "; MaxProcs: 128", "; Note: a backlog with estimates ten times too long"];
  let x = 12345;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x;
  };
  for (let id = 1; id <= jobs; id++) {
    const size = 1 + (next() % 32);
    const runtime = 60 + (next() % 3600);
    const estimate = 10 * runtime;
    lines.push([id, 0, -1, runtime, size, -1, -1, size, estimate, -1, 1, 1 + (id % 20), -1, -1, 1, -1, -1, -1].join(" "));
  }
  return `${lines.join("\n")}\n`;
}

/** The core's sentence (crates/schedlab-experiment/src/plan_growth.rs), written out here as the page must show it. */
const WHY =
  "This policy re-plans the reservations of the waiting jobs each time a job ends before its estimate; on a backlog this work grows with the queue. A bounded reservation depth (backfill, depth 8) keeps it small.";

test("a CBF run on a backlog shows its plan changes so far and why, pointing to the depth", async () => {
  const errors = [];
  const page = await pageAt(session, 1280, 900, errors);
  await page.setInputFiles("#file-input", { name: "backlog-3000.swf", mimeType: "text/plain", buffer: Buffer.from(backlog(3000)) });
  await page.waitForFunction(() => /^Loaded /.test(document.getElementById("trace-msg")?.textContent ?? ""), null, { timeout: 60_000 });
  await choosePolicies(page, ["cbf"]);
  await page.click("#run");

  // The note appears while the run goes on: at least 100,000 changes and
  // 50 a completed job (a backlog of 3,000 makes thousands a job).
  await page.waitForSelector("#runs li[data-status='running'] .plan-note", { timeout: 180_000 });
  const item = await page.$eval("#runs li[data-status='running']", (li) => ({
    status: li.querySelector(".status")?.textContent ?? "",
    note: li.querySelector(".plan-note")?.textContent ?? "",
    role: li.querySelector(".plan-note")?.getAttribute("role"),
  }));
  assert.match(item.status, /^run, \d+ %, \d+(\.\d)? (k|M) plan changes so far$/, item.status);
  assert.equal(item.note, WHY);
  assert.equal(item.role, "note");
  await page.locator("#runs-panel").scrollIntoViewIfNeeded();
  await page.locator("#runs-panel").screenshot({ path: join(SHOTS, "plan-growth-1280.png") });

  // Cancelled, the run's note goes with its progress.
  await page.click("#runs li button.cancel");
  await page.waitForSelector("#runs li[data-status='cancelled']", { timeout: 60_000 });
  assert.equal(await page.$("#runs li .plan-note"), null);
  assert.deepEqual(errors, []);
  await page.close();
});
