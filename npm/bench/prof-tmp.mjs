import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { extract } from "jxray";
function files(dir) { return readdirSync(dir).sort().flatMap((n) => { const p = join(dir, n); return statSync(p).isDirectory() ? files(p) : [p]; }); }
const replies = files("/tmp/jxray-bench/small").filter((p) => p.endsWith(".txt") || p.endsWith(".md")).slice(0, 5000).map((p) => readFileSync(p, "utf8"));
const which = process.argv[2];
const pick = which ? replies.filter((t) => { const o = extract(t); return (o.ok ? o.layer : o.failure.kind) === which; }) : replies;
for (let r = 0; r < 60; r++) for (const t of pick) extract(t).value;
