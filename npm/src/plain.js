// A text that is one JSON object or array and nothing else: its verdict is certain without
// asking the engine — the `direct` layer, accepted, the value `JSON.parse` gives — when
// nothing the engine would judge differently can be in it (see `plainValue`).

/** What `plainValue` says of a text it leaves to the engine. */
export const NOT_PLAIN = Symbol("not plain JSON");

/** A `\u` escape of a UTF-16 surrogate: `JSON.parse` takes a lone one, the engine does
 * not (or one preceded by an escaped backslash, which is no escape: left to the engine too). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** The engine's nesting limit (Options::max_depth): containers nested this deep are
 * accepted, one more is not. */
const DEPTH_LIMIT = 127;

/** The value of `text` when it is plain JSON the engine would accept as it stands, with the
 * default options: an object or array after JSON white space only, no `\u` escape of a
 * surrogate (a lone one is the engine's to judge), parsed whole by `JSON.parse`, and nested
 * no deeper than the engine's limit. Anything else is `NOT_PLAIN`. */
export function plainValue(text) {
  const first = text.charCodeAt(nonSpace(text, 0, 1));
  if (first !== 0x7b && first !== 0x5b) return NOT_PLAIN;
  // A text cut off (or followed by prose) does not end with a closer: no parse is tried.
  const last = text.charCodeAt(nonSpace(text, text.length - 1, -1));
  if (last !== 0x7d && last !== 0x5d) return NOT_PLAIN;
  if (text.includes("\\u") && SURROGATE_ESCAPE.test(text)) return NOT_PLAIN;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_PLAIN;
  }
  return fewBrackets(text) || nestsWithin(value) ? value : NOT_PLAIN;
}

/** Where the first character that is not JSON white space is, from `at` on in the direction
 * `step` (1 forward, -1 back). */
function nonSpace(text, at, step) {
  for (let c = text.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt((at += step)));
  return at;
}

/** Fewer `[` and `{` in the text than the nesting limit (those in strings counted too):
 * then it cannot nest past it. */
function fewBrackets(text) {
  let count = 0;
  for (const bracket of ["[", "{"]) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count >= DEPTH_LIMIT) return false;
    }
  }
  return true;
}

/** Whether no container in `value` is nested deeper than the limit (the root is level 1). */
function nestsWithin(value) {
  const open = [[value, 1]];
  while (open.length > 0) {
    const [node, level] = open.pop();
    if (level > DEPTH_LIMIT) return false;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") open.push([child, level + 1]);
    }
  }
  return true;
}
