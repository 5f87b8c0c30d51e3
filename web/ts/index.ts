// gametab-web: the Murder Plan (Tragedy Looper) rules and its optimal
// strategies in the browser, with no server.
//
// A typed wrapper over the WebAssembly module that wasm-bindgen generates
// from the `web/` crate (gametab_web.js + gametab_web_bg.wasm): that module
// is the project's own Rust (the rules of gametab-games, the queries of
// gametab-lookup), taking states as dense indices and actions as byte
// codes for speed. This file only turns those into objects in the game's
// words (State, Action, Move) and the thrown message strings into
// MurderPlanError; it computes nothing of the game itself.
//
//   const plan = await loadMurderPlan("murder_plan_browser.bin.gz");
//   const start = plan.rules.starts()[1];
//   plan.value(8, start);                       // P(mastermind wins)
//   plan.strategy("protagonists", 8, start);    // [{action, probability}]

import initCore, * as core from "./gametab_web.js";

/** A side of the game. */
export type Side = "mastermind" | "protagonists";

/** A component of a relative position: 0 or 1. */
export type Bit = 0 | 1;

/**
 * A vector of F2^2: a position relative to the key person, or a move
 * ([1, 0] horizontal, [0, 1] vertical, [1, 1] diagonal, [0, 0] none).
 */
export type Offset = readonly [Bit, Bit];

/** A state between turns (the tables' state columns). */
export interface State {
  /** x = pos(brain) - pos(key person). */
  readonly brain: Offset;
  /** y = pos(killer) - pos(key person). */
  readonly killer: Offset;
  /** Killer intrigue, 0..4 (4: the mastermind has won). */
  readonly killerIntrigue: number;
  /** Key-person intrigue, 0..2. */
  readonly keyPersonIntrigue: number;
  /** The mastermind's diagonal card is still available. */
  readonly diagonalLeft: boolean;
  /** The mastermind's intrigue+2 card is still available. */
  readonly intrigue2Left: boolean;
  /** Forbid-movement uses left to the protagonists, 0..3. */
  readonly forbidMovementLeft: number;
}

/** The mastermind's cards. */
export type MastermindCard =
  | "horizontal" | "vertical" | "diagonal" | "intrigue+1" | "intrigue+2" | "blank";

/** The protagonists' cards. */
export type ProtagonistCard =
  | "horizontal" | "vertical" | "forbid-movement" | "forbid-intrigue" | "blank";

/** The cards of a side. */
export type Card<S extends Side> = S extends "mastermind" ? MastermindCard : ProtagonistCard;

/** A full action: one card on each character. */
export interface Action<S extends Side = Side> {
  readonly keyPerson: Card<S>;
  readonly brain: Card<S>;
  readonly killer: Card<S>;
}

/** An action of an optimal mixed strategy. */
export interface Play<S extends Side = Side> {
  readonly action: Action<S>;
  readonly probability: number;
}

/** A legal action valued against the opponent's optimal strategy. */
export interface Move<S extends Side = Side> {
  readonly action: Action<S>;
  /** The mastermind's win probability when it meets the opponent's optimal strategy. */
  readonly value: number;
  /** What the mover gives up by it against the game value (0 for the best). */
  readonly loss: number;
  /** Its probability in the mover's own optimal strategy (0 outside the support). */
  readonly probability: number;
}

/** The brain's ability: +1 intrigue to one character in its area. */
export type BrainTarget = "killer" | "key_person" | "nobody";

/** The brain's optimal choice and the value it yields. */
export interface BrainChoice {
  readonly target: BrainTarget;
  readonly value: number;
}

/** What a pair of plays did (before the brain's ability). */
export interface TurnResult {
  /** The state after the cards. */
  readonly afterCards: State;
  /** Net move of each character. */
  readonly moves: { readonly keyPerson: Offset; readonly brain: Offset; readonly killer: Offset };
  /** Intrigue added (before the caps). */
  readonly intrigueAdded: { readonly killer: number; readonly keyPerson: number };
  /** Limited cards spent. */
  readonly used: {
    readonly diagonal: boolean;
    readonly intrigue2: boolean;
    readonly forbidMovement: number;
  };
}

/** A refusal of the module (bad input, a state the bundle does not hold, a bad bundle). */
export class MurderPlanError extends Error {
  override name = "MurderPlanError";
}

/** Where the module's .wasm comes from: a URL, or its bytes. */
export type WasmSource = string | URL | BufferSource | WebAssembly.Module;

/** Where the bundle comes from: a URL of murder_plan_browser.bin.gz, or its bytes. */
export type BundleSource = string | URL | ArrayBuffer | Uint8Array;

function call<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new MurderPlanError(typeof e === "string" ? e : String(e));
  }
}

const SIDES: Record<Side, core.Side> = {
  mastermind: core.Side.Mastermind,
  protagonists: core.Side.Protagonists,
};

function offset(code: number): Offset {
  return [(code >> 1) as Bit, (code & 1) as Bit];
}

/** The rules of the game, from the module. */
export class Rules {
  readonly #actions: Record<Side, Action[]>;
  readonly #codes: Record<Side, Map<string, number>>;
  readonly #targets: BrainTarget[];

  /** @internal Use loadRules, loadMurderPlan or their Sync forms. */
  constructor() {
    const actions = (side: Side): Action[] => {
      const count = side === "mastermind" ? 216 : 125;
      const out: Action[] = [];
      for (let code = 0; code < count; code++) {
        const [keyPerson, brain, killer] = call(() => core.actionCards(SIDES[side], code));
        out.push(Object.freeze({ keyPerson, brain, killer }) as Action);
      }
      return out;
    };
    this.#actions = { mastermind: actions("mastermind"), protagonists: actions("protagonists") };
    const codes = (side: Side) =>
      new Map(this.#actions[side].map((a, code) => [key(a), code] as [string, number]));
    this.#codes = { mastermind: codes("mastermind"), protagonists: codes("protagonists") };
    this.#targets = [0, 1, 2].map((t) => core.brainTargetLabel(t) as BrainTarget);
  }

  /** The dense index of a state (0..3840), as the tables and the module key it. */
  index(state: State): number {
    const known = indices.get(state);
    if (known !== undefined) return known;
    const index = call(() => core.stateIndex(
      state.brain[0], state.brain[1], state.killer[0], state.killer[1],
      state.killerIntrigue, state.keyPersonIntrigue,
      state.diagonalLeft ? 1 : 0, state.intrigue2Left ? 1 : 0, state.forbidMovementLeft,
    ));
    // Only the module's own (frozen) states are remembered: a caller's
    // object may change under us.
    if (Object.isFrozen(state) && Object.isFrozen(state.brain) && Object.isFrozen(state.killer)) {
      indices.set(state, index);
    }
    return index;
  }

  /** The state of a dense index. */
  state(index: number): State {
    const f = call(() => core.stateFields(index));
    const state: State = Object.freeze({
      brain: Object.freeze([f[0], f[1]]) as Offset,
      killer: Object.freeze([f[2], f[3]]) as Offset,
      killerIntrigue: f[4],
      keyPersonIntrigue: f[5],
      diagonalLeft: f[6] === 1,
      intrigue2Left: f[7] === 1,
      forbidMovementLeft: f[8],
    });
    indices.set(state, index);
    return state;
  }

  /** The 16 start states (no intrigue, every limited card), in index order. */
  starts(): State[] {
    return Array.from(core.startStates(), (i) => this.state(i));
  }

  /** Whether the mastermind has won in the state. */
  isWon(state: State): boolean {
    const index = this.index(state);
    return call(() => core.isWon(index));
  }

  /** A side's legal actions in the state, in the canonical order. */
  legalActions<S extends Side>(side: S, state: State): Action<S>[] {
    const index = this.index(state);
    const codes = call(() => core.legalActions(SIDES[side], index));
    return Array.from(codes, (c) => this.action(side, c));
  }

  /** Check that a side may play the action in the state; throws the reason it may not. */
  check(side: Side, state: State, action: Action): void {
    const index = this.index(state);
    const code = this.code(side, action);
    call(() => core.checkAction(SIDES[side], index, code));
  }

  /** Play one turn: both sides' actions resolved by the rules, before the brain's ability. */
  turn(state: State, mastermind: Action<"mastermind">, protagonists: Action<"protagonists">): TurnResult {
    const index = this.index(state);
    const m = this.code("mastermind", mastermind);
    const p = this.code("protagonists", protagonists);
    const r = call(() => core.turn(index, m, p));
    return Object.freeze({
      afterCards: this.state(r[0]),
      moves: { keyPerson: offset(r[1]), brain: offset(r[2]), killer: offset(r[3]) },
      intrigueAdded: { killer: r[4], keyPerson: r[5] },
      used: { diagonal: r[6] === 1, intrigue2: r[7] === 1, forbidMovement: r[8] },
    });
  }

  /** The brain's legal targets in a post-card state, in the tie-break order. */
  brainTargets(afterCards: State): BrainTarget[] {
    const index = this.index(afterCards);
    return Array.from(call(() => core.brainTargets(index)), (t) => this.#targets[t]);
  }

  /** The state after the brain's ability. */
  applyBrain(afterCards: State, target: BrainTarget): State {
    const index = this.index(afterCards);
    const code = this.#targets.indexOf(target);
    if (code < 0) throw new MurderPlanError(`${String(target)} is not a brain target`);
    return this.state(call(() => core.applyBrain(index, code)));
  }

  /** @internal The action of a code. */
  action<S extends Side>(side: S, code: number): Action<S> {
    const action = this.#actions[side][code];
    if (action === undefined) throw new MurderPlanError(`${side} action code ${code} is not an action`);
    return action as Action<S>;
  }

  /** @internal The code of an action. */
  code(side: Side, action: Action): number {
    const code = this.#codes[side].get(key(action));
    if (code === undefined) {
      throw new MurderPlanError(`${side} cannot play ${key(action)}: unknown cards`);
    }
    return code;
  }

  /** @internal A brain target's name. */
  target(code: number): BrainTarget {
    return this.#targets[code];
  }
}

/** The index of every state the module handed out (they are frozen). */
const indices = new WeakMap<State, number>();

function key(action: Action): string {
  return `${action.keyPerson} / ${action.brain} / ${action.killer}`;
}

/** The Murder Plan tables of a browser bundle, answering with the lookup crate's own code. */
export class MurderPlan {
  readonly #core: core.MurderPlan;
  /** The rules, from the same module. */
  readonly rules: Rules;
  /** The program that wrote the bundle (`gametab 0.1.0`). */
  readonly generator: string;
  /** Positions held: (days left, state) of days 1..8 reachable from the 16 starts, not won. */
  readonly positions: number;

  /**
   * @internal Use loadMurderPlan or loadMurderPlanSync. `inflated`: the
   * bytes are the bundle's content, its gzip already undone.
   */
  constructor(bundle: Uint8Array, rules: Rules, inflated = false) {
    this.#core = call(() =>
      inflated ? core.MurderPlan.fromContent(bundle) : core.MurderPlan.fromBundle(bundle));
    this.rules = rules;
    this.generator = this.#core.generator;
    this.positions = this.#core.positions;
  }

  /** V_d(S): the mastermind's win probability with `days` turns left, under optimal play. */
  value(days: number, state: State): number {
    const index = this.rules.index(state);
    return call(() => this.#core.value(days, index));
  }

  /** The certificate gap of the state's stored strategies. */
  gap(days: number, state: State): number {
    const index = this.rules.index(state);
    return call(() => this.#core.gap(days, index));
  }

  /** Whether some game from the 16 starts reaches the state with `days` turns left. */
  reachable(days: number, state: State): boolean {
    const index = this.rules.index(state);
    return call(() => this.#core.reachable(days, index));
  }

  /** A side's optimal mixed strategy (its support, in the stored order). */
  strategy<S extends Side>(side: S, days: number, state: State): Play<S>[] {
    const index = this.rules.index(state);
    const flat = call(() => this.#core.strategy(SIDES[side], days, index));
    const out: Play<S>[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      out.push({ action: this.rules.action(side, flat[i]), probability: flat[i + 1] });
    }
    return out;
  }

  /** A side's action drawn from its optimal strategy by a uniform `u` in [0, 1). */
  sample<S extends Side>(side: S, days: number, state: State, u: number): Action<S> {
    const index = this.rules.index(state);
    return this.rules.action(side, call(() => this.#core.sample(SIDES[side], days, index, u)));
  }

  /** Every legal action of a side, valued against the opponent's optimal strategy, best first. */
  moves<S extends Side>(side: S, days: number, state: State): Move<S>[] {
    const index = this.rules.index(state);
    const flat = call(() => this.#core.moves(SIDES[side], days, index));
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
    const index = this.rules.index(afterCards);
    const [target, value] = call(() => this.#core.brainChoice(days, index));
    return { target: this.rules.target(target), value };
  }

  /** The optimal mastermind win rate for a horizon (1..8), from a start or averaged over the 16. */
  winRate(horizon: number, start?: State): number {
    const index = start === undefined ? undefined : this.rules.index(start);
    return call(() => this.#core.winRate(horizon, index));
  }

  /** Release the module's memory for these tables. */
  free(): void {
    this.#core.free();
  }
}

/** Seeded uniform numbers in [0, 1) (SplitMix64), for replayable draws. */
export class Random {
  readonly #core: core.Rng;

  constructor(seed: number) {
    this.#core = new core.Rng(seed >>> 0);
  }

  /** The next number in [0, 1). */
  next(): number {
    return this.#core.nextUnit();
  }
}

let ready: Promise<Rules> | undefined;
let rulesNow: Rules | undefined;

/** Instantiate the module (once; later calls share it) and return the rules. */
export function loadRules(wasm?: WasmSource): Promise<Rules> {
  ready ??= (async () => {
    await initCore(wasm === undefined ? undefined : { module_or_path: wasm });
    rulesNow = new Rules();
    return rulesNow;
  })();
  return ready;
}

/** The same, synchronously, from the module's bytes (Node, workers). */
export function loadRulesSync(wasm: BufferSource | WebAssembly.Module): Rules {
  if (rulesNow === undefined) {
    core.initSync({ module: wasm });
    rulesNow = new Rules();
    ready = Promise.resolve(rulesNow);
  }
  return rulesNow;
}

/**
 * The bundle's bytes and whether they are already inflated: where the
 * runtime has DecompressionStream (browsers, Node 18+), the gzip is undone
 * natively while the file downloads; otherwise the module inflates it.
 */
async function contentOf(source: BundleSource): Promise<[Uint8Array, boolean]> {
  let stream: ReadableStream<Uint8Array<ArrayBuffer>>;
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
    if (typeof DecompressionStream === "undefined") return [bytes, false];
    stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream();
  } else {
    const response = await fetch(source);
    if (!response.ok) {
      throw new MurderPlanError(`cannot fetch the bundle ${String(source)}: HTTP ${response.status}`);
    }
    if (typeof DecompressionStream === "undefined" || response.body === null) {
      return [new Uint8Array(await response.arrayBuffer()), false];
    }
    stream = response.body;
  }
  const inflated = stream.pipeThrough(new DecompressionStream("gzip"));
  try {
    return [new Uint8Array(await new Response(inflated).arrayBuffer()), true];
  } catch (e) {
    throw new MurderPlanError(`the bundle is not a readable gzip file: ${String(e)}`);
  }
}

/**
 * Load the Murder Plan tables of a browser bundle: fetch it (or take its
 * bytes), instantiate the module if needed, decode. `wasm` defaults to
 * gametab_web_bg.wasm beside this file.
 */
export async function loadMurderPlan(bundle: BundleSource, wasm?: WasmSource): Promise<MurderPlan> {
  const [[bytes, inflated], rules] = await Promise.all([contentOf(bundle), loadRules(wasm)]);
  return new MurderPlan(bytes, rules, inflated);
}

/** The same, synchronously, from the bundle's and the module's bytes. */
export function loadMurderPlanSync(bundle: Uint8Array, wasm: BufferSource | WebAssembly.Module): MurderPlan {
  return new MurderPlan(bundle, loadRulesSync(wasm));
}
