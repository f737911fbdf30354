// Compiled by types.test.mjs with `tsc --noEmit --strict`: the declarations describe how
// the package is used, and the lines marked @ts-expect-error must stay errors.

import { z } from "zod";
import { createExtractor, extract, extractResponse, partialValues, repair, repairPrompt, ExtractError, TruncatedError, type Outcome } from "jxray";
import { assertExtracts, fixtures } from "jxray/testing";

const Invoice = z.object({ total: z.number(), currency: z.string() });

const outcome = extract("```json\n{\"total\": 1, \"currency\": \"EUR\"}\n```", { schema: Invoice, stopReason: "stop" });
if (outcome.ok) {
  const total: number = outcome.value.total;
  const layer: string = outcome.layer;
  console.log(total, layer);
} else {
  const kind: "truncated" | "no-json" | "invalid" | "schema" | "unreadable" = outcome.failure.kind;
  const line: number = outcome.failure.line;
  console.log(kind, line);
}

const plain: Outcome = extract("{}");
const value: unknown = plain.valueOrThrow();
console.log(value, JSON.stringify(plain.toJSON().span));

try {
  extract("{").valueOrThrow();
} catch (error) {
  if (error instanceof TruncatedError) console.log(error.failure.message);
  if (error instanceof ExtractError && error instanceof SyntaxError) console.log(error.outcome.ok);
}

for (const each of extractResponse({ choices: [] })) console.log(each.source);
assertExtracts("{}", { ok: true, layer: "direct" });
for (const fixture of fixtures("fixtures")) console.log(fixture.name, fixture.check().status);

const repaired = await repair(async (prompt) => ({ text: prompt, stopReason: "stop" }), "Invoice as JSON", {
  schema: Invoice,
  maxRepairs: 1,
  fallback: null,
  signal: new AbortController().signal,
});
if (repaired.status === "success" && repaired.value) console.log(repaired.value.currency, repaired.telemetry.raw_output_hash);
// A union on status: after `success`, the value is the schema's output, no check needed.
if (repaired.status === "success") {
  const currency: string = repaired.value.currency;
  console.log(currency, repaired.outcome.layer);
} else {
  const why: string = repaired.stopped;
  console.log(why);
}
if (repaired.status !== "fallback") {
  // Success gives the schema's output; a failure throws (never returns).
  const invoice: { currency: string } = repaired.valueOrThrow();
  console.log(invoice);
}
const chained = await repair(async () => ({ text: "{}", model: "gpt-4o-mini" }), "p", { captures: "captures" });
const chainId: string | undefined = chained.chain;
const captured: (string | undefined)[] = chained.attempts.map((attempt) => attempt.capture ?? attempt.model);
console.log(chainId, captured);
// @ts-expect-error: captures is a folder's path
await repair(async () => "{}", "p", { captures: 3 });
const again: string | null = repairPrompt(plain);
console.log(again);
// @ts-expect-error: the policy's actions are named
await repair(async () => "{}", "p", { policy: { truncated: "retry" } });

// @ts-expect-error: the text is a string
extract(42);
// @ts-expect-error: pick is first or last
extract("{}", { pick: "middle" });
if (outcome.ok) {
  // @ts-expect-error: the schema's output has no such key
  console.log(outcome.value.missing);
}

// The streaming extractor: snapshots typed by the schema's DeepPartial, the end an Outcome.
const streaming = createExtractor({ schema: Invoice, stopOn: ["runaway"] });
const snapshot = streaming.feed('{"currency": "EU');
const currencySoFar: string | undefined = snapshot.value?.currency;
console.log(currencySoFar, snapshot.openPaths.length, streaming.signal.aborted);
const streamed = streaming.end("stop");
if (streamed.ok) console.log(streamed.value.total);
async function* texts(): AsyncGenerator<string> {
  yield '{"total": 1, ';
}
for await (const partial of partialValues(texts(), { schema: Invoice })) console.log(partial.total);
// @ts-expect-error: the signals are named
createExtractor({ stopOn: ["loop"] });
