// With a schema, a stream's parts are judged as they close (docs/streaming.md, contract §7):
// zod 4, zod 3 and valibot, each walked to the part that rules a path. An early `schema`
// signal is never a false alarm: where the path alone cannot say which rules apply (a union's
// members, a fallback, a transform), nothing is said until the end judges the whole value.

import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import * as v from "valibot";
import { createExtractor, extract } from "jxray";

const TICKETS =
  'Triage:\n```json\n{"tickets": [{"id": 1, "severity": "low", "tags": ["db"]}, ' +
  '{"id": 2, "severity": "urgent", "tags": ["ui"]}, {"id": 3, "severity": "high", "tags": [7]}]}\n```\n';

const SCHEMAS = {
  "zod 4": z.object({
    tickets: z.array(z.object({ id: z.number(), severity: z.enum(["low", "high"]), tags: z.array(z.string()).optional() })),
  }),
  "zod 3": z3.object({
    tickets: z3.array(z3.object({ id: z3.number(), severity: z3.enum(["low", "high"]), tags: z3.array(z3.string()).optional() })),
  }),
  valibot: v.object({
    tickets: v.array(v.object({ id: v.number(), severity: v.picklist(["low", "high"]), tags: v.optional(v.array(v.string())) })),
  }),
};

function pieces(text, size) {
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** Every snapshot's signals of one kind, each with how much text had arrived when it came. */
function fedSignals(schema, text, size, kind = "schema") {
  const extractor = createExtractor({ schema });
  const found = [];
  let arrived = 0;
  for (const piece of pieces(text, size)) {
    arrived += piece.length;
    for (const signal of extractor.feed(piece).signals) if (signal.kind === kind) found.push({ ...signal, arrived });
  }
  return { found, outcome: extractor.end() };
}

for (const [library, schema] of Object.entries(SCHEMAS)) {
  for (const size of [1, 7, 64]) {
    test(`${library}, chunks of ${size}: each broken part is said once, as it closes, where the end says it`, () => {
      const { found, outcome } = fedSignals(schema, TICKETS, size);
      assert.deepEqual(found.map((signal) => signal.path), ["/tickets/1/severity", "/tickets/2/tags/0"]);
      // At the part's last byte (the string's closing quote, the number's last digit), said
      // in the snapshot that made it certain (a number ends when the byte after it comes).
      const ends = [TICKETS.indexOf('"urgent"') + 7, TICKETS.indexOf("[7]") + 1];
      assert.deepEqual(found.map((signal) => signal.byte), ends);
      for (const [i, signal] of found.entries()) {
        assert.ok(signal.arrived > ends[i] && signal.arrived <= ends[i] + 1 + size, `${signal.path} came late`);
        assert.equal(signal.line, 3);
      }
      assert.match(found[0].message, /^\/tickets\/1\/severity = "urgent": /);
      // The end judges the whole value, as extract does, and names the same places.
      assert.deepEqual(outcome.toJSON(), extract(TICKETS, { schema }).toJSON());
      assert.equal(outcome.failure.kind, "schema");
      for (const signal of found) assert.ok(outcome.failure.message.includes(signal.path), signal.path);
    });
  }
}

test("stopOn schema stops at the first broken item and aborts the signal", () => {
  const extractor = createExtractor({ schema: SCHEMAS["zod 4"], stopOn: ["schema"] });
  for (const piece of pieces(TICKETS, 5)) {
    extractor.feed(piece);
    if (extractor.stopped) break;
  }
  assert.equal(extractor.stopped.path, "/tickets/1/severity");
  assert.ok(extractor.signal.aborted);
  assert.ok(extractor.text.length < TICKETS.indexOf('{"id": 3'));
});

test("where the path alone cannot say the rules, nothing is said before the end", () => {
  const text = '{"items": [{"kind": "a", "n": "x"}, {"kind": "b", "n": 2}], "fixed": {"n": "bad"}, "raw": {"n": "1"}}';
  const item = z.object({ kind: z.literal("a"), n: z.string() }).or(z.object({ kind: z.literal("b"), n: z.number() }));
  const schemas = [
    // A union's members: an item is judged whole (it fits one), never its members alone.
    z.object({ items: z.array(item), fixed: z.any(), raw: z.any() }),
    // A fallback stands in for a failing part: its parts are not its rules.
    z.object({ items: z.any(), fixed: z.object({ n: z.number() }).catch({ n: 0 }), raw: z.any() }),
    // A preprocess changes what its schema sees.
    z.object({ items: z.any(), fixed: z.any(), raw: z.preprocess((x) => ({ n: Number(x.n) }), z.object({ n: z.number() })) }),
    v.object({ items: v.any(), fixed: v.fallback(v.object({ n: v.number() }), { n: 0 }), raw: v.any() }),
    z3.object({ items: z3.any(), fixed: z3.any(), raw: z3.preprocess((x) => ({ n: Number(x.n) }), z3.object({ n: z3.number() })) }),
  ];
  for (const [i, schema] of schemas.entries()) {
    for (const size of [1, 9]) {
      const { found, outcome } = fedSignals(schema, text, size);
      assert.deepEqual(found, [], `schema ${i}, chunks of ${size}`);
      assert.ok(outcome.ok, `schema ${i}: the whole value fits`);
    }
  }
});

test("an object refined across its members is judged when it closes", () => {
  const schema = z.object({ low: z.number(), high: z.number() }).refine((r) => r.low < r.high, "low must be below high");
  const { found, outcome } = fedSignals(schema, '{"low": 5, "high": 2}', 3);
  assert.deepEqual(found.map((signal) => [signal.path, signal.byte]), [["", 20]]);
  assert.match(found[0].message, /low must be below high/);
  assert.equal(outcome.failure.kind, "schema");
});

test("a part judged alone never disagrees with the whole (generated values, every early signal is in the end's failure)", () => {
  const schema = z.object({
    rows: z.array(z.object({ n: z.number().int().min(0), name: z.string().min(2), flags: z.array(z.boolean()) })),
    meta: z.object({ count: z.number() }).optional(),
  });
  let seed = 17;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let said = 0;
  for (let round = 0; round < 60; round++) {
    const rows = Array.from({ length: 1 + Math.floor(next() * 4) }, () => ({
      n: next() < 0.2 ? -1 : next() < 0.1 ? 1.5 : Math.floor(next() * 9),
      name: next() < 0.2 ? "x" : "name",
      flags: next() < 0.15 ? [true, "no"] : [false],
    }));
    const value = next() < 0.5 ? { rows } : { rows, meta: { count: next() < 0.2 ? "3" : rows.length } };
    const text = `Result:\n\`\`\`json\n${JSON.stringify(value, null, next() < 0.5 ? 2 : 0)}\n\`\`\``;
    const { found, outcome } = fedSignals(schema, text, 1 + Math.floor(next() * 12));
    said += found.length;
    if (found.length > 0) assert.equal(outcome.failure?.kind, "schema", text);
    for (const signal of found) assert.ok(outcome.failure.message.includes(`${signal.path} `), `${signal.path} in ${text}`);
    assert.equal(new Set(found.map((signal) => signal.message)).size, found.length, "each said once");
  }
  assert.ok(said > 20, `${said} early signals`);
});
