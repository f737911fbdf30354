// docs/repair.md's TypeScript example of the loop runs as written: its types stripped by
// esbuild, the official openai package configured from the environment as an app's is, against
// a real mock server (ai-mock, on PATH from scripts/npm-tests.sh). A refusal is one call (no
// paid re-ask) and a good answer is the zod-typed value.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
import { freePort, listening } from "./helpers.mjs";

const npm = fileURLToPath(new URL("../", import.meta.url));
const page = fileURLToPath(new URL("../../docs/repair.md", import.meta.url));
const ASKED = "Triage this ticket as JSON: …";

function example() {
  const blocks = [...readFileSync(page, "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  const block = blocks.find((code) => code.includes("openai.chat.completions.create"));
  assert.ok(block, "docs/repair.md has the loop's TypeScript example");
  return block;
}

/** The example run against ai-mock answering `answer`: what it saved and its result. */
async function run(answer) {
  const folder = mkdtempSync(join(npm, ".docs-run-"));
  try {
    const responses = join(folder, "responses.json");
    writeFileSync(responses, JSON.stringify({ responses: [{ type: "text", input: ASKED, output: answer }] }));
    const port = await freePort();
    const ownGroup = fileURLToPath(new URL("../../scripts/own_group.py", import.meta.url));
    const mock = spawn("python3", [ownGroup, "ai-mock", "server", responses, "-p", String(port)], { stdio: "ignore" });
    try {
      await listening(port, mock, "ai-mock");
      // The page's `save`, then the example as written, then what the test reads of it.
      const { code } = transformSync(example(), { loader: "ts", format: "esm" });
      const program = [
        "const saved = [];",
        "const save = (value) => saved.push(value);",
        code,
        "console.log(JSON.stringify({ saved, status: result.status, value: result.value, attempts: result.attempts.length, model: result.attempts[0].model }));",
      ].join("\n");
      const file = join(folder, "example.mjs");
      writeFileSync(file, program);
      const ran = spawnSync(process.execPath, [file], {
        encoding: "utf8",
        env: { ...process.env, OPENAI_BASE_URL: `http://127.0.0.1:${port}/openai`, OPENAI_API_KEY: "sk-docs-example" },
      });
      assert.equal(ran.status, 0, ran.stderr);
      return JSON.parse(ran.stdout.trim().split("\n").at(-1));
    } finally {
      mock.kill("SIGTERM");
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test("the loop's TypeScript example: a refusal is one call and the fallback", async () => {
  const got = await run("I'm sorry, but I can't help with that request.");
  assert.deepEqual(got, { saved: [], status: "fallback", value: null, attempts: 1, model: "gpt-4o-mini" });
});

test("the loop's TypeScript example: a good answer is saved, typed by the zod schema", async () => {
  const value = { ticketId: "T-1", severity: "high" };
  const got = await run(JSON.stringify(value));
  assert.deepEqual(got, { saved: [value], status: "success", value, attempts: 1, model: "gpt-4o-mini" });
});
