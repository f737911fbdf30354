// The `schema` option: any validator that implements Standard Schema (zod ≥ 3.24, valibot,
// arktype), asked through the engine about every candidate value, so the first one that
// validates wins and a value that fails is the `schema` failure with the validator's issues.

import { withBigInts } from "./bigints.js";
import { kindOf } from "./errors.js";

/** The Standard Schema interface of `schema`, or a TypeError saying what to pass. */
export function standardOf(schema) {
  if (schema === undefined || schema === null) return null;
  const standard = (typeof schema === "object" || typeof schema === "function")
    ? schema["~standard"]
    : undefined;
  if (standard && typeof standard.validate === "function") return standard;
  if (typeof schema === "object" && ("type" in schema || "properties" in schema || "$schema" in schema)) {
    throw new TypeError(
      "jxray: schema is a JSON Schema object; pass a Standard Schema validator (zod, valibot, arktype) " +
        "made from it, or check the value yourself (see docs/typescript.md, \"Schemas\")",
    );
  }
  throw new TypeError(
    "jxray: schema must implement Standard Schema (a zod, valibot or arktype schema); got " +
      kindOf(schema),
  );
}

/** The schema as a JSON Schema document, when the validator can say it (Standard JSON
 * Schema: zod 4, valibot with its converter, arktype); null when it cannot. */
export function jsonSchemaOf(schema) {
  const jsonSchema = schema?.["~standard"]?.jsonSchema;
  if (typeof jsonSchema?.output !== "function") return null;
  try {
    const document = jsonSchema.output({ target: "draft-2020-12" });
    return document && typeof document === "object" ? document : null;
  } catch {
    return null;
  }
}

/**
 * The validator's verdict on a value as the engine sends it (compact JSON, then, with
 * `bigints`, a newline and the exact integers to put in it): `{ issues: null, output }`
 * when it validates (`output` is the validator's value: transforms and defaults applied),
 * else `{ issues }`.
 */
export function judgeValue(standard, wire) {
  const newline = wire.indexOf("\n");
  const value = newline < 0 ? JSON.parse(wire) : withBigInts(JSON.parse(wire.slice(0, newline)), JSON.parse(wire.slice(newline + 1)));
  return issuesOf(standard, value);
}

/** Each explained outcome (an array of them) that is ok given, as `output`, the value the
 * validator returned for it (`outputs`, in order); unchanged without a validator. */
export function withOutputs(explained, request, outputs) {
  const all = Array.isArray(explained) ? explained : [explained];
  if (request.standard) {
    let next = 0;
    for (const one of all) if (one.record.ok) one.output = { value: outputs[next++] };
  }
  return all;
}

function issuesOf(standard, value) {
  const result = standard.validate(value);
  if (result && typeof result.then === "function") {
    // Its settling is of no use now; a rejection must not go unhandled.
    result.then(undefined, () => {});
    throw new TypeError(
      "jxray: the schema validates asynchronously (an async refinement or transform); extract() is " +
        "synchronous, so pass a schema whose checks are synchronous",
    );
  }
  if (!result.issues) return { issues: null, output: result.value };
  return { issues: plainIssues(result.issues) };
}

/** The issues of a part of a streamed value as `standard` (the part's own validator) finds
 * them; none when it validates, or when it answers asynchronously (an early judgement is
 * no use later: the end asks the whole schema). */
export function partIssues(standard, value) {
  const result = standard.validate(value);
  if (result && typeof result.then === "function") {
    result.then(undefined, () => {});
    return [];
  }
  return result.issues ? plainIssues(result.issues) : [];
}

/** Standard Schema issues as the engine reads them: each path step a key or an index. */
function plainIssues(issues) {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((step) => {
      const key = typeof step === "object" && step !== null ? step.key : step;
      return typeof key === "number" ? key : String(key);
    }),
    message: String(issue.message),
  }));
}
