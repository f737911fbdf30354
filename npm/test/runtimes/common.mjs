// What the runtime tests share: the packed tarball installed into a fresh project, the
// script each runtime runs, and what its three answers must be.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** A module that runs a repair loop (a broken reply, then a good one) with `captures` in
 * `captures/` and prints its result's chain and captures. */
export const CAPTURES_SCRIPT = `import { repair } from "jxray";
const replies = ['{"a": 1,}', { text: '{"a": 1}', model: "gpt-4o-mini" }];
const result = await repair(async () => replies.shift(), "p", { captures: "captures" });
console.log(JSON.stringify({ chain: result.chain, captures: result.attempts.map((a) => a.capture) }));
`;

/** The loop of CAPTURES_SCRIPT left its two attempts in `dir/captures`, one chain. */
export function assertCaptures(dir, printed) {
  const { chain, captures } = JSON.parse(printed);
  assert.match(chain, /^[0-9a-f]{16}$/);
  assert.equal(captures.length, 2);
  const [day] = captures[0].split("/");
  assert.equal(readdirSync(join(dir, "captures", day)).length, 4);
  const requests = captures.map((capture) => JSON.parse(readFileSync(join(dir, "captures", capture.replace(/\.jsonl$/, ".request.json")), "utf8")));
  assert.deepEqual(requests.map((request) => request.chain), [{ id: chain, attempt: 1 }, { id: chain, attempt: 2, re_ask_of: captures[0] }]);
  assert.equal(requests[1].model, "gpt-4o-mini");
}

/** The three answers are the engine's: fenced, truncated, invalid with its defect. */
export function assertAnswers(answers) {
  assert.equal(answers.fenced.ok, true);
  assert.equal(answers.fenced.layer, "fenced");
  assert.deepEqual(answers.fenced.value, { a: 1 });
  assert.equal(answers.truncated.failure.kind, "truncated");
  assert.equal(answers.invalid.failure.kind, "invalid");
  assert.equal(answers.invalid.failure.defect, "trailing-comma");
}
