// Whether a JavaScript string is Unicode text: a lone surrogate (half of a UTF-16 pair)
// cannot be handed to the engine as UTF-8, so wherever a text comes from (extract, a
// generateText result, a response object or its JSON text), it is `unreadable` with this
// message, never silently replaced by U+FFFD.

export const LONE_SURROGATE =
  "the text holds a lone surrogate (half of a UTF-16 pair), which is not Unicode text and cannot be read; fix the text where it was decoded";

/** Whether `text` holds no lone surrogate. */
export function isWellFormed(text) {
  return typeof text.isWellFormed === "function" ? text.isWellFormed() : !/[\uD800-\uDFFF]/.test(text) || wellFormedSlow(text);
}

function wellFormedSlow(text) {
  return !/(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF]))|(?:(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/.test(text);
}
