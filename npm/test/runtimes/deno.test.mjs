// The packed package in Deno (from npm), from a fresh project with its node_modules.

import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
