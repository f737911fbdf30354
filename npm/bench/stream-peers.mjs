// The streaming parsers TypeScript apps use, on the same prefix sequences as jxray's
// extractor (scripts/stream-peers.py writes the corpus and runs this; BENCHMARKS.md,
// "Streaming"): every document fed one character more at a time, each parser asked what
// the value is after each, and three things counted per parser, in documents:
//
// - invented: some answer holds what the final value does not (`12` of `125`, `true` of
//   `t`, a member the document does not have) — strings as prefixes are fine;
// - not monotone: some answer does not grow into the next one (a value that shrinks,
//   changes type, vanishes, or an answer followed by none: flicker);
// - called complete early: a prefix that ends before the value's last character reported
//   as a whole value.
//
//   node bench/stream-peers.mjs CORPUS.jsonl   (one JSON string a line: a document)

import { readFileSync } from "node:fs";
import { parsePartialJson } from "ai";
import { parse as partialJson, Allow } from "partial-json";
import { parse as jsonriver } from "jsonriver";
import { partialParse as anthropicPartial } from "@anthropic-ai/sdk/_vendor/partial-json-parser/parser.mjs";

const NONE = Symbol("no answer");

/** `a` is what `b` may grow from. */
function growsInto(a, b) {
  if (typeof a === "string" && typeof b === "string") return b.startsWith(a);
  if (Array.isArray(a) && Array.isArray(b)) return a.length <= b.length && a.every((item, i) => growsInto(item, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    return Object.keys(a).every((key) => Object.hasOwn(b, key) && growsInto(a[key], b[key]));
  }
  return Object.is(a, b) || (typeof a === "number" && a === b);
}

/** Each parser: the answers after each prefix, and which prefixes it called complete. */
const parsers = {
  "ai (parsePartialJson)": async (text) => {
    const answers = [];
    const complete = [];
    for (let end = 1; end <= text.length; end += 1) {
      const { value, state } = await parsePartialJson(text.slice(0, end));
      answers.push(state === "failed-parse" || state === "undefined-input" ? NONE : value);
      complete.push(state === "successful-parse");
    }
    return { answers, complete };
  },
  "partial-json": async (text) => {
    const answers = [];
    const complete = [];
    for (let end = 1; end <= text.length; end += 1) {
      const prefix = text.slice(0, end);
      answers.push(attempt(() => partialJson(prefix, Allow.ALL)));
      complete.push(attempt(() => partialJson(prefix, 0)) !== NONE);
    }
    return { answers, complete };
  },
  "@anthropic-ai/sdk (partialParse)": async (text) => {
    const answers = [];
    for (let end = 1; end <= text.length; end += 1) answers.push(attempt(() => anthropicPartial(text.slice(0, end))));
    return { answers, complete: answers.map(() => false) };
  },
  jsonriver: async (text) => {
    const answers = [];
    async function* bytes() {
      for (let end = 0; end < text.length; end += 1) {
        yield text[end];
        // One answer per byte: the value as it stands after it (a copy: jsonriver grows its own).
        answers.push(NONE);
      }
    }
    try {
      for await (const value of jsonriver(bytes())) answers[Math.max(0, answers.length - 1)] = structuredClone(value);
    } catch {
      // A document jsonriver refuses: its answers so far stand.
    }
    return { answers: carryForward(answers), complete: answers.map(() => false) };
  },
};

/** jsonriver answers only when the value changed: the last answer stands for the bytes after it. */
function carryForward(answers) {
  let last = NONE;
  return answers.map((answer) => (answer === NONE ? last : (last = answer)));
}

function attempt(parse) {
  try {
    const value = parse();
    return value === undefined ? NONE : value;
  } catch {
    return NONE;
  }
}

const corpus = readFileSync(process.argv[2], "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const rows = {};
for (const [name, run] of Object.entries(parsers)) {
  const counts = { documents: 0, invented: 0, notMonotone: 0, completeEarly: 0 };
  for (const text of corpus) {
    let final;
    try {
      final = JSON.parse(text);
    } catch {
      continue;
    }
    counts.documents += 1;
    const { answers, complete } = await run(text);
    const partial = answers.slice(0, -1);
    if (partial.some((answer) => answer !== NONE && !growsInto(answer, final))) counts.invented += 1;
    const flickers = partial.some((answer, i) => answer !== NONE && (answers[i + 1] === NONE || !growsInto(answer, answers[i + 1])));
    if (flickers) counts.notMonotone += 1;
    // White space after the value is no part of it: complete there is on time.
    const valueEnd = text.trimEnd().length;
    if (complete.slice(0, valueEnd - 1).some(Boolean)) counts.completeEarly += 1;
  }
  rows[name] = counts;
}
process.stdout.write(`${JSON.stringify(rows)}\n`);
