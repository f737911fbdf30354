// Node (ESM), Bun and Deno: the module is read from beside this file and compiled at import.

import { jxray } from "./node-engine.js";

export * from "./api.js";

/** Find, judge and decode the JSON in a model's text. */
export const extract = jxray.extract;
/** Every output of a provider response (its text, each tool call), each its own outcome. */
export const extractResponse = jxray.extractResponse;
/** Generate, extract, and re-ask once when the verdict says a repair request can fix it. */
export const repair = jxray.repair;
