// The options of one call, checked here so a mistake is named at once, and as the engine
// reads them (crates/jxray-wasm/src/request.rs).

import { kindOf } from "./errors.js";
import { checkNames } from "./names.js";
import { standardOf } from "./schema.js";

const encoder = new TextEncoder();
const NO_OPTIONS = new Uint8Array(0);
const OPTION_NAMES = ["stopReason", "acceptLenient", "decodeStringified", "pick", "schema", "bigints"];

/** The options as the engine reads them, checked here so a mistake is named at once. */
export function requestOf(options) {
  if (options === undefined || options === null) return DEFAULT_REQUEST;
  if (typeof options !== "object") {
    throw new TypeError(`jxray: options must be an object, not ${kindOf(options)}`);
  }
  checkNames(options, OPTION_NAMES, "option", "options");
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

export const DEFAULT_REQUEST = makeRequest({}, null);
