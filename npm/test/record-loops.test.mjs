// Re-ask loops with a schema end to end, through `jxray record`, with the real SDKs an app
// would use against a real mock server (ai-mock, on PATH from scripts/npm-tests.sh): jxray's
// `repair` over the official openai package (a `json_schema` response format) and over the AI
// SDK (`ai`'s generateText with `Output.object`, over @ai-sdk/openai), and the AI SDK's own
// loop (a tool call whose input breaks the tool's schema is sent back as a tool error and
// called again). The mock's first answer breaks the schema (a severity outside the enum), the
// re-ask's answer fits. The recorded folder must hold one chain of two attempts, each judged
// by the schema its request carried (`"schema_from": "request"`), and `jxray check` must count
// the chain repaired, as the loop did.

import { test } from "node:test";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { generateText, NoObjectGeneratedError, Output, stepCountIs, tool } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";
import { extract, repair, repairPrompt } from "jxray";
import { checkFolder, freePort, jxrayBinary, listening, requestFilesWritten } from "./helpers.mjs";

const Triage = z.object({ severity: z.enum(["low", "medium", "high"]), escalate: z.boolean() });
const BAD = '{"severity": "urgent", "escalate": true}';
const GOOD = '{"severity": "high", "escalate": true}';

/** Run `loop(baseURL, prompt)` (jxray's repair loop) through `jxray record` against ai-mock
 * answering BAD to `prompt` and GOOD to its repair request; the loop's result, and the
 * recorded folder's `check` lines and text. */
async function recorded(prompt, loop) {
  // ai-mock answers by the exact last message: the repair request is the engine's own.
  const second = `${prompt}\n\n${repairPrompt(extract(BAD, { schema: Triage }), { required: ["severity", "escalate"] })}`;
  const prompts = [];
  const run = await throughRecord([
    { type: "text", input: prompt, output: BAD },
    { type: "text", input: second, output: GOOD },
  ], (baseURL) => loop(baseURL, (sent) => prompts.push(sent)));
  assert.deepEqual(prompts, [prompt, second]);
  return run;
}

/** `run(baseURL)` through `jxray record` against ai-mock answering by `rules`; what it
 * returned, and the recorded folder's `check` lines and text. */
async function throughRecord(rules, run) {
  const work = mkdtempSync(join(tmpdir(), "jxray-record-loops-"));
  const responses = join(work, "responses.json");
  writeFileSync(responses, JSON.stringify({ responses: rules }));
  const [mockPort, proxyPort] = [await freePort(), await freePort()];
  const captures = join(work, "captures");
  const ownGroup = fileURLToPath(new URL("../../scripts/own_group.py", import.meta.url));
  const mock = spawn("python3", [ownGroup, "ai-mock", "server", responses, "-p", String(mockPort)], { stdio: "ignore" });
  const proxy = spawn(jxrayBinary(), ["record", "--port", String(proxyPort), "--to", captures,
    "--upstream", `openai=http://127.0.0.1:${mockPort}/openai`], { stdio: "ignore" });
  let result;
  try {
    await listening(mockPort, mock, "ai-mock");
    await listening(proxyPort, proxy, "jxray record");
    result = await run(`http://127.0.0.1:${proxyPort}/openai`);
    await requestFilesWritten(captures, 2);
  } finally {
    proxy.kill("SIGTERM");
    mock.kill("SIGTERM");
  }
  const check = (...args) => checkFolder(captures, ...args);
  const lines = check("--format", "jsonl").trim().split("\n").map((line) => JSON.parse(line));
  return { result, lines, text: check() };
}

function assertOneRepairedChain({ result, lines, text }) {
  assert.equal(result.status, "success");
  assert.equal(result.repaired, true);
  assert.deepEqual(result.value, { severity: "high", escalate: true });
  assertLinkedAndCounted(lines, text);
}

/** One chain of two attempts, judged by the requests' schema, counted repaired. */
function assertLinkedAndCounted(lines, text) {
  assert.deepEqual(lines.map((line) => line.attempt), [undefined, 2]);
  const [first, repaired] = lines;
  // The schema came from each request the SDK sent, not from the loop or a flag.
  assert.deepEqual(lines.map((line) => line.schema_from), ["request", "request"]);
  assert.equal(first.failure.kind, "schema");
  assert.match(first.failure.message, /\/severity = "urgent"/);
  assert.equal(repaired.ok, true);
  assert.ok(first.source.endsWith(repaired.re_ask_of), JSON.stringify(lines));
  // check agrees with the loop's own count: one re-ask, one repaired.
  assert.match(text, /repair chains: 1 re-asked, 1 repaired \(100%\) · by first failure: schema 1 of 1/);
}

test("openai: a json_schema response format re-asked by the loop is one repaired chain, judged by the request's schema", async () => {
  const prompt = "Triage the ticket 'printer on fire' as JSON (openai).";
  const run = await recorded(prompt, (baseURL, sent) => {
    const client = new OpenAI({ apiKey: "sk-e2e", baseURL, maxRetries: 0 });
    const format = { type: "json_schema", json_schema: { name: "triage", schema: z.toJSONSchema(Triage) } };
    return repair(async (text) => {
      sent(text);
      return client.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: text }],
        response_format: format,
      });
    }, prompt, { schema: Triage });
  });
  assertOneRepairedChain(run);
});

test("ai: generateText with Output.object, re-asked by the loop, is one repaired chain judged by the request's schema", async () => {
  const prompt = "Triage the ticket 'printer on fire' as JSON (ai).";
  const run = await recorded(prompt, (baseURL, sent) => {
    const openai = createOpenAI({ apiKey: "sk-e2e", baseURL });
    return repair(async (text) => {
      sent(text);
      try {
        return await generateText({
          model: openai.chat("gpt-4o-mini"),
          prompt: text,
          output: Output.object({ schema: Triage }),
          maxRetries: 0,
        });
      } catch (error) {
        // The AI SDK throws when the object breaks the schema; its error keeps the reply.
        if (!NoObjectGeneratedError.isInstance(error)) throw error;
        return { text: error.text ?? "", stopReason: error.finishReason, usage: error.usage, model: error.response?.modelId };
      }
    }, prompt, { schema: Triage });
  });
  assertOneRepairedChain(run);
});

test("ai: the AI SDK's own re-ask of a tool call whose input breaks the tool's schema is one repaired chain", async () => {
  const prompt = "loop-ai-sdk-tool";
  // ai-mock sends a tool call's arguments as an object where OpenAI sends a string of JSON:
  // the app's fetch writes the object as the string it stands for (createOpenAI's `fetch`).
  async function compatible(input, init) {
    const response = await fetch(input, init);
    const body = await response.json();
    for (const choice of body.choices ?? []) {
      for (const call of choice.message?.tool_calls ?? []) {
        if (typeof call.function.arguments !== "string") call.function.arguments = JSON.stringify(call.function.arguments);
      }
    }
    return new Response(JSON.stringify(body), { status: response.status, headers: { "content-type": "application/json" } });
  }
  const { result, lines, text } = await throughRecord([
    // The re-ask: the question, the call, then the SDK's tool error.
    { type: "function", input: { content: prompt, offset: -3 }, output: { name: "triage", arguments: JSON.parse(GOOD) } },
    { type: "function", input: prompt, output: { name: "triage", arguments: JSON.parse(BAD) } },
  ], (baseURL) => {
    const openai = createOpenAI({ apiKey: "sk-e2e", baseURL, fetch: compatible });
    return generateText({
      model: openai.chat("gpt-4o-mini"),
      prompt,
      tools: { triage: tool({ inputSchema: Triage }) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
  });
  // The loop's own record: a step whose call failed the schema, then one that fits.
  assert.deepEqual(result.steps.map((step) => step.content.map((part) => part.type)), [["tool-call", "tool-error"], ["tool-call"]]);
  assert.deepEqual(result.steps[1].toolCalls[0].input, JSON.parse(GOOD));
  assertLinkedAndCounted(lines, text);
});
