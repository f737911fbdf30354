// extractResponse() on real response objects: the official openai and @anthropic-ai/sdk
// packages against a real mock server (ai-mock, the record end-to-end test's upstream,
// started by scripts/npm-tests.sh: AI_MOCK_URL), and a real generateText result from the
// `ai` package with its mock model.

import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { extractResponse, NoJsonError } from "jxray";

function mockUrl() {
  const url = process.env.AI_MOCK_URL;
  if (!url) throw new Error("AI_MOCK_URL must name the running ai-mock server (scripts/npm-tests.sh starts it)");
  return url;
}

const openai = () => new OpenAI({ apiKey: "sk-test", baseURL: `${mockUrl()}/openai`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: "sk-ant-test", baseURL: `${mockUrl()}/anthropic`, maxRetries: 0 });

const ask = (client, input) =>
  client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: input }] });

test("openai chat: a fenced reply is fenced, with the provider and model", async () => {
  const [outcome] = extractResponse(await ask(openai(), "fenced"));
  assert.equal(outcome.layer, "fenced");
  assert.deepEqual(outcome.value, { city: "Paris" });
  assert.equal(outcome.provider, "openai-chat");
  assert.equal(outcome.source, "response");
});

test("openai chat: a reply cut mid-value is truncated; a trailing comma is invalid", async () => {
  const [cut] = extractResponse(await ask(openai(), "cut"));
  assert.equal(cut.failure.kind, "truncated");
  const [comma] = extractResponse(await ask(openai(), "comma"));
  assert.equal(comma.failure.kind, "invalid");
  assert.equal(comma.failure.defect, "trailing-comma");
});

test("openai chat: a tool call's arguments are their own outcome", async () => {
  const response = await ask(openai(), "tool");
  const outcomes = extractResponse(response);
  const call = outcomes.find((outcome) => outcome.source.startsWith("response"));
  assert.ok(call, JSON.stringify(outcomes.map((o) => o.toJSON())));
  assert.deepEqual(outcomes.at(-1).value, { city: "Paris" });
});

test("openai chat: a refusal is no-json", async () => {
  const [outcome] = extractResponse(await ask(openai(), "refusal"));
  assert.equal(outcome.failure.kind, "no-json");
  assert.throws(() => outcome.valueOrThrow(), NoJsonError);
});

test("anthropic: the SDK's message is read the same way", async () => {
  const message = await anthropic().messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 256,
    messages: [{ role: "user", content: "fenced" }],
  });
  const [outcome] = extractResponse(message);
  assert.equal(outcome.provider, "anthropic");
  assert.equal(outcome.layer, "fenced");
  assert.deepEqual(outcome.value, { city: "Paris" });
  const [cut] = extractResponse(
    await anthropic().messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages: [{ role: "user", content: "cut" }] }),
  );
  assert.equal(cut.failure.kind, "truncated");
});

test("a JSON body as text reads the same as the object", async () => {
  const response = await ask(openai(), "fenced");
  const [fromText] = extractResponse(JSON.stringify(response));
  assert.deepEqual(fromText.toJSON(), extractResponse(response)[0].toJSON());
  assert.throws(() => extractResponse({ hello: 1 }), /not an OpenAI, Anthropic, Gemini or Ollama response/);
  assert.throws(() => extractResponse(42), TypeError);
});

function mockModel(text, finishReason, toolCalls = []) {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [
        ...(text ? [{ type: "text", text }] : []),
        ...toolCalls.map((input, index) => ({
          type: "tool-call",
          toolCallId: `call-${index}`,
          toolName: "record",
          input,
        })),
      ],
      finishReason: { unified: finishReason, raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

test("a generateText result: finishReason length is truncated, a fence is fenced", async () => {
  const cut = await generateText({ model: mockModel('{"items": [1, 2', "length"), prompt: "x" });
  const [truncated] = extractResponse(cut);
  assert.equal(truncated.failure.kind, "truncated");
  assert.equal(truncated.stopReason, "length");
  const fenced = await generateText({ model: mockModel('```json\n{"a": 1}\n```', "stop"), prompt: "x" });
  const [outcome] = extractResponse(fenced);
  assert.equal(outcome.layer, "fenced");
  assert.deepEqual(outcome.value, { a: 1 });
});

test("a generateText result's tool calls are each their own outcome", async () => {
  const result = await generateText({
    model: mockModel("", "tool-calls", ['{"city": "Paris"}', '{"city": "Ly']),
    prompt: "x",
  });
  const outcomes = extractResponse(result);
  assert.deepEqual(outcomes.map((o) => o.source), ["response#call-1", "response#call-2"]);
  assert.deepEqual(outcomes[0].value, { city: "Paris" });
  assert.equal(outcomes[1].ok, false);
});

// One verdict for a lone surrogate, wherever the text came from: `unreadable`, as extract says.
const LONE = '{"city": "Paris\uD800"}';
const LONE_SOURCES = [
  ["a generateText-shaped result", { text: LONE, finishReason: "stop", toolCalls: [] }],
  ["an OpenAI chat completion object", { object: "chat.completion", model: "gpt-4o-mini", choices: [{ index: 0, message: { role: "assistant", content: LONE }, finish_reason: "stop" }] }],
  ["an OpenAI chat completion's JSON text", `{"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": ${JSON.stringify("x").slice(0, -1)}\uD800"}, "finish_reason": "stop"}]}`],
];

for (const [name, response] of LONE_SOURCES) {
  test(`a lone surrogate in ${name} is unreadable, as extract says`, () => {
    const outcomes = extractResponse(response);
    assert.equal(outcomes.length, 1);
    const [outcome] = outcomes;
    assert.equal(outcome.ok, false);
    assert.equal(outcome.failure.kind, "unreadable");
    assert.equal(outcome.source, "response");
    assert.match(outcome.failure.message, /lone surrogate/);
  });
}
