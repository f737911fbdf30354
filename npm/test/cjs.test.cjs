// The CommonJS entries, as `require` loads them in Node.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const jxray = require("jxray");
const testing = require("jxray/testing");

test("require('jxray') extracts a fenced, a truncated and an invalid reply", () => {
  assert.deepEqual(jxray.extract('```json\n{"a": 1}\n```').value, { a: 1 });
  assert.equal(jxray.extract('{"a": [1', { stopReason: "length" }).failure.kind, "truncated");
  const invalid = jxray.extract('{"a": 1,}');
  assert.equal(invalid.failure.defect, "trailing-comma");
  assert.throws(() => invalid.valueOrThrow(), jxray.InvalidJsonError);
  assert.throws(() => invalid.valueOrThrow(), SyntaxError);
});

test("require('jxray/testing') asserts", () => {
  testing.assertExtracts('{"a": 1}', { ok: true, layer: "direct" });
  assert.throws(() => testing.assertExtracts('{"a": 1}', { layer: "fenced" }), testing.JxrayAssertionError);
});
