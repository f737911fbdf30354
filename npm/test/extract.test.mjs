// extract(): the outcome, the lazy explanation, options, numbers and errors, against the
// CLI's own words where it has them.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  extract,
  extractResponse,
  ExtractError,
  InvalidJsonError,
  NoJsonError,
  TruncatedError,
  UnreadableError,
  Outcome,
} from "jxray";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NOT_PLAIN, plainValue } from "../src/plain.js";
import { runJxray } from "./helpers.mjs";

test("a fenced reply gives its value and layer, and the jsonl line", () => {
  const text = 'Sure:\n```json\n{"city": "Paris", "n": [1, 2.5]}\n```\nAnything else?';
  const outcome = extract(text);
  assert.ok(outcome instanceof Outcome);
  assert.equal(outcome.ok, true);
  assert.equal(outcome.layer, "fenced");
  assert.deepEqual(outcome.value, { city: "Paris", n: [1, 2.5] });
  assert.equal(outcome.failure, null);
  assert.equal(text.slice(...outcome.span), '{"city": "Paris", "n": [1, 2.5]}');
  assert.deepEqual(outcome.warnings, ["trailing-prose"]);
  const line = JSON.parse(runJxray(["check", "-", "--input", "text", "--format", "jsonl"], text).stdout);
  assert.deepEqual(outcome.toJSON(), line);
  assert.deepEqual(JSON.parse(JSON.stringify(outcome)), line);
});

test("spans count UTF-16 code units; the jsonl line keeps UTF-8 bytes", () => {
  const text = 'é 😀 {"a": 1}';
  const outcome = extract(text);
  assert.deepEqual(outcome.span, [5, 13]);
  assert.deepEqual(outcome.byteSpan, [8, 16]);
  assert.equal(text.slice(...outcome.span), '{"a": 1}');
});

test("a value written as strict JSON is read from the caller's string, at UTF-16 offsets", () => {
  for (const [text, value] of [
    ['é 😀 {"a": "😀 ü", "b": [1, 2.50, -0]}', { a: "😀 ü", b: [1, 2.5, -0] }],
    ['```json\n{\n  "k": "v",\n  "k": "w"\n}\n```', { k: "w" }],
    ['{"e": "\\u00e9\\n", "t": "tab\there"}', { e: "é\n", t: "tab\there" }],
    ['Here: [1E400, {"__proto__": 1}] ok', [Infinity, JSON.parse('{"__proto__": 1}')]],
  ]) {
    assert.deepEqual(extract(text).value, value, text);
  }
});

test("plain JSON is accepted without asking the engine, exactly as the engine accepts it", () => {
  const data = fileURLToPath(new URL("../../crates/jxray-engine/tests/data/", import.meta.url));
  const dirs = ["suites/JSONTestSuite/test_parsing", "spec/cases"].map((dir) => join(data, dir));
  const texts = dirs.flatMap((dir) => readdirSync(dir).map((name) => readFileSync(join(dir, name), "utf8")));
  texts.push('{"a": 1, "a": 2}', '{"$schema": "x", "type": "object", "properties": {}}', " [1, 2.50, -0]\n", "[]");
  const nested = (levels) => "[".repeat(levels) + "]".repeat(levels);
  const records = JSON.stringify(Array.from({ length: 80 }, (_, n) => ({ n, tags: [n] })));
  texts.push(nested(126), nested(127), nested(128), records, '["\\ud800"]', '["\\ud83d\\ude00", "\\u00e9"]', "\ufeff{}");
  let plain = 0;
  for (const text of texts) {
    if (plainValue(text) === NOT_PLAIN) continue;
    plain += 1;
    // `pick` set to its default sends the text to the engine.
    const [quick, engine] = [extract(text), extract(text, { pick: "first" })];
    assert.deepEqual([quick.ok, quick.layer, quick.value], [engine.ok, engine.layer, engine.value], text);
    assert.deepEqual(quick.toJSON(), engine.toJSON(), text);
  }
  assert.ok(plain > 90, `only ${plain} plain texts`);
  assert.notEqual(plainValue(nested(127)), NOT_PLAIN, "as deep as the engine's limit");
  assert.equal(plainValue(nested(128)), NOT_PLAIN, "deeper than the engine's limit");
  assert.notEqual(plainValue(records), NOT_PLAIN, "many brackets, shallow");
  assert.equal(plainValue('["\\ud800"]'), NOT_PLAIN, "a lone surrogate is the engine's to judge");
  assert.deepEqual(plainValue('["\\u00e9"]'), ["é"], "other escapes are JSON.parse's");
});

test("a truncated reply is truncated, never closed, and says the fix", () => {
  const outcome = extract('{"items": [1, 2,', { stopReason: "length" });
  assert.equal(outcome.ok, false);
  assert.equal(outcome.value, undefined);
  assert.equal(outcome.failure.kind, "truncated");
  assert.match(outcome.failure.message, /raise the token limit/);
  assert.throws(() => outcome.valueOrThrow(), TruncatedError);
});

test("each failure kind throws its class, an ExtractError and a SyntaxError, with the CLI's line", () => {
  const cases = [
    ['{"a": 1,}', InvalidJsonError, "invalid"],
    ["I cannot help with that.", NoJsonError, "no-json"],
    ['{"a": [1, 2', TruncatedError, "truncated"],
  ];
  for (const [text, Class, kind] of cases) {
    const outcome = extract(text);
    assert.equal(outcome.failure.kind, kind);
    const cli = runJxray(["extract", "-"], text);
    assert.equal(cli.status, 1);
    const printed = cli.stderr.trim().replace(/^stdin: /, "");
    assert.throws(
      () => outcome.valueOrThrow(),
      (error) => {
        assert.ok(error instanceof Class && error instanceof ExtractError && error instanceof SyntaxError);
        assert.equal(error.name, Class.name);
        assert.equal(error.message, printed);
        assert.equal(error.outcome, outcome);
        assert.equal(error.failure.kind, kind);
        return true;
      },
    );
  }
});

test("code that caught JSON.parse's SyntaxError keeps working", () => {
  const parse = (text) => {
    try {
      return extract(text).valueOrThrow();
    } catch (error) {
      if (error instanceof SyntaxError) return "caught";
      throw error;
    }
  };
  assert.equal(parse("{'a': 1}"), "caught");
  assert.deepEqual(parse('{"a": 1}'), { a: 1 });
});

test("a failure names its defect, place and every defect", () => {
  const outcome = extract('```json\n{"a": 1,}\n```');
  assert.equal(outcome.failure.kind, "invalid");
  assert.equal(outcome.failure.defect, "trailing-comma");
  assert.equal(outcome.failure.line, 2);
  assert.ok(outcome.failure.column > 0);
  assert.ok(outcome.failure.defects.length >= 1);
  assert.ok(outcome.trace.length >= 1);
  assert.ok(outcome.lenient);
});

test("acceptLenient, decodeStringified and pick reach the engine", () => {
  const lenient = extract('{"a": 1,}', { acceptLenient: true });
  assert.equal(lenient.ok, true);
  assert.deepEqual(lenient.value, { a: 1 });
  assert.ok(lenient.repaired);
  const stringified = extract('{"data": "{\\"x\\": 1}"}', { decodeStringified: true });
  assert.deepEqual(stringified.value, { data: { x: 1 } });
  const last = extract('Example: {"a": 1}\nAnswer: {"a": 2}', { pick: "last" });
  assert.deepEqual(last.value, { a: 2 });
});

test("bad options are a TypeError that names them", () => {
  assert.throws(() => extract("{}", { stopreason: "length" }), /unknown option "stopreason"/);
  assert.throws(() => extract("{}", { pick: "middle" }), (e) => e instanceof TypeError && /middle/.test(e.message));
  assert.throws(() => extract("{}", { acceptLenient: "yes" }), TypeError);
  assert.throws(() => extract(42), /takes the model's text as a string/);
  assert.throws(() => extract("{}", { schema: { type: "object" } }), /JSON Schema object/);
});

test("numbers are JSON.parse's by default; bigints keeps large integers exact", () => {
  const text = '{"id": 12345678901234567890, "n": [1, 9007199254740993], "f": 0.1}';
  assert.equal(extract(text).value.id, 12345678901234567000);
  const exact = extract(text, { bigints: true }).value;
  assert.equal(exact.id, 12345678901234567890n);
  assert.equal(exact.n[1], 9007199254740993n);
  assert.equal(exact.n[0], 1);
  assert.equal(exact.f, 0.1);
  assert.equal(extract("12345678901234567890", { bigints: true }).value, 12345678901234567890n);
});

test("a string that is not well-formed Unicode is unreadable", () => {
  const outcome = extract('{"a": "\uD800"}');
  assert.equal(outcome.ok, false);
  assert.equal(outcome.failure.kind, "unreadable");
  assert.throws(() => outcome.valueOrThrow(), UnreadableError);
});

test("an explanation is built only when asked for, and once", () => {
  const outcome = extract('{"a": 1,}');
  assert.equal(outcome.ok, false);
  const first = outcome.failure;
  assert.equal(outcome.failure, first);
});

test("the engine survives many calls and large texts", () => {
  const big = `Here:\n\`\`\`json\n${JSON.stringify({ rows: Array.from({ length: 20000 }, (_, i) => ({ i, s: "x".repeat(20) })) })}\n\`\`\``;
  for (let i = 0; i < 3; i++) assert.equal(extract(big).value.rows.length, 20000);
  for (let i = 0; i < 2000; i++) assert.equal(extract(`[${i}]`).value[0], i);
});

test("toJSON writes the line jxray check writes; its numbers exact only where the runtime has JSON.rawJSON", () => {
  const text = '{"big": 12345678901234567890, "f": 1.10}';
  const line = JSON.parse(runJxray(["check", "-", "--input", "text", "--format", "jsonl"], text).stdout);
  // Without JSON.rawJSON (Node 20 and older) the numbers are doubles; with bigints, an
  // outcome's value holds bigints and its line still writes (the Deno test checks the digits).
  for (const options of [undefined, { bigints: true }]) {
    assert.deepEqual(JSON.parse(JSON.stringify(extract(text, options))), line);
    assert.deepEqual(JSON.parse(JSON.stringify(extractResponse({ text, finishReason: "stop" }, options)[0])), { ...line, source: "response", stop_reason: "stop", stop: "complete" });
  }
});
