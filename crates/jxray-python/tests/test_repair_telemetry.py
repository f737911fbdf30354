"""jxray.repair's OpenTelemetry spans and outcome counter, read back with the SDK's in-memory
exporter and reader (opentelemetry-api is an optional dependency of the package)."""

from __future__ import annotations

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode
import pytest

import jxray

SPANS = InMemorySpanExporter()
READER = InMemoryMetricReader()


@pytest.fixture(scope="module", autouse=True)
def providers():
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(SPANS))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[READER]))


def counts() -> dict:
    found = {}
    data = READER.get_metrics_data()
    for resource in data.resource_metrics if data else []:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                if metric.name == "jxray.outcomes":
                    for point in metric.data.data_points:
                        found[point.attributes["jxray.outcome"]] = point.value
    return found


def test_one_span_per_attempt_under_the_requests_with_gen_ai_and_jxray_attributes():
    SPANS.clear()
    replies = iter(
        [
            {"text": '{"a": 1,}', "stop_reason": "stop", "usage": {"input_tokens": 12, "output_tokens": 5}},
            {"text": '```json\n{"a": 1}\n```', "stop_reason": "stop"},
        ]
    )
    result = jxray.repair(lambda prompt: next(replies), "p", schema_version="v3")
    assert result.status == "success"
    first, second, request = SPANS.get_finished_spans()
    assert [s.name for s in (first, second, request)] == ["jxray.repair.attempt", "jxray.repair.attempt", "jxray.repair"]
    assert first.parent.span_id == second.parent.span_id == request.context.span_id
    assert first.attributes["jxray.failure.kind"] == "invalid"
    assert first.attributes["jxray.failure.defect"] == "trailing-comma"
    assert first.attributes["jxray.action"] == "repair"
    assert first.attributes["gen_ai.usage.input_tokens"] == 12
    assert tuple(first.attributes["gen_ai.response.finish_reasons"]) == ("stop",)
    assert second.attributes["jxray.layer"] == "fenced"
    assert second.attributes["jxray.repaired"] is True
    assert request.attributes["jxray.status"] == "success"
    assert request.attributes["jxray.attempt_count"] == 2
    assert request.attributes["jxray.schema_version"] == "v3"
    assert request.attributes["jxray.raw_output_hash"].startswith("sha256:")


def test_a_generate_that_raises_leaves_error_spans():
    SPANS.clear()

    def generate(prompt):
        raise RuntimeError("503")

    with pytest.raises(RuntimeError):
        jxray.repair(generate, "p")
    attempt, request = SPANS.get_finished_spans()
    assert attempt.status.status_code == request.status.status_code == StatusCode.ERROR


def test_outcomes_are_counted_by_layer_or_failure_kind():
    before = counts()
    jxray.repair(lambda prompt: {"text": '{"a": [1', "stop_reason": "length"}, "p")
    jxray.repair(lambda prompt: '{"a": 1}', "p")
    after = counts()
    assert after.get("truncated", 0) - before.get("truncated", 0) == 1
    assert after.get("direct", 0) - before.get("direct", 0) == 1
