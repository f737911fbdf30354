// The engine behind every entry point: one WebAssembly instance and the calls across its
// boundary (crates/jxray-wasm/src/boundary.rs). The runtime-specific entries (node.js,
// browser.js, workerd.js) only find the module and hand it here.

import { withBigInts } from "./bigints.js";
import { kindOf } from "./errors.js";
import { issuesOf, standardOf } from "./schema.js";
import { Outcome } from "./outcome.js";
import { makeRepair } from "./repair.js";
import { countOutcome, countsExtract } from "./telemetry.js";
import { responseInputs } from "./response.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NO_OPTIONS = new Uint8Array(0);
const OPTION_NAMES = new Set(["stopReason", "acceptLenient", "decodeStringified", "pick", "schema", "bigints"]);
// Quick replies (reply.rs): a status byte, the layer, a tab, the value JSON.
const ACCEPTED = 0x31;
const BREAKS_SCHEMA = 0x32;

/**
 * The API over a compiled `WebAssembly.Module`. `host` is what the runtime lends the package
 * beyond the module: the Node, Bun and Deno entries give `files` (see node-files.js), which
 * the repair loop's `captures` write with.
 */
export function createJxray(module, host = {}) {
  const engine = new Engine(module);
  const jxray = {
    extract: (text, options) => engine.extract(text, options),
    extractResponse: (response, options) => engine.extractResponse(response, options),
    /** The verdict on a fixture file's text (jxray/testing); `unreadable` says why the
     * file was not read, for a one-line error naming it. */
    replayFixture: (text, unreadable, source) =>
      JSON.parse(decoder.decode(engine.call("jx_fixture", DEFAULT_REQUEST.with({ source, unreadable }), text))),
  };
  jxray.repair = makeRepair(jxray, host).repair;
  return jxray;
}

class Engine {
  constructor(module) {
    this.module = module;
    /** The validator asked while a call runs. */
    this.standard = null;
    this.start();
  }

  /** A fresh instance: at the start, and after a call that trapped or threw midway. */
  start() {
    const engine = this;
    const imports = {
      jxray: {
        validate(ptr, len, explain) {
          const value = JSON.parse(decoder.decode(engine.bytes(ptr, len)));
          const issues = issuesOf(engine.standard, value);
          if (!explain) return issues ? 0 : 1;
          if (!issues) return 0;
          const written = encoder.encode(JSON.stringify(issues));
          const at = engine.exports.jx_issues(written.length);
          engine.bytes(at, written.length).set(written);
          return written.length;
        },
      },
    };
    this.exports = new WebAssembly.Instance(this.module, imports).exports;
    this.view = new Uint8Array(this.exports.memory.buffer);
  }

  bytes(ptr, len) {
    return this.memory().subarray(ptr, ptr + len);
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
    if (!isWellFormed(text)) return Outcome.unreadable(this, text, request, LONE_SURROGATE);
    const reply = this.call("jx_extract", request, text);
    const status = reply[0];
    if (status !== ACCEPTED && status !== BREAKS_SCHEMA) return Outcome.failed(this, text, request);
    const tab = reply.indexOf(9);
    const layer = decoder.decode(reply.subarray(1, tab));
    let rest = reply.subarray(tab + 1);
    let bigints = null;
    if (request.wire.bigints) {
      const newline = rest.indexOf(10);
      if (newline >= 0) {
        bigints = JSON.parse(decoder.decode(rest.subarray(newline + 1)));
        rest = rest.subarray(0, newline);
      }
    }
    const value = withBigInts(JSON.parse(decoder.decode(rest)), bigints);
    return status === ACCEPTED
      ? Outcome.accepted(this, text, request, layer, value)
      : Outcome.breaksSchema(this, text, request, layer, value);
  }

  /** The repair loop's decision about `text` (crates/jxray-wasm/src/repair.rs). */
  decide(text, request) {
    return JSON.parse(decoder.decode(this.call("jx_repair", request, text)));
  }

  /** The whole outcome of `text` (asked the first time an explanation is read). */
  explain(text, request) {
    return JSON.parse(decoder.decode(this.call("jx_explain", request, text)));
  }

  extractResponse(response, options) {
    const request = requestOf(options);
    const inputs = responseInputs(response, request);
    if (inputs.texts) {
      return inputs.texts.map(({ text, stopReason, source }) =>
        Outcome.explained(this, text, request.with({ stopReason }), source),
      );
    }
    const explained = JSON.parse(decoder.decode(this.call("jx_response", request, inputs.body)));
    return explained.map((one) => Outcome.fromExplained(this, one, request));
  }

  /** One call across the boundary: the options, then the text; the reply's bytes, a view of
   * the module's memory that is good until the next call. */
  call(entry, request, text) {
    const options = request.encoded;
    const room = options.length + text.length * 3;
    const exports = this.exports;
    this.standard = request.standard;
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
    }
    const at = exports.jx_output();
    const reply = this.memory().subarray(at, at + exports.jx_output_len());
    if (status !== 0) throw new TypeError(decoder.decode(reply));
    return reply;
  }

  /** A view of the module's memory, made again when growing it detached the last one. */
  memory() {
    if (this.view.byteLength === 0) this.view = new Uint8Array(this.exports.memory.buffer);
    return this.view;
  }
}

/** The options as the engine reads them, checked here so a mistake is named at once. */
function requestOf(options) {
  if (options === undefined || options === null) return DEFAULT_REQUEST;
  if (typeof options !== "object") {
    throw new TypeError(`jxray: options must be an object, not ${kindOf(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw new TypeError(
        `jxray: unknown option ${JSON.stringify(name)}; the options are ${[...OPTION_NAMES].join(", ")}`,
      );
    }
  }
  const { stopReason, acceptLenient, decodeStringified, pick, schema, bigints } = options;
  if (stopReason !== undefined && stopReason !== null && typeof stopReason !== "string") {
    throw new TypeError(`jxray: stopReason must be a string (the provider's finish reason), not ${kindOf(stopReason)}`);
  }
  for (const [name, flag] of [["acceptLenient", acceptLenient], ["decodeStringified", decodeStringified], ["bigints", bigints]]) {
    if (flag !== undefined && typeof flag !== "boolean") {
      throw new TypeError(`jxray: ${name} must be true or false, not ${kindOf(flag)}`);
    }
  }
  const standard = standardOf(schema);
  const wire = {};
  if (stopReason) wire.stopReason = stopReason;
  if (acceptLenient) wire.acceptLenient = true;
  if (decodeStringified) wire.decodeStringified = true;
  if (pick !== undefined) wire.pick = pick;
  if (standard) wire.validator = true;
  if (bigints) wire.bigints = true;
  return makeRequest(wire, standard);
}

function makeRequest(wire, standard) {
  const json = JSON.stringify(wire);
  return {
    wire,
    standard,
    encoded: json === "{}" ? NO_OPTIONS : encoder.encode(json),
    with(more) {
      return makeRequest({ ...wire, ...more }, standard);
    },
  };
}

const DEFAULT_REQUEST = makeRequest({}, null);

const LONE_SURROGATE =
  "the text holds a lone surrogate (half of a UTF-16 pair), which is not Unicode text and cannot be read; fix the text where it was decoded";

function isWellFormed(text) {
  return typeof text.isWellFormed === "function" ? text.isWellFormed() : !/[\uD800-\uDFFF]/.test(text) || wellFormedSlow(text);
}

function wellFormedSlow(text) {
  return !/(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF]))|(?:(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/.test(text);
}
