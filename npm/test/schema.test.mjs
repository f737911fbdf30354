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
