// `import` and `require` give one module instance: one engine, one set of classes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "jxray";
import * as esmTesting from "jxray/testing";

const require = createRequire(import.meta.url);
const cjs = require("jxray");
const cjsTesting = require("jxray/testing");

test("import and require give the same classes and functions", () => {
  for (const name of Object.keys(cjs)) assert.equal(esm[name], cjs[name], name);
  assert.deepEqual(Object.keys(esm).sort(), Object.keys(cjs).sort());
  assert.equal(esmTesting.JxrayAssertionError, cjsTesting.JxrayAssertionError);
  assert.equal(esmTesting.assertExtracts, cjsTesting.assertExtracts);
});

test("an outcome from one is an outcome to the other", () => {
  const outcome = esm.extract('{"a": 1,}');
  assert.ok(outcome instanceof cjs.Outcome);
  assert.equal(typeof cjs.repairPrompt(outcome), "string");
  assert.throws(() => cjs.extract("no json").valueOrThrow(), esm.NoJsonError);
});
