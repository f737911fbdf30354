// `npx jxray`: the package's bin runs the native jxray (here the one JXRAY_BIN names, handed
// over as JXRAY_BINARY) and forwards its arguments, standard streams, exit status and
// signals; without a binary for the platform it says in one line what to do.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jxrayBinary, repoRoot } from "../helpers.mjs";
import { installedProject } from "./common.mjs";

const project = installedProject();
const shim = join(project, "node_modules", ".bin", "jxray");
const withBinary = { ...process.env, JXRAY_BINARY: jxrayBinary() };

function both(args, input) {
  const direct = spawnSync(jxrayBinary(), args, { input, encoding: "utf8", cwd: repoRoot });
  const through = spawnSync(shim, args, { input, encoding: "utf8", cwd: repoRoot, env: withBinary });
  return { direct, through };
}

test("arguments, output and the exit status pass through", () => {
  const { direct, through } = both(["check", "assets/demo", "--format", "jsonl"]);
  assert.equal(direct.status, 1);
  assert.equal(through.status, direct.status);
  assert.equal(through.stdout, direct.stdout);
  const missing = both(["check", "no/such/folder"]);
  assert.equal(missing.through.status, 2);
  assert.equal(missing.through.stderr, missing.direct.stderr);
});

test("standard input passes through", () => {
  const { direct, through } = both(["check", "-", "--input", "text", "--format", "jsonl"], '```json\n{"a": 1}\n```');
  assert.equal(through.status, 0);
  assert.equal(through.stdout, direct.stdout);
});

test("a signal to the shim reaches jxray, and the shim ends as jxray does", async () => {
  const ends = async (command, env) => {
    const folder = mkdtempSync(join(tmpdir(), "jxray-cli-signal-"));
    const child = spawn(command, ["record", "--port", "0", "--to", join(folder, "captures")], { env, stdio: ["ignore", "pipe", "pipe"] });
    await new Promise((resolve, reject) => {
      child.stdout.on("data", (chunk) => String(chunk).includes("listening on") && resolve());
      child.on("exit", () => reject(new Error("jxray record ended before it listened")));
    });
    child.kill("SIGTERM");
    return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  };
  const direct = await ends(jxrayBinary(), process.env);
  const through = await ends(shim, withBinary);
  assert.deepEqual(through, direct);
});

test("without a binary for the platform, one line says what to do", () => {
  const env = { ...process.env };
  delete env.JXRAY_BINARY;
  const run = spawnSync(shim, ["--version"], { encoding: "utf8", env });
  assert.equal(run.status, 2);
  const lines = run.stderr.trim().split("\n");
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], /^jxray: @jxray\/cli-linux-x64-gnu is not installed .*npm install @jxray\/cli-linux-x64-gnu.*JXRAY_BINARY/);
});
