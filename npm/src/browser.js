// Browsers and web workers: the module is fetched from beside this file (a bundler copies
// it along, as it does any `new URL(…, import.meta.url)` asset) and compiled at import.

import { createJxray } from "./api.js";

export * from "./api.js";

const url = new URL("../dist/jxray.wasm", import.meta.url);
const module = typeof WebAssembly.compileStreaming === "function"
  ? await WebAssembly.compileStreaming(fetch(url))
  : await WebAssembly.compile(await (await fetch(url)).arrayBuffer());
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
