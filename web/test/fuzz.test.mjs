// A seeded fuzz of everything a page can hand the package (node --test,
// run by tests/web.rs): truncated and mutated bundles, gzip and inflated,
// and queries with arguments of every wrong type and range. Each must end
// in a result or a MurderPlanError of a kind its input explains, never in
// another exception (a RuntimeError: unreachable would be a trap, after
// which the module is unusable); and the module must answer exactly as
// before at the end. The counts are printed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { api, bundle, expected, startValue, STATES } from "./common.mjs";

const { loadMurderPlan, MurderPlanError, Random } = api;
const random = new Random(20261204);
const below = (n) => Math.floor(random.next() * n);
const pick = (list) => list[below(list.length)];

/** A copy with 1 to 8 random bytes changed, or cut at a random length. */
function damaged(bytes) {
  const copy = new Uint8Array(bytes);
  if (random.next() < 0.3) return copy.subarray(0, below(copy.length));
  for (let i = 1 + below(8); i > 0; i--) copy[below(copy.length)] ^= 1 + below(255);
  return copy;
}

const content = new Uint8Array(gunzipSync(bundle));
const counts = { bundles: 0, decoded: 0, refused: {}, queries: 0, answered: 0 };

async function tryBundle(bytes) {
  counts.bundles++;
  try {
    const plan = await loadMurderPlan(bytes);
    // A damage the reader cannot see (a probability still in range): the
    // tables must still answer or refuse cleanly.
    counts.decoded++;
    for (const start of plan.rules.starts()) {
      try {
        plan.value(8, start);
        plan.moves("mastermind", 8, start);
      } catch (e) {
        if (!(e instanceof MurderPlanError)) throw e;
      }
    }
    plan.free();
  } catch (e) {
    assert.ok(e instanceof MurderPlanError, `not a MurderPlanError: ${e?.stack ?? e}`);
    assert.ok(["bundle", "version"].includes(e.kind), `${e.kind}: ${e.message}`);
    counts.refused[e.kind] = (counts.refused[e.kind] ?? 0) + 1;
  }
}

test("300 damaged gzip bundles and 300 damaged contents end in tables or a bundle error", async () => {
  for (let i = 0; i < 300; i++) await tryBundle(damaged(bundle));
  for (let i = 0; i < 300; i++) await tryBundle(damaged(content));
  // The header's fields one by one: magic, version, sizes.
  for (let at = 0; at < 64; at++) {
    const copy = new Uint8Array(content);
    copy[at] ^= 0xff;
    await tryBundle(copy);
  }
  assert.equal(counts.bundles, 664);
  assert.ok((counts.refused.bundle ?? 0) > 300, JSON.stringify(counts));
});

const WRONG = [undefined, null, -1, 1.5, 2 ** 32, Number.NaN, Infinity, "1", true, {}, [], [0], Symbol("x"), 10n];

/** A state, valid or not in one random field. */
function someState(plan) {
  const state = { ...plan.rules.state(below(STATES)) };
  if (random.next() < 0.5) {
    const field = pick(Object.keys(state));
    state[field] = random.next() < 0.5 ? pick(WRONG) : below(6);
  }
  return random.next() < 0.05 ? pick(WRONG) : state;
}

test("3000 queries with random arguments end in an answer or a MurderPlanError of their kind", async () => {
  const plan = await loadMurderPlan(bundle);
  const rules = plan.rules;
  const days = () => (random.next() < 0.8 ? below(10) : pick(WRONG));
  const side = () => (random.next() < 0.9 ? pick(["mastermind", "protagonists"]) : pick(["brain", ...WRONG]));
  const action = (s) => {
    const legal = rules.legalActions(s, rules.state(0));
    return random.next() < 0.8 ? pick(legal) : { ...pick(legal), brain: pick(["joker", ...WRONG]) };
  };
  const calls = [
    () => plan.value(days(), someState(plan)),
    () => plan.gap(days(), someState(plan)),
    () => plan.reachable(days(), someState(plan)),
    () => plan.strategy(side(), days(), someState(plan)),
    () => plan.moves(side(), days(), someState(plan)),
    () => plan.sample(side(), days(), someState(plan), random.next() < 0.8 ? random.next() : pick([1, -0.5, ...WRONG])),
    () => plan.brainChoice(days(), someState(plan)),
    () => plan.winRate(days(), random.next() < 0.5 ? undefined : someState(plan)),
    () => rules.legalActions(side(), someState(plan)),
    () => rules.turn(someState(plan), action("mastermind"), action("protagonists")),
    () => rules.applyBrain(someState(plan), pick(["killer", "key_person", "nobody", ...WRONG])),
    () => rules.brainTargets(someState(plan)),
    () => rules.state(random.next() < 0.7 ? below(STATES) : pick([STATES, ...WRONG])),
    () => rules.check(side(), someState(plan), action("mastermind")),
    () => new Random(random.next() < 0.7 ? below(2 ** 32) : pick(WRONG)).next(),
  ];
  const kinds = {};
  for (let i = 0; i < 3000; i++) {
    counts.queries++;
    try {
      pick(calls)();
      counts.answered++;
    } catch (e) {
      assert.ok(e instanceof MurderPlanError, `query ${i}: not a MurderPlanError: ${e?.stack ?? e}`);
      assert.ok(["argument", "illegal", "not-held"].includes(e.kind), `query ${i}: ${e.kind}: ${e.message}`);
      kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    }
  }
  assert.ok(counts.answered > 500 && Object.keys(kinds).length === 3, JSON.stringify({ counts, kinds }));
  // The module answers as before: every start's value, to the bit.
  for (let i = 0; i < 16; i++) assert.strictEqual(plan.value(8, rules.starts()[i]), startValue(i));
  assert.strictEqual(plan.value(8, rules.state(expected.rules.starts[6])), startValue(6));
  console.log(`fuzz: ${JSON.stringify({ ...counts, queryRefusals: kinds })}`);
});
