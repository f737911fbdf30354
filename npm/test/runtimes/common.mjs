// What the runtime tests share: the packed tarball installed into a fresh project, the
// script each runtime runs, and what its three answers must be.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh project with the packed tarball installed, as a user installs it. */
export function installedProject() {
  const tarball = process.env.JXRAY_NPM_TARBALL;
  if (!tarball) throw new Error("JXRAY_NPM_TARBALL must name the packed package (scripts/npm-tests.sh sets it)");
  const dir = mkdtempSync(join(tmpdir(), "jxray-runtime-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "runtime-test", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", "--loglevel=error", tarball], { cwd: dir });
  return dir;
}

/** The body of the script each runtime runs, given `extract`: its answers as JSON. */
export const ANSWERS = `({
  fenced: extract('Sure:\\n\`\`\`json\\n{"a": 1}\\n\`\`\`').toJSON(),
  truncated: extract('{"a": [1, 2', { stopReason: "length" }).toJSON(),
  invalid: extract('{"a": 1,}').toJSON(),
})`;

/** The three answers are the engine's: fenced, truncated, invalid with its defect. */
export function assertAnswers(answers) {
  assert.equal(answers.fenced.ok, true);
  assert.equal(answers.fenced.layer, "fenced");
  assert.deepEqual(answers.fenced.value, { a: 1 });
  assert.equal(answers.truncated.failure.kind, "truncated");
  assert.equal(answers.invalid.failure.kind, "invalid");
  assert.equal(answers.invalid.failure.defect, "trailing-comma");
}
