"""jxray.repair's OpenTelemetry spans and outcome counter, and plain extract calls counted
once jxray.instrument(extract=True) says so, read back with the SDK's in-memory exporter and
reader (opentelemetry-api is an optional dependency of the package)."""

from __future__ import annotations

import pickle
import sys

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


def counts(source: str = "repair") -> dict:
    """The `jxray.outcomes` count of each outcome, for one `jxray.source`."""
    found = {}
    data = READER.get_metrics_data()
    for resource in data.resource_metrics if data else []:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                if metric.name == "jxray.outcomes":
                    for point in metric.data.data_points:
                        if point.attributes["jxray.source"] == source:
                            found[point.attributes["jxray.outcome"]] = point.value
    return found


def added(before: dict, after: dict) -> dict:
    return {kind: after[kind] - before.get(kind, 0) for kind in after if after[kind] != before.get(kind, 0)}


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


CHAT = {
    "object": "chat.completion",
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": '{"a": [1,'}, "finish_reason": "length"}],
}


def test_plain_extract_calls_are_counted_once_switched_on_and_not_after():
    from jxray import extract  # a name bound before the switch counts too

    before = {source: counts(source) for source in ("extract", "extract_response", "repair")}
    jxray.extract('```json\n{"a": 1}\n```')
    assert counts("extract") == before["extract"], "not counted until switched on"
    assert jxray.instrument(extract=True) is True
    try:
        jxray.extract('```json\n{"a": 1}\n```')
        extract("no json here")
        extract('{"a": 1,}')
        jxray.extract_response(CHAT)
        jxray.repair(lambda prompt: '{"a": 1}', "p")
    finally:
        assert jxray.instrument(extract=False) is True
    jxray.extract('{"a": 1}')
    assert added(before["extract"], counts("extract")) == {"fenced": 1, "no-json": 1, "invalid": 1}
    assert added(before["extract_response"], counts("extract_response")) == {"truncated": 1}
    assert added(before["repair"], counts("repair")) == {"direct": 1}, "the loop's own calls count once, as repair"


def test_counting_keeps_extract_what_it_was():
    assert jxray.extract.__module__ == "jxray" and jxray.extract.__name__ == "extract"
    assert pickle.loads(pickle.dumps(jxray.extract)) is jxray.extract
    assert pickle.loads(pickle.dumps(jxray.extract_response)) is jxray.extract_response
    assert jxray.extract.__wrapped__ is jxray._jxray.extract


def test_instrument_does_nothing_without_the_api(monkeypatch):
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    before = counts("extract")
    assert jxray.instrument(extract=True) is False
    assert jxray.extract('{"a": 1}').ok
    assert counts("extract") == before


@pytest.mark.parametrize(
    "generate, raised",
    [
        (lambda prompt: 42, TypeError),
        (lambda prompt: {"text": '{"a": 1}', "stop_reason": 7}, TypeError),
    ],
    ids=["a reply that is not text", "a stop reason that is not text"],
)
def test_a_reply_that_cannot_be_read_ends_every_span_with_an_error(generate, raised):
    SPANS.clear()
    with pytest.raises(raised):
        jxray.repair(generate, "p")
    spans = SPANS.get_finished_spans()
    assert [s.name for s in spans] == ["jxray.repair.attempt", "jxray.repair"]
    assert all(s.status.status_code == StatusCode.ERROR for s in spans)


def test_a_fallback_that_raises_ends_the_loops_span_with_an_error():
    SPANS.clear()

    def fallback(outcome):
        raise LookupError("no default for this ticket")

    with pytest.raises(LookupError):
        jxray.repair(lambda prompt: "no json", "p", max_repairs=0, fallback=fallback)
    attempt, request = SPANS.get_finished_spans()
    assert attempt.status.status_code != StatusCode.ERROR, "the attempt itself was judged"
    assert request.name == "jxray.repair"
    assert request.status.status_code == StatusCode.ERROR
    assert "no default for this ticket" in request.status.description
