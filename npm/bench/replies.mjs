// What the speed scripts share: their `--name value` arguments, and the replies they time
// (the first COUNT raw text captures, `.txt` and `.md` in path order, of DATA/small as
// scripts/make-bench-data.py or ../shared/bench/gen_corpus.py writes it), read into memory.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** `--name value` pairs of the command line, by name. */
export function benchArgs() {
  return Object.fromEntries(
    process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
  );
}

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

/** The first `count` raw replies of `data`/small; the process ends saying how to make them
 * when there are fewer. */
export function replies(data, count) {
  const paths = files(join(data, "small")).filter((p) => p.endsWith(".txt") || p.endsWith(".md"));
  if (paths.length < count) {
    console.error(`${data}/small holds ${paths.length} raw replies; run python3 scripts/make-bench-data.py ${data}`);
    process.exit(2);
  }
  return paths.slice(0, count).map((p) => readFileSync(p, "utf8"));
}
