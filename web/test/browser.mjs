// What the package's browser tests and benchmarks share: Debian's chromium
// as playwright-core launches it here (headless, as root, with the
// background networking off: this machine's network is closed), a free
// loopback port, and a Vite server of an app directory started on one.

import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

/** playwright-core's launch options for Debian's chromium. */
export const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/** A loopback port nobody listens on now. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Start `vite ARGS` (`[]` for the dev server, `["preview"]`) in the app
 * directory `app` on a free loopback port; resolves once it answers, with
 * its URL, its process and what it printed so far.
 */
export async function startVite(app, args) {
  const port = await freePort();
  const child = spawn(join(app, "node_modules/.bin/vite"), [...args, "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: app,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`vite ${args.join(" ")} exited:\n${output}`);
    try {
      if ((await fetch(url)).ok) return { url, child, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`vite ${args.join(" ")} did not answer in 30 s:\n${output}`);
}
