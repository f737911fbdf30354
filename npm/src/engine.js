// One WebAssembly instance and the calls across its boundary
// (crates/jxray-wasm/src/boundary.rs).

import { withBigInts } from "./bigints.js";
import { kindOf } from "./errors.js";
import { closedIssues } from "./items.js";
import { judgeValue, withOutputs } from "./schema.js";
import { Outcome } from "./outcome.js";
import { countOutcome, countsExtract } from "./telemetry.js";
import { responseInputs } from "./response.js";
import { DEFAULT_REQUEST, requestOf } from "./request.js";
import { parseReply } from "./exact.js";
import { NOT_PLAIN, plainValue } from "./plain.js";
import { isWellFormed, LONE_SURROGATE } from "./unicode.js";
import { NO_USAGE, usageCounts, usageText } from "./usage.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// Quick replies (reply.rs): a status byte, the layer, a tab, then the value: `@START,END`
// when the text there is the value as strict JSON (UTF-16 offsets), or the value's JSON.
const ACCEPTED = 0x31;
const BREAKS_SCHEMA = 0x32;
const AS_WRITTEN = 0x40;
const COMMA = 0x2c;

/** The two offsets after `@` in a quick reply (`@12,80`). */
function offsets(bytes) {
  let start = 0;
  let i = 1;
  for (; bytes[i] !== COMMA; i++) start = start * 10 + bytes[i] - 48;
  let end = 0;
  for (i++; i < bytes.length; i++) end = end * 10 + bytes[i] - 48;
  return [start, end];
}

/** The layer a quick reply names (its ASCII bytes from 1 up to `tab`), without a
 * TextDecoder call: the names are few, and each is made into a string once. */
const LAYERS = new Map();
function layerName(reply, tab) {
  const key = reply[1] * 64 + tab;
  const known = LAYERS.get(key);
  if (known !== undefined && known.length === tab - 1 && sameBytes(known, reply, 1)) return known;
  const name = decoder.decode(reply.subarray(1, tab));
  LAYERS.set(key, name);
  return name;
}

function sameBytes(name, bytes, from) {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== bytes[from + i]) return false;
  return true;
}

/** One WebAssembly instance; `pool` is what its outcomes ask later (see core.js). */
export class Engine {
  constructor(module, pool) {
    this.module = module;
    this.pool = pool;
    /** A call is running in the instance (a validator it asks may call extract again). */
    this.busy = false;
    /** The validator asked while a call runs. */
    this.standard = null;
    /** The validator's output for each value an ok outcome of the call takes, in order. */
    this.outputs = [];
    /** A stream's schema, asked about each part of the value as it closes. */
    this.parts = null;
    this.start();
  }

  /** A fresh instance: at the start, and after a call that trapped or threw midway. */
  start() {
    const engine = this;
    const imports = {
      jxray: {
        validate(ptr, len, explain) {
          const { issues, output } = judgeValue(engine.standard, decoder.decode(engine.bytes(ptr, len)));
          if (!explain) return issues ? 0 : 1;
          // The value taken is asked once more, with `explain`: an ok outcome's value is
          // the validator's output for it (transforms, defaults), in outcome order.
          if (!issues) {
            engine.outputs.push(output);
            return 0;
          }
          return engine.issues(issues);
        },
        closed(pathPtr, pathLen, ptr, len) {
          const pointer = decoder.decode(engine.bytes(pathPtr, pathLen));
          const value = JSON.parse(decoder.decode(engine.bytes(ptr, len)));
          const issues = closedIssues(engine.parts, pointer, value);
          return issues.length === 0 ? 0 : engine.issues(issues);
        },
      },
    };
    this.exports = new WebAssembly.Instance(this.module, imports).exports;
    this.view = new Uint8Array(this.exports.memory.buffer);
  }

  bytes(ptr, len) {
    return this.memory().subarray(ptr, ptr + len);
  }

  /** Hand the module a validator's issues (their length; the module reads them at once). */
  issues(issues) {
    const written = encoder.encode(JSON.stringify(issues));
    const at = this.exports.jx_issues(written.length);
    this.bytes(at, written.length).set(written);
    return written.length;
  }

  extract(text, options) {
    const outcome = this.judge(text, options);
    if (countsExtract()) countOutcome(outcome, "extract");
    return outcome;
  }

  judge(text, options) {
    if (typeof text !== "string") {
      throw new TypeError(`jxray: extract() takes the model's text as a string, not ${kindOf(text)}`);
    }
    const request = requestOf(options);
    if (!isWellFormed(text)) return Outcome.unreadable(this.pool, text, request, LONE_SURROGATE);
    if (request.encoded.length === 0 && request.standard === null) {
      // Plain JSON with the default options: V8 parses it, the engine is asked only if
      // the explanation is read.
      const value = plainValue(text);
      if (value !== NOT_PLAIN) return Outcome.accepted(this.pool, text, request, "direct", value);
    }
    const reply = this.call("jx_extract", request, text);
    const status = reply[0];
    if (status !== ACCEPTED && status !== BREAKS_SCHEMA) return Outcome.failed(this.pool, text, request);
    const tab = reply.indexOf(9);
    const layer = layerName(reply, tab);
    const value = this.valueOf(reply.subarray(tab + 1), text, request, status);
    return status === ACCEPTED
      ? Outcome.accepted(this.pool, text, request, layer, value)
      : Outcome.breaksSchema(this.pool, text, request, layer, value);
  }

  /** The value a quick reply gives, after its tab. */
  valueOf(rest, text, request, status) {
    // Parsed once, by the runtime's own parser, from the caller's string.
    if (rest[0] === AS_WRITTEN) return JSON.parse(text.slice(...offsets(rest)));
    if (status === ACCEPTED && request.standard) return this.outputs[0];
    let bigints = null;
    if (request.wire.bigints) {
      const newline = rest.indexOf(10);
      if (newline >= 0) {
        bigints = JSON.parse(decoder.decode(rest.subarray(newline + 1)));
        rest = rest.subarray(0, newline);
      }
    }
    return withBigInts(JSON.parse(decoder.decode(rest)), bigints);
  }

  /** The repair loop's decision about `text` (crates/jxray-wasm/src/repair.rs). */
  decide(text, request) {
    return parseReply(decoder.decode(this.call("jx_repair", request, text)));
  }

  /** One repair attempt's output judged once: its outcome, and the loop's decision about it
   * with `more` (crates/jxray-wasm/src/repair.rs). */
  attempt(text, options, more, source) {
    let request = requestOf(options);
    if (source !== undefined) request = request.with({ source });
    if (!isWellFormed(text)) request = request.with({ unreadable: LONE_SURROGATE });
    const decision = parseReply(decoder.decode(this.call("jx_repair", request.with(more), text)));
    const [explained] = withOutputs([decision.explained], request, this.outputs);
    return { outcome: Outcome.fromExplained(this.pool, explained, request, text), decision };
  }

  /** A provider response's first output (the repair loop's reply), judged once with the
   * loop's decision about it, as `extractResponse` reads it. */
  attemptResponse(response, options, more) {
    const request = requestOf(options);
    const inputs = responseInputs(response, request);
    if (inputs.texts) {
      const [{ text, stopReason, source }] = inputs.texts;
      return this.attempt(text, { ...options, stopReason }, more, source);
    }
    if (inputs.body === null) {
      const outcome = Outcome.unreadable(this.pool, null, request.with({ source: "response" }), LONE_SURROGATE);
      return { outcome, decision: parseReply(decoder.decode(this.call("jx_repair", request.with({ ...more, source: "response", unreadable: LONE_SURROGATE }), ""))) };
    }
    const [decision] = parseReply(decoder.decode(this.call("jx_response", request.with(more), inputs.body)));
    const [explained] = withOutputs([decision.explained], request, this.outputs);
    return { outcome: Outcome.fromExplained(this.pool, explained, request), decision };
  }

  /** A repair run's steps that are not an output, one line each (crates/jxray-wasm/src/
   * repair.rs, `step`): the run is text the package carries between calls without reading. */
  runStart(prompt, { maxRepairs, maxTokens, maxMs }, repairTable = []) {
    const step = `start\n${maxRepairs}\n${maxTokens ?? "-"}\n${maxMs ?? "-"}\n${JSON.stringify(repairTable)}\n${prompt}`;
    return decoder.decode(this.call("jx_run", DEFAULT_REQUEST, step));
  }

  runMayCall(run, elapsedMs) {
    const reply = this.call("jx_run", DEFAULT_REQUEST, `mayCall\n${elapsedMs}\n${run}`);
    return { mayCall: reply[0] === 0x31, run: decoder.decode(reply.subarray(1)) };
  }

  runEnd(run, fallbackKind, schemaVersion) {
    const step = `end\n${JSON.stringify(fallbackKind ?? null)}\n${JSON.stringify(schemaVersion ?? null)}\n${run}`;
    return JSON.parse(decoder.decode(this.call("jx_run", DEFAULT_REQUEST, step)));
  }

  /** `{ input, output, total }` of a usage object in any provider's spelling
   * (crates/jxray-formats/src/usage.rs). */
  usage(usage) {
    const json = usageText(usage);
    if (json === null) return NO_USAGE;
    return usageCounts(JSON.parse(decoder.decode(this.call("jx_usage", DEFAULT_REQUEST, json))));
  }

  /** A repair attempt's `{ day, stem, files }` from its record as JSON
   * (crates/jxray-formats/src/recorded/attempt.rs). */
  attemptFiles(record) {
    return JSON.parse(decoder.decode(this.call("jx_attempt", DEFAULT_REQUEST, record)));
  }

  /** The `number`th candidate stem for `stem` when a name is taken; null past the limit
   * (crates/jxray-formats/src/recorded/place.rs). */
  nextStem(stem, number) {
    return JSON.parse(decoder.decode(this.call("jx_next_stem", DEFAULT_REQUEST, JSON.stringify({ stem, number }))));
  }

  /** The whole outcome of `text` (asked the first time an explanation is read). */
  explain(text, request) {
    return withOutputs(parseReply(decoder.decode(this.call("jx_explain", request, text))), request, this.outputs)[0];
  }

  extractResponse(response, options) {
    const request = requestOf(options);
    const inputs = responseInputs(response, request);
    if (inputs.texts) {
      return inputs.texts.map(({ text, stopReason, source }) =>
        isWellFormed(text)
          ? Outcome.explained(this.pool, text, request.with({ stopReason }), source)
          : Outcome.unreadable(this.pool, text, request.with({ stopReason, source }), LONE_SURROGATE),
      );
    }
    if (inputs.body === null) return [Outcome.unreadable(this.pool, null, request.with({ source: "response" }), LONE_SURROGATE)];
    const explained = withOutputs(parseReply(decoder.decode(this.call("jx_response", request, inputs.body))), request, this.outputs);
    return explained.map((one) => Outcome.fromExplained(this.pool, one, request));
  }

  /** One call across the boundary: the options, then the text; the reply's bytes, a view of
   * the module's memory that is good until the next call. */
  call(entry, request, text) {
    const options = request.encoded;
    const room = options.length + text.length * 3;
    const exports = this.exports;
    this.standard = request.standard;
    this.outputs = [];
    this.busy = true;
    let status;
    try {
      const at = exports.jx_input(room);
      const memory = this.memory();
      if (options.length > 0) memory.set(options, at);
      const { written } = encoder.encodeInto(text, memory.subarray(at + options.length, at + room));
      status = exports[entry](options.length, written);
    } catch (error) {
      // A trap (a bug in jxray) or a validator that threw leaves the instance midway.
      this.start();
      if (error instanceof WebAssembly.RuntimeError) {
        throw new Error(`jxray bug: the engine stopped (${error.message}); please report the text that caused it`);
      }
      throw error;
    } finally {
      this.standard = null;
      this.busy = false;
    }
    const at = exports.jx_output();
    const reply = this.memory().subarray(at, at + exports.jx_output_len());
    if (status !== 0) throw new TypeError(decoder.decode(reply));
    return reply;
  }

  /** The instance's memory, in bytes. */
  memoryBytes() {
    return this.exports.memory.buffer.byteLength;
  }

  /** A view of the module's memory, made again when growing it detached the last one. */
  memory() {
    if (this.view.byteLength === 0) this.view = new Uint8Array(this.exports.memory.buffer);
    return this.view;
  }
}
