// A loop to profile `extract` under: the first 5,000 raw replies of DATA/small (as
// bench/speed.mjs reads them), or only those of one outcome, extracted 60 times over.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs [--data DATA] [--outcome fenced]
//
// (`--outcome` is a layer, or a failure's kind: fenced, scanned, direct, truncated, …). The
// profile opens in Chrome's DevTools (Performance, load profile).

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { extract } from "jxray";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const data = args.data ?? "/tmp/jxray-bench";

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

const replies = files(join(data, "small"))
  .filter((path) => path.endsWith(".txt") || path.endsWith(".md"))
  .slice(0, 5000)
  .map((path) => readFileSync(path, "utf8"));
const outcomeOf = (text) => {
  const outcome = extract(text);
  return outcome.ok ? outcome.layer : outcome.failure.kind;
};
const picked = args.outcome ? replies.filter((text) => outcomeOf(text) === args.outcome) : replies;
for (let round = 0; round < 60; round++) for (const text of picked) extract(text).value;
