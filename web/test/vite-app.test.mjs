// The example app (web/example: Vite 7.2, React 19.2 with StrictMode,
// TypeScript 5.9, no WebAssembly plugin, no Vite configuration for the
// package) as the simulator's developers would use the package: the
// tarball `npm pack` made (GAMETAB_WEB_TARBALL, built from the test set's
// bundle) installed into a copy of the app, `tsc -b`, then driven in
// Debian's chromium (playwright-core) under `vite build` + `vite preview`
// and under the `vite` dev server with a fresh pre-bundle. In both, the
// page must show the value of its start that the lookup crate gives, the
// protagonists' strategy, and after each turn the value the lookup crate
// gives for the state reached; with no page error, and one download of
// each embedded part despite StrictMode's double mount. Run by
// tests/web.rs, which names the set's answers (GAMETAB_EXPECTED) and the
// working directory (GAMETAB_EXAMPLE_DIR).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, startVite } from "./browser.mjs";

const tarball = process.env.GAMETAB_WEB_TARBALL;
const expectedFile = process.env.GAMETAB_EXPECTED;
const work = process.env.GAMETAB_EXAMPLE_DIR;
if (!tarball || !expectedFile || !work) {
  throw new Error("run by `cargo test --test integration web`: GAMETAB_WEB_TARBALL, GAMETAB_EXPECTED and GAMETAB_EXAMPLE_DIR");
}
const expected = JSON.parse(readFileSync(expectedFile, "utf8"));
const example = new URL("../example/", import.meta.url).pathname;
const STATES = 3840;

/** What `npm pack` must put in the tarball, and nothing else. */
const PACKED = [
  "LICENSE", "README.md", "package.json",
  "dist/errors.d.ts", "dist/errors.d.ts.map", "dist/errors.js", "dist/errors.js.map",
  "dist/gametab_web.js", "dist/gametab_web_bg.wasm", "dist/gametab_web_wasm.js",
  "dist/index.d.ts", "dist/index.d.ts.map", "dist/index.js", "dist/index.js.map",
  "dist/load.d.ts", "dist/load.d.ts.map", "dist/load.js", "dist/load.js.map",
  "dist/murder_plan_browser.bin.gz", "dist/murder_plan_data.js",
  "dist/murder_plan_data_0.js", "dist/murder_plan_data_1.js", "dist/murder_plan_data_2.js",
  "dist/plan.d.ts", "dist/plan.d.ts.map", "dist/plan.js", "dist/plan.js.map",
  "dist/rules.d.ts", "dist/rules.d.ts.map", "dist/rules.js", "dist/rules.js.map",
];

test("npm pack's file list is the package's files, no more, no fewer", () => {
  const listed = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
    .split("\n").filter(Boolean).map((f) => f.replace(/^package\//, "")).sort();
  assert.deepEqual(listed, [...PACKED].sort());
  const manifest = JSON.parse(execFileSync("tar", ["xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
  assert.equal(manifest.sideEffects, false);
  assert.equal(manifest.exports["."].types, "./dist/index.d.ts");
  assert.equal(manifest.exports["./murder_plan_browser.bin.gz"], "./dist/murder_plan_browser.bin.gz");
});

// One copy of the app for both modes: its sources and the node_modules
// scripts/setup installed, then the tarball, as `npm install` puts it.
const app = join(work, "app");
rmSync(app, { recursive: true, force: true });
cpSync(example, app, {
  recursive: true,
  verbatimSymlinks: true,
  // Not what an earlier build or dev server of the app left.
  filter: (src) => !/^(dist|node_modules\/\.vite|node_modules\/\.tmp)(\/|$)/.test(src.slice(example.length)),
});
const npm = (...args) => execFileSync("npm", args, { cwd: app, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
npm("install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", tarball);
const bin = (name) => join(app, "node_modules/.bin", name);

test("the app type-checks with the package's declarations (tsc -b, strict, skipLibCheck off)", () => {
  execFileSync(bin("tsc"), ["-b"], { cwd: app, stdio: "pipe" });
});

/** Open the app, check its start, play turns until the game ends; returns what it saw. */
async function play(url) {
  const profile = mkdtempSync(join(tmpdir(), "gametab-vite-"));
  const context = await chromium.launchPersistentContext(profile, CHROMIUM);
  try {
    const tab = await context.newPage();
    const problems = [];
    const requests = [];
    tab.on("pageerror", (e) => problems.push(e.message));
    tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    tab.on("request", (r) => requests.push(new URL(r.url()).pathname));
    tab.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} ${r.url()}`));
    await tab.goto(url);
    await tab.getByTestId("value").waitFor({ timeout: 30000 });
    const shown = async () => ({
      ...JSON.parse(await tab.getByTestId("state").textContent()),
      value: Number(await tab.getByTestId("value").textContent()),
    });
    const start = await shown();
    assert.deepEqual([start.days, start.index], [8, expected.rules.starts[6]]);
    assert.strictEqual(start.value, expected.keys.values[8 * STATES + start.index]);
    const key = 8 * STATES + start.index;
    const support = expected.strategies.protagonists.find(([k]) => k === key)[1];
    assert.equal(await tab.getByTestId("strategy").locator("tr").count(), support.length);
    const seen = [start];
    const button = tab.getByRole("button", { name: "Play a turn" });
    while (await button.isEnabled()) {
      const before = seen.at(-1);
      await button.click();
      await tab.waitForFunction((d) => JSON.parse(document.querySelector("[data-testid=state]").textContent).days === d,
        before.days - 1);
      const now = await shown();
      // The value the page shows for the state it reached is the table's.
      assert.strictEqual(now.value, expected.keys.values[now.days * STATES + now.index], JSON.stringify(now));
      seen.push(now);
    }
    assert.ok(seen.length >= 2 && seen.length <= 9, JSON.stringify(seen));
    assert.equal(await tab.getByTestId("log").locator("li").count(), seen.length - 1);
    assert.deepEqual(problems, []);
    return { seen, requests };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Each embedded part was downloaded once, StrictMode's double mount
 * notwithstanding (`vite build` names them assets/PART-HASH.js, the dev
 * server's pre-bundle node_modules/.vite/deps/PART-HASH.js).
 */
function downloadedOnce(requests) {
  for (const part of ["gametab_web_wasm", "murder_plan_data_0", "murder_plan_data_1", "murder_plan_data_2"]) {
    const hits = requests.filter((p) => new RegExp(`/${part}-[\\w-]+\\.js$`).test(p));
    assert.equal(hits.length, 1, `${part}: ${JSON.stringify(requests)}`);
  }
}

test("vite build, then vite preview: the app plays in chromium", async () => {
  execFileSync(bin("vite"), ["build"], { cwd: app, stdio: "pipe" });
  const built = execFileSync("ls", [join(app, "dist/assets")], { encoding: "utf8" });
  assert.doesNotMatch(built, /\.wasm/, "no stray .wasm asset: the module is carried as a module");
  const server = await startVite(app, ["preview"]);
  try {
    const { requests } = await play(server.url);
    downloadedOnce(requests);
  } finally {
    server.child.kill();
  }
});

test("vite (dev, a fresh pre-bundle): the app plays in chromium", async () => {
  rmSync(join(app, "node_modules/.vite"), { recursive: true, force: true });
  const server = await startVite(app, []);
  try {
    const { requests } = await play(server.url);
    downloadedOnce(requests);
    assert.ok(existsSync(join(app, "node_modules/.vite/deps/gametab-web.js")), "Vite pre-bundled the package");
    assert.doesNotMatch(server.output(), /error/i, server.output());
  } finally {
    server.child.kill();
  }
});
