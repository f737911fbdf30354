// The packed package in Bun (from npm), from a fresh project.

import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ANSWERS, assertAnswers, assertCaptures, CAPTURES_SCRIPT, installedProject } from "./common.mjs";

const bun = fileURLToPath(new URL("../../node_modules/.bin/bun", import.meta.url));

test("bun loads the installed package", () => {
  const dir = installedProject();
  writeFileSync(join(dir, "main.ts"), `import { extract } from "jxray";\nconsole.log(JSON.stringify(${ANSWERS}));\n`);
  const output = execFileSync(bun, ["run", "main.ts"], { cwd: dir, encoding: "utf8" });
  assertAnswers(JSON.parse(output));
});

test("bun writes a repair loop's captures", () => {
  const dir = installedProject();
  writeFileSync(join(dir, "captures.ts"), CAPTURES_SCRIPT);
  assertCaptures(dir, execFileSync(bun, ["run", "captures.ts"], { cwd: dir, encoding: "utf8" }));
});
