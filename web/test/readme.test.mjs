// The browser guide's ten-line page (docs/browser.md, section "In the
// browser"), as a reader would use it: served with the
// module and the set's bundle by a loopback node:http server and loaded in
// Debian's chromium (driven by playwright-core, which downloads no
// browser). It must run without an error and show the value the lookup
// crate gives for its start. Run by tests/web.rs (node --test), which
// names the set (GAMETAB_TABLES) and the Rust side's answers
// (GAMETAB_EXPECTED).

import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM } from "./browser.mjs";

const dist = process.env.GAMETAB_WEB_DIST ?? new URL("../dist/", import.meta.url).pathname;
const tablesDir = process.env.GAMETAB_TABLES;
const expectedFile = process.env.GAMETAB_EXPECTED;
if (!tablesDir || !expectedFile) {
  throw new Error("run by `cargo test --test web`: GAMETAB_TABLES and GAMETAB_EXPECTED name the set and the Rust side's answers");
}
const expected = JSON.parse(readFileSync(expectedFile, "utf8"));
const readme = readFileSync(new URL("../../docs/browser.md", import.meta.url), "utf8");
const section = readme.slice(readme.indexOf("## In the browser"));
const page = /```html\n([\s\S]*?)```/.exec(section)?.[1];

test("the browser guide's and the package README's app is the example app's code, to the character", () => {
  const app = readFileSync(new URL("../example/src/App.tsx", import.meta.url), "utf8");
  for (const file of ["../../docs/browser.md", "../README.md"]) {
    const text = readFileSync(new URL(file, import.meta.url), "utf8");
    const block = /```tsx\n([\s\S]*?)```/.exec(text)?.[1];
    assert.equal(block, app, `${file}'s tsx block`);
  }
});

test("the browser guide's page is there and has at most ten lines", () => {
  assert.ok(page, "no html block in docs/browser.md's \"In the browser\" section");
  assert.ok(page.trimEnd().split("\n").length <= 10, page);
});

test("the browser guide's page runs in chromium and shows the lookup crate's value", async () => {
  // The package's files as they are in dist/ (under /web/), and the set's bundle.
  const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".map": "application/json" };
  const files = { "/": ["text/html", () => page] };
  for (const name of readdirSync(dist)) {
    const type = types[extname(name)];
    if (type) files[`/web/${name}`] = [type, () => readFileSync(join(dist, name))];
  }
  files["/web/murder_plan_browser.bin.gz"] = ["application/gzip", () => readFileSync(join(tablesDir, "murder_plan_browser.bin.gz"))];
  const server = createServer((request, response) => {
    // The page names no icon; the browser asks anyway.
    if (request.url === "/favicon.ico") return void response.writeHead(204).end();
    const file = files[request.url];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": file[0] }).end(file[1]());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const profile = mkdtempSync(join(tmpdir(), "gametab-readme-"));
  const context = await chromium.launchPersistentContext(profile, CHROMIUM);
  try {
    const tab = await context.newPage();
    const problems = [];
    tab.on("pageerror", (e) => problems.push(e.message));
    tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction(() => document.getElementById("out").textContent !== "", null, { timeout: 30000 });
    const shown = JSON.parse(await tab.textContent("#out"));
    const start = expected.rules.starts[6];
    assert.strictEqual(shown.value, expected.keys.values[8 * 3840 + start]);
    // The mastermind's draw is one of its legal actions at the start, and
    // the turn's result is a state.
    const legal = expected.rules.legal.mastermind[15].map((c) => expected.actions.mastermind[c].join(" / "));
    assert.ok(legal.includes([shown.mine.keyPerson, shown.mine.brain, shown.mine.killer].join(" / ")));
    assert.equal(shown.turn.afterCards.brain.length, 2);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
