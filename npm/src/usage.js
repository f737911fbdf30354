// Token counts from a reply's usage, whichever provider or SDK spelled them: read by the
// engine (crates/jxray-formats/src/usage.rs, the reader Python's loop uses too), so the
// repair loop's budget and its spans count OpenAI, Anthropic, AI SDK, Gemini and Ollama
// usage alike. This file only hands the usage over as JSON.

/** No counts: the usage said none, or was not an object. */
export const NO_USAGE = Object.freeze({ input: undefined, output: undefined, total: 0 });

/** The usage as JSON text (an SDK object through its toJSON, a bigint as a number); null
 * when it is not an object or cannot be written (a cycle). */
export function usageText(usage) {
  if (usage === null || typeof usage !== "object") return null;
  try {
    return JSON.stringify(usage, (_, value) => (typeof value === "bigint" ? Number(value) : value));
  } catch {
    return null;
  }
}

/** `{ input, output, total }` from the engine's reply; a count it did not find is undefined
 * (the total: 0). */
export function usageCounts({ input, output, total }) {
  return { input: input ?? undefined, output: output ?? undefined, total: total ?? 0 };
}
