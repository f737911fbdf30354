// What repair() reads from its caller: the budget (every provider's usage spelling counted,
// misspelt keys and wrong types refused), the stop reason in every spelling a reply carries,
// and `fallback` (null and undefined mean none, as Python's fallback=None).

import { test } from "node:test";
import assert from "node:assert/strict";
import { repair } from "jxray";

const BROKEN = '{"a": 1,}';

/** A generate that answers every call with `reply` and counts its calls. */
function always(reply) {
  const calls = [];
  return { calls, generate: async (prompt) => (calls.push(prompt), typeof reply === "function" ? reply() : reply) };
}

const USAGES = [
  ["OpenAI chat", { prompt_tokens: 600, completion_tokens: 400, total_tokens: 1000 }],
  ["OpenAI Responses", { input_tokens: 600, output_tokens: 400 }],
  ["Anthropic with cache reads", { input_tokens: 10, cache_read_input_tokens: 990, output_tokens: 0 }],
  ["AI SDK", { inputTokens: 600, outputTokens: 400 }],
  ["AI SDK (v4)", { promptTokens: 600, completionTokens: 400 }],
  ["Gemini usageMetadata", { promptTokenCount: 600, candidatesTokenCount: 400, totalTokenCount: 1000 }],
  ["Ollama", { prompt_eval_count: 600, eval_count: 400 }],
];

for (const [name, usage] of USAGES) {
  test(`the budget counts ${name} usage`, async () => {
    const { generate, calls } = always({ text: BROKEN, usage });
    const result = await repair(generate, "p", { budget: { maxTokens: 100 }, maxRepairs: 3 });
    assert.equal(calls.length, 1, "a 100-token budget allows no second call after 1,000 tokens");
    assert.equal(result.stopped, "budget");
  });
}

test("a reply's usageMetadata (a Gemini response's) is its usage", async () => {
  const { generate, calls } = always({ text: BROKEN, usageMetadata: { promptTokenCount: 600, candidatesTokenCount: 400 } });
  const result = await repair(generate, "p", { budget: { maxTokens: 100 }, maxRepairs: 3 });
  assert.equal(calls.length, 1);
  assert.equal(result.stopped, "budget");
});

const BAD_BUDGETS = [
  [{ max_tokens: 100 }, /unknown budget key "max_tokens".*did you mean "maxTokens"/],
  [{ maxTokenz: 100 }, /unknown budget key "maxTokenz".*did you mean "maxTokens"/],
  [{ maxSeconds: 5 }, /unknown budget key "maxSeconds"; the keys are maxTokens, maxMs/],
  [{ maxMs: "soon" }, /maxMs must be a number of 0 or more, not a string/],
  [{ maxTokens: -1 }, /maxTokens must be a number of 0 or more/],
  [{ maxTokens: Number.NaN }, /maxTokens must be a number of 0 or more/],
  [100, /budget must be an object/],
];

for (const [budget, message] of BAD_BUDGETS) {
  test(`budget ${JSON.stringify(budget)} is a TypeError before any call`, async () => {
    const { generate, calls } = always(BROKEN);
    await assert.rejects(repair(generate, "p", { budget }), (error) => error instanceof TypeError && message.test(error.message));
    assert.equal(calls.length, 0);
  });
}

test("a misspelt option says what it may have meant", async () => {
  const { generate } = always(BROKEN);
  await assert.rejects(repair(generate, "p", { maxRepair: 2 }), /unknown option "maxRepair".*did you mean "maxRepairs"/);
  await assert.rejects(repair(generate, "p", { max_repairs: 2 }), /did you mean "maxRepairs"/);
});

const STOP_SPELLINGS = ["finish_reason", "finishReason", "stop_reason", "stopReason", "done_reason"];

for (const key of STOP_SPELLINGS) {
  test(`a length stop given as ${key} is truncated and not re-asked`, async () => {
    const { generate, calls } = always({ text: '{"a": 1}', [key]: key === "stop_reason" ? "max_tokens" : "length" });
    const result = await repair(generate, "p", { maxRepairs: 2 });
    assert.equal(calls.length, 1);
    assert.equal(result.status, "failure");
    assert.equal(result.stopped, "raise-limit");
    assert.equal(result.outcome.failure.kind, "truncated");
  });
}

test("Gemini's MAX_TOKENS finishReason is a cut", async () => {
  const { generate, calls } = always({ text: '{"a": [1, 2]}', finishReason: "MAX_TOKENS" });
  const result = await repair(generate, "p");
  assert.equal(calls.length, 1);
  assert.equal(result.outcome.failure.kind, "truncated");
});

test("a stop reason that is not a string is a TypeError naming it", async () => {
  const { generate } = always({ text: "{}", finish_reason: 7 });
  await assert.rejects(repair(generate, "p"), (error) => error instanceof TypeError && /finish_reason must be a string/.test(error.message));
});

for (const fallback of [null, undefined]) {
  test(`fallback: ${fallback} is no fallback, as Python's fallback=None`, async () => {
    const { generate } = always("no json here");
    const result = await repair(generate, "p", { fallback, maxRepairs: 0 });
    assert.equal(result.status, "failure");
    assert.equal(result.value, undefined);
    assert.equal(result.telemetry.fallback_kind, null);
  });
}

test("a null fallback value is a function returning null", async () => {
  const { generate } = always("no json here");
  const result = await repair(generate, "p", { fallback: () => null, maxRepairs: 0 });
  assert.equal(result.status, "fallback");
  assert.equal(result.value, null);
  assert.equal(result.telemetry.fallback_kind, "function");
});

const BAD_OPTIONS = [
  [{ maxOutputChars: "8000" }, /maxOutputChars must be a whole number, 0 or more, not a string/],
  [{ maxOutputChars: -1 }, /maxOutputChars must be a whole number, 0 or more/],
  [{ fallbackKind: 3 }, /fallbackKind must be a string, not a number/],
  [{ schemaVersion: 2 }, /schemaVersion must be a string, not a number/],
  [{ required: "ticketId" }, /required must be an array of key names \(strings\), not a string/],
  [{ signal: true }, /signal must be an AbortSignal, not a boolean/],
];

for (const [options, message] of BAD_OPTIONS) {
  test(`option ${JSON.stringify(options)} is a TypeError before any call`, async () => {
    const { generate, calls } = always(BROKEN);
    await assert.rejects(repair(generate, "p", options), (error) => error instanceof TypeError && message.test(error.message));
    assert.equal(calls.length, 0);
  });
}
