// The Node benchmark of the module and the bundle: time to load and be
// ready (read the files, instantiate the module, decode the bundle) and
// the time of a lookup. Prints one JSON object.
//
//   node web/bench/node.mjs [TABLES_DIR]      (scripts/bench-web runs it)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { measureDecode, measureLookups } from "./measure.js";

const tables = process.argv[2] ?? "tables";
const dist = new URL("../dist/", import.meta.url).pathname;
const started = performance.now();
const { loadMurderPlanSync } = await import(join(dist, "index.js"));
const wasm = readFileSync(join(dist, "gametab_web_bg.wasm"));
const bundle = readFileSync(join(tables, "murder_plan_browser.bin.gz"));
const plan = loadMurderPlanSync(bundle, wasm);
const ready = performance.now() - started;
const decode = measureDecode((b) => loadMurderPlanSync(b, wasm), bundle, 15);
const lookups = measureLookups(plan);
console.log(JSON.stringify({
  runtime: `node ${process.version}`,
  bundle_bytes: bundle.length,
  wasm_bytes: wasm.length,
  ready_ms: ready,
  decode_ms: decode,
  ...lookups,
}, null, 1));
