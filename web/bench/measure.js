// The measurements both benchmarks run (Node: bench/node.mjs; Chromium:
// bench/chromium.mjs, in a page): one module for both, so the numbers
// compare. Loops of many calls timed with performance.now(); each figure
// is the median over rounds.

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(rounds, f) {
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    f();
    out.push(performance.now() - start);
  }
  return median(out);
}

/**
 * Lookup timings on a loaded MurderPlan: every position of the bundle
 * (reachable, not won, days 1..8) asked in turn.
 */
export function measureLookups(plan) {
  const rules = plan.rules;
  const positions = [];
  for (let days = 1; days <= 8; days++) {
    for (let i = 0; i < 3840; i++) {
      const s = rules.state(i);
      if (!rules.isWon(s) && plan.reachable(days, s)) positions.push([days, s]);
    }
  }
  let sink = 0;
  const n = positions.length;
  const value = time(7, () => {
    for (const [d, s] of positions) sink += plan.value(d, s);
  });
  // "A lookup" as a simulator makes it: the value and both optimal
  // strategies of a state, as objects.
  const lookup = time(7, () => {
    for (const [d, s] of positions) {
      sink += plan.value(d, s);
      sink += plan.strategy("mastermind", d, s).length;
      sink += plan.strategy("protagonists", d, s).length;
    }
  });
  const sample = time(7, () => {
    for (const [d, s] of positions) sink += plan.sample("protagonists", d, s, 0.5).keyPerson.length;
  });
  const some = positions.filter((_, i) => i % 50 === 0);
  const moves = time(5, () => {
    for (const [d, s] of some) {
      sink += plan.moves("mastermind", d, s).length + plan.moves("protagonists", d, s).length;
    }
  });
  const legal = positions[positions.length - 1][1];
  const [a] = rules.legalActions("mastermind", legal);
  const [b] = rules.legalActions("protagonists", legal);
  const turn = time(7, () => {
    for (let i = 0; i < 10000; i++) sink += rules.turn(legal, a, b).intrigueAdded.killer;
  });
  return {
    positions: n,
    value_us: (1000 * value) / n,
    lookup_us: (1000 * lookup) / n,
    sample_us: (1000 * sample) / n,
    moves_both_sides_us: (1000 * moves) / some.length,
    turn_us: (1000 * turn) / 10000,
    sink: sink > 0,
  };
}

/** The median time of decoding the bundle `rounds` times (fresh tables each). */
export function measureDecode(load, bytes, rounds) {
  return time(rounds, () => load(bytes).free());
}
