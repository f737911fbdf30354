// Numbers written as the reply wrote them. JSON.parse keeps a number as a double, so
// `12345678901234567890`, `1.10` and `1e400` come back as `12345678901234567000`, `1.1` and
// `Infinity`; where the runtime has JSON.rawJSON (with JSON.parse's source text: Node 21+,
// Bun, Deno, current browsers), `outcome.toJSON()` writes each such number with its own
// digits, as `jxray check` does. Elsewhere it writes the doubles (docs/typescript.md, "The
// outcome").

/** Whether this runtime can write a number's own digits. */
export const EXACT = typeof JSON.rawJSON === "function";

const RAW = Symbol("jxray.rawNumbers");

/** JSON.parse of an engine reply; with JSON.rawJSON, the numbers a double does not write
 * back as they were are noted (by the object holding them) for `exactJson`. */
export function parseReply(text) {
  if (!EXACT) return JSON.parse(text);
  const raw = new Map();
  const value = JSON.parse(text, function (key, parsed, context) {
    if (typeof parsed === "number" && context?.source !== undefined && JSON.stringify(parsed) !== context.source) {
      if (!raw.has(this)) raw.set(this, new Map());
      raw.get(this).set(key, context.source);
    }
    return parsed;
  });
  if (raw.size > 0) {
    // The notes go with the reply and with each outcome in it (a response's list, a
    // repair decision's `explained`).
    const parts = Array.isArray(value) ? value : [value, value?.explained];
    for (const part of parts) if (part !== null && typeof part === "object") Object.defineProperty(part, RAW, { value: raw });
  }
  return value;
}

/** `object` (a part of a reply parsed by `parseReply`, `reply` the whole) with each noted
 * number as its raw JSON; `object` itself when nothing was noted. */
export function exactJson(object, reply) {
  const raw = reply?.[RAW];
  return raw ? copy(object, raw) : object;
}

function copy(node, raw) {
  if (node === null || typeof node !== "object") return node;
  const numbers = raw.get(node);
  const out = Array.isArray(node) ? [] : {};
  for (const key of Object.keys(node)) {
    const source = numbers?.get(key);
    out[key] = source === undefined ? copy(node[key], raw) : JSON.rawJSON(source);
  }
  return out;
}
