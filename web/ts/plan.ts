// MurderPlan: the tables of a browser bundle, decoded by the module into
// the lookup crate's own MurderPlanTables and answering with its code;
// this file only checks the arguments' types, turns codes into the game's
// words and owns the module memory the tables live in. Random: the seeded
// generator the game draws with, the module's SplitMix64 in plain
// JavaScript so it needs no module and replays the same numbers.

import * as core from "./gametab_web.js";
import { INTERNAL, MurderPlanError, call, integer } from "./errors.js";
import {
  type Action, type BrainChoice, type Move, type Play, type Rules, type Side, type State, sideCode,
} from "./rules.js";

/** The Murder Plan tables of a browser bundle, answering with the lookup crate's own code. */
export class MurderPlan {
  #core: core.MurderPlan | undefined;
  #onFree: (() => void) | undefined;
  /** The rules, from the same module. */
  readonly rules: Rules;
  /** The program that wrote the bundle (`gametab 0.1.0`). */
  readonly generator: string;
  /** Positions held: (days left, state) of days 1..8 reachable from the 16 starts, not won. */
  readonly positions: number;

  /** Not constructible: use loadMurderPlan or loadMurderPlanSync. */
  private constructor(token: symbol, tables: core.MurderPlan, rules: Rules, onFree?: () => void) {
    if (token !== INTERNAL) {
      throw new MurderPlanError("argument", "a MurderPlan is not constructed: use `await loadMurderPlan()`");
    }
    this.#core = tables;
    this.#onFree = onFree;
    this.rules = rules;
    this.generator = tables.generator;
    this.positions = tables.positions;
  }

  /** @internal Decode a bundle's bytes (gzip or inflated) with the module. */
  static decode(bytes: Uint8Array, rules: Rules, onFree?: () => void): MurderPlan {
    return new MurderPlan(INTERNAL, call(() => core.MurderPlan.fromBytes(bytes)), rules, onFree);
  }

  get #tables(): core.MurderPlan {
    if (this.#core === undefined) {
      throw new MurderPlanError("freed", "these tables were freed: load them again with loadMurderPlan()");
    }
    return this.#core;
  }

  /** V_d(S): the mastermind's win probability with `days` turns left, under optimal play. */
  value(days: number, state: State): number {
    const [d, index] = this.#key(days, state);
    return call(() => this.#tables.value(d, index));
  }

  /** The certificate gap of the state's stored strategies. */
  gap(days: number, state: State): number {
    const [d, index] = this.#key(days, state);
    return call(() => this.#tables.gap(d, index));
  }

  /** Whether some game from the 16 starts reaches the state with `days` turns left. */
  reachable(days: number, state: State): boolean {
    const [d, index] = this.#key(days, state);
    return call(() => this.#tables.reachable(d, index));
  }

  /** A side's optimal mixed strategy (its support, in the stored order). */
  strategy<S extends Side>(side: S, days: number, state: State): Play<S>[] {
    const code = sideCode(side);
    const [d, index] = this.#key(days, state);
    const flat = call(() => this.#tables.strategy(code, d, index));
    const out: Play<S>[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      out.push({ action: this.rules.action(side, flat[i]), probability: flat[i + 1] });
    }
    return out;
  }

  /** A side's action drawn from its optimal strategy by a uniform `u` in [0, 1). */
  sample<S extends Side>(side: S, days: number, state: State, u: number): Action<S> {
    const code = sideCode(side);
    const [d, index] = this.#key(days, state);
    if (typeof u !== "number") throw new MurderPlanError("argument", `u is ${String(u)}: a number in [0, 1)`);
    return this.rules.action(side, call(() => this.#tables.sample(code, d, index, u)));
  }

  /** Every legal action of a side, valued against the opponent's optimal strategy, best first. */
  moves<S extends Side>(side: S, days: number, state: State): Move<S>[] {
    const code = sideCode(side);
    const [d, index] = this.#key(days, state);
    const flat = call(() => this.#tables.moves(code, d, index));
    const out: Move<S>[] = [];
    for (let i = 0; i < flat.length; i += 4) {
      out.push({
        action: this.rules.action(side, flat[i]),
        value: flat[i + 1],
        loss: flat[i + 2],
        probability: flat[i + 3],
      });
    }
    return out;
  }

  /** The brain's optimal choice after the cards of a turn played with `days` turns left. */
  brainChoice(days: number, afterCards: State): BrainChoice {
    const [d, index] = this.#key(days, afterCards);
    const [target, value] = call(() => this.#tables.brainChoice(d, index));
    return { target: this.rules.target(target), value };
  }

  /** The optimal mastermind win rate for a horizon (1..8), from a start or averaged over the 16. */
  winRate(horizon: number, start?: State): number {
    integer(horizon, "the horizon", 0, 255);
    const index = start === undefined ? undefined : this.rules.index(start);
    return call(() => this.#tables.winRate(horizon, index));
  }

  /**
   * Release the module memory these tables hold (about 5 MB). A plan that
   * loadMurderPlan shares is released for every holder, and the next
   * loadMurderPlan of the same source loads it again; queries on this
   * object then throw a MurderPlanError of kind `freed`. Without it, the
   * memory is released when the object is garbage-collected.
   */
  free(): void {
    const tables = this.#core;
    if (tables === undefined) return;
    this.#core = undefined;
    this.#onFree?.();
    tables.free();
  }

  /** `days` and a state, checked, as the module takes them. */
  #key(days: number, state: State): [number, number] {
    integer(days, "days", 0, 255);
    return [days, this.rules.index(state)];
  }
}

const MASK = (1n << 64n) - 1n;

/** Seeded uniform numbers in [0, 1) (SplitMix64), for replayable draws. */
export class Random {
  #state: bigint;

  /** The generator of a seed: an integer from 0 to 2^32 - 1. */
  constructor(seed: number) {
    this.#state = BigInt(integer(seed, "the seed", 0, 0xffffffff));
  }

  /** The next number in [0, 1): the top 53 bits of the next output, over 2^53. */
  next(): number {
    this.#state = (this.#state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.#state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  }
}
