// The streaming extractor (docs/streaming.md, contract §7): chunks split anywhere keep the
// invariants at every chunk and the end is extract of the joined text; stopOn aborts; the
// AI SDK's streamText (its mock model) and the official openai SDK's stream against a real
// mock server (ai-mock) are read as apps hold them.

import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { streamText, simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { createExtractor, extract, partialValues } from "jxray";

const FENCED = 'Here you go:\n```json\n{"city": "Paris", "zip": 75001, "tags": ["a", "é😀"]}\n```\nDone.';

/** `a` is what `b` may grow from. */
function growsInto(a, b) {
  if (typeof a === "string" && typeof b === "string") return b.startsWith(a);
  if (Array.isArray(a) && Array.isArray(b)) return a.length <= b.length && a.every((x, i) => growsInto(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") return Object.keys(a).every((k) => Object.hasOwn(b, k) && growsInto(a[k], b[k]));
  return Object.is(a, b);
}

function pieces(text, size) {
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

for (const size of [1, 2, 7, 64]) {
  test(`chunks of ${size}: values only grow, nothing is invented, the end is extract`, () => {
    const extractor = createExtractor();
    const shown = [];
    for (const piece of pieces(FENCED, size)) {
      const snapshot = extractor.feed(piece);
      if (snapshot.value !== undefined) shown.push(structuredClone(snapshot.value));
    }
    const outcome = extractor.end("stop");
    assert.deepEqual(outcome.toJSON(), extract(FENCED, { stopReason: "stop" }).toJSON());
    assert.ok(shown.every((value, i) => i === 0 || growsInto(shown[i - 1], value)));
    assert.ok(shown.every((value) => growsInto(value, outcome.value)));
    assert.deepEqual(extractor.value, outcome.value);
  });
}

test("bytes split inside a UTF-8 sequence and strings split inside a surrogate pair wait for their rest", () => {
  const bytes = new TextEncoder().encode(FENCED);
  const byBytes = createExtractor();
  for (let at = 0; at < bytes.length; at += 3) byBytes.feed(bytes.subarray(at, at + 3));
  const byUnits = createExtractor();
  for (const piece of pieces(FENCED, 1)) byUnits.feed(piece);
  assert.deepEqual(byBytes.end().value, { city: "Paris", zip: 75001, tags: ["a", "é😀"] });
  assert.deepEqual(byUnits.end().value, { city: "Paris", zip: 75001, tags: ["a", "é😀"] });
});

test("a snapshot says where it is, what is open and what is final", () => {
  const extractor = createExtractor();
  const first = extractor.feed("Sure!\n```json\n");
  assert.deepEqual([first.state, first.why], ["waiting", "fence"]);
  const second = extractor.feed('{"items": [{"name": "Jo');
  assert.deepEqual(second.openPaths, ["", "/items", "/items/0", "/items/0/name"]);
  assert.deepEqual(extractor.value, { items: [{ name: "Jo" }] });
  const third = extractor.feed('hn", "age": 4');
  assert.ok(third.finalPaths.includes("/items/0/name"));
  assert.deepEqual(extractor.value, { items: [{ name: "John" }] }, "a number shows once its token ends");
});

test("a key from the model is a member, never a prototype", () => {
  const extractor = createExtractor();
  extractor.feed('{"__proto__": {"polluted": true}, "a": 1}');
  assert.equal({}.polluted, undefined);
  assert.equal(Object.getPrototypeOf(extractor.value), Object.prototype);
  assert.deepEqual(Object.keys(extractor.value), ["__proto__", "a"]);
});

test("stopOn sets stopped, aborts the signal, and the end judges the text so far", () => {
  const extractor = createExtractor({ stopOn: ["runaway"] });
  extractor.feed('{"summary": "ok"');
  assert.equal(extractor.signal.aborted, false);
  extractor.feed(" \n".repeat(400));
  assert.equal(extractor.stopped.kind, "runaway");
  assert.equal(extractor.signal.aborted, true);
  const outcome = extractor.end();
  assert.deepEqual([outcome.failure.kind, outcome.failure.cause], ["truncated", "runaway"]);
  assert.throws(() => createExtractor({ stopOn: ["loop"] }), /unknown signal "loop"/);
});

test("a cut tool call is never complete", () => {
  const whole = '{"query": "test", "limit": 10}';
  for (let cut = 1; cut < whole.length; cut += 1) {
    const extractor = createExtractor();
    const snapshot = extractor.feed(whole.slice(0, cut));
    assert.ok(!snapshot.finalPaths.includes(""));
    assert.equal(extractor.end().ok, false, whole.slice(0, cut));
  }
});

function streamingModel(text, pieceSize = 5) {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          ...pieces(text, pieceSize).map((delta) => ({ type: "text-delta", id: "t", delta })),
          { type: "text-end", id: "t" },
          {
            type: "finish",
            finishReason: { unified: "stop", raw: undefined },
            usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
          },
        ],
      }),
    }),
  });
}

test("the AI SDK's streamText: its textStream read as it arrives, typed by the schema", async () => {
  const City = z.object({ city: z.string(), zip: z.number(), tags: z.array(z.string()) });
  const result = streamText({ model: streamingModel(FENCED), prompt: "Where?" });
  const extractor = createExtractor({ schema: City });
  const states = new Set();
  for await (const snapshot of extractor.read(result.textStream)) states.add(snapshot.state);
  assert.deepEqual([...states], ["waiting", "reading"]);
  assert.equal(extractor.outcome.ok, true);
  assert.deepEqual(extractor.outcome.value, { city: "Paris", zip: 75001, tags: ["a", "é😀"] });
});

test("partialValues is a drop-in for partialObjectStream: a new object per change, never invented", async () => {
  const result = streamText({ model: streamingModel('{"name": "Ana", "items": ["lechuga", "zanahoria"]}', 3), prompt: "p" });
  const values = [];
  for await (const value of partialValues(result.fullStream)) values.push(value);
  assert.ok(values.length > 3);
  assert.notEqual(values[0], values[1], "a new object each time");
  assert.ok(values.every((value, i) => i === 0 || growsInto(values[i - 1], value)));
  assert.deepEqual(values.at(-1), { name: "Ana", items: ["lechuga", "zanahoria"] });
});

test("the official openai SDK's stream from a real mock server, read chunk by chunk", async () => {
  const url = process.env.AI_MOCK_URL;
  if (!url) throw new Error("AI_MOCK_URL must name the running ai-mock server (scripts/npm-tests.sh starts it)");
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/openai`, maxRetries: 0 });
  const stream = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "fenced" }], stream: true });
  const extractor = createExtractor();
  let snapshots = 0;
  for await (const snapshot of extractor.read(stream)) snapshots += snapshot.deltas.length > 0 ? 1 : 0;
  assert.ok(snapshots >= 1);
  assert.equal(extractor.outcome.layer, "fenced");
  assert.deepEqual(extractor.outcome.value, { city: "Paris" });
});
