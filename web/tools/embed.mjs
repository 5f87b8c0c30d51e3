// Writes the files the package carries as JavaScript modules (run by
// scripts/build-web):
//   node tools/embed.mjs wasm FILE.wasm DIST   -> DIST/gametab_web_wasm.js
//   node tools/embed.mjs data BUNDLE DIST      -> DIST/murder_plan_data.js,
//       DIST/murder_plan_data_N.js and a copy of BUNDLE as
//       DIST/murder_plan_browser.bin.gz
// Base64 text in modules, because a relative import() is the one
// reference every bundler, dev server and runtime resolves (see
// ts/load.ts). The data is cut into parts of at most PART base64
// characters: under Vite's 500 kB chunk-size warning, and fetched in
// parallel; each part is a whole number of 3-byte groups, so each decodes
// on its own.

import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PART = 450_000;
const [what, input, dist] = process.argv.slice(2);
if (!["wasm", "data"].includes(what) || !input || !dist) {
  console.error("usage: node tools/embed.mjs wasm|data INPUT DIST");
  process.exit(2);
}
const bytes = readFileSync(input);
const header = `// Written by scripts/build-web from ${what === "wasm" ? "the module" : "the table set's browser bundle"} (${bytes.length} bytes); do not edit.\n`;

if (what === "wasm") {
  if (bytes.subarray(0, 4).toString("hex") !== "0061736d") {
    console.error(`embed: ${input} is not a WebAssembly module`);
    process.exit(1);
  }
  writeFileSync(join(dist, "gametab_web_wasm.js"), `${header}export default "${bytes.toString("base64")}";\n`);
} else {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    console.error(`embed: ${input} is not gzip (a browser bundle is murder_plan_browser.bin.gz)`);
    process.exit(1);
  }
  for (const old of readdirSync(dist).filter((f) => /^murder_plan_data(_\d+)?\.js$/.test(f))) {
    rmSync(join(dist, old));
  }
  const step = (PART / 4) * 3;
  const count = Math.ceil(bytes.length / step);
  const imports = [];
  for (let i = 0; i < count; i++) {
    const part = bytes.subarray(i * step, (i + 1) * step).toString("base64");
    writeFileSync(join(dist, `murder_plan_data_${i}.js`), `${header}export default "${part}";\n`);
    imports.push(`    import("./murder_plan_data_${i}.js"),`);
  }
  writeFileSync(
    join(dist, "murder_plan_data.js"),
    `${header}export default () =>\n  Promise.all([\n${imports.join("\n")}\n  ]).then((parts) => parts.map((p) => p.default));\n`,
  );
  copyFileSync(input, join(dist, "murder_plan_browser.bin.gz"));
  console.error(`embed: the bundle (${bytes.length} bytes) in ${count} parts`);
}
