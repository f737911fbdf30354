// What streaming costs in TypeScript, side by side in one Node process (BENCHMARKS.md,
// "Streaming in TypeScript"): an answer fed 8 characters at a time to jxray's
// `createExtractor` (each snapshot read, the value kept up to date from its changes), against
// the ways apps stream today — the AI SDK's `parsePartialJson` and `JSON.parse(jsonrepair(…))`
// on every accumulated prefix — and against one `extract` of the whole text. The answer is a
// fenced array of records at two sizes (n and 2n), the same as scripts/stream-speed.py's, to
// show which of them grows linearly.
//
//   node bench/stream-speed.mjs        (in npm/, after scripts/build-npm.sh)
//
// Prints a Markdown table: the median of 5 runs of each (3 for the per-prefix parsers), and
// the machine.

import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { parsePartialJson } from "ai";
import { jsonrepair } from "jsonrepair";
import { createExtractor, extract } from "jxray";

const CHUNK = 8;
const FENCE = "```json\n";

function answer(records) {
  const items = Array.from({ length: records }, (_, n) => ({
    id: n,
    name: `Item number ${n} with a longer name`,
    price: n * 3 + 0.25,
    tags: ["a", "b\n"],
    active: n % 2 === 0,
  }));
  return FENCE + JSON.stringify({ items }, null, 2) + "\n```";
}

function chunks(text) {
  const pieces = [];
  for (let at = 0; at < text.length; at += CHUNK) pieces.push(text.slice(at, at + CHUNK));
  return pieces;
}

function jxrayFed(text) {
  const extractor = createExtractor();
  let last;
  for (const piece of chunks(text)) last = extractor.feed(piece).value;
  return [last, extractor.end("stop")];
}

/** The fence's body, as a caller that already stripped the fence would hand it over. */
function prefixes(text) {
  const body = text.slice(FENCE.length);
  const ends = [];
  for (let at = CHUNK; at < body.length + CHUNK; at += CHUNK) ends.push(Math.min(at, body.length));
  return ends.map((end) => body.slice(0, end));
}

async function partialJsonPerPrefix(text) {
  let last;
  for (const prefix of prefixes(text)) last = (await parsePartialJson(prefix)).value;
  return last;
}

function jsonrepairPerPrefix(text) {
  let last;
  for (const prefix of prefixes(text)) {
    try {
      last = JSON.parse(jsonrepair(prefix));
    } catch {
      // A prefix jsonrepair cannot mend: the app keeps its last value.
    }
  }
  return last;
}

async function medianMs(run, text, times = 5) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run(text);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

console.log(`${cpus().length} cores, ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}`);
console.log(
  "| answer | extract once | extractor, 8-character chunks | `parsePartialJson` on every prefix | × | `JSON.parse(jsonrepair(…))` on every prefix | × |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
// One warm-up pass of each, so that the first row is not the JIT's.
const warm = answer(20);
extract(warm);
jxrayFed(warm);
await partialJsonPerPrefix(warm);
jsonrepairPerPrefix(warm);
const rows = [];
for (const records of [150, 300]) {
  const text = answer(records);
  const once = await medianMs((t) => extract(t), text);
  const fed = await medianMs(jxrayFed, text);
  const partial = await medianMs(partialJsonPerPrefix, text, 3);
  const repaired = await medianMs(jsonrepairPerPrefix, text, 3);
  rows.push([text.length, fed]);
  console.log(
    `| ${(text.length / 1024).toFixed(0)} KB | ${once.toFixed(2)} ms | ${fed.toFixed(2)} ms | ${partial.toFixed(1)} ms | ${(partial / fed).toFixed(0)}× | ${repaired.toFixed(1)} ms | ${(repaired / fed).toFixed(0)}× |`,
  );
}
const [[small, smallMs], [big, bigMs]] = rows;
console.log(`twice the text (${small} → ${big} characters) costs the extractor ${(bigMs / smallMs).toFixed(2)}× the time`);
