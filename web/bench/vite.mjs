// The Vite app benchmark: the example app (web/example) with the packed
// package (the tarball named on the command line, as `scripts/build-web
// --pack` or web/tools/pack.mjs makes it) in Debian's chromium, under
// `vite build` + `vite preview` and under the `vite` dev server (its
// pre-bundle made by a first, unmeasured load). Each measured load is a
// fresh browser context (an empty cache): the time from navigation to the
// start's value on screen, which covers the app's own scripts, React, the
// module and the tables the package carries. Median of 9 per mode; prints
// one JSON object.
//
//   node web/bench/vite.mjs TARBALL    (scripts/bench-web runs it)

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, startVite } from "../test/browser.mjs";

const tarball = process.argv[2];
if (!tarball) {
  console.error("usage: node web/bench/vite.mjs TARBALL");
  process.exit(2);
}
const example = new URL("../example/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "gametab-vite-bench-"));
const app = join(work, "app");
cpSync(example, app, {
  recursive: true,
  verbatimSymlinks: true,
  filter: (src) => !/^(dist|node_modules\/\.vite|node_modules\/\.tmp)(\/|$)/.test(src.slice(example.length)),
});
execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", tarball],
  { cwd: app, stdio: "ignore" });
execFileSync(join(app, "node_modules/.bin/vite"), ["build"], { cwd: app, stdio: "ignore" });

const browser = await chromium.launch(CHROMIUM);

/** Navigation to the start's value on screen, in a fresh context; and what the page fetched. */
async function load(url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId("value").waitFor({ timeout: 30000 });
    return await page.evaluate(() => ({
      ready_ms: performance.now(),
      bytes: performance.getEntriesByType("resource").reduce((n, r) => n + r.encodedBodySize, 0),
    }));
  } finally {
    await context.close();
  }
}

async function measure(args) {
  const server = await startVite(app, args);
  try {
    await load(server.url);
    const runs = [];
    for (let i = 0; i < 9; i++) runs.push(await load(server.url));
    const ready = runs.map((r) => r.ready_ms).sort((a, b) => a - b);
    return { ready_ms_median: ready[4], ready_ms_all: runs.map((r) => r.ready_ms), bytes_fetched: runs[0].bytes };
  } finally {
    server.child.kill();
  }
}

try {
  console.log(JSON.stringify({
    runtime: `chromium ${browser.version()}`,
    preview: await measure(["preview"]),
    dev: await measure([]),
  }, null, 1));
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
