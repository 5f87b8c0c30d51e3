// Packs the npm package from a built dist/ and a table set's browser
// bundle, without touching dist/ itself (tests read it meanwhile):
//   node tools/pack.mjs DIST BUNDLE OUT
// stages package.json, README.md, LICENSE and a copy of DIST in a
// temporary directory, writes the data modules there (embed.mjs), runs
// `npm pack` and leaves OUT/gametab-web-VERSION.tgz; prints the tarball's
// path. Run by `scripts/build-web --pack` and by the example app's test.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [dist, bundle, out] = process.argv.slice(2).map((p) => p && resolve(p));
if (!dist || !bundle || !out) {
  console.error("usage: node tools/pack.mjs DIST BUNDLE OUT");
  process.exit(2);
}
const web = new URL("..", import.meta.url).pathname;
const stage = mkdtempSync(join(tmpdir(), "gametab-web-pack-"));
try {
  for (const file of ["package.json", "README.md", "LICENSE"]) cpSync(join(web, file), join(stage, file));
  cpSync(dist, join(stage, "dist"), { recursive: true });
  execFileSync(process.execPath, [join(web, "tools/embed.mjs"), "data", bundle, join(stage, "dist")], { stdio: "inherit" });
  mkdirSync(out, { recursive: true });
  const name = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", out], {
    cwd: stage,
    encoding: "utf8",
  }).trim();
  const { version } = JSON.parse(readFileSync(join(stage, "package.json"), "utf8"));
  if (name !== `gametab-web-${version}.tgz`) throw new Error(`npm pack wrote ${name}`);
  console.log(join(out, name));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
