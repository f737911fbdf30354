// What extractResponse reads. A provider response as its SDK returns it (OpenAI chat or
// Responses, Anthropic, Gemini, Ollama) goes to the engine as its JSON body, read by the
// same envelope readers as a `.json` capture file. A Vercel AI SDK `generateText` result is
// no provider body: its text and each tool call's input are judged with its finishReason.
// A text or response holding a lone surrogate is `unreadable` (unicode.js), as extract says.

import { isWellFormed } from "./unicode.js";

const decoder = new TextDecoder();

/** `{ body }` for the engine's envelope readers, or `{ texts }` to judge one by one. */
export function responseInputs(response) {
  if (typeof response === "string") return { body: isWellFormed(response) ? response : null };
  if (response instanceof Uint8Array) return { body: decoder.decode(response) };
  if (response instanceof ArrayBuffer) return { body: decoder.decode(new Uint8Array(response)) };
  if (response === null || typeof response !== "object") {
    throw new TypeError(
      "jxray: extractResponse() takes the response object an SDK returned, its JSON text or a generateText result",
    );
  }
  if (typeof response.finishReason === "string" && typeof response.text === "string") {
    return { texts: generateTextOutputs(response) };
  }
  return { body: wellFormedJson(response) };
}

/** The response as JSON text; null when a string (or key) in it holds a lone surrogate,
 * which JSON.stringify would write as an escape no JSON reader takes. */
function wellFormedJson(response) {
  let wellFormed = true;
  const body = JSON.stringify(response, (key, value) => {
    if (!isWellFormed(key) || (typeof value === "string" && !isWellFormed(value))) wellFormed = false;
    return value;
  });
  return wellFormed ? body : null;
}

/** The text (unless empty beside tool calls) and each tool call's input, named as the
 * envelope readers name a response's outputs. */
function generateTextOutputs(result) {
  const stopReason = result.finishReason;
  const calls = (result.toolCalls ?? []).map((call) =>
    typeof call.input === "string" ? call.input : JSON.stringify(call.input ?? call.args ?? null),
  );
  const texts = [];
  if (result.text !== "" || calls.length === 0) texts.push(result.text);
  const several = texts.length + calls.length > 1;
  const outputs = texts.map((text) => ({ text, stopReason, source: "response" }));
  calls.forEach((text, index) =>
    outputs.push({ text, stopReason, source: several ? `response#call-${index + 1}` : "response" }),
  );
  return outputs;
}
