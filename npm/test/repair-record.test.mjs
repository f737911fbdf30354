// The repair loop end to end: the official openai SDK calls a real mock server (ai-mock,
// on PATH from scripts/npm-tests.sh) through `jxray record`; the mock answers a broken
// output, then, to the repair request, a good one. The recorded folder holds one chain of
// two attempts, linked, and `jxray check` counts it repaired.

import { test } from "node:test";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { extract, repair, repairPrompt } from "jxray";
import { checkFolder, freePort, jxrayBinary, listening, requestFilesWritten } from "./helpers.mjs";

const PROMPT = "Give the city of the Louvre as a JSON object with the key city.";
const BROKEN = '{"city": "Paris",}';
const GOOD = '{"city": "Paris"}';

test("a repaired call through jxray record is one chain of two attempts", async () => {
  const work = mkdtempSync(join(tmpdir(), "jxray-repair-record-"));
  // ai-mock answers by the exact last message: the repair request is the engine's own.
  const second = `${PROMPT}\n\n${repairPrompt(extract(BROKEN))}`;
  const responses = join(work, "responses.json");
  writeFileSync(responses, JSON.stringify({ responses: [
    { type: "text", input: PROMPT, output: BROKEN },
    { type: "text", input: second, output: GOOD },
  ] }));
  const [mockPort, proxyPort] = [await freePort(), await freePort()];
  const captures = join(work, "captures");
  // In a process group of its own that ends with the test, ai-mock's uvicorn included.
  const ownGroup = fileURLToPath(new URL("../../scripts/own_group.py", import.meta.url));
  const mock = spawn("python3", [ownGroup, "ai-mock", "server", responses, "-p", String(mockPort)], { stdio: "ignore" });
  const proxy = spawn(jxrayBinary(), ["record", "--port", String(proxyPort), "--to", captures,
    "--upstream", `openai=http://127.0.0.1:${mockPort}/openai`], { stdio: "ignore" });
  try {
    await listening(mockPort, mock, "ai-mock");
    await listening(proxyPort, proxy, "jxray record");
    const client = new OpenAI({ apiKey: "sk-e2e", baseURL: `http://127.0.0.1:${proxyPort}/openai`, maxRetries: 0 });
    const calls = [];
    const result = await repair(async (prompt) => {
      calls.push(prompt);
      const reply = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: prompt }] });
      return { text: reply.choices[0].message.content ?? "", stopReason: reply.choices[0].finish_reason, usage: reply.usage };
    }, PROMPT);
    assert.equal(result.status, "success");
    assert.equal(result.repaired, true);
    assert.deepEqual(result.value, { city: "Paris" });
    assert.deepEqual(calls, [PROMPT, second]);
    // Each exchange is written when its response ends: give the last one a moment.
    await requestFilesWritten(captures, 2);
  } finally {
    proxy.kill("SIGTERM");
    mock.kill("SIGTERM");
  }
  const check = (...args) => checkFolder(captures, ...args);
  const records = check("--format", "jsonl").trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(records.map((record) => record.attempt), [undefined, 2]);
  const [first, repaired] = records;
  assert.equal(first.failure.kind, "invalid");
  assert.deepEqual(repaired.value, { city: "Paris" });
  assert.ok(first.source.endsWith(repaired.re_ask_of), JSON.stringify(records));
  assert.equal(repaired.chain, repaired.re_ask_of);
  assert.match(check(), /repair chains: 1 re-asked, 1 repaired \(100%\) · by first failure: invalid 1 of 1/);
});
