// What extraction says about one text. `ok`, `value` and `layer` come with the quick
// reply; everything else (the failure, span, repairs, warnings, trace, the jsonl line) is
// the engine's explanation, asked for the first time any of it is read, so code that
// reads only `ok` and `value` does not pay for it.

import { withBigInts } from "./bigints.js";
import { errorFor } from "./errors.js";
import { exactJson } from "./exact.js";

/** The outcome's decision for the repair loop (repair.js): module-private, not API. */
export const DECIDE = Symbol("jxray.decide");

export class Outcome {
  #engine;
  #text;
  #request;
  #explained;

  constructor(engine, text, request, ok, layer, value, explained) {
    this.#engine = engine;
    this.#text = text;
    this.#request = request;
    this.#explained = explained ?? null;
    /** Whether a value was accepted. */
    this.ok = ok;
    /** Where the value came from (`direct`, `fenced`, `scanned`, …); null when none was decoded. */
    this.layer = layer;
    /** The decoded value; undefined when nothing was decoded (a schema failure keeps it). */
    this.value = value;
  }

  static accepted(engine, text, request, layer, value) {
    return new Outcome(engine, text, request, true, layer, value);
  }

  static breaksSchema(engine, text, request, layer, value) {
    return new Outcome(engine, text, request, false, layer, value);
  }

  static failed(engine, text, request) {
    return new Outcome(engine, text, request, false, null, undefined);
  }

  static unreadable(engine, text, request, message) {
    const unreadable = request.with({ unreadable: message });
    return Outcome.fromExplained(engine, engine.explain("", unreadable), unreadable, text);
  }

  /** An outcome explained at once, named `source` on its line. */
  static explained(engine, text, request, source) {
    const explained = engine.explain(text, request.with({ source }));
    return Outcome.fromExplained(engine, explained, request, text);
  }

  static fromExplained(engine, explained, request, text) {
    const { record } = explained;
    text ??= explained.text ?? null;
    // With a schema, an ok outcome's value is the validator's output (core.js: withOutputs).
    const value = explained.output
      ? explained.output.value
      : record.value === null && !record.ok
        ? undefined
        : withBigInts(explained.bigints?.length ? structuredClone(record.value) : record.value, explained.bigints);
    return new Outcome(engine, text ?? null, request, record.ok, record.layer, value, explained);
  }

  #whole() {
    if (this.#explained === null) this.#explained = this.#engine.explain(this.#text, this.#request);
    return this.#explained;
  }

  /** Why nothing was accepted (kind, defect, cause, line, column, message, defects); null on success. */
  get failure() {
    return this.#whole().record.failure;
  }

  /** [start, end) of the accepted candidate in the text, in UTF-16 code units (`text.slice(...span)`). */
  get span() {
    return this.#whole().spanUtf16 ?? null;
  }

  /** [start, end) in UTF-8 bytes, as the jsonl line and the CLI count. */
  get byteSpan() {
    return this.#whole().record.span;
  }

  /** The repairs made to the accepted candidate, in text order. */
  get repairs() {
    return this.#whole().record.repairs;
  }

  /** The warning kinds, in order, without repeats. */
  get warnings() {
    return this.#whole().record.warnings;
  }

  /** Each warning with its offset and message. */
  get warningDetails() {
    return this.#whole().record.warning_details;
  }

  /** Whether any repair was applied. */
  get repaired() {
    return this.#whole().record.repaired;
  }

  /** Every candidate tried, in order. */
  get trace() {
    return this.#whole().trace;
  }

  /** The lenient reading of the best invalid candidate, if there was one. */
  get lenient() {
    return this.#whole().lenient ?? null;
  }

  /** The tool call written as text that the value is the body of, or that the failure is. */
  get toolCall() {
    return this.#whole().toolCall ?? null;
  }

  /** The text the decoder saw: the repaired candidate, or the raw span. */
  get normalized() {
    return this.#whole().normalized ?? null;
  }

  /** How the stop reason reads: `complete`, `truncated`, `absent`, … */
  get stop() {
    return this.#whole().record.stop;
  }

  get stopReason() {
    return this.#whole().record.stop_reason;
  }

  get provider() {
    return this.#whole().record.provider;
  }

  get model() {
    return this.#whole().record.model;
  }

  /** The text that was judged (a response's output text, or a tool call's arguments). */
  get text() {
    return this.#text;
  }

  /** `-` for a text; `response`, `response#call-N` for a response's outputs. */
  get source() {
    return this.#whole().record.source;
  }

  /** The `jxray check --format jsonl` line as an object (what JSON.stringify writes): its
   * numbers exact where the runtime has JSON.rawJSON (exact.js). */
  toJSON() {
    const whole = this.#whole();
    return exactJson(whole.record, whole);
  }

  /** The outcome in one line, as `jxray extract` prints it. */
  toString() {
    const { record, described } = this.#whole();
    return record.source === "-" ? described : `${record.source}: ${described}`;
  }

  /** What the repair loop should do about this outcome, and the repair request's text. */
  [DECIDE](more) {
    if (this.#text === null) throw new TypeError("jxray: this outcome does not carry its text, so no repair request can quote it");
    const decision = this.#engine.decide(this.#text, this.#request.with(more));
    // The decision came with this outcome explained: reading it later runs nothing again.
    this.#explained ??= decision.explained;
    return decision;
  }

  /** The value, or the error of this failure's kind (a SyntaxError), with the CLI's message. */
  valueOrThrow() {
    if (this.ok) return this.value;
    throw errorFor(this, this.toString());
  }
}
