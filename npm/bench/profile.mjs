// A loop to profile `extract` under: the first 5,000 raw replies of DATA/small (as
// bench/speed.mjs reads them), or only those of one outcome, extracted 60 times over.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs [--data DATA] [--outcome fenced]
//
// (`--outcome` is a layer, or a failure's kind: fenced, scanned, direct, truncated, …). The
// profile opens in Chrome's DevTools (Performance, load profile).

import { extract } from "jxray";
import { benchArgs, replies as readReplies } from "./replies.mjs";

const args = benchArgs();
const replies = readReplies(args.data ?? "/tmp/jxray-bench", 5000);
const outcomeOf = (text) => {
  const outcome = extract(text);
  return outcome.ok ? outcome.layer : outcome.failure.kind;
};
const picked = args.outcome ? replies.filter((text) => outcomeOf(text) === args.outcome) : replies;
for (let round = 0; round < 60; round++) for (const text of picked) extract(text).value;
