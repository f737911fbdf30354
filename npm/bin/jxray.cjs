#!/usr/bin/env node
// `npx jxray …`: runs the native jxray command (the workbench, check, record, …) from the
// platform package npm installed beside this one (@jxray/cli-<os>-<arch>[-<libc>]), or the
// binary JXRAY_BINARY names; forwards the arguments, the standard streams, the exit status
// and the signals. The library (`import { extract } from "jxray"`) needs none of this.

"use strict";

const { spawn } = require("node:child_process");

/** The platform packages, by `os-arch[-libc]` (the packed package lists them as optional
 * dependencies: scripts/stage.mjs). */
const PACKAGES = require("../platforms.json");

function fail(message) {
  process.stderr.write(`jxray: ${message}\n`);
  process.exit(2);
}

/** `gnu` or `musl` on Linux (a glibc runtime says its version in the process report). */
function libc() {
  const header = process.report?.getReport?.().header;
  return header?.glibcVersionRuntime ? "gnu" : "musl";
}

function platform() {
  const base = `${process.platform}-${process.arch}`;
  return process.platform === "linux" ? `${base}-${libc()}` : base;
}

function binary() {
  if (process.env.JXRAY_BINARY) return process.env.JXRAY_BINARY;
  const key = platform();
  const name = PACKAGES[key];
  if (!name) {
    fail(`no native jxray is published for ${key}; build one with \`cargo install jxray\` and set JXRAY_BINARY to it`);
  }
  const file = process.platform === "win32" ? "jxray.exe" : "jxray";
  try {
    return require.resolve(`${name}/${file}`);
  } catch {
    fail(`${name} is not installed (npm skips optional packages with --no-optional or --omit=optional); install it with \`npm install ${name}\`, or set JXRAY_BINARY to a jxray binary`);
  }
}

const path = binary();
const child = spawn(path, process.argv.slice(2), { stdio: "inherit" });
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on("error", (error) => fail(`cannot run ${path}: ${error.message}; set JXRAY_BINARY to a jxray binary that runs here`));
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so a shell or CI sees what the command saw.
    for (const each of forwarded) process.removeAllListeners(each);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
