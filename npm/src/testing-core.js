// The test helpers over an engine: an assertion that names the layer, the failure and the
// defect, and fixture replay for any test runner (vitest, jest, node:test), reaching the
// verdict `jxray test` reaches.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The error a failed check throws: an AssertionError with `expected` and `actual`, which
 * vitest, jest and node:test show as a diff. */
export class JxrayAssertionError extends Error {
  constructor(message, expected, actual) {
    super(message);
    this.name = "AssertionError";
    this.code = "ERR_ASSERTION";
    this.expected = expected;
    this.actual = actual;
    this.operator = "jxray";
    this.generatedMessage = false;
  }
}

const EXPECTATION_KEYS = new Set(["ok", "layer", "value", "failure", "defect", "cause", "warnings"]);

export function makeTesting(jxray) {
  /**
   * Assert what extraction says about `text`: any of `ok`, `layer`, `value` (deep equal),
   * `failure` (the kind), `defect`, `cause`, `warnings` (kinds, in order). Returns the outcome.
   */
  function assertExtracts(text, expected, options) {
    for (const key of Object.keys(expected ?? {})) {
      if (!EXPECTATION_KEYS.has(key)) {
        throw new TypeError(`jxray: unknown expectation ${JSON.stringify(key)}; use ${[...EXPECTATION_KEYS].join(", ")}`);
      }
    }
    const outcome = jxray.extract(text, options);
    const actual = summary(outcome, expected);
    const mismatched = Object.keys(expected).filter((key) => !sameJson(actual[key], expected[key]));
    if (mismatched.length > 0) {
      const want = Object.fromEntries(Object.keys(expected).map((key) => [key, expected[key]]));
      throw new JxrayAssertionError(
        `jxray: ${mismatched.join(", ")} differ: expected ${brief(want)}, got ${String(outcome)}`,
        want,
        actual,
      );
    }
    return outcome;
  }

  /** Every fixture file under `folder` (as `jxray test` finds them), each with `check()`. */
  function fixtures(folder) {
    return fixtureFiles(folder).map((path) => {
      const name = relative(folder, path).split(sep).join("/");
      return {
        name,
        path,
        /** The verdict: `passed`, `failed`, `expected-failing` or `fixed`. */
        replay: () => jxray.replayFixture(readFileSync(path, "utf8"), path),
        /** Throw on a regression (and on a known gap the engine now closes). */
        check() {
          const verdict = this.replay();
          if (verdict.status === "failed") {
            throw new JxrayAssertionError(
              `FAIL ${verdict.name} (${path})\n${verdict.mismatch.trimEnd()}`,
              JSON.parse(verdict.expected),
              JSON.parse(verdict.actual),
            );
          }
          if (verdict.status === "fixed") {
            throw new JxrayAssertionError(
              `${name}: fixed: the engine now does what this known gap expects; remove "known_gap" from the fixture`,
              JSON.parse(verdict.expected),
              JSON.parse(verdict.actual),
            );
          }
          return verdict;
        },
      };
    });
  }

  return { assertExtracts, fixtures, JxrayAssertionError };
}

/** What `outcome` says, in the terms `expected` asks about. */
function summary(outcome, expected) {
  const actual = { ok: outcome.ok, layer: outcome.layer };
  if ("value" in expected) actual.value = outcome.value;
  const failure = outcome.ok ? null : outcome.failure;
  if ("failure" in expected) actual.failure = failure ? failure.kind : null;
  if ("defect" in expected) actual.defect = failure ? failure.defect : null;
  if ("cause" in expected) actual.cause = failure ? failure.cause : null;
  if ("warnings" in expected) actual.warnings = outcome.warnings;
  return actual;
}

function sameJson(a, b) {
  return stableJson(a) === stableJson(b);
}

function stableJson(value) {
  return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
}

function brief(value) {
  const text = stableJson(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The fixture files under `folder`, sorted, as `jxray test` lists them (`*.json`). */
function fixtureFiles(folder) {
  let stat;
  try {
    stat = statSync(folder);
  } catch (error) {
    throw new Error(`jxray: ${folder}: cannot read the fixtures folder (${error.code ?? error.message}); check the path`);
  }
  if (stat.isFile()) return [folder];
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".json")) found.push(path);
    }
  };
  walk(folder);
  if (found.length === 0) {
    throw new Error(`jxray: ${folder}: no fixture files (*.json) in the folder; save some from the workbench first`);
  }
  return found;
}
