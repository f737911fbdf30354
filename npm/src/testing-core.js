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
    const mismatched = Object.keys(expected).filter((key) => !sameValue(actual[key], expected[key]));
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
        replay: () => jxray.replayFixture(...readFixture(path), path),
        /** Throw on a regression (and on a known gap the engine now closes). */
        check() {
          const verdict = this.replay();
          if (verdict.status === "failed") {
            throw new JxrayAssertionError(
              `${verdict.heading}\n${verdict.mismatch.trimEnd()}`,
              JSON.parse(verdict.expected),
              JSON.parse(verdict.actual),
            );
          }
          if (verdict.status === "fixed") {
            throw new JxrayAssertionError(
              `${verdict.heading.replace(/^FAIL /, "")}: fixed: the engine now does what this known gap expects; remove "known_gap" from the fixture`,
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

/**
 * Whether two values are equal as `jxray test` compares JSON values: objects by their keys
 * whatever the order, arrays item by item, numbers and bigints exactly, and nothing equal
 * to a value of another type (NaN is no null, a Date no string, a string no bigint).
 */
function sameValue(a, b) {
  if (typeof a !== typeof b) return false;
  if (typeof a !== "object" || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b) || !plain(a) || !plain(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

/** An array or an object literal: what a JSON value is made of (no Date, Map, class). */
function plain(value) {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

function stableJson(value) {
  return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
}

function brief(value) {
  const text = stableJson(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** What a file that is not a regular one is, as `jxray test` names it. */
function kindOf(stat) {
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  return "a special file";
}

/** `[text, why not]` for the engine: the fixture file's text (a symlink is followed), or
 * why it is not read (a FIFO is never opened: reading it would wait for a writer). */
function readFixture(path) {
  const stat = statSync(path);
  if (!stat.isFile()) {
    return ["", `is ${kindOf(stat)}, not a regular file; jxray reads only regular files, so copy the content into one`];
  }
  return [readFileSync(path, "utf8"), undefined];
}

/** The fixture files under `folder`, sorted, as `jxray test` lists them (`*.json`: a
 * symlink or a FIFO too, which `check()` reads or refuses; not a symlinked folder). */
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
      else if (entry.name.endsWith(".json")) found.push(path);
    }
  };
  walk(folder);
  if (found.length === 0) {
    throw new Error(`jxray: ${folder}: no fixture files (*.json) in the folder; save some from the workbench first`);
  }
  return found;
}
