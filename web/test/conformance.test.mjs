// Conformance of the WebAssembly module with the native lookup crate
// (node --test). Run by tests/web.rs, which writes the Rust side's
// answers (the lookup crate on the set's Parquet tables, the games
// crate's rules) to the file GAMETAB_EXPECTED; GAMETAB_TABLES is the set,
// whose browser bundle the module loads here through the typed wrapper,
// as a page would. Every comparison is exact: assert.strictEqual is
// Object.is, so a value off by one bit (or 0 for -0) fails.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const dist = process.env.GAMETAB_WEB_DIST ?? new URL("../dist/", import.meta.url).pathname;
const { loadMurderPlan, loadMurderPlanSync, MurderPlanError } = await import(join(dist, "index.js"));

const tablesDir = process.env.GAMETAB_TABLES;
const expectedFile = process.env.GAMETAB_EXPECTED;
if (!tablesDir || !expectedFile) {
  throw new Error("run by `cargo test --test web`: GAMETAB_TABLES and GAMETAB_EXPECTED name the set and the Rust side's answers");
}
const expected = JSON.parse(readFileSync(expectedFile, "utf8"));
const bundle = readFileSync(join(tablesDir, "murder_plan_browser.bin.gz"));
const wasm = readFileSync(join(dist, "gametab_web_bg.wasm"));
const plan = loadMurderPlanSync(bundle, wasm);
const rules = plan.rules;

const STATES = 3840;
const SIDES = ["mastermind", "protagonists"];
const states = expected.rules.states.map((_, i) => rules.state(i));
const dayOf = (key) => Math.floor(key / STATES);
const stateOf = (key) => states[key % STATES];

// The action of a code, by the Rust side's labels.
function action(side, code) {
  const [keyPerson, brain, killer] = expected.actions[side][code];
  return { keyPerson, brain, killer };
}

test("the bundle is the set's", () => {
  assert.equal(plan.generator, expected.generator);
  assert.equal(plan.positions, expected.positions);
});

test("states convert both ways, and every state's won test", () => {
  expected.rules.states.forEach((e, i) => {
    const s = states[i];
    const fields = [s.brain[0], s.brain[1], s.killer[0], s.killer[1], s.killerIntrigue,
      s.keyPersonIntrigue, s.diagonalLeft ? 1 : 0, s.intrigue2Left ? 1 : 0, s.forbidMovementLeft];
    assert.deepEqual(fields, e.fields, `state ${i}`);
    assert.equal(rules.index(s), i);
    assert.equal(rules.isWon(s), e.won, `won, state ${i}`);
  });
  assert.deepEqual(rules.starts().map((s) => rules.index(s)), expected.rules.starts);
  assert.throws(() => rules.index({ ...states[0], killerIntrigue: 5 }), MurderPlanError);
});

test("legal actions of both sides in every state, in canonical order", () => {
  for (const side of SIDES) {
    for (let i = 0; i < STATES; i++) {
      const want = expected.rules.legal[side][limitedIndex(states[i])].map((c) => action(side, c));
      assert.deepEqual(rules.legalActions(side, states[i]), want, `${side}, state ${i}`);
    }
  }
});

function limitedIndex(s) {
  return ((s.diagonalLeft ? 2 : 0) + (s.intrigue2Left ? 1 : 0)) * 4 + s.forbidMovementLeft;
}

test("brain targets and their effect in every state", () => {
  expected.rules.states.forEach((e, i) => {
    assert.deepEqual(rules.brainTargets(states[i]), e.brain.map(([t]) => t), `state ${i}`);
    for (const [target, after] of e.brain) {
      assert.equal(rules.index(rules.applyBrain(states[i], target)), after, `${target} in state ${i}`);
    }
  });
  const apart = expected.rules.states.findIndex((e) => e.brain.length === 1);
  assert.throws(() => rules.applyBrain(states[apart], "killer"), /cannot target the killer/);
});

test("every value, gap and reachability, and a refusal for every key the bundle does not hold", () => {
  const { values, gaps, reachable } = expected.keys;
  let refused = 0;
  for (let key = 0; key < 9 * STATES; key++) {
    const days = dayOf(key);
    const s = stateOf(key);
    assert.equal(plan.reachable(days, s), reachable[key], `reachable, key ${key}`);
    if (values[key] === null) {
      assert.throws(() => plan.value(days, s), /not reachable from the 16 starts/, `key ${key}`);
      assert.throws(() => plan.strategy("mastermind", days, s), MurderPlanError);
      refused++;
    } else {
      assert.strictEqual(plan.value(days, s), values[key], `value, key ${key}`);
      assert.strictEqual(plan.gap(days, s), gaps[key], `gap, key ${key}`);
    }
  }
  assert.ok(refused > 1000, `${refused} keys refused`);
});

test("both strategies of every position, in the stored order", () => {
  for (const side of SIDES) {
    for (const [key, support] of expected.strategies[side]) {
      const got = plan.strategy(side, dayOf(key), stateOf(key));
      assert.equal(got.length, support.length, `${side}, key ${key}`);
      support.forEach(([code, p], j) => {
        assert.deepEqual(got[j].action, action(side, code), `${side}, key ${key}, entry ${j}`);
        assert.strictEqual(got[j].probability, p, `${side}, key ${key}, entry ${j}`);
      });
    }
  }
  assert.equal(expected.strategies.mastermind.length, expected.positions);
});

test("sampling, at the cumulative boundaries of the stored order", () => {
  for (const [key, u, m, p] of expected.samples) {
    const days = dayOf(key);
    const s = stateOf(key);
    assert.deepEqual(plan.sample("mastermind", days, s, u), action("mastermind", m), `key ${key}, u ${u}`);
    assert.deepEqual(plan.sample("protagonists", days, s, u), action("protagonists", p), `key ${key}, u ${u}`);
  }
  const [key] = expected.samples[0];
  assert.throws(() => plan.sample("mastermind", dayOf(key), stateOf(key), 1), /must be in \[0, 1\)/);
});

test("the value of every move on a sample of positions, best first", () => {
  for (const e of expected.moves) {
    for (const side of SIDES) {
      const got = plan.moves(side, dayOf(e.key), stateOf(e.key));
      assert.equal(got.length, e[side].length);
      e[side].forEach(([code, value, loss, probability], j) => {
        const m = got[j];
        assert.deepEqual(m.action, action(side, code), `${side}, key ${e.key}, move ${j}`);
        assert.strictEqual(m.value, value, `${side}, key ${e.key}, move ${j}`);
        assert.strictEqual(m.loss, loss, `${side}, key ${e.key}, move ${j}`);
        assert.strictEqual(m.probability, probability, `${side}, key ${e.key}, move ${j}`);
      });
    }
  }
  assert.ok(expected.moves.length >= 100);
});

test("the brain's choice of every post-card state the bundle holds, and a refusal of others", () => {
  for (const [key, target, value] of expected.brain.held) {
    assert.deepEqual(plan.brainChoice(dayOf(key), stateOf(key)), { target, value }, `key ${key}`);
  }
  for (const key of expected.brain.refused) {
    assert.throws(() => plan.brainChoice(dayOf(key), stateOf(key)), /brain choice/, `key ${key}`);
  }
  assert.ok(expected.brain.refused.length > 10);
});

test("the transition of every legal action pair from a sample of states", () => {
  let pairs = 0;
  for (const e of expected.transitions) {
    const s = states[e.state];
    const masterminds = rules.legalActions("mastermind", s);
    const protagonists = rules.legalActions("protagonists", s);
    let n = 0;
    for (const a of masterminds) {
      for (const b of protagonists) {
        const turn = rules.turn(s, a, b);
        assert.equal(rules.index(turn.afterCards), e.posts[n], `state ${e.state}, pair ${n}`);
        if (e.outcomes.length > 0) {
          const code = (o) => o[0] * 2 + o[1];
          const o = e.outcomes[n];
          const got = [code(turn.moves.keyPerson), code(turn.moves.brain), code(turn.moves.killer),
            turn.intrigueAdded.killer, turn.intrigueAdded.keyPerson,
            turn.used.diagonal ? 1 : 0, turn.used.intrigue2 ? 1 : 0, turn.used.forbidMovement];
          assert.deepEqual(got, o, `outcome, state ${e.state}, pair ${n}`);
        }
        n++;
      }
    }
    assert.equal(n, e.posts.length);
    pairs += n;
  }
  assert.ok(pairs > 80000, `${pairs} pairs`);
});

test("win rates of every horizon and start, and the average", () => {
  const starts = rules.starts();
  for (const [horizon, start, value] of expected.win_rates) {
    const s = start === null ? undefined : starts.find((t) => rules.index(t) === start);
    assert.strictEqual(plan.winRate(horizon, s), value, `horizon ${horizon}, start ${start}`);
  }
  assert.throws(() => plan.winRate(9), /out of range/);
});

test("the streaming load (the runtime's own gzip) gives the same tables", async () => {
  assert.equal(typeof DecompressionStream, "function");
  const streamed = await loadMurderPlan(new Uint8Array(bundle), wasm);
  assert.equal(streamed.positions, plan.positions);
  for (const [key, support] of expected.strategies.mastermind.filter((_, i) => i % 7 === 0)) {
    const days = dayOf(key);
    const s = stateOf(key);
    assert.strictEqual(streamed.value(days, s), expected.keys.values[key]);
    assert.deepEqual(streamed.strategy("mastermind", days, s), plan.strategy("mastermind", days, s));
    assert.equal(streamed.strategy("mastermind", days, s).length, support.length);
  }
  await assert.rejects(loadMurderPlan(bundle.subarray(0, 1000), wasm), /gzip/);
});

test("a damaged bundle is refused with the reader's message", () => {
  const truncated = bundle.subarray(0, bundle.length >> 1);
  assert.throws(() => loadMurderPlanSync(truncated, wasm), /unreadable browser bundle/);
  assert.throws(() => loadMurderPlanSync(new Uint8Array([1, 2, 3]), wasm), MurderPlanError);
});
