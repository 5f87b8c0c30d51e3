// What the package's Node tests share: the environment tests/web.rs sets
// (the package under test, the test set, the Rust side's answers), a
// loopback file server whose answers a test chooses, and the start state
// the checks read.

import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

/** The package directory under test (its dist/), the set, the expectations. */
export const dist = process.env.GAMETAB_WEB_DIST ?? new URL("../dist/", import.meta.url).pathname;
const tablesDir = process.env.GAMETAB_TABLES;
const expectedFile = process.env.GAMETAB_EXPECTED;
if (!tablesDir || !expectedFile) {
  throw new Error("run by `cargo test --test integration web`: GAMETAB_TABLES and GAMETAB_EXPECTED name the set and the Rust side's answers");
}
export const expected = JSON.parse(readFileSync(expectedFile, "utf8"));
export const bundle = readFileSync(join(tablesDir, "murder_plan_browser.bin.gz"));
export const wasm = readFileSync(join(dist, "gametab_web_bg.wasm"));
export const api = await import(join(dist, "index.js"));
export const STATES = 3840;

/** The value the lookup crate gives a start with 8 turns left. */
export function startValue(i) {
  const start = expected.rules.starts[i];
  return expected.keys.values[8 * STATES + start];
}

/**
 * A loopback HTTP server: `routes[path](request, response)` answers; every
 * request's path is counted in `hits`. Close it with `close()`.
 */
export async function serve(routes) {
  const hits = {};
  const sockets = new Set();
  const server = createServer((request, response) => {
    hits[request.url] = (hits[request.url] ?? 0) + 1;
    const route = routes[request.url];
    if (route) route(request, response);
    else response.writeHead(404, { "content-type": "text/plain" }).end("no such file");
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: (path) => `${base}${path}`,
    hits,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Assert that a promise rejects with a MurderPlanError of `kind` (and a message matching `pattern`). */
export async function rejectsWith(promise, kind, pattern = /./) {
  try {
    await promise;
  } catch (e) {
    if (!(e instanceof api.MurderPlanError)) throw new Error(`not a MurderPlanError: ${e?.stack ?? e}`);
    if (e.kind !== kind || !pattern.test(e.message)) {
      throw new Error(`expected kind ${kind} matching ${pattern}, got ${e.kind}: ${e.message}`);
    }
    return e;
  }
  throw new Error(`expected a rejection of kind ${kind}, got a result`);
}

/** The same for a synchronous call. */
export function throwsWith(f, kind, pattern = /./) {
  try {
    f();
  } catch (e) {
    if (!(e instanceof api.MurderPlanError)) throw new Error(`not a MurderPlanError: ${e?.stack ?? e}`);
    if (e.kind !== kind || !pattern.test(e.message)) {
      throw new Error(`expected kind ${kind} matching ${pattern}, got ${e.kind}: ${e.message}`);
    }
    return e;
  }
  throw new Error(`expected a throw of kind ${kind}`);
}
