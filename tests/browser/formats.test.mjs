// The page's other formats, end to end in a real browser (system Chromium
// via playwright-core): a Slurm accounting dump and a Batsim workload are
// dropped on the page like an SWF file, run under EASY, and exported as
// Batsim's jobs.csv. The rows checked are worked out by hand from the
// fixtures (tests/fixtures/README.md), not copied from a run.
// Run by scripts/test-browser.sh after `npm run build` (serves www/dist).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, ROOT, sharedSession, SHOTS } from "./harness.mjs";

const FIXTURES = join(ROOT, "tests", "fixtures");
const SACCT = join(FIXTURES, "slurm", "sacct-rules.txt");
const BATSIM_V5 = join(FIXTURES, "batsim", "workload-v5.json");
const HEADER =
  "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state," +
  "starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata";

const session = sharedSession(SHOTS);
const pageErrors = [];

async function newPage() {
  const page = await session.browser.context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(session.server.url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return page;
}

/** Drops the file at `path` on the page's drop zone, as a user drags it from a file manager; resolves the trace message. */
async function drop(page, path, name) {
  const seen = Number((await page.getAttribute("#trace-msg", "data-serial")) ?? 0);
  const text = readFileSync(path, "utf8");
  await page.evaluate(
    ([text, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name));
      document.getElementById("drop-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [text, name],
  );
  await page.waitForFunction(
    (seen) => {
      const m = document.getElementById("trace-msg");
      return m && !m.hidden && Number(m.dataset.serial) > seen && /^(Loaded|.* could not be read|Refused)/.test(m.textContent ?? "");
    },
    seen,
    { timeout: 60_000 },
  );
  return page.textContent("#trace-msg");
}

/** Runs EASY alone and resolves the Batsim jobs.csv the page downloads. */
async function runEasyAndExportBatsim(page) {
  await choosePolicies(page, ["easy"]);
  await page.click("#run");
  await page.waitForSelector("#runs li[data-status='done']", { timeout: 120_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#runs li:first-child .exports button:text('Batsim CSV')")]);
  // The one naming scheme: trace, the run's label, kind.
  assert.match(download.suggestedFilename(), /-easy-batsim-jobs\.csv$/);
  return Buffer.concat(await (await download.createReadStream()).toArray()).toString();
}

/** The rows of a jobs.csv by job id. */
function rowsById(csv) {
  const lines = csv.trimEnd().split("\n");
  return { header: lines[0], rows: new Map(lines.slice(1).map((l) => [l.split(",")[0], l])) };
}

describe("formats in the page", () => {
  test("a Batsim workload dropped like an SWF file runs and exports Batsim's jobs.csv", async () => {
    const page = await newPage();
    assert.match(await drop(page, BATSIM_V5, "workload-v5.json"), /^Loaded workload-v5\.json: 6 jobs on 8 processors/);
    const { header, rows } = rowsById(await runEasyAndExportBatsim(page));
    assert.equal(header, HEADER);
    assert.equal(rows.size, 6);
    // EASY on 8 processors, by hand (15.2 s rounds to 15, a delay of 9.7 s
    // to 10, job 4 has no walltime so its run time is its requested time):
    // job 1 (4 procs) runs 0-100 on 0-3; job 2 (8) is reserved at 200, job
    // 1's requested end; jobs 3 and 5 (2 each) end by then and are
    // backfilled at 15 (4-5) and 25 (6-7); job 2 starts when job 1 ends at
    // 100 on all 8; job 4 (4) starts at 150 on 0-3 when job 2 ends; job 6
    // (6) then waits for job 4's end at 400 and runs on 0-5.
    const want = {
      1: "1,w0,100,0.000000,4,200.000000,1,COMPLETED_SUCCESSFULLY,0.000000,100.000000,100.000000,0.000000,100.000000,1.000000,0-3,-1.000000,",
      2: "2,w0,50,10.000000,8,100.000000,1,COMPLETED_SUCCESSFULLY,100.000000,50.000000,150.000000,90.000000,140.000000,2.800000,0-7,-1.000000,",
      3: "3,w0,30,15.000000,2,60.000000,1,COMPLETED_SUCCESSFULLY,15.000000,30.000000,45.000000,0.000000,30.000000,1.000000,4-5,-1.000000,",
      4: "4,w0,250,20.000000,4,250.000000,0,COMPLETED_WALLTIME_REACHED,150.000000,250.000000,400.000000,130.000000,380.000000,1.520000,0-3,-1.000000,",
      5: "5,w0,40,25.000000,2,40.000000,0,COMPLETED_WALLTIME_REACHED,25.000000,40.000000,65.000000,0.000000,40.000000,1.000000,6-7,-1.000000,",
      6: "6,w0,10,30.000000,6,20.000000,1,COMPLETED_SUCCESSFULLY,400.000000,10.000000,410.000000,370.000000,380.000000,38.000000,0-5,-1.000000,",
    };
    for (const [id, row] of Object.entries(want)) assert.equal(rows.get(id), row, `job ${id}`);
    await page.close();
  });

  test("a Slurm accounting dump dropped like an SWF file runs and exports Batsim's jobs.csv", async () => {
    const page = await newPage();
    // The dump names no machine size: its largest job (16) sets it.
    assert.match(await drop(page, SACCT, "sacct-rules.txt"), /^Loaded sacct-rules\.txt: 7 jobs on 16 processors/);
    const cleaning = await page.textContent("#cleaning");
    assert.match(cleaning, /cancelled_before_start|cancelled before/i, "the cleaning report names the Slurm rules");
    await page.screenshot({ path: join(SHOTS, "sacct-loaded.png"), fullPage: false });
    const { header, rows } = rowsById(await runEasyAndExportBatsim(page));
    assert.equal(header, HEADER);
    assert.equal(rows.size, 7, "jobs 100, 101, 105-109: the jobs the rules keep");
    // EASY on 16 processors, by hand from the hand-converted SWF
    // (tests/fixtures/slurm/sacct-rules.swf): 100 (4) runs 0-600 on 0-3;
    // 101 (8, no limit, so its run time is its requested time) runs 60-1860
    // on 4-11; 107 (16) arrives at 1200 and is reserved at 1860, 101's end;
    // 108 (1 s over 60) fits before and is backfilled at 1800; 107 starts at
    // 1860 on all 16; 109 (2, run time capped at its 120 s) arrives at 1860
    // behind 107 and waits for its end at 3660.
    const want = {
      100: "100,w0,600,0.000000,4,1200.000000,1,COMPLETED_SUCCESSFULLY,0.000000,600.000000,600.000000,0.000000,600.000000,1.000000,0-3,-1.000000,",
      101: "101,w0,1800,60.000000,8,1800.000000,0,COMPLETED_WALLTIME_REACHED,60.000000,1800.000000,1860.000000,0.000000,1800.000000,1.000000,4-11,-1.000000,",
      107: "107,w0,1800,1200.000000,16,3600.000000,1,COMPLETED_SUCCESSFULLY,1860.000000,1800.000000,3660.000000,660.000000,2460.000000,1.366667,0-15,-1.000000,",
      109: "109,w0,120,1860.000000,2,120.000000,0,COMPLETED_WALLTIME_REACHED,3660.000000,120.000000,3780.000000,1800.000000,1920.000000,16.000000,0-1,-1.000000,",
    };
    for (const [id, row] of Object.entries(want)) assert.equal(rows.get(id), row, `job ${id}`);
    await page.locator("#runs").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "sacct-run.png"), fullPage: true });
    await page.close();
  });

  test("no page error anywhere", () => {
    assert.deepEqual(pageErrors, []);
  });
});
