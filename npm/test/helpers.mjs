// What the package's tests share: the jxray binary they compare with, and running it.

import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { connect, createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
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

/** Wait until `child` (called `name`) listens on `port`; an error if it ends first, or
 * does not listen within 15 s. */
export async function listening(port, child, name) {
  for (let i = 0; i < 150; i += 1) {
    if (child.exitCode !== null) throw new Error(`${name} ended before it listened`);
    const up = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) return;
    await sleep(100);
  }
  throw new Error(`${name} does not listen on ${port}`);
}

/** Wait until `folder` holds `count` request files: `jxray record` writes each exchange when
 * its response ends. */
export async function requestFilesWritten(folder, count) {
  const requestFiles = () =>
    readdirSync(folder, { recursive: true }).filter((name) => String(name).endsWith(".request.json"));
  for (let i = 0; i < 100 && requestFiles().length < count; i += 1) await sleep(100);
}

/** `jxray check FOLDER ARGS`'s standard output. */
export function checkFolder(folder, ...args) {
  return spawnSync(jxrayBinary(), ["check", folder, ...args], { encoding: "utf8" }).stdout;
}
