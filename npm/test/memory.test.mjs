// A long-running process gets its memory back after one big input: the module's memory
// never shrinks, so an instance that grew past a bound is replaced after the call.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

const SCRIPT = `
import { extract } from "jxray";
const mb = () => process.memoryUsage().rss / 2 ** 20;
const settle = async () => { for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); } };
extract("[1]");
await settle();
const base = mb();
let big = "Here: \`\`\`json\\n[" + '"' + "x".repeat(64 * 2 ** 20) + '"' + "]\\n\`\`\`";
if (extract(big).value[0].length !== 64 * 2 ** 20) throw new Error("big value");
big = null;
const peak = mb();
extract("[2]");
await settle();
console.log(JSON.stringify({ base, peak, after: mb() }));
`;

test("after a 64 MB input then a small one, memory is back near its base", () => {
  const run = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", SCRIPT], { encoding: "utf8", cwd: new URL(".", import.meta.url) });
  assert.equal(run.status, 0, run.stderr);
  const { base, peak, after } = JSON.parse(run.stdout);
  assert.ok(peak - base > 200, `the big input grew the process (${Math.round(base)} → ${Math.round(peak)} MB)`);
  assert.ok(after - base < 100, `back near the base: ${Math.round(base)} MB before, ${Math.round(after)} MB after (peak ${Math.round(peak)} MB)`);
});
