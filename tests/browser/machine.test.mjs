// The machine editor in a real browser (system Chromium via playwright-core):
// a machine of nodes typed in the command line's `--nodes` form or read from
// a dropped slurm.conf, its summary as the core words it, a bad description
// named, a policy that plans processors refused, runs on nodes equal to the
// command line's, and the machine carried by a share link. The summaries
// are worked out by hand from the inputs.
// Run by scripts/test-browser.sh after `npm run build` (serves www/dist).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { choosePolicies, pageAt, ROOT, sharedSession, SHOTS } from "./harness.mjs";

const SAMPLE = join(ROOT, "samples", "kth-sp2-first3000.swf");
const CLUSTER_CONF = join(ROOT, "tests", "fixtures", "slurm", "cluster.conf");
const CLI = join(ROOT, "target", "release", "schedlab");
const session = sharedSession(SHOTS);
const pageErrors = [];

function cli(...args) {
  if (!existsSync(CLI)) execFileSync("cargo", ["build", "--release", "-q", "-p", "schedlab-cli"], { cwd: ROOT, stdio: "inherit" });
  return JSON.parse(execFileSync(CLI, args, { cwd: ROOT, maxBuffer: 64 << 20 }).toString());
}

async function loadSample(page) {
  await page.selectOption("#sample-select", "kth-sp2-first3000");
  await page.click("#sample-load");
  await page.waitForFunction(() => /^Loaded/.test(document.getElementById("trace-msg")?.textContent ?? ""), null, {
    timeout: 60_000,
  });
}

async function openOptions(page) {
  await page.evaluate(() => {
    document.getElementById("workload-options").open = true;
  });
}

async function typeNodes(page, text) {
  await page.fill("#wl-nodes", text);
  await page.dispatchEvent("#wl-nodes", "change");
}

async function runAndWait(page) {
  await page.click("#run");
  await page.waitForFunction(
    () => {
      const lis = [...document.querySelectorAll("#runs li")];
      return lis.length > 0 && lis.every((li) => ["done", "error", "cancelled"].includes(li.dataset.status ?? ""));
    },
    null,
    { timeout: 120_000 },
  );
  await page.waitForSelector("#results[data-complete='1'] #results-table", { timeout: 30_000 });
}

// Copies the page's share link and opens it in a new page, the workload
// options open.
async function openedFromLink(page) {
  await page.click("#copy-link");
  const link = await page.inputValue("#share-url");
  const p2 = await session.browser.context.newPage();
  p2.on("pageerror", (e) => pageErrors.push(String(e)));
  await p2.goto(link);
  await p2.waitForSelector("body[data-ready='1']");
  await openOptions(p2);
  return p2;
}

async function assertEditorFits(page, width) {
  const box = await page.$eval("#machine", (e) => {
    const r = e.getBoundingClientRect();
    return { right: r.right, scroll: document.documentElement.scrollWidth };
  });
  assert.ok(box.right <= width && box.scroll <= width, `the editor fits the window: ${JSON.stringify(box)}`);
}

async function cell(page, labelStart, metric) {
  if (!(await page.isChecked("#more-columns"))) await page.check("#more-columns");
  return page.evaluate(
    ([l, m]) => {
      const row = [...document.querySelectorAll("#results-table tbody tr")].find((r) => (r.dataset.label ?? "").startsWith(l));
      return row?.querySelector(`td[data-metric='${m}']`)?.dataset.value ?? null;
    },
    [labelStart, metric],
  );
}

describe("the machine editor", () => {
  test("a machine of nodes typed in --nodes form runs as on the command line and travels in the link", async () => {
    const page = await pageAt(session, 1280, 900, pageErrors);
    await loadSample(page);
    await choosePolicies(page, ["easy"]);
    await openOptions(page);
    // By hand: 2 nodes of 50 cores, the sample's 100 processors.
    await typeNodes(page, "2x(cpu=50)");
    assert.equal(await page.textContent("#wl-nodes-note"), "2 nodes (100 cores): 2 × (cpu 50); partitions all (nodes 0-1)");
    assert.equal(await page.getAttribute("#wl-nodes", "aria-invalid"), null);
    await runAndWait(page);
    assert.equal(await page.$$eval("#runs li[data-status='done']", (l) => l.length), 1);
    const want = cli("run", SAMPLE, "--nodes", "2x(cpu=50)", "--policy", "easy", "--json", "-q");
    assert.equal(Number(await cell(page, "easy", "mbs")), want.metrics.mbs);
    assert.equal(Number(await cell(page, "easy", "mean_wait")), want.metrics.mean_wait);

    const p2 = await openedFromLink(page);
    assert.equal(await p2.inputValue("#wl-nodes"), "2x(cpu=50)");
    assert.equal(await p2.textContent("#wl-nodes-note"), "2 nodes (100 cores): 2 × (cpu 50); partitions all (nodes 0-1)");
    await p2.close();

    // Emptying the field goes back to the trace's processors.
    await typeNodes(page, "");
    assert.match(await page.textContent("#wl-nodes-note"), /^the trace's processors/);
    await page.close();
  });

  test("memory typed in MiB is shown in its largest exact unit, and travels in the link (390 px)", async () => {
    const page = await pageAt(session, 390, 844, pageErrors);
    await loadSample(page);
    await choosePolicies(page, ["easy"]);
    await openOptions(page);
    // By hand: 65,536 MiB is exactly 64 GiB, not a whole TiB; four such
    // nodes hold 256 GiB and the sample's 100 processors.
    await typeNodes(page, "4x(cpu=25,mem=65536M)");
    assert.equal(await page.inputValue("#wl-nodes"), "4x(cpu=25,mem=64G)");
    assert.equal(await page.textContent("#wl-nodes-note"), "4 nodes (100 cores, 256 GiB): 4 × (cpu 25, mem 64 GiB); partitions all (nodes 0-3)");
    await assertEditorFits(page, 390);
    await page.$eval("#wl-nodes", (e) => e.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: join(SHOTS, "machine-memory-390.png"), fullPage: false });
    // The sample's jobs ask no memory, so they run as on 100 processors
    // split over four nodes: the command line on the same machine agrees.
    await runAndWait(page);
    const want = cli("run", SAMPLE, "--nodes", "4x(cpu=25,mem=64G)", "--policy", "easy", "--json", "-q");
    assert.equal(Number(await cell(page, "easy", "mean_wait")), want.metrics.mean_wait);
    const p2 = await openedFromLink(page);
    assert.equal(await p2.inputValue("#wl-nodes"), "4x(cpu=25,mem=64G)");
    await p2.close();
    await page.close();
  });

  test("a bad description is named, and a policy that plans processors is refused on nodes", async () => {
    const page = await pageAt(session, 1280, 900, pageErrors);
    await loadSample(page);
    await choosePolicies(page, ["dbf"]);
    await openOptions(page);
    await typeNodes(page, "2 nodes");
    assert.match(await page.textContent("#wl-nodes-note"), /^Nodes `2 nodes`: /);
    assert.equal(await page.getAttribute("#wl-nodes", "aria-invalid"), "true");
    assert.equal(await page.inputValue("#wl-nodes"), "2 nodes", "the text stays for the user to correct");
    await typeNodes(page, "4x(cpu=25)");
    assert.equal(await page.getAttribute("#wl-nodes", "aria-invalid"), null);
    assert.equal(await page.getAttribute("#run", "aria-disabled"), "true");
    assert.match(await page.textContent("#run-why"), /nodes/);
    await page.close();
  });

  for (const [width, height] of [
    [390, 844],
    [1920, 1080],
  ]) {
    test(`a slurm.conf gives its machine, its partitions' limits and notes (${width} px)`, async () => {
      const page = await pageAt(session, width, height, pageErrors);
      await loadSample(page);
      await openOptions(page);
      await page.setInputFiles("#wl-slurm-conf", CLUSTER_CONF);
      await page.waitForSelector("#wl-machine-notes");
      // By hand from cluster.conf: c[1-2] with 8 cores and 32,000 MiB
      // (31.25 GiB), g1 with 16 cores, 64,000 MiB (62.5 GiB) and 4 GPUs,
      // 128,000 MiB (125 GiB) in all; MaxTime is in minutes.
      assert.equal(
        await page.textContent("#wl-nodes-note"),
        "3 nodes (32 cores, 125 GiB, 4 gpu): 2 × (cpu 8, mem 31.25 GiB, gpu 0) + 1 × (cpu 16, mem 62.5 GiB, gpu 4); " +
          "partitions batch (nodes 0-1, at most 1 h), gpu (nodes 2, at most 2 h, tier 2)",
      );
      assert.equal(await page.inputValue("#wl-nodes"), "", "limits have no --nodes form");
      assert.equal(
        await page.textContent("#wl-machine-notes"),
        "cluster.conf: ignored 4 line(s): ClusterName (line 3), SlurmctldHost (line 4), SelectType (line 5), SchedulerParameters (line 12)",
      );
      await assertEditorFits(page, width);
      await page.$eval("#workload-options", (e) => e.scrollIntoView());
      await page.screenshot({ path: join(SHOTS, `machine-editor-${width}.png`), fullPage: false });
      await page.close();
    });
  }

  test("no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
