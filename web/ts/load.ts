// Loading: the WebAssembly module (once per page, retried after a
// failure) and the bundles (fetched and decoded once per source, shared by
// every caller, each caller free to stop waiting with its AbortSignal).
//
// Where the bytes come from, without any bundler configuration: the
// module and the data bundle the package carries are JavaScript modules of
// their own (base64 text, imported dynamically), because every bundler,
// dev server and runtime resolves a relative `import()`, while a file
// named by `new URL(..., import.meta.url)` is lost when Vite's dev server
// pre-bundles a dependency into node_modules/.vite/deps. A URL, a
// Response or bytes the caller gives are used as they are: the raw files
// are in the package too (`gametab-web/gametab_web_bg.wasm`,
// `gametab-web/murder_plan_browser.bin.gz`) for a bundler or a server to
// hand out.
//
// gzip is recognised by its magic bytes, not by a file name or a header:
// a host that sends the `.gz` file with `Content-Encoding: gzip` (Vite's
// preview server does) makes the browser inflate it on the way, and the
// bytes that arrive are then the bundle's content.

import initCore, { initSync } from "./gametab_web.js";
import { MurderPlanError, asError, describe } from "./errors.js";
import { MurderPlan } from "./plan.js";
import { Rules } from "./rules.js";

/** Where the WebAssembly module comes from: its URL, a Response, its bytes or a compiled module. */
export type WasmSource = string | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Where a bundle comes from: a URL of `murder_plan_browser.bin.gz` (a
 * nightly set on a server), a fetch `Response`, or its bytes (gzip or
 * already inflated).
 */
export type BundleSource = string | URL | Response | ArrayBuffer | ArrayBufferView;

/** Options of {@link loadMurderPlan}. */
export interface LoadOptions {
  /** Stop waiting: the promise rejects with kind `aborted`. The shared download stops when no caller waits any more. */
  readonly signal?: AbortSignal;
  /** The WebAssembly module, if not the one the package carries (for example a URL, to compile it while it downloads). */
  readonly wasm?: WasmSource;
}

/** The largest bundle content accepted (the Rust reader's own limit). */
const MAX_CONTENT = 64 << 20;

let rulesNow: Rules | undefined;
let initialising: Promise<Rules> | undefined;

/**
 * Instantiate the module (once: later calls share it; after a failure the
 * next call tries again) and return the rules. `wasm` defaults to the
 * module the package carries.
 */
export function loadRules(wasm?: WasmSource): Promise<Rules> {
  if (rulesNow !== undefined) return Promise.resolve(rulesNow);
  initialising ??= instantiate(wasm).then(
    (rules) => (rulesNow = rules),
    (e: unknown) => {
      initialising = undefined;
      throw e;
    },
  );
  return initialising;
}

/** The same, synchronously, from the module's bytes or compiled module (Node, workers). */
export function loadRulesSync(wasm: BufferSource | WebAssembly.Module): Rules {
  if (rulesNow === undefined) {
    try {
      initSync({ module: wasm });
    } catch (e) {
      throw new MurderPlanError("wasm", `cannot instantiate the WebAssembly module: ${message(e)}`, { cause: e });
    }
    rulesNow = Rules.create();
  }
  return rulesNow;
}

async function instantiate(wasm: WasmSource | undefined): Promise<Rules> {
  let input: Response | BufferSource | WebAssembly.Module;
  if (wasm === undefined) {
    input = await embedded("the WebAssembly module", () => import("./gametab_web_wasm.js"));
  } else if (typeof wasm === "string" || wasm instanceof URL) {
    input = await moduleResponse(await fetched(wasm, "the WebAssembly module"), String(wasm));
  } else if (typeof Response !== "undefined" && wasm instanceof Response) {
    input = await moduleResponse(wasm, wasm.url || "a Response");
  } else {
    input = wasm;
  }
  try {
    await initCore({ module_or_path: input });
  } catch (e) {
    const text = message(e);
    const html = /found 3c 21|found 3c 68/i.test(text)
      ? " (an HTML page came instead: the URL names no file, and the server answered with its index page)"
      : "";
    throw new MurderPlanError("wasm", `cannot instantiate the WebAssembly module: ${text}${html}`, { cause: e });
  }
  return Rules.create();
}

/**
 * A module's response as the glue should take it: as it is when it is
 * served as application/wasm (compiled while it downloads), else its
 * bytes, checked to be a module (an HTML page is what a server answers
 * for a URL that names no file).
 */
async function moduleResponse(response: Response, from: string): Promise<Response | Uint8Array> {
  if (!response.ok) {
    throw new MurderPlanError("http", `cannot fetch the WebAssembly module from ${from}: HTTP ${response.status}`);
  }
  if (response.headers.get("content-type")?.split(";")[0]?.trim() === "application/wasm") return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d) return bytes;
  const html = String.fromCharCode(...bytes.subarray(0, 64)).trimStart().startsWith("<");
  throw new MurderPlanError(
    "wasm",
    `${from} is not a WebAssembly module${html ? ": an HTML page came instead (the URL names no file, and the server answered with its index page)" : ""}`,
  );
}

/** The bytes of a module the package carries as base64 text (one or more parts). */
async function embedded(what: string, load: () => Promise<{ default: string | (() => Promise<string[]>) }>): Promise<Uint8Array> {
  let text: string | (() => Promise<string[]>);
  try {
    text = (await load()).default;
  } catch (e) {
    throw new MurderPlanError(
      what.includes("bundle") ? "bundle" : "wasm",
      `this copy of gametab-web carries no ${what} (${message(e)}): pass its URL or bytes, or install the package built by \`scripts/build-web --pack\``,
      { cause: e },
    );
  }
  const parts = typeof text === "string" ? [text] : await text();
  return concat(parts.map(base64));
}

function base64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (native !== undefined) return native(text);
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** fetch, with its failures as MurderPlanErrors of kind `network`, `http` or `aborted`. */
async function fetched(url: string | URL, what: string, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, signal === undefined ? {} : { signal });
  } catch (e) {
    if (signal?.aborted) throw aborted(signal);
    throw new MurderPlanError("network", `cannot fetch ${what} from ${String(url)}: ${message(e)}`, { cause: e });
  }
  if (!response.ok) {
    throw new MurderPlanError(
      "http",
      `cannot fetch ${what} from ${String(url)}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
    );
  }
  return response;
}

function aborted(signal: AbortSignal): MurderPlanError {
  return new MurderPlanError("aborted", `loading was aborted: ${message(signal.reason)}`, { cause: signal.reason });
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A bundle's bytes: gzip (first bytes 1f 8b) inflated natively where the runtime can, else as they came. */
async function bundleBytes(source: BundleSource | undefined, signal: AbortSignal): Promise<Uint8Array> {
  if (source === undefined) {
    return inflated(await embedded("data bundle", () => import("./murder_plan_data.js")));
  }
  if (typeof source === "string" || source instanceof URL) {
    return streamed(await fetched(source, "the bundle", signal), String(source));
  }
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new MurderPlanError("http", `the bundle's response is HTTP ${source.status}`);
    if (source.bodyUsed) throw new MurderPlanError("argument", "the bundle's response was already read");
    return streamed(source, source.url || "a Response");
  }
  if (source instanceof ArrayBuffer) return inflated(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) {
    return inflated(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  }
  throw new MurderPlanError(
    "argument",
    `the bundle source is ${describe(source)}: a URL, a Response, an ArrayBuffer or a Uint8Array`,
  );
}

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Bytes inflated when they are gzip and the runtime has DecompressionStream (the module inflates otherwise). */
async function inflated(bytes: Uint8Array): Promise<Uint8Array> {
  if (!isGzip(bytes) || typeof DecompressionStream === "undefined") return bytes;
  return collect(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), "the bundle's bytes");
}

/** A response's body, inflated while it downloads when it is gzip. */
async function streamed(response: Response, from: string): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const start: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < 2) {
      const step = await reader.read();
      if (step.done) break;
      start.push(step.value);
      size += step.value.length;
    }
  } catch (e) {
    throw new MurderPlanError("network", `the bundle's download from ${from} broke off: ${message(e)}`, { cause: e });
  }
  const head = concat(start);
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
    },
    async pull(controller) {
      const step = await reader.read();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  if (isGzip(head) && typeof DecompressionStream !== "undefined") {
    return collect(rest, `the bundle from ${from}`);
  }
  return read(rest, from);
}

/** Inflate a gzip stream, refusing what is not gzip or inflates past the limit. */
async function collect(gzip: ReadableStream<Uint8Array>, what: string): Promise<Uint8Array> {
  try {
    return await read(gzip.pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>), what);
  } catch (e) {
    if (e instanceof MurderPlanError) throw e;
    throw new MurderPlanError("bundle", `${what}: not a readable gzip file (truncated or corrupted): ${message(e)}`, { cause: e });
  }
}

async function read(stream: ReadableStream<Uint8Array>, what: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const step = await reader.read();
    if (step.done) break;
    size += step.value.length;
    if (size > MAX_CONTENT) {
      await reader.cancel();
      throw new MurderPlanError("bundle", `${what}: over ${MAX_CONTENT} bytes, larger than any bundle`);
    }
    chunks.push(step.value);
  }
  return concat(chunks);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  if (chunks.length === 0) return new Uint8Array(0);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** One load of a source, shared by its callers. */
interface Shared {
  readonly plan: Promise<MurderPlan>;
  readonly controller: AbortController;
  waiting: number;
  settled: boolean;
}

const byUrl = new Map<string, Shared>();
const byObject = new WeakMap<object, Shared>();
const EMBEDDED = "gametab-web:embedded";

function checkSource(source: unknown): void {
  const fine =
    source === undefined || typeof source === "string" || source instanceof URL ||
    source instanceof ArrayBuffer || ArrayBuffer.isView(source) ||
    (typeof Response !== "undefined" && source instanceof Response);
  if (!fine) {
    throw new MurderPlanError(
      "argument",
      `the bundle source is ${describe(source)}: a URL, a Response, an ArrayBuffer or a Uint8Array`,
    );
  }
}

function keyOf(source: BundleSource | undefined): string | object {
  if (source === undefined) return EMBEDDED;
  if (typeof source === "string" || source instanceof URL) {
    const base = (globalThis as { document?: { baseURI?: string } }).document?.baseURI;
    try {
      return new URL(source, base).href;
    } catch {
      return String(source);
    }
  }
  return source;
}

function cached(key: string | object): Shared | undefined {
  return typeof key === "string" ? byUrl.get(key) : byObject.get(key);
}

function forget(key: string | object, shared: Shared): void {
  if (cached(key) !== shared) return;
  if (typeof key === "string") byUrl.delete(key);
  else byObject.delete(key);
}

/**
 * Load the Murder Plan tables: fetch the bundle (or take it), instantiate
 * the module if needed, decode. Without a source, the bundle the package
 * carries. One download and decode per source, shared by every caller
 * (React's StrictMode, several components): the same `MurderPlan` comes
 * back until it is freed.
 */
export async function loadMurderPlan(source?: BundleSource, options: LoadOptions = {}): Promise<MurderPlan> {
  const { signal, wasm } = options;
  if (signal?.aborted) throw aborted(signal);
  checkSource(source);
  const key = keyOf(source);
  let shared = cached(key);
  if (shared === undefined) {
    const controller = new AbortController();
    const entry: Shared = {
      controller,
      waiting: 0,
      settled: false,
      plan: Promise.all([bundleBytes(source, controller.signal), loadRules(wasm)]).then(
        ([bytes, rules]) => MurderPlan.decode(bytes, rules, () => forget(key, entry)),
      ).then(
        (plan) => {
          entry.settled = true;
          return plan;
        },
        (e: unknown) => {
          entry.settled = true;
          forget(key, entry);
          throw controller.signal.aborted ? aborted(controller.signal) : asError(e);
        },
      ),
    };
    // Every caller awaits it and sees a failure; a failure after all of
    // them stopped waiting must not surface as an unhandled rejection.
    entry.plan.catch(() => undefined);
    shared = entry;
    if (typeof key === "string") byUrl.set(key, entry);
    else byObject.set(key, entry);
  }
  return wait(shared, key, signal);
}

/** Wait for a shared load, or stop at the caller's signal; the load stops when nobody waits. */
async function wait(shared: Shared, key: string | object, signal: AbortSignal | undefined): Promise<MurderPlan> {
  shared.waiting++;
  let onAbort: (() => void) | undefined;
  try {
    if (signal === undefined) return await shared.plan;
    return await Promise.race([
      shared.plan,
      new Promise<never>((_, reject) => {
        onAbort = () => reject(aborted(signal));
        signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
    shared.waiting--;
    if (!shared.settled && shared.waiting === 0) {
      // Not at once: React's StrictMode aborts and asks again in the same
      // task, and the second ask should join this load, not restart it.
      setTimeout(() => {
        if (!shared.settled && shared.waiting === 0) {
          forget(key, shared);
          shared.controller.abort(new DOMException("no caller waits for the bundle any more", "AbortError"));
        }
      }, 0);
    }
  }
}

/** The same, synchronously, from the bundle's bytes (gzip or inflated) and the module's (Node, workers). */
export function loadMurderPlanSync(
  bundle: ArrayBuffer | ArrayBufferView,
  wasm: BufferSource | WebAssembly.Module,
): MurderPlan {
  const rules = loadRulesSync(wasm);
  const bytes = bundle instanceof ArrayBuffer
    ? new Uint8Array(bundle)
    : ArrayBuffer.isView(bundle)
      ? new Uint8Array(bundle.buffer, bundle.byteOffset, bundle.byteLength)
      : undefined;
  if (bytes === undefined) {
    throw new MurderPlanError("argument", `the bundle is ${describe(bundle)}: an ArrayBuffer or a Uint8Array`);
  }
  return MurderPlan.decode(bytes, rules);
}
