// What the repair loop takes from its caller, checked before the first call: the options,
// the budget, and each reply `generate` returns (its text, stop reason in any provider's
// spelling, usage and model).

import { kindOf } from "./errors.js";
import { checkNames } from "./names.js";

export const EXTRACT_OPTIONS = ["schema", "acceptLenient", "decodeStringified", "pick", "bigints"];
const REPAIR_OPTIONS = [
  ...EXTRACT_OPTIONS,
  "maxRepairs",
  "budget",
  "fallback",
  "fallbackKind",
  "schemaVersion",
  "policy",
  "signal",
  "maxOutputChars",
  "required",
  "captures",
];
const BUDGET_KEYS = ["maxTokens", "maxMs"];
/** Where a reply carries its stop reason: ours, the AI SDK's and Gemini's, OpenAI's,
 * Anthropic's, Ollama's. */
const STOP_KEYS = ["stopReason", "finishReason", "finish_reason", "stop_reason", "done_reason"];
/** Where a reply carries its usage: any SDK's `usage`, a Gemini response's metadata. */
const USAGE_KEYS = ["usage", "usageMetadata", "usage_metadata"];

/** The loop's arguments checked: a TypeError for a mistake, before anything is paid for. */
export function checkArguments(generate, prompt, options) {
  if (typeof generate !== "function") throw new TypeError("jxray: repair() takes generate, a function of the prompt");
  if (typeof prompt !== "string") throw new TypeError("jxray: repair() takes the prompt as a string");
  if (options === null || typeof options !== "object") throw new TypeError(`jxray: repair()'s options must be an object, not ${kindOf(options)}`);
  checkNames(options, REPAIR_OPTIONS, "option", "options");
  const maxRepairs = options.maxRepairs ?? 1;
  if (!Number.isInteger(maxRepairs) || maxRepairs < 0) throw new TypeError("jxray: maxRepairs must be a whole number, 0 or more");
  checkTypes(options);
  return { maxRepairs, budget: budgetOf(options.budget) };
}

/** The options whose value the loop only reads later (a repair request, the telemetry),
 * checked now: a mistake found after the first call would have been paid for. */
function checkTypes({ maxOutputChars, fallbackKind, schemaVersion, required, signal }) {
  const wrong = (name, what, value) => new TypeError(`jxray: ${name} must be ${what}, not ${kindOf(value)}`);
  if (maxOutputChars !== undefined && !(Number.isInteger(maxOutputChars) && maxOutputChars >= 0)) {
    throw wrong("maxOutputChars", "a whole number, 0 or more", maxOutputChars);
  }
  for (const [name, value] of [["fallbackKind", fallbackKind], ["schemaVersion", schemaVersion]]) {
    if (value != null && typeof value !== "string") throw wrong(name, "a string", value);
  }
  if (required != null && !(Array.isArray(required) && required.every((key) => typeof key === "string"))) {
    throw wrong("required", "an array of key names (strings)", required);
  }
  if (signal != null && (typeof signal !== "object" || typeof signal.aborted !== "boolean")) throw wrong("signal", "an AbortSignal", signal);
}

/** `{ maxTokens, maxMs }`, each a number of 0 or more when given. */
function budgetOf(budget) {
  if (budget === undefined || budget === null) return {};
  if (typeof budget !== "object" || Array.isArray(budget)) {
    throw new TypeError(`jxray: budget must be an object with maxTokens and/or maxMs, not ${kindOf(budget)}`);
  }
  checkNames(budget, BUDGET_KEYS, "budget key", "keys");
  for (const key of BUDGET_KEYS) {
    const limit = budget[key];
    if (limit !== undefined && !(typeof limit === "number" && limit >= 0)) {
      throw new TypeError(`jxray: budget.${key} must be a number of 0 or more, not ${typeof limit === "number" ? limit : kindOf(limit)}`);
    }
  }
  return { maxTokens: budget.maxTokens, maxMs: budget.maxMs };
}

/** Whether `generate` gave a provider SDK's own response (an openai chat completion or
 * Responses object, an Anthropic message, a Gemini or Ollama response), which is read as
 * `extractResponse` reads it; an object with a `text` string (the AI SDK's result) is not. */
export function isProviderResponse(reply) {
  if (reply === null || typeof reply !== "object" || typeof reply.text === "string") return false;
  return (
    Array.isArray(reply.choices) ||
    Array.isArray(reply.candidates) ||
    reply.object === "response" ||
    (Array.isArray(reply.content) && reply.role === "assistant") ||
    (reply.message !== undefined && "done" in reply)
  );
}

/** Where a reply carries its usage. */
export function usageOf(reply) {
  return USAGE_KEYS.map((key) => reply[key]).find((u) => u != null);
}

/** What `generate` gave: a text, or an object with `text`, a stop reason, `usage` and `model`. */
export function readReply(reply) {
  if (typeof reply === "string") return { text: reply };
  if (reply && typeof reply === "object" && reply.text == null && reply.content == null) {
    throw new TypeError(
      "jxray: generate() returned a text of null: that is usually a refusal or a tool call, which the SDK's response says; return the response itself and jxray reads it",
    );
  }
  if (reply === null || typeof reply !== "object" || typeof reply.text !== "string") {
    throw new TypeError(
      `jxray: generate() must return the model's text, or an object with text, stopReason and usage, not ${kindOf(reply)}` +
        (reply && typeof reply === "object" ? " without a text string" : ""),
    );
  }
  // The AI SDK's generateText result names its model in `response.modelId`.
  const named = reply.model ?? reply.response?.modelId;
  const model = typeof named === "string" && named !== "" ? named : undefined;
  return { text: reply.text, stopReason: stopReasonOf(reply), usage: usageOf(reply), model };
}

function stopReasonOf(reply) {
  const key = STOP_KEYS.find((name) => reply[name] !== undefined && reply[name] !== null);
  if (key === undefined) return undefined;
  if (typeof reply[key] !== "string") {
    throw new TypeError(`jxray: the reply's ${key} must be a string (the provider's stop reason), not ${kindOf(reply[key])}`);
  }
  return reply[key];
}
