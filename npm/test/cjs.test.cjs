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

test("require('jxray') writes a repair loop's captures with Node's file system", async () => {
  const fs = require("node:fs");
  const path = require("node:path");
  const root = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "jxray-cjs-"));
  try {
    const replies = ['{"a": 1,}', '{"a": 1}'];
    const result = await jxray.repair(async () => replies.shift(), "p", { captures: root });
    assert.equal(result.status, "success");
    for (const attempt of result.attempts) {
      assert.ok(fs.existsSync(path.join(root, attempt.capture)), attempt.capture);
      assert.ok(fs.existsSync(path.join(root, attempt.capture.replace(/\.jsonl$/, ".request.json"))));
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
