// The schema option with real Standard Schema validators: zod and valibot.

import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import * as v from "valibot";
import { extract, SchemaError } from "jxray";

const Triage = z.object({
  ticketId: z.string().min(1),
  severity: z.enum(["low", "medium", "high", "critical"]),
});

test("zod: the first candidate that validates wins", () => {
  const text = 'Example: {"ticketId": "", "severity": "urgent"}\nAnswer:\n```json\n{"ticketId": "T-1", "severity": "high"}\n```';
  const outcome = extract(text, { schema: Triage });
  assert.equal(outcome.ok, true);
  assert.deepEqual(outcome.value, { ticketId: "T-1", severity: "high" });
});

test("zod: a value that never validates is the schema failure with zod's issues", () => {
  const outcome = extract('{"ticketId": "", "severity": "urgent"}', { schema: Triage });
  assert.equal(outcome.ok, false);
  assert.equal(outcome.failure.kind, "schema");
  assert.deepEqual(outcome.value, { ticketId: "", severity: "urgent" });
  assert.match(outcome.failure.message, /the value breaks the schema \(2 violations\)/);
  assert.match(outcome.failure.message, /\/ticketId = "": /);
  assert.match(outcome.failure.message, /\/severity = "urgent": /);
  assert.throws(() => outcome.valueOrThrow(), (e) => e instanceof SchemaError && e instanceof SyntaxError);
});

test("valibot works the same way", () => {
  const Schema = v.object({ city: v.string(), population: v.number() });
  assert.deepEqual(extract('{"city": "Paris", "population": 2100000}', { schema: Schema }).value, {
    city: "Paris",
    population: 2100000,
  });
  const outcome = extract('{"city": 1}', { schema: Schema });
  assert.equal(outcome.failure.kind, "schema");
  assert.match(outcome.failure.message, /\/city = 1: /);
});

test("a schema does not hide a syntax failure", () => {
  const outcome = extract('{"ticketId": "T-1", "severity": "high",}', { schema: Triage });
  assert.equal(outcome.failure.kind, "invalid");
});

test("an async schema and a throwing schema are the caller's errors, and the engine goes on", () => {
  const Async = z.object({ a: z.number() }).refine(async () => true);
  assert.throws(() => extract('{"a": 1}', { schema: Async }), /asynchronously/);
  const Throws = {
    "~standard": {
      version: 1,
      vendor: "test",
      validate() {
        throw new RangeError("boom");
      },
    },
  };
  assert.throws(() => extract('{"a": 1}', { schema: Throws }), RangeError);
  assert.deepEqual(extract('{"a": 1}').value, { a: 1 });
});

// The value is what the validator gives back, as the schema's output type says: transforms,
// defaults and key stripping applied.
const Shaped = z.object({ name: z.string().transform((name) => name.toUpperCase()), count: z.number().default(5) });

test("zod: the value is the schema's output (transforms, defaults, unknown keys stripped)", () => {
  const outcome = extract('Here: {"name": "ada", "extra": true}', { schema: Shaped });
  assert.equal(outcome.ok, true);
  assert.deepEqual(outcome.value, { name: "ADA", count: 5 });
  assert.deepEqual(outcome.valueOrThrow(), { name: "ADA", count: 5 });
});

test("valibot: the value is the schema's output", () => {
  const schema = v.object({ when: v.pipe(v.string(), v.transform((s) => s.length)) });
  assert.deepEqual(extract('{"when": "today", "x": 1}', { schema }).value, { when: 5 });
});

test("the value of a response's output is the schema's output too", async () => {
  const { extractResponse } = await import("jxray");
  const completion = { object: "chat.completion", model: "m", choices: [{ index: 0, message: { role: "assistant", content: '{"name": "ada"}' }, finish_reason: "stop" }] };
  const [outcome] = extractResponse(completion, { schema: Shaped });
  assert.deepEqual(outcome.value, { name: "ADA", count: 5 });
});

test("bigints: the validator judges the exact integers it will be given", () => {
  const text = '{"id": 12345678901234567890}';
  const exact = extract(text, { schema: z.object({ id: z.bigint() }), bigints: true });
  assert.equal(exact.ok, true);
  assert.equal(exact.value.id, 12345678901234567890n);
  // A z.number() field never holds a bigint: the exact integer breaks it.
  const number = extract(text, { schema: z.object({ id: z.number() }), bigints: true });
  assert.equal(number.ok, false);
  assert.equal(number.failure.kind, "schema");
  assert.equal(typeof extract('{"id": 1}', { schema: z.object({ id: z.number() }), bigints: true }).value.id, "number");
});

// A schema whose check calls extract() again runs it in an instance of its own.
test("zod: extract() inside a schema's check is re-entrant", () => {
  const Inner = z.object({ ok: z.boolean() });
  const schema = z.object({ payload: z.string().refine((text) => extract(text, { schema: Inner }).ok, "payload holds no JSON") });
  const outcome = extract('{"payload": "```json\\n{\\"ok\\": true}\\n```"}', { schema });
  assert.equal(outcome.ok, true, String(outcome));
  const bad = extract('{"payload": "prose"}', { schema });
  assert.equal(bad.failure.kind, "schema");
  assert.match(bad.failure.message, /payload holds no JSON/);
});

test("valibot: extract() inside a schema's check is re-entrant", () => {
  const schema = v.object({ payload: v.pipe(v.string(), v.check((text) => extract(text).ok, "no JSON")) });
  assert.equal(extract('{"payload": "[1, 2]"}', { schema }).ok, true);
  assert.equal(extract('{"payload": "nope"}', { schema }).failure.kind, "schema");
  // The outer instance is whole after it: the next call works.
  assert.deepEqual(extract("[3]").value, [3]);
});
