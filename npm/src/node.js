// Node (ESM), Bun and Deno: the CommonJS build (dist/index.cjs) re-exported, so `import` and
// `require` give one module instance — one engine, one set of classes, one telemetry switch —
// instead of two copies whose outcomes and errors fail each other's `instanceof` (the
// dual-package hazard). This way round works on Node 18+ (ESM may import CommonJS; CommonJS
// may `require` ESM only from Node 20.19), Bun and Deno.

import jxray from "../dist/index.cjs";

export const {
  createJxray,
  Outcome,
  repairPrompt,
  instrument,
  ExtractError,
  TruncatedError,
  NoJsonError,
  InvalidJsonError,
  SchemaError,
  UnreadableError,
} = jxray;
/** Find, judge and decode the JSON in a model's text. */
export const extract = jxray.extract;
/** Every output of a provider response (its text, each tool call), each its own outcome. */
export const extractResponse = jxray.extractResponse;
/** Generate, extract, and re-ask once when the verdict says a repair request can fix it. */
export const repair = jxray.repair;
/** A streaming extractor: feed chunks, see what is known, end with the outcome. */
export const createExtractor = jxray.createExtractor;
/** The value after each change of a stream, as `partialObjectStream` gives it. */
export const partialValues = jxray.partialValues;
