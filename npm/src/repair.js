// The loop the seeds end with: generate, extract, and — only when the verdict says a repair
// request can fix it — one bounded re-ask naming the failure (contract §6). The decision and
// the request's text are the engine's (crates/jxray-formats/src/repair.rs), the same as in
// Python; this file only calls `generate` and keeps the record.

import { openChain } from "./captures.js";
import { DECIDE, Outcome } from "./outcome.js";
import { NoJsonError } from "./errors.js";
import { jsonSchemaOf } from "./schema.js";
import { checkArguments, EXTRACT_OPTIONS, isProviderResponse, overBudget, readReply, usageOf } from "./repair-inputs.js";
import { otelApi, RepairSpans } from "./telemetry.js";

/** The repair request's text for a failed outcome (null when it is ok). */
export function repairPrompt(outcome, options = {}) {
  if (!(outcome instanceof Outcome)) throw new TypeError("jxray: repairPrompt() takes an outcome from extract()");
  return outcome[DECIDE](decisionOptions(options)).prompt;
}

/** `host.files`, when the runtime has a file system, resolves to what `captures` writes with. */
export function makeRepair(jxray, host = {}) {
  /**
   * Call `generate(prompt)`, extract its output and, when the policy says a repair request
   * can fix the failure, call it again (at most `maxRepairs` times) with the request; with
   * `captures`, each attempt is written there as a capture of one chain.
   */
  async function repair(generate, prompt, options = {}) {
    const limits = checkArguments(generate, prompt, options);
    const chain = options.captures == null ? null : await openChain(options.captures, host.files, jsonSchemaOf(options.schema), jxray);
    const spans = new RepairSpans(await otelApi());
    try {
      const finished = await loop({ jxray, generate, prompt, options, limits, chain, spans });
      spans.end(finished);
      return finished;
    } catch (error) {
      // Every span ends, whatever ended the loop: generate, its reply, the fallback, an abort.
      spans.fail(error);
      throw error;
    }
  }

  return { repair, repairPrompt };
}

/** The attempts, then the result. */
async function loop({ jxray, generate, prompt, options, limits, chain, spans }) {
  const { signal } = options;
  const extractOptions = Object.fromEntries(EXTRACT_OPTIONS.filter((n) => options[n] !== undefined).map((n) => [n, options[n]]));
  const decide = decisionOptions(options);
  const started = Date.now();
  const attempts = [];
  let spentTokens = 0;
  let request = prompt;
  let previous = null;
  let stopped = null;
  let decision = null;
  for (let attempt = 1; attempt <= 1 + limits.maxRepairs; attempt++) {
    if (signal?.aborted) throw abortError(signal);
    if (attempt > 1 && overBudget(limits.budget, spentTokens, Date.now() - started)) {
      stopped = "budget";
      break;
    }
    const span = spans.attempt(attempt);
    const began = new Date();
    const raw = await generate(request, { attempt, signal, previous });
    // A reply that came back after the abort is neither judged nor written.
    if (signal?.aborted) throw abortError(signal);
    const latencyMs = Date.now() - began.getTime();
    const { reply, outcome } = judgeReply(jxray, raw, extractOptions);
    const tokens = jxray.tokenUsage(reply.usage);
    spentTokens += tokens.total;
    decision = outcome[DECIDE](decide);
    const record = { attempt, prompt: request, text: reply.text, outcome, stopReason: reply.stopReason ?? null, usage: reply.usage ?? null, latencyMs, model: reply.model };
    if (chain) record.capture = chain.write(record, began);
    attempts.push(record);
    spans.judged(span, record, tokens, decision.action, outcome.ok && attempt > 1);
    // An ok outcome the policy does not accept (a tool call written as text) is no success.
    if (decision.action === "accept") break;
    if (decision.action !== "repair") {
      stopped = decision.action;
      break;
    }
    if (attempt === 1 + limits.maxRepairs) {
      stopped = "max-repairs";
      break;
    }
    previous = { prompt: request, text: reply.text, outcome, repairRequest: decision.prompt };
    request = `${prompt}\n\n${decision.prompt}`;
  }
  const finished = result(attempts, stopped, decision, options);
  if (chain) finished.chain = chain.id;
  // A method, not a member: the result still compares and serialises as its fields.
  Object.defineProperty(finished, "valueOrThrow", { value: valueOrThrow, enumerable: false });
  return finished;
}

/** What `generate` gave, and its outcome: a provider SDK's response is read as
 * `extractResponse` reads it (so a structured refusal is a refusal, never an empty text);
 * anything else is a text, or an object with one, extracted. */
function judgeReply(jxray, raw, extractOptions) {
  if (isProviderResponse(raw)) {
    const [outcome] = jxray.extractResponse(raw, extractOptions);
    const reply = { text: outcome.text ?? "", stopReason: outcome.stopReason ?? undefined, usage: usageOf(raw), model: outcome.model ?? undefined };
    return { reply, outcome };
  }
  const reply = readReply(raw);
  return { reply, outcome: jxray.extract(reply.text, { ...extractOptions, stopReason: reply.stopReason }) };
}

/** The value (the accepted one, or the fallback's, which the caller asked for), or the
 * error of the last failure's kind, carrying the outcome. */
function valueOrThrow() {
  if (this.status !== "failure") return this.value;
  if (!this.outcome.ok) return this.outcome.valueOrThrow();
  // The accepted body of a tool call written as text: no answer, as for no JSON.
  throw new NoJsonError(
    `${this.outcome.source}: the output is a tool call written as text; the serving layer did not parse the model's tool call (fix its tool parser or chat template)`,
    this.outcome,
  );
}

function decisionOptions(options) {
  const more = {};
  if (options.policy !== undefined) {
    if (typeof options.policy !== "object" || options.policy === null) throw new TypeError("jxray: policy maps a failure kind or cause to an action");
    more.repairTable = Object.entries(options.policy).map(([name, action]) => [name, String(action)]);
  }
  if (options.maxOutputChars !== undefined) more.maxOutputChars = options.maxOutputChars;
  const required = options.required ?? requiredKeys(options.schema);
  if (required.length > 0) more.required = required;
  return more;
}

/** The schema's required top-level keys, when it can say them (Standard JSON Schema). */
function requiredKeys(schema) {
  const document = jsonSchemaOf(schema);
  return Array.isArray(document?.required) ? document.required.map(String) : [];
}

function abortError(signal) {
  return signal.reason ?? new DOMException("The repair loop was aborted", "AbortError");
}

function result(attempts, stopped, decision, options) {
  const last = attempts.at(-1);
  const outcome = last.outcome;
  const accepted = outcome.ok && decision.action === "accept";
  const failures = attempts.map((a) => failureName(a.outcome));
  let status = accepted ? "success" : "failure";
  let value = accepted ? outcome.value : undefined;
  let fallbackKind = null;
  // As Python's fallback=None: null and undefined are no fallback; `() => null` is a null one.
  if (!accepted && options.fallback != null) {
    status = "fallback";
    const fallback = options.fallback;
    value = typeof fallback === "function" ? fallback(outcome) : fallback;
    fallbackKind = options.fallbackKind ?? (typeof fallback === "function" ? "function" : "value");
  }
  return {
    status,
    value,
    repaired: accepted && attempts.length > 1,
    lenient: accepted && outcome.layer === "lenient",
    outcome,
    stopped: accepted ? null : stopped,
    attempts,
    telemetry: {
      schema_version: options.schemaVersion ?? null,
      initial_failure: failures[0],
      repair_failure: attempts.length > 1 ? failures.at(-1) : null,
      attempt_count: attempts.length,
      fallback_kind: fallbackKind,
      raw_output_hash: decision.rawOutputHash,
    },
  };
}

/** The telemetry's name for how an attempt failed: its kind, `tool-call-text` for the
 * accepted body of a tool call written as text, null for a value taken. */
function failureName(outcome) {
  if (!outcome.ok) return outcome.failure.kind;
  return outcome.warnings.includes("tool-call-text") ? "tool-call-text" : null;
}
