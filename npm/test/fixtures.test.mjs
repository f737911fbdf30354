// Every conformance case (the project's fixtures/, which carries ../shared/spec/cases)
// replayed through jxray/testing, each outcome equal to `jxray check`'s line; and the
// fixture replay reporting a regression.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { extract } from "jxray";
import { assertExtracts, fixtures, JxrayAssertionError } from "jxray/testing";
import { repoRoot, runJxray } from "./helpers.mjs";

const folder = join(repoRoot, "fixtures");
const all = fixtures(folder);

test("the conformance fixtures are all there", () => {
  assert.ok(all.length >= 150, `${all.length} fixtures`);
});

for (const fixture of all) {
  test(`fixture ${fixture.name}`, () => {
    const file = JSON.parse(readFileSync(fixture.path, "utf8"));
    if (file.schema) {
      assert.throws(() => fixture.check(), /carries a JSON Schema/);
      return;
    }
    fixture.check();
    if (file.input_base64 || (file.options && Object.keys(file.options).some((k) => !["pick", "accept_lenient", "decode_stringified"].includes(k)))) return;
    const options = {
      stopReason: file.stop_reason ?? undefined,
      acceptLenient: file.options?.accept_lenient,
      decodeStringified: file.options?.decode_stringified,
      pick: file.options?.pick,
    };
    const outcome = extract(file.input, options);
    if (file.expect.ok) {
      assertExtracts(file.input, { ok: true, layer: file.expect.layer, value: file.expect.value }, options);
    } else {
      assert.equal(outcome.ok, false);
    }
  });
}

test("each case's outcome is the line jxray check writes", () => {
  const dir = mkdtempSync(join(tmpdir(), "jxray-cases-"));
  try {
    const texts = new Map();
    for (const fixture of all) {
      const file = JSON.parse(readFileSync(fixture.path, "utf8"));
      if (file.input_base64 || file.stop_reason || file.schema || file.options) continue;
      const name = `${fixture.name.replace(/\.json$/, "")}.txt`;
      writeFileSync(join(dir, name), file.input);
      texts.set(name, file.input);
    }
    const run = runJxray(["check", dir, "--format", "jsonl"]);
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(lines.length, texts.size);
    for (const line of lines) {
      const mine = extract(texts.get(basename(line.source))).toJSON();
      assert.deepEqual({ ...mine, source: line.source }, line, line.source);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a regression fails with the expectation, the engine's outcome and a diff", () => {
  const dir = mkdtempSync(join(tmpdir(), "jxray-fixtures-"));
  try {
    const fixture = {
      jxray_fixture: 1,
      name: "fenced",
      input: '```json\n{"a": 1}\n```',
      stop_reason: null,
      expect: { ok: true, layer: "direct", value: { a: 1 } },
    };
    writeFileSync(join(dir, "fenced.json"), JSON.stringify(fixture));
    writeFileSync(join(dir, "holds.json"), JSON.stringify({ ...fixture, name: "holds", expect: { ...fixture.expect, layer: "fenced" } }));
    const [regression, holds] = fixtures(dir);
    assert.equal(holds.check().status, "passed");
    assert.throws(
      () => regression.check(),
      (error) => {
        assert.ok(error instanceof JxrayAssertionError);
        const printed = runJxray(["test", join(dir, "fenced.json")]).stdout;
        const block = printed.slice(printed.indexOf("FAIL"), printed.indexOf("  engine:"));
        assert.ok(block.includes("--- expected (fixture)"), printed);
        assert.equal(error.message.slice(0, error.message.indexOf("  engine:")), block);
        assert.match(error.message, /│-\s+"layer": "direct"/);
        assert.match(error.message, /│\+\s+"layer": "fenced"/);
        assert.match(error.message, /engine: fenced$/);
        assert.equal(error.expected.layer, "direct");
        assert.equal(error.actual.layer, "fenced");
        return true;
      },
    );
    assert.throws(() => fixtures(join(dir, "missing")), /cannot read the fixtures folder/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("assertExtracts names the layer, the failure and the defect when it fails", () => {
  assertExtracts('```json\n{"a": 1}\n```', { ok: true, layer: "fenced", value: { a: 1 } });
  assertExtracts('{"a": 1,}', { failure: "invalid", defect: "trailing-comma" });
  assert.throws(
    () => assertExtracts('{"a": 1,}', { ok: true, layer: "direct" }),
    (error) => {
      assert.equal(error.name, "AssertionError");
      assert.match(error.message, /ok, layer differ/);
      assert.match(error.message, /got invalid trailing-comma at 1:9/);
      return true;
    },
  );
});
