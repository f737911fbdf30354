// What the package's tests share: the jxray binary they compare with, and running it.

import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The jxray binary the outcomes are compared with (scripts/npm-tests.sh sets it). */
export function jxrayBinary() {
  const binary = process.env.JXRAY_BIN;
  if (!binary) throw new Error("JXRAY_BIN must name the jxray binary (scripts/npm-tests.sh sets it)");
  return binary;
}

/** `jxray ARGS` with `input` on stdin: its status, stdout and stderr. */
export function runJxray(args, input) {
  const run = spawnSync(jxrayBinary(), args, { input, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.error) throw run.error;
  return run;
}

/** The repository's root (the conformance fixtures are in fixtures/). */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** A TCP port nothing listens on now, on 127.0.0.1. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
