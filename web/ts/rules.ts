// The Murder Plan's rules from the module: states by their fields,
// actions by their cards, each call a thin step into the project's Rust
// (gametab-games), which takes states as dense indices and actions as
// byte codes. This file turns those into the game's words and checks
// every argument's type before it crosses into the module, so that a
// number never reaches it coerced (1.5 days, "3", NaN).

import * as core from "./gametab_web.js";
import { INTERNAL, MurderPlanError, call, describe, integer } from "./errors.js";

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

const SIDES: Record<Side, core.Side> = {
  mastermind: core.Side.Mastermind,
  protagonists: core.Side.Protagonists,
};

/** @internal The module's code of a side; refuses anything else. */
export function sideCode(side: Side): core.Side {
  if (side !== "mastermind" && side !== "protagonists") {
    throw new MurderPlanError("argument", `side is ${describe(side)}: "mastermind" or "protagonists"`);
  }
  return SIDES[side];
}

function cardNames(side: Side): string {
  return side === "mastermind"
    ? "horizontal, vertical, diagonal, intrigue+1, intrigue+2, blank"
    : "horizontal, vertical, forbid-movement, forbid-intrigue, blank";
}

const BIT = (v: unknown) => v === 0 || v === 1;

/** Refuse what is not a state's shape (the module checks the ranges). */
function checkState(state: State): void {
  const s = state as Partial<Record<keyof State, unknown>> | null;
  const isOffset = (v: unknown) => Array.isArray(v) && v.length === 2 && BIT(v[0]) && BIT(v[1]);
  const fine =
    typeof s === "object" && s !== null &&
    isOffset(s.brain) && isOffset(s.killer) &&
    typeof s.diagonalLeft === "boolean" && typeof s.intrigue2Left === "boolean";
  if (!fine) {
    throw new MurderPlanError(
      "argument",
      `${describe(state)} is not a state: {brain: [0|1, 0|1], killer: [0|1, 0|1], killerIntrigue, keyPersonIntrigue, diagonalLeft: boolean, intrigue2Left: boolean, forbidMovementLeft}`,
    );
  }
  integer(s.killerIntrigue, "killerIntrigue", 0, 4);
  integer(s.keyPersonIntrigue, "keyPersonIntrigue", 0, 2);
  integer(s.forbidMovementLeft, "forbidMovementLeft", 0, 3);
}

function offset(code: number): Offset {
  return [(code >> 1) as Bit, (code & 1) as Bit];
}

/** The rules of the game, from the module. */
export class Rules {
  readonly #actions: Record<Side, Action[]>;
  readonly #codes: Record<Side, Map<string, number>>;
  readonly #targets: BrainTarget[];

  /** Not constructible: use loadRules, loadMurderPlan or their Sync forms. */
  private constructor(token: symbol) {
    if (token !== INTERNAL) {
      throw new MurderPlanError("argument", "Rules are not constructed: use `await loadRules()` or `plan.rules`");
    }
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

  /** @internal The rules, once the module is instantiated. */
  static create(): Rules {
    return new Rules(INTERNAL);
  }

  /** The dense index of a state (0..3840), as the tables and the module key it. */
  index(state: State): number {
    const known = typeof state === "object" && state !== null ? indices.get(state) : undefined;
    if (known !== undefined) return known;
    checkState(state);
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
    integer(index, "a state index", 0, 3839);
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
    const codes = call(() => core.legalActions(sideCode(side), index));
    return Array.from(codes, (c) => this.action(side, c));
  }

  /** Check that a side may play the action in the state; throws the reason it may not. */
  check(side: Side, state: State, action: Action): void {
    const index = this.index(state);
    const code = this.code(side, action);
    call(() => core.checkAction(sideCode(side), index, code));
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
    if (code < 0) {
      throw new MurderPlanError("argument", `${describe(target)} is not a brain target (${this.#targets.join(", ")})`);
    }
    return this.state(call(() => core.applyBrain(index, code)));
  }

  /** @internal The action of a code. */
  action<S extends Side>(side: S, code: number): Action<S> {
    const action = this.#actions[side][code];
    if (action === undefined) throw new MurderPlanError("argument", `${side} action code ${code} is not an action`);
    return action as Action<S>;
  }

  /** @internal The code of an action. */
  code(side: Side, action: Action): number {
    sideCode(side);
    const code = typeof action === "object" && action !== null ? this.#codes[side].get(key(action)) : undefined;
    if (code === undefined) {
      throw new MurderPlanError(
        "argument",
        `${side} cannot play ${describe(action)}: an action is {keyPerson, brain, killer}, each one of ${cardNames(side)}`,
      );
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
  return `${String(action.keyPerson)} / ${String(action.brain)} / ${String(action.killer)}`;
}

