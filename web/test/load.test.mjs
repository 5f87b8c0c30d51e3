// Loading as a page or a program meets it (node --test, run by
// tests/web.rs on the packed package): the bundle the package carries,
// a URL, a Response or bytes, gzip or already inflated (a host that sends
// the .gz with Content-Encoding: gzip); one download and decode shared
// per source; an AbortSignal that stops the wait, and the download once
// nobody waits; a failure forgotten so the next call retries; every
// failure a MurderPlanError of the right kind.

import { test } from "node:test";
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { api, bundle, expected, rejectsWith, serve, startValue, throwsWith } from "./common.mjs";

const { loadMurderPlan, MurderPlan, Rules } = api;

const gz = (request, response) => response.writeHead(200, { "content-type": "application/gzip" }).end(bundle);

test("with no source, the bundle the package carries: the set's, answering as the lookup crate", async () => {
  const plan = await loadMurderPlan();
  assert.equal(plan.generator, expected.generator);
  assert.equal(plan.positions, expected.positions);
  assert.strictEqual(plan.value(8, plan.rules.starts()[6]), startValue(6));
  assert.equal(await loadMurderPlan(), plan, "shared: the same plan again");
});

test("a URL, fetched once for every caller, gzip sent as Content-Encoding too", async () => {
  const server = await serve({
    "/set/murder_plan_browser.bin.gz": gz,
    // What Vite's preview (sirv) does with a .gz file: the runtime inflates it on the way.
    "/encoded/murder_plan_browser.bin.gz": (q, r) =>
      r.writeHead(200, { "content-type": "application/octet-stream", "content-encoding": "gzip" }).end(bundle),
  });
  try {
    const url = server.url("/set/murder_plan_browser.bin.gz");
    const [a, b] = await Promise.all([loadMurderPlan(url), loadMurderPlan(new URL(url))]);
    assert.equal(a, b);
    assert.equal(await loadMurderPlan(url), a);
    assert.equal(server.hits["/set/murder_plan_browser.bin.gz"], 1);
    const encoded = await loadMurderPlan(server.url("/encoded/murder_plan_browser.bin.gz"));
    assert.strictEqual(encoded.value(8, encoded.rules.starts()[3]), startValue(3));
  } finally {
    await server.close();
  }
});

test("bytes (gzip or inflated) and a Response", async () => {
  const content = gunzipSync(bundle);
  for (const source of [new Uint8Array(bundle), content, content.buffer.slice(content.byteOffset, content.byteOffset + content.length), new Response(bundle)]) {
    const plan = await loadMurderPlan(source);
    assert.strictEqual(plan.value(8, plan.rules.starts()[9]), startValue(9));
    plan.free();
  }
});

test("HTTP errors, unreachable hosts and HTML pages are refused by kind, and a failed load is retried", async () => {
  let ready = false;
  const server = await serve({
    "/later.bin.gz": (q, r) => (ready ? gz(q, r) : r.writeHead(503).end()),
    // What a dev server's fallback answers for a URL that names no file.
    "/index.bin.gz": (q, r) => r.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>app</title>"),
  });
  try {
    await rejectsWith(loadMurderPlan(server.url("/missing.bin.gz")), "http", /HTTP 404/);
    await rejectsWith(loadMurderPlan(server.url("/later.bin.gz")), "http", /HTTP 503/);
    ready = true;
    const plan = await loadMurderPlan(server.url("/later.bin.gz"));
    assert.strictEqual(plan.value(8, plan.rules.starts()[0]), startValue(0));
    await rejectsWith(loadMurderPlan(server.url("/index.bin.gz")), "bundle", /HTML page/);
  } finally {
    await server.close();
  }
  await rejectsWith(loadMurderPlan(server.url("/gone.bin.gz")), "network", /cannot fetch the bundle/);
  await rejectsWith(loadMurderPlan(new Uint8Array(0)), "bundle", /empty file/);
  await rejectsWith(loadMurderPlan(42), "argument", /a URL, a Response/);
});

test("another format version is refused as such", async () => {
  const content = new Uint8Array(gunzipSync(bundle));
  new DataView(content.buffer, content.byteOffset).setUint32(8, 99, true);
  await rejectsWith(loadMurderPlan(content), "version", /version 99/);
});

test("an AbortSignal stops the caller's wait, and the download once nobody waits", async () => {
  const held = [];
  const server = await serve({
    // Headers now, the body only when the test says.
    "/slow.bin.gz": (q, r) => {
      r.writeHead(200, { "content-type": "application/gzip" });
      r.write(bundle.subarray(0, 1000));
      held.push(r);
    },
  });
  try {
    const url = server.url("/slow.bin.gz");
    await rejectsWith(loadMurderPlan(url, { signal: AbortSignal.abort("gone") }), "aborted", /gone/);

    // Two callers: one stops waiting, the other still gets the tables.
    const stop = new AbortController();
    const first = loadMurderPlan(url, { signal: stop.signal });
    const second = loadMurderPlan(url);
    await new Promise((r) => setTimeout(r, 100));
    stop.abort("unmounted");
    await rejectsWith(first, "aborted", /unmounted/);
    assert.equal(held.length, 1);
    held[0].end(bundle.subarray(1000));
    const plan = await second;
    assert.strictEqual(plan.value(8, plan.rules.starts()[6]), startValue(6));
    plan.free();

    // The only caller stops waiting: the download is stopped (the server sees the connection close).
    const alone = new AbortController();
    const closed = new Promise((resolve) => {
      const watch = setInterval(() => {
        if (held.length === 2) {
          clearInterval(watch);
          held[1].on("close", resolve);
        }
      }, 10);
    });
    const third = loadMurderPlan(url, { signal: alone.signal });
    await new Promise((r) => setTimeout(r, 100));
    alone.abort("left the page");
    await rejectsWith(third, "aborted", /left the page/);
    await closed;
  } finally {
    await server.close();
  }
});

test("free() releases the tables: queries then refuse, and the next load decodes anew", async () => {
  const server = await serve({ "/set.bin.gz": gz });
  try {
    const url = server.url("/set.bin.gz");
    const plan = await loadMurderPlan(url);
    const start = plan.rules.starts()[2];
    plan.free();
    plan.free();
    throwsWith(() => plan.value(8, start), "freed", /load them again/);
    const again = await loadMurderPlan(url);
    assert.notEqual(again, plan);
    assert.strictEqual(again.value(8, start), startValue(2));
    assert.equal(server.hits["/set.bin.gz"], 2);
  } finally {
    await server.close();
  }
});

test("the classes are not constructible, and the rules are the loaded plan's", async () => {
  throwsWith(() => new MurderPlan(), "argument", /loadMurderPlan/);
  throwsWith(() => new Rules(), "argument", /loadRules/);
  const plan = await loadMurderPlan();
  assert.equal(plan.rules, await api.loadRules());
});

test("queries refuse arguments by kind, never coercing them", async () => {
  const plan = await loadMurderPlan();
  const start = plan.rules.starts()[6];
  for (const days of [1.5, "3", Number.NaN, -1, 256, undefined, null]) {
    throwsWith(() => plan.value(days, start), "argument", /days/);
  }
  throwsWith(() => plan.value(9, start), "argument", /out of range/);
  throwsWith(() => plan.strategy("brain", 8, start), "argument", /"mastermind" or "protagonists"/);
  throwsWith(() => plan.value(8, { ...start, killerIntrigue: 2.5 }), "argument", /killerIntrigue/);
  throwsWith(() => plan.value(8, { ...start, brain: [0, 2] }), "argument", /not a state/);
  throwsWith(() => plan.value(8, "start"), "argument", /not a state/);
  throwsWith(() => plan.sample("mastermind", 8, start, 1), "argument", /must be in \[0, 1\)/);
  throwsWith(() => plan.sample("mastermind", 8, start, Number.NaN), "argument");
  throwsWith(() => new api.Random(-1), "argument", /seed/);
  throwsWith(() => plan.rules.check("mastermind", start, { keyPerson: "joker", brain: "blank", killer: "blank" }), "argument", /cannot play/);
  // A state no game from the starts reaches with 8 turns left.
  const late = { ...start, killerIntrigue: 3 };
  throwsWith(() => plan.value(8, late), "not-held", /not reachable/);
  // The rules: a spent card, a brain target out of its area.
  const spent = { ...start, diagonalLeft: false };
  throwsWith(() => plan.rules.check("mastermind", spent, { keyPerson: "blank", brain: "blank", killer: "diagonal" }), "illegal", /illegal/);
  throwsWith(() => plan.rules.applyBrain(start, "key_person"), "illegal", /not in the brain's area/);
  throwsWith(() => plan.rules.applyBrain(start, "everyone"), "argument", /not a brain target/);
});

test("Random is the module's SplitMix64, draw for draw", () => {
  for (const [seed, draws] of expected.random) {
    const random = new api.Random(seed);
    assert.deepEqual(draws.map(() => random.next()), draws, `seed ${seed}`);
  }
});
