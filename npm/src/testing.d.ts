// Types of `jxray/testing`.

import type { ExtractOptions, FailureKind, Layer, Outcome, StandardSchemaV1 } from "./index.js";

/** What to assert about a text's outcome; only the keys given are checked. */
export interface Expected {
  ok?: boolean;
  layer?: Layer | null;
  value?: unknown;
  failure?: FailureKind | null;
  defect?: string | null;
  cause?: string | null;
  warnings?: string[];
}

/** Assert what extraction says about `text`; throws an AssertionError naming the layer,
 * the failure and the defect when it differs. Returns the outcome. */
export declare function assertExtracts<S extends StandardSchemaV1 | undefined = undefined>(
  text: string,
  expected: Expected,
  options?: ExtractOptions<S>,
): Outcome;

export interface FixtureVerdict {
  name: string;
  status: "passed" | "failed" | "expected-failing" | "fixed";
  expected: string;
  actual: string;
  described: string;
}

export interface FixtureCase {
  /** The file's path under the folder, with `/`. */
  name: string;
  path: string;
  replay(): FixtureVerdict;
  /** Throws on a regression, with the expectation, the engine's outcome and a diff. */
  check(): FixtureVerdict;
}

/** Every fixture file (`*.json`) under `folder`, in path order. */
export declare function fixtures(folder: string): FixtureCase[];

export declare class JxrayAssertionError extends Error {
  readonly expected: unknown;
  readonly actual: unknown;
}
