// A verdict while the output arrives (docs/streaming.md, contract §7): the engine's streaming
// extractor, one WebAssembly instance per stream (crates/jxray-wasm/src/stream.rs), fed each
// chunk and answering with what changed, never the whole value again. This module keeps the
// value the changes build, reads the sources apps stream from (strings, bytes, a
// ReadableStream, the AI SDK's text and full streams, the openai and Anthropic SDKs' chunks),
// and ends with `extract` on the joined text, as the contract's end is.

import { Engine } from "./engine.js";
import { kindOf } from "./errors.js";
import { pointerSteps } from "./items.js";
import { DEFAULT_REQUEST } from "./request.js";
import { standardOf } from "./schema.js";

const decoder = new TextDecoder();
const SIGNALS = ["runaway", "tool-call-text", "reasoning", "refusal", "invalid", "schema"];
const STREAM_OPTIONS = ["stopOn", "runawayBytes"];

/** `createExtractor` and `partialValues` over one package instance (see core.js). */
export function makeStreams(jxray, pool) {
  const createExtractor = (options = {}) => new StreamExtractor(jxray, pool, options);
  /** The value after each change, as `partialObjectStream` gives it (a new object each time). */
  async function* partialValues(source, options = {}) {
    const extractor = createExtractor(options);
    for await (const snapshot of extractor.read(source)) {
      if (snapshot.deltas.length > 0 && snapshot.value !== undefined) yield structuredClone(snapshot.value);
    }
  }
  return { createExtractor, partialValues };
}

class StreamExtractor {
  #jxray;
  #engine;
  #text = "";
  #carry = "";
  #bytes = new TextDecoder();
  #stopOn;
  #extractOptions;
  #abort = new AbortController();
  #ended = false;

  constructor(jxray, pool, options) {
    if (options === null || typeof options !== "object") throw new TypeError(`jxray: options must be an object, not ${kindOf(options)}`);
    const stopOn = typeof options.stopOn === "string" ? options.stopOn.split(",").map((s) => s.trim()) : options.stopOn ?? [];
    const unknown = [].concat(stopOn).find((name) => !SIGNALS.includes(name));
    if (unknown !== undefined) throw new TypeError(`jxray: stopOn: unknown signal ${JSON.stringify(unknown)}; the signals are ${SIGNALS.join(", ")}`);
    const bound = options.runawayBytes ?? 0;
    if (!Number.isInteger(bound) || bound < 0) throw new TypeError("jxray: runawayBytes is a whole number of bytes");
    this.#jxray = jxray;
    this.#stopOn = new Set(stopOn);
    this.#extractOptions = Object.fromEntries(Object.entries(options).filter(([key]) => !STREAM_OPTIONS.includes(key)));
    this.#engine = new Engine(pool.module, pool);
    // With a schema, each part of the value is judged as it closes (`schema` signals).
    const judged = standardOf(options.schema) !== null;
    this.#engine.parts = judged ? options.schema : null;
    this.#engine.exports.jx_stream_open(bound, judged ? 1 : 0);
    /** The value so far, built from every snapshot's changes. */
    this.value = undefined;
    /** The first signal `stopOn` names, once one was raised. */
    this.stopped = null;
    /** The outcome, once `read` has ended or `end` was called. */
    this.outcome = undefined;
  }

  /** Aborted when a `stopOn` signal is raised: give it to the request (`abortSignal`,
   * `signal`) so the provider stops generating. */
  get signal() {
    return this.#abort.signal;
  }

  /** Feed the next chunk (a string, or bytes split anywhere); the snapshot. */
  feed(chunk) {
    if (this.#ended) throw new TypeError("jxray: this extractor has ended");
    let text = typeof chunk === "string" ? chunk : this.#bytes.decode(chunk, { stream: true });
    text = this.#carry + text;
    this.#carry = "";
    // A surrogate pair split between chunks waits for its other half.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.#text += text;
    const raw = JSON.parse(decoder.decode(this.#engine.call("jx_stream_feed", DEFAULT_REQUEST, text)));
    for (const delta of raw.deltas) this.value = applyDelta(this.value, delta);
    for (const signal of raw.signals) {
      if (this.stopped === null && this.#stopOn.has(signal.kind)) {
        this.stopped = signal;
        this.#abort.abort(new Error(`jxray: stopped on ${signal.kind}: ${signal.message}`));
      }
    }
    return {
      state: raw.state,
      why: raw.why,
      layer: raw.layer,
      dialect: raw.dialect,
      provisional: raw.provisional,
      deltas: raw.deltas,
      openPaths: raw.open_paths,
      finalPaths: raw.final_paths,
      signals: raw.signals,
      bytes: raw.bytes,
      value: this.value,
    };
  }

  /** The text received so far. */
  get text() {
    return this.#text;
  }

  /** The outcome of the whole text, as `extract` gives it (with the extractor's options). */
  end(stopReason) {
    if (!this.#ended) {
      this.#text += this.#carry + this.#bytes.decode();
      this.#ended = true;
      this.#engine.exports.jx_stream_close();
      this.outcome = this.#jxray.extract(this.#text, { ...this.#extractOptions, stopReason });
    }
    return this.outcome;
  }

  /** Read a source as it arrives — an async iterable or a ReadableStream of strings, bytes,
   * or an SDK's chunks and events — yielding each snapshot; stops at a `stopOn` signal (the
   * signal aborts); `outcome` is set when it ends. */
  async *read(source, stopReason) {
    try {
      for await (const item of iterate(source)) {
        const text = textOf(item);
        if (text === undefined) continue;
        yield this.feed(text);
        if (this.stopped !== null) break;
      }
    } finally {
      this.end(this.stopped === null ? stopReason : undefined);
    }
  }
}

/** An async iterable over a ReadableStream, or the source itself. */
async function* iterate(source) {
  if (source && typeof source.getReader === "function" && !(Symbol.asyncIterator in source)) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* source;
}

/** The output's text in one item of a stream: a string or bytes as they are; an openai chunk's
 * content (or its first tool call's arguments); an Anthropic event's text or tool input; an
 * AI SDK full-stream part's text or tool input. Other items (a start, usage) carry none. */
function textOf(item) {
  if (typeof item === "string" || item instanceof Uint8Array) return item;
  if (item === null || typeof item !== "object") return undefined;
  const delta = item.choices?.[0]?.delta;
  if (delta) return delta.content ?? delta.tool_calls?.[0]?.function?.arguments ?? undefined;
  if (item.type === "content_block_delta") return item.delta?.text ?? item.delta?.partial_json;
  if (item.type === "text-delta") return item.text ?? item.textDelta;
  if (item.type === "tool-input-delta") return item.delta;
  if (item.type === "response.output_text.delta" || item.type === "response.function_call_arguments.delta") return item.delta;
  return undefined;
}

/** `value` with one change made: a new member or item, more of a string, or none. */
export function applyDelta(value, delta) {
  if (delta.op === "withdraw") return undefined;
  if (delta.path === "") return delta.op === "add" ? delta.value : value + delta.text;
  const steps = pointerSteps(delta.path);
  const last = steps.pop();
  let parent = value;
  for (const step of steps) parent = parent[Array.isArray(parent) ? Number(step) : step];
  const key = Array.isArray(parent) ? Number(last) : last;
  const next = delta.op === "add" ? delta.value : parent[key] + delta.text;
  // An own property, whatever the key: `__proto__` from a model is a member, never a prototype.
  Object.defineProperty(parent, key, { value: next, writable: true, enumerable: true, configurable: true });
  return value;
}
