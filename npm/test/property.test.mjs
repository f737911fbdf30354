// For random texts built from what models write (JSON values, fences, prose, cuts, stray
// characters), extract(t).toJSON() is the line `jxray check` writes for the same text, and
// extract(t).value (read from the caller's string where the model wrote strict JSON) is
// the value that line holds.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import fc from "fast-check";
import { extract } from "jxray";
import { runJxray } from "./helpers.mjs";

const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value, null, fc.sample(fc.constantFrom(0, 2), 1)[0]));
const piece = fc.oneof(
  json,
  json.map((text) => "```json\n" + text + "\n```"),
  json.map((text) => "```\n" + text),
  json.map((text) => text.slice(0, Math.max(1, Math.floor(text.length / 2)))),
  json.map((text) => text.replace(/"/g, "'")),
  json.map((text) => text.replace(/}$/, ",}")),
  fc.constantFrom("Sure! Here is the JSON:", "I can't help with that.", "<think>{maybe}</think>", "\n", " ", "{", "]", "\"", "\\", "[tool]"),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
);
const texts = fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join("\n"));

test("extract(t).toJSON() equals jxray check's line on random texts", () => {
  const samples = fc.sample(texts, { numRuns: 300, seed: Number(process.env.JXRAY_PROPERTY_SEED ?? 20261202) });
  const dir = mkdtempSync(join(tmpdir(), "jxray-property-"));
  try {
    samples.forEach((text, index) => writeFileSync(join(dir, `t${String(index).padStart(4, "0")}.txt`), text));
    const run = runJxray(["check", dir, "--format", "jsonl"]);
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(lines.length, samples.length, run.stderr);
    for (const line of lines) {
      const text = samples[Number(basename(line.source).slice(1, 5))];
      const outcome = extract(text);
      const mine = { ...outcome.toJSON(), source: line.source };
      assert.deepEqual(mine, line, `text: ${JSON.stringify(text)}`);
      if (line.ok) assert.deepEqual(extract(text).value, line.value, `text: ${JSON.stringify(text)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
