// The Chromium benchmark: Debian's chromium (headless, driven by
// playwright-core, which downloads no browser) loads a page from a
// loopback server (node:http, every answer no-store so each load goes to
// the network), which imports the module and loads the bundle as the
// explorer page does; the time from the page script's start to the
// tables being ready is measured on 9 fresh loads, then the lookups.
// Prints one JSON object.
//
//   node web/bench/chromium.mjs [TABLES_DIR]  (scripts/bench-web runs it)

import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM } from "../test/browser.mjs";

const tables = process.argv[2] ?? "tables";
const dist = new URL("../dist/", import.meta.url).pathname;
const here = new URL(".", import.meta.url).pathname;
const PAGE = `<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="module">
  const started = performance.now();
  const { loadMurderPlan } = await import("./web/index.js");
  const plan = await loadMurderPlan("./web/murder_plan_browser.bin.gz");
  const ready = performance.now() - started;
  // A second load of the same URL: shared, no download, no decode.
  const again = performance.now();
  const same = await loadMurderPlan("./web/murder_plan_browser.bin.gz");
  const second = performance.now() - again;
  if (same !== plan) throw new Error("not shared");
  // Where the time went: each file's fetch, from the page's start.
  const files = performance.getEntriesByType("resource").map((r) => ({
    file: r.name.replace(location.origin, ""),
    start_ms: r.startTime,
    end_ms: r.responseEnd,
  }));
  window.bench = { ready, second, plan, files, navigation_ms: started };
</script>`;
const PHASES = `<!doctype html><meta charset="utf-8"><title>phases</title>
<script type="module">
  const t0 = performance.now();
  const api = await import("./web/index.js");
  const t1 = performance.now();
  await api.loadRules();
  const t2 = performance.now();
  const response = await fetch("./web/murder_plan_browser.bin.gz");
  const content = new Uint8Array(await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  const t3 = performance.now();
  // The module is instantiated: its bytes are not needed again.
  api.loadMurderPlanSync(content, new Uint8Array(0));
  const t4 = performance.now();
  window.phases = { import: t1 - t0, module: t2 - t1, bundle_fetch_and_gunzip: t3 - t2, decode: t4 - t3, total: t4 - t0 };
</script>`;
const files = {
  "/": ["text/html", () => PAGE],
  "/phases": ["text/html", () => PHASES],
  ...Object.fromEntries(["index", "errors", "rules", "plan", "load", "gametab_web", "gametab_web_wasm"]
    .map((m) => [`/web/${m}.js`, ["text/javascript", () => readFileSync(join(dist, `${m}.js`))]])),
  "/web/gametab_web_bg.wasm": ["application/wasm", () => readFileSync(join(dist, "gametab_web_bg.wasm"))],
  "/web/murder_plan_browser.bin.gz": ["application/gzip", () => readFileSync(join(tables, "murder_plan_browser.bin.gz"))],
  "/measure.js": ["text/javascript", () => readFileSync(join(here, "measure.js"))],
};
const server = createServer((request, response) => {
  const file = files[request.url];
  if (!file) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": file[0], "cache-control": "no-store" });
  response.end(file[1]());
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const profile = mkdtempSync(join(tmpdir(), "gametab-bench-"));
const context = await chromium.launchPersistentContext(profile, CHROMIUM);
try {
  const loads = [];
  const seconds = [];
  let files;
  let page;
  for (let i = 0; i < 9; i++) {
    await page?.close();
    page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.bench !== undefined, null, { timeout: 30000 });
    loads.push(await page.evaluate(() => window.bench.ready));
    seconds.push(await page.evaluate(() => window.bench.second));
    files = await page.evaluate(() => ({ script_start_ms: window.bench.navigation_ms, files: window.bench.files }));
  }
  const result = await page.evaluate(async () => {
    const { measureDecode, measureLookups } = await import("./measure.js");
    const { loadMurderPlanSync } = await import("./web/index.js");
    const bytes = new Uint8Array(await (await fetch("./web/murder_plan_browser.bin.gz")).arrayBuffer());
    // The module is instantiated: its bytes are not needed again.
    return {
      decode_ms: measureDecode((b) => loadMurderPlanSync(b, new Uint8Array(0)), bytes, 15),
      ...measureLookups(window.bench.plan),
    };
  });
  // The phases one after the other, on a fresh page: the wrapper's
  // import, the module (fetch, compile, instantiate, the wrapper's
  // tables of actions), the bundle's fetch through the browser's gzip,
  // the decoding of its content (the first run of that code).
  await page.close();
  page = await context.newPage();
  await page.goto(url + "phases");
  await page.waitForFunction(() => window.phases !== undefined, null, { timeout: 30000 });
  const phases = await page.evaluate(() => window.phases);
  const sorted = [...loads].sort((a, b) => a - b);
  console.log(JSON.stringify({
    runtime: `chromium ${context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent))}`,
    ready_ms_median: sorted[Math.floor(sorted.length / 2)],
    ready_ms_all: loads,
    second_load_same_url_ms_median: [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)],
    phases_ms: phases,
    last_load: files,
    ...result,
  }, null, 1));
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
