#!/usr/bin/env node
// `npx jxray …`: runs the native jxray command (the workbench, check, record, …) from the
// platform package npm installed beside this one (@jxray/cli-<os>-<arch>[-<libc>]), or the
// binary JXRAY_BINARY names; forwards the arguments, the standard streams, the exit status
// and the signals sent to the shim alone (a terminal's Ctrl-C reaches jxray directly, and
// is not sent twice). The library (`import { extract } from "jxray"`) needs none of this.

"use strict";

const { execFileSync, spawn } = require("node:child_process");
const { readFileSync } = require("node:fs");

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

/** The signals a terminal sends to its whole foreground process group (Ctrl-C, Ctrl-\\, a
 * hangup): jxray, in the shim's group, gets them from the terminal itself. */
const FROM_TERMINAL = new Set(["SIGINT", "SIGQUIT", "SIGHUP"]);

/** The process group of this process and the foreground group of its terminal (-1 or 0
 * when it has none), from /proc on Linux and `ps` elsewhere; null when unknown. */
function groups() {
  try {
    if (process.platform === "linux") {
      const stat = readFileSync("/proc/self/stat", "utf8");
      // After the command's name: state ppid pgrp session tty_nr tpgid …
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return { group: Number(fields[2]), foreground: Number(fields[5]) };
    }
    const [group, foreground] = execFileSync("ps", ["-o", "pgid=", "-o", "tpgid=", "-p", String(process.pid)], { encoding: "utf8" })
      .trim()
      .split(/\s+/)
      .map(Number);
    return { group, foreground };
  } catch {
    return null;
  }
}

/** Whether jxray got `signal` already: a terminal's signal, while the shim (and so jxray,
 * in its process group) is in the terminal's foreground group. Forwarding it again would
 * be jxray's second signal, which means "exit now" and loses the captures in flight. */
function sharedWithChild(signal) {
  if (!FROM_TERMINAL.has(signal)) return false;
  // A Windows console sends its Ctrl-C to every process attached to it, jxray too; and
  // `child.kill` there ends the process outright (TerminateProcess), captures in flight
  // lost.
  if (process.platform === "win32") return true;
  const found = groups();
  return found !== null && found.foreground > 0 && found.foreground === found.group;
}

const path = binary();
const child = spawn(path, process.argv.slice(2), { stdio: "inherit" });
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode !== null || child.signalCode !== null || sharedWithChild(signal)) return;
    child.kill(signal);
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
