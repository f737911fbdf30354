// The packed package in Deno (from npm), from a fresh project with its node_modules.

import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { runJxray } from "../helpers.mjs";
import { ANSWERS, assertAnswers, assertCaptures, CAPTURES_SCRIPT, installedProject } from "./common.mjs";

const deno = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));

test("deno loads the installed package", () => {
  const dir = installedProject();
  writeFileSync(join(dir, "main.ts"), `import { extract } from "jxray";\nconsole.log(JSON.stringify(${ANSWERS}));\n`);
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_DIR: mkdtempSync(join(tmpdir(), "jxray-deno-")) };
  const output = execFileSync(deno, ["run", "--allow-read", "main.ts"], { cwd: dir, encoding: "utf8", env });
  assertAnswers(JSON.parse(output));
});

test("deno writes a repair loop's captures", () => {
  const dir = installedProject();
  writeFileSync(join(dir, "captures.ts"), CAPTURES_SCRIPT);
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_DIR: mkdtempSync(join(tmpdir(), "jxray-deno-")) };
  const output = execFileSync(deno, ["run", "--allow-read", "--allow-write", "captures.ts"], { cwd: dir, encoding: "utf8", env });
  assertCaptures(dir, output);
});

test("deno (which has JSON.rawJSON) writes toJSON's numbers exactly, as jxray check does", () => {
  const text = '{"big": 12345678901234567890, "f": 1.10, "e": 1e400, "n": [1, -0.5]}';
  const dir = installedProject();
  const script = `import { extract, extractResponse } from "jxray";
const text = ${JSON.stringify(text)};
console.log(JSON.stringify(extract(text)));
console.log(JSON.stringify(extract(text, { bigints: true })));
console.log(JSON.stringify(extractResponse({ text, finishReason: "stop" })[0]));
`;
  writeFileSync(join(dir, "exact.ts"), script);
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_DIR: mkdtempSync(join(tmpdir(), "jxray-deno-")) };
  const [plain, bigints, response] = execFileSync(deno, ["run", "--allow-read", "exact.ts"], { cwd: dir, encoding: "utf8", env }).trim().split("\n");
  const checked = runJxray(["check", "-", "--input", "text", "--format", "jsonl"], text).stdout.trim();
  assert.equal(plain, checked);
  assert.equal(bigints, checked);
  assert.match(response, /"value":\{"big":12345678901234567890,"f":1.10,"e":1e400,"n":\[1,-0.5\]\}/);
});
