// Instantiating the module, in a process of its own (node --test runs
// each file apart) so that it starts uninstantiated: a module URL that
// fails is a MurderPlanError (kind http, or wasm for what is not a
// module, with the hint when it is an HTML page), and the failure is not
// kept: the next call instantiates.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, bundle, rejectsWith, serve, startValue, wasm } from "./common.mjs";

test("a failed instantiation is refused by kind, and the next call succeeds", async () => {
  const server = await serve({
    "/index.html": (q, r) => r.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>app</p>"),
    "/module.wasm": (q, r) => r.writeHead(200, { "content-type": "application/wasm" }).end(wasm),
  });
  try {
    await rejectsWith(api.loadRules(server.url("/missing.wasm")), "http", /HTTP 404/);
    await rejectsWith(api.loadRules(server.url("/index.html")), "wasm", /HTML page/);
    await rejectsWith(api.loadRules(new Uint8Array([0, 97, 115, 109, 9, 9])), "wasm");
    // The bundle's load fails the same way when the module does.
    await rejectsWith(api.loadMurderPlan(bundle, { wasm: server.url("/index.html") }), "wasm");
    const rules = await api.loadRules(server.url("/module.wasm"));
    assert.equal(rules.starts().length, 16);
    const plan = await api.loadMurderPlan(bundle);
    assert.strictEqual(plan.value(8, plan.rules.starts()[6]), startValue(6));
  } finally {
    await server.close();
  }
});
