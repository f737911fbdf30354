// The loop the seeds end with: generate, extract, and — only when the verdict says a repair
// request can fix it — one bounded re-ask naming the failure (contract §6). The decision and
// the request's text are the engine's (crates/jxray-formats/src/repair/), the same as in
// Python; this file only calls `generate` and keeps the record.

import { openChain } from "./captures.js";
import { DECIDE, Outcome } from "./outcome.js";
import { NoJsonError } from "./errors.js";
import { jsonSchemaOf } from "./schema.js";
import { checkArguments, EXTRACT_OPTIONS, isProviderResponse, readReply, usageOf } from "./repair-inputs.js";
import { usageText } from "./usage.js";
import { otelApi, RepairSpans } from "./telemetry.js";

/** The repair request's text for a failed outcome (null when it is ok). */
export function repairPrompt(outcome, options = {}) {
  if (!(outcome instanceof Outcome)) throw new TypeError("jxray: repairPrompt() takes an outcome from extract()");
  return outcome[DECIDE](decisionOptions(options)).prompt;
}

/** `host.files`, when the runtime has a file system, resolves to what `captures` writes with. */
export function makeRepair(jxray, pool, host = {}) {
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
      const finished = await loop({ pool, jxray, generate, prompt, options, limits, chain, spans });
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

/** The attempts, then the result. The run (when to call, with what, why it stopped, the
 * telemetry) is the engine's (crates/jxray-formats/src/repair/run.rs), carried here between
 * calls without being read. */
async function loop({ pool, jxray, generate, prompt, options, limits, chain, spans }) {
  const { signal } = options;
  const extractOptions = Object.fromEntries(EXTRACT_OPTIONS.filter((n) => options[n] !== undefined).map((n) => [n, options[n]]));
  const decide = decisionOptions(options);
  const started = Date.now();
  const attempts = [];
  let run = pool.runStart(prompt, { maxRepairs: limits.maxRepairs, ...limits.budget }, decide.repairTable);
  let request = prompt;
  let previous = null;
  let decision = null;
  for (;;) {
    if (signal?.aborted) throw abortError(signal);
    const step = pool.runMayCall(run, Date.now() - started);
    run = step.run;
    if (!step.mayCall) break;
    const attempt = attempts.length + 1;
    const span = spans.attempt(attempt);
    const began = new Date();
    const raw = await generate(request, { attempt, signal, previous });
    // A reply that came back after the abort is neither judged nor written.
    if (signal?.aborted) throw abortError(signal);
    const latencyMs = Date.now() - began.getTime();
    const judged = judgeReply(pool, raw, extractOptions, (usage) => ({ ...decide, run, usage: usageText(usage) }));
    const { reply, outcome } = judged;
    decision = judged.decision;
    run = decision.run;
    const tokens = jxray.tokenUsage(reply.usage);
    const record = { attempt, prompt: request, text: reply.text, outcome, stopReason: reply.stopReason ?? null, usage: reply.usage ?? null, latencyMs, model: reply.model };
    if (chain) record.capture = chain.write(record, began);
    attempts.push(record);
    spans.judged(span, record, tokens, decision.action, outcome.ok && attempt > 1);
    if (decision.next === null) break;
    previous = { prompt: request, text: reply.text, outcome, repairRequest: decision.prompt };
    request = decision.next;
  }
  const finished = result(pool, run, attempts, options);
  if (chain) finished.chain = chain.id;
  // A method, not a member: the result still compares and serialises as its fields.
  Object.defineProperty(finished, "valueOrThrow", { value: valueOrThrow, enumerable: false });
  return finished;
}

/** What `generate` gave, its outcome and the decision about it, the output judged once: a
 * provider SDK's response is read as `extractResponse` reads it (so a structured refusal is
 * a refusal, never an empty text); anything else is a text, or an object with one.
 * `more(usage)` is what the decision is asked with. */
function judgeReply(pool, raw, extractOptions, more) {
  if (isProviderResponse(raw)) {
    const usage = usageOf(raw);
    const { outcome, decision } = pool.attemptResponse(raw, extractOptions, more(usage));
    const reply = { text: outcome.text ?? "", stopReason: outcome.stopReason ?? undefined, usage, model: outcome.model ?? undefined };
    return { reply, outcome, decision };
  }
  const reply = readReply(raw);
  const options = { ...extractOptions, stopReason: reply.stopReason };
  return { reply, ...pool.attempt(reply.text, options, more(reply.usage)) };
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
  if (options.required != null) more.required = options.required;
  else {
    // The engine names the schema's required top-level keys, when it can say them
    // (Standard JSON Schema).
    const document = jsonSchemaOf(options.schema);
    if (document != null) more.requiredOf = JSON.stringify(document);
  }
  return more;
}

function abortError(signal) {
  return signal.reason ?? new DOMException("The repair loop was aborted", "AbortError");
}

/** The result, as the run ended; the fallback's value is the caller's to give. */
function result(pool, run, attempts, options) {
  const outcome = attempts.at(-1).outcome;
  // As Python's fallback=None: null and undefined are no fallback; `() => null` is a null one.
  const fallback = options.fallback;
  const fallbackKind = fallback == null ? null : (options.fallbackKind ?? (typeof fallback === "function" ? "function" : "value"));
  const ending = pool.runEnd(run, fallbackKind, options.schemaVersion ?? null);
  let value = ending.status === "success" ? outcome.value : undefined;
  if (ending.status === "fallback") value = typeof fallback === "function" ? fallback(outcome) : fallback;
  const { status, repaired, lenient, stopped, telemetry } = ending;
  return { status, value, repaired, lenient, outcome, stopped, attempts, telemetry };
}
