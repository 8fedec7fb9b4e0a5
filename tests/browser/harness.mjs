// Shared by the browser tests and scripts/bench-browser.mjs: a static server
// for www/dist on a free localhost port, and Chromium from the system
// (/usr/bin/chromium, never a downloaded browser) driven by playwright-core.
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const DIST = join(ROOT, "www", "dist");
/**
 * Where the tests' screenshots go: outside the tracked tree unless
 * `SCHEDLAB_SHOTS` says otherwise (scripts/screenshots.sh points it at
 * docs/screenshots, the only way those are refreshed).
 */
export const SHOTS = resolve(process.env.SCHEDLAB_SHOTS ?? join(ROOT, "target", "screenshots"));
const require = createRequire(join(ROOT, "www", "package.json"));
const { chromium } = require("playwright-core");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".swf": "text/plain; charset=utf-8",
  ".gz": "application/gzip",
};

/** Serves `dir` on 127.0.0.1 (port 0 = a free one); resolves { url, close }. */
export function serve(dir = DIST) {
  if (!existsSync(join(dir, "index.html"))) throw new Error(`${dir}/index.html is missing: build the page first (cd www && npm run build)`);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    // Cross-origin isolated, as `vite preview` serves it (www/vite.config.ts):
    // the page then cancels a run through a flag shared with its worker.
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": "no-cache",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      ok({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((c) => server.close(c)) });
    }),
  );
}

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/**
 * Launches the system Chromium headless with a fresh profile directory;
 * `options` go to its context (`deviceScaleFactor: 2` for a high-density screen).
 */
export async function launch(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "schedlab-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1400, height: 1000 },
    ...options,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A new page of `session` at `width` × `height`, the playground loaded and
 * ready; its uncaught errors are pushed onto `errors`.
 */
export async function pageAt(session, width, height, errors) {
  const page = await session.browser.context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.setViewportSize({ width, height });
  await page.goto(session.server.url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return page;
}

/** Keeps only the policy cards whose registry ids are given, in that order. */
export async function choosePolicies(page, ids) {
  while ((await page.$$(".card")).length > 0) await page.click(".card button[id$='-remove']");
  for (const id of ids) {
    await page.selectOption("#add-policy", id);
    await page.click("#add-policy-btn");
  }
}

/**
 * One page server and one browser for a test file (`options` for its
 * context, as `launch` takes them): started before its tests, closed after them. Returns the object whose `server` and
 * `browser` fields they fill in.
 */
export function sharedSession(shots, options = {}) {
  const session = { server: undefined, browser: undefined };
  before(async () => {
    mkdirSync(shots, { recursive: true });
    session.server = await serve();
    session.browser = await launch(options);
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}

/**
 * Seconds as the page's tables print them: the core's `duration_text`
 * (crates/schedlab-workload/src/clock.rs), written out here to check the
 * page against: rounded to the second (halves away from zero), then its two
 * largest units, the second cut, not rounded, and left out when zero
 * ("45 s", "29 min 10 s", "2 h 10 min", "3 h", "1 d 4 h"), "−" when negative.
 */
export function durationText(seconds) {
  const r = Number.isFinite(seconds) ? Math.sign(seconds) * Math.round(Math.abs(seconds)) : 0;
  const sign = r < 0 ? "−" : "";
  const s = Math.abs(r);
  const pair = (a, ua, b, ub) => (b === 0 ? `${a} ${ua}` : `${a} ${ua} ${b} ${ub}`);
  const text =
    s < 60
      ? `${s} s`
      : s < 3600
        ? pair(Math.floor(s / 60), "min", s % 60, "s")
        : s < 86_400
          ? pair(Math.floor(s / 3600), "h", Math.floor((s % 3600) / 60), "min")
          : pair(Math.floor(s / 86_400), "d", Math.floor((s % 86_400) / 3600), "h");
  return `${sign}${text}`;
}
