// The npm package against what TypeScript teams use instead, side by side in one Node
// process on the same replies (BENCHMARKS.md, "From TypeScript").
//
//   node bench/speed.mjs [--data /tmp/jxray-bench] [--replies 5000] [--rounds 20]
//
// The replies are the first --replies raw text captures (.txt and .md, in path order) of
// DATA/small (python3 scripts/make-bench-data.py DATA), read into memory first. Each round
// calls, over every reply and in an order that rotates each round, `extract(t).value`,
// `JSON.parse(jsonrepair(t))` (a throw counts as that reply's answer) and seed 004's
// `extractJson(t)`; a row is the best of its rounds. Then the same per jxray outcome, the
// replies that are plain JSON against a bare `JSON.parse(t)`, and the time to import each
// package (best of five fresh processes, less an empty one).

import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { jsonrepair } from "jsonrepair";
import { extract } from "jxray";
import { benchArgs, replies as readReplies } from "./replies.mjs";
import { extractJson } from "./seed004.mjs";

const args = benchArgs();
const data = args.data ?? "/tmp/jxray-bench";
const count = Number(args.replies ?? 5000);
const rounds = Number(args.rounds ?? 20);
const replies = readReplies(data, count);

const calls = {
  "extract(t).value": (t) => extract(t).value,
  "JSON.parse(jsonrepair(t))": (t) => {
    try {
      return JSON.parse(jsonrepair(t));
    } catch (error) {
      return error;
    }
  },
  "seed 004 extractJson(t)": (t) => extractJson(t),
};

/** The best round of each call over `texts`, and each call's first round (before the JIT
 * has warmed to it: what one pass in a fresh process costs). */
function best(texts, names) {
  const times = Object.fromEntries(names.map((name) => [name, Infinity]));
  const first = {};
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const call = calls[name];
      const start = performance.now();
      for (const text of texts) call(text);
      const ms = performance.now() - start;
      times[name] = Math.min(times[name], ms);
      first[name] ??= ms;
    }
  }
  return { times, first };
}

const names = Object.keys(calls);
const { times: whole, first } = best(replies, names);
const ours = whole[names[0]];
console.log(`${replies.length} replies, ${(replies.reduce((n, t) => n + t.length, 0) / 1e6).toFixed(1)} MB; best of ${rounds} rounds; node ${process.version}\n`);
console.log("| call | best round | per reply | jxray is faster by | first round | jxray is faster by |\n| --- | ---: | ---: | ---: | ---: | ---: |");
for (const name of names) {
  const ms = whole[name];
  const ratio = name === names[0] ? "" : `**${(ms / ours).toFixed(1)}×**`;
  const cold = name === names[0] ? "" : `${(first[name] / first[names[0]]).toFixed(1)}×`;
  console.log(
    `| \`${name}\` | ${(ms / 1000).toFixed(3)} s | ${((ms * 1000) / replies.length).toFixed(1)} µs | ${ratio} | ${(first[name] / 1000).toFixed(3)} s | ${cold} |`,
  );
}

const groups = new Map();
for (const text of replies) {
  const outcome = extract(text);
  const key = outcome.ok ? outcome.layer : outcome.failure.kind;
  groups.set(key, [...(groups.get(key) ?? []), text]);
}
console.log(`\n| outcome (replies) | ${names.map((n) => `\`${n}\``).join(" | ")} |\n| --- |${names.map(() => " ---: |").join("")}`);
for (const [key, texts] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
  const { times } = best(texts, names);
  console.log(`| ${key} (${texts.length}) | ${names.map((n) => `${((times[n] * 1000) / texts.length).toFixed(1)} µs`).join(" | ")} |`);
}

// The replies that are plain JSON (JSON.parse reads them whole), against a bare JSON.parse:
// the floor for producing a JavaScript value.
calls["JSON.parse(t)"] = (t) => JSON.parse(t);
const plain = replies.filter((text) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
});
const bare = ["extract(t).value", "JSON.parse(t)"];
const { times: plainTimes } = best(plain, bare);
const [oursPlain, parsePlain] = bare.map((name) => (plainTimes[name] * 1000) / plain.length);
console.log(`\n| plain JSON (${plain.length} replies) | per reply |\n| --- | ---: |`);
console.log(`| \`extract(t).value\` | ${oursPlain.toFixed(1)} µs (${(oursPlain / parsePlain).toFixed(2)}× a bare parse) |`);
console.log(`| \`JSON.parse(t)\` | ${parsePlain.toFixed(1)} µs |`);

function importMs(code) {
  const timesOf = (source) => {
    let fastest = Infinity;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      execFileSync(process.execPath, ["--input-type=module", "-e", source]);
      fastest = Math.min(fastest, performance.now() - start);
    }
    return fastest;
  };
  return timesOf(code) - timesOf("");
}
console.log("\n| import | time |\n| --- | ---: |");
for (const [name, code] of [
  ["import { extract } from \"jxray\"", 'import { extract } from "jxray";'],
  ["import { jsonrepair } from \"jsonrepair\"", 'import { jsonrepair } from "jsonrepair";'],
]) {
  console.log(`| \`${name}\` | ${importMs(code).toFixed(1)} ms |`);
}
