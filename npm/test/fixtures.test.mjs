// Every conformance case (the project's fixtures/, which carries ../shared/spec/cases)
// replayed through jxray/testing, each outcome equal to `jxray check`'s line; and the
// fixture replay reporting a regression.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync, rmSync } from "node:fs";
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

const FENCED = { jxray_fixture: 1, name: "fenced", input: '```json\n{"a": 1}\n```', stop_reason: null, expect: { ok: true, layer: "fenced", value: { a: 1 } } };

test("a symlinked fixture is read and a FIFO is refused in one line, as jxray test does: none dropped", () => {
  const dir = mkdtempSync(join(tmpdir(), "jxray-fixtures-"));
  const elsewhere = mkdtempSync(join(tmpdir(), "jxray-fixture-target-"));
  try {
    writeFileSync(join(elsewhere, "target.json"), JSON.stringify(FENCED));
    symlinkSync(join(elsewhere, "target.json"), join(dir, "linked.json"));
    execFileSync("mkfifo", [join(dir, "pipe.json")]);
    const found = fixtures(dir);
    assert.deepEqual(found.map((f) => f.name), ["linked.json", "pipe.json"]);
    assert.equal(found[0].check().status, "passed");
    assert.throws(() => found[1].check(), (error) => {
      assert.ok(!error.message.includes("\n"), error.message);
      assert.match(error.message, /pipe\.json: is a FIFO \(named pipe\), not a regular file/);
      return true;
    });
    const printed = runJxray(["test", dir]);
    assert.match(printed.stdout + printed.stderr, /pipe\.json.*FIFO/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("a regression's message shows a hostile name and path escaped, as jxray test prints them", () => {
  const dir = mkdtempSync(join(tmpdir(), "jxray-fixtures-\u001b[31m-"));
  try {
    const name = "evil\u001b]0;pwned\u0007\u202e";
    writeFileSync(join(dir, "x\u009b.json"), JSON.stringify({ ...FENCED, name, expect: { ...FENCED.expect, layer: "direct" } }));
    const [fixture] = fixtures(dir);
    assert.throws(() => fixture.check(), (error) => {
      const heading = error.message.split("\n")[0];
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202e]/u.test(heading), JSON.stringify(heading));
      assert.ok(heading.includes("evil\\u{1b}]0;pwned\\u{7}\\u{202e}"), heading);
      assert.ok(heading.includes("x\\u{9b}.json"), heading);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("assertExtracts compares values as jxray test does: key order aside, types and numbers exact", () => {
  assertExtracts('{"b": 1, "a": {"y": 2, "x": 3}}', { value: { a: { x: 3, y: 2 }, b: 1 } });
  assertExtracts('{"id": 12345678901234567890}', { value: { id: 12345678901234567890n } }, { bigints: true });
  const differ = [
    ['[null]', [Number.NaN], undefined],
    ['["2020-01-01T00:00:00.000Z"]', [new Date("2020-01-01T00:00:00.000Z")], undefined],
    ['{"id": 12345678901234567890}', { id: "12345678901234567890n" }, { bigints: true }],
    ['{"id": 12345678901234567890}', { id: 12345678901234567890n }, undefined],
    ['{"a": 1}', { a: 1, b: undefined }, undefined],
    ['[1, 2]', { 0: 1, 1: 2 }, undefined],
  ];
  for (const [text, value, options] of differ) {
    assert.throws(() => assertExtracts(text, { value }, options), JxrayAssertionError, text);
  }
});
