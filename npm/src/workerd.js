// Cloudflare Workers (workerd) and other runtimes that forbid compiling code at run time:
// the module is imported as a compiled WebAssembly.Module, which their bundlers and the
// runtime's module rules give for a `.wasm` import.

import module from "../dist/jxray.wasm";
import { createJxray } from "./api.js";

export * from "./api.js";

const jxray = createJxray(module);

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
