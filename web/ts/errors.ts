// The one error type of the package: every failure, inside the module or
// around it (fetching, inflating, instantiating, an aborted wait), is a
// MurderPlanError with a `kind` a program can branch on and a message a
// person can act on. The module's own refusals arrive as its `Refusal`
// objects (web/src/refusal.rs) and keep their kind and message.

import * as core from "./gametab_web.js";

/**
 * What went wrong, for a program to branch on:
 * - `network`: the fetch of a URL failed before any answer (offline, DNS, CORS);
 * - `http`: the server answered with an error status (the message names it);
 * - `bundle`: the bytes are not a readable bundle (not gzip nor a bundle, an
 *   HTML page, truncated, corrupted), or the package carries none;
 * - `version`: a bundle of another format version (rebuild it, or update the package);
 * - `wasm`: the WebAssembly module could not be fetched, compiled or instantiated;
 * - `aborted`: the caller's `AbortSignal` fired before the tables were ready;
 * - `argument`: a query argument of the wrong type or out of range;
 * - `illegal`: a move the rules forbid (a spent card, a target out of reach);
 * - `not-held`: a valid query the bundle does not hold (a state no game reaches);
 * - `freed`: a query on tables whose memory was released by `free()`.
 */
export type MurderPlanErrorKind =
  | "network"
  | "http"
  | "bundle"
  | "version"
  | "wasm"
  | "aborted"
  | "argument"
  | "illegal"
  | "not-held"
  | "freed";

/** Every failure of the package: a kind and a message saying what to do. */
export class MurderPlanError extends Error {
  override name = "MurderPlanError";
  /** What went wrong (see {@link MurderPlanErrorKind}). */
  readonly kind: MurderPlanErrorKind;

  constructor(kind: MurderPlanErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

const MODULE_KINDS: ReadonlySet<string> = new Set(["argument", "illegal", "not-held", "bundle", "version"]);

/** @internal A thrown value as a MurderPlanError. */
export function asError(e: unknown): MurderPlanError {
  if (e instanceof MurderPlanError) return e;
  if (e instanceof core.Refusal) {
    const kind = e.kind;
    const message = e.message;
    e.free();
    return new MurderPlanError(MODULE_KINDS.has(kind) ? (kind as MurderPlanErrorKind) : "argument", message);
  }
  if (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) {
    // A trap: a defect of this package (no input should reach one). The
    // instance may be left inconsistent, so the page must reload.
    return new MurderPlanError(
      "wasm",
      `the WebAssembly module stopped (${e.message}): a defect of gametab-web, please report it; reload the page to go on`,
      { cause: e },
    );
  }
  return new MurderPlanError("argument", e instanceof Error ? e.message : String(e), { cause: e });
}

/** @internal Run a call into the module, turning what it throws into a MurderPlanError. */
export function call<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw asError(e);
  }
}

/** @internal Refuse an argument that is not an integer in [min, max]. */
export function integer(value: unknown, what: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new MurderPlanError("argument", `${what} is ${describe(value)}: an integer from ${min} to ${max}`);
  }
  return value;
}

/** @internal A value, shown in a message. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** @internal The token that lets the package's own code construct its classes. */
export const INTERNAL: unique symbol = Symbol("gametab-web internal");
