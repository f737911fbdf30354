// The repair loop's spans and the outcome counter, read back with the OpenTelemetry SDK's
// in-memory exporters (the API is an optional peer dependency of the package).

import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { extract, instrument, repair } from "jxray";

const spans = new InMemorySpanExporter();
api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
const exported = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: exported, exportIntervalMillis: 3_600_000 });
api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

async function counts() {
  await reader.forceFlush();
  const points = exported
    .getMetrics()
    .at(-1)
    .scopeMetrics.flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === "jxray.outcomes")
    .flatMap((metric) => metric.dataPoints);
  return Object.fromEntries(points.map((p) => [`${p.attributes["jxray.source"]}:${p.attributes["jxray.outcome"]}`, p.value]));
}

test("one span per attempt under the request's, with gen_ai and jxray attributes", async () => {
  spans.reset();
  const replies = [
    { text: '{"a": 1,}', stopReason: "stop", usage: { inputTokens: 12, outputTokens: 5 } },
    { text: '```json\n{"a": 1}\n```', stopReason: "stop", usage: { inputTokens: 40, outputTokens: 9 } },
  ];
  let call = 0;
  const result = await repair(async () => replies[call++], "p", { schemaVersion: "v3" });
  assert.equal(result.status, "success");
  const finished = spans.getFinishedSpans();
  assert.deepEqual(finished.map((s) => s.name), ["jxray.repair.attempt", "jxray.repair.attempt", "jxray.repair"]);
  const [first, second, request] = finished;
  for (const child of [first, second]) assert.equal(child.parentSpanContext?.spanId ?? child.parentSpanId, request.spanContext().spanId);
  assert.equal(first.attributes["jxray.failure.kind"], "invalid");
  assert.equal(first.attributes["jxray.failure.defect"], "trailing-comma");
  assert.equal(first.attributes["jxray.action"], "repair");
  assert.equal(first.attributes["gen_ai.usage.input_tokens"], 12);
  assert.deepEqual(first.attributes["gen_ai.response.finish_reasons"], ["stop"]);
  assert.equal(second.attributes["jxray.layer"], "fenced");
  assert.equal(second.attributes["jxray.repaired"], true);
  assert.equal(request.attributes["jxray.status"], "success");
  assert.equal(request.attributes["jxray.attempt_count"], 2);
  assert.equal(request.attributes["jxray.initial_failure"], "invalid");
  assert.equal(request.attributes["jxray.schema_version"], "v3");
  assert.match(request.attributes["jxray.raw_output_hash"], /^sha256:[0-9a-f]{64}$/);
});

test("a generate that throws leaves an error span and propagates", async () => {
  spans.reset();
  await assert.rejects(repair(async () => Promise.reject(new Error("503")), "p"), /503/);
  const [attempt, request] = spans.getFinishedSpans();
  assert.equal(attempt.status.code, api.SpanStatusCode.ERROR);
  assert.equal(request.status.code, api.SpanStatusCode.ERROR);
});

const ENDINGS = [
  ["the fallback throws", async () => "no json", { fallback: () => { throw new Error("no fallback today"); }, maxRepairs: 0 }, 1],
  ["generate returns a bad value", async () => 42, {}, 1],
  ["generate returns a bad stop reason", async () => ({ text: "{}", finish_reason: 7 }), {}, 1],
  ["the second reply is bad", (() => { let n = 0; return async () => (n++ === 0 ? '{"a": 1,}' : { text: null }); })(), {}, 2],
];

for (const [name, generate, options, attemptCount] of ENDINGS) {
  test(`every span ends with an error status when ${name}`, async () => {
    spans.reset();
    await assert.rejects(repair(generate, "p", options));
    const finished = spans.getFinishedSpans();
    const names = finished.map((s) => s.name);
    assert.deepEqual(names, [...Array(attemptCount).fill("jxray.repair.attempt"), "jxray.repair"]);
    assert.equal(finished.at(-1).status.code, api.SpanStatusCode.ERROR, "the request's span");
    // The attempt that was open when the loop ended says so; a judged one ended before.
    if (name !== "the fallback throws") assert.equal(finished.at(-2).status.code, api.SpanStatusCode.ERROR, "the open attempt's span");
  });
}

test("outcomes are counted by layer or failure kind; extract calls once switched on", async () => {
  const before = await counts();
  await repair(async () => ({ text: '{"a": [1', stopReason: "length" }), "p");
  extract('```json\n{"a": 1}\n```');
  let after = await counts();
  assert.equal((after["repair:truncated"] ?? 0) - (before["repair:truncated"] ?? 0), 1);
  assert.equal(after["extract:fenced"] ?? 0, before["extract:fenced"] ?? 0, "extract is not counted until switched on");
  assert.equal(await instrument({ api, extract: true }), true);
  extract('```json\n{"a": 1}\n```');
  extract("no json here");
  after = await counts();
  assert.equal((after["extract:fenced"] ?? 0) - (before["extract:fenced"] ?? 0), 1);
  assert.equal((after["extract:no-json"] ?? 0) - (before["extract:no-json"] ?? 0), 1);
  await instrument({ api, extract: false });
});
