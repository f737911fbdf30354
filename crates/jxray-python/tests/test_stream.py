"""jxray.Extractor and jxray.watch (docs/streaming.md): an output fed chunk by chunk keeps
contract §7's invariants at every chunk and ends as jxray.extract says; the official openai
and anthropic SDKs' own streams from a real mock server (ai-mock) pass through unchanged
while they are judged, and stop_on closes one."""

from __future__ import annotations

import dataclasses
import json
import signal
from pathlib import Path
from typing import Any, Iterator, List

import anthropic
import openai
import pytest

import jxray
from conftest import start_ai_mock
from jxray._stream import grows_into

FENCED = 'Here you go:\n```json\n{"city": "Paris", "zip": 75001, "tags": ["a", "b\\n"]}\n```\nDone.'


def fed(text: str, size: int, **options: Any) -> "tuple[jxray.Extractor, List[Any]]":
    extractor = jxray.Extractor(**options)
    data = text.encode()
    values = []
    for at in range(0, len(data), size):
        snapshot = extractor.feed(data[at : at + size])
        values.append(json.loads(json.dumps(snapshot.value)))
    return extractor, values


@pytest.mark.parametrize("size", [1, 2, 7, 64])
def test_every_chunk_keeps_the_invariants_and_the_end_is_extract(size: int) -> None:
    extractor, values = fed(FENCED, size)
    outcome = extractor.end("stop")
    assert outcome.to_json() == jxray.extract(FENCED, stop_reason="stop").to_json()
    assert outcome.value == {"city": "Paris", "zip": 75001, "tags": ["a", "b\n"]}
    shown = [value for value in values if value is not None]
    assert all(grows_into(a, b) for a, b in zip(shown, shown[1:]))
    assert all(grows_into(value, outcome.value) for value in shown)
    assert extractor.value == outcome.value


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "' + "word " * 400 + '", "b": ["x", "' + "y" * 300 + '"]}',
        # A repeated key: the later string is shown in the first one's place, as the end has it.
        '{"a": "first", "b": 1, "a": "' + "later " * 50 + '"}',
        '"' + "a whole output that is one string " * 20 + '"',
        '[["' + "deep " * 60 + '"], {"k": {"m": "' + "n" * 200 + '"}}]',
    ],
)
@pytest.mark.parametrize("size", [1, 8, 33])
def test_a_string_growing_over_many_chunks_is_the_final_string_in_its_place(text: str, size: int) -> None:
    extractor = jxray.Extractor()
    kept = []
    for at in range(0, len(text), size):
        snapshot = extractor.feed(text[at : at + size])
        if isinstance(snapshot.value, dict) and isinstance(snapshot.value.get("a"), str):
            kept.append(snapshot.value["a"])  # a caller holding a string it was shown
    outcome = extractor.end("stop")
    assert outcome.ok, outcome.to_json()
    assert extractor.value == outcome.value
    assert json.dumps(extractor.value) == json.dumps(outcome.value), "members in the end's order"
    if '"a": "first"' not in text:  # a repeated key's first string is replaced, not grown
        assert all(outcome.value["a"].startswith(string) for string in kept)


def test_a_snapshot_says_where_it_is_what_is_open_and_what_is_final() -> None:
    extractor = jxray.Extractor()
    first = extractor.feed("Sure!\n```json\n")
    assert (first.state, first.why) == ("waiting", "fence")
    second = extractor.feed('{"items": [{"name": "Jo')
    assert (second.state, second.layer, second.provisional) == ("reading", "fenced", False)
    assert second.open_paths == ["", "/items", "/items/0", "/items/0/name"]
    assert extractor.value == {"items": [{"name": "Jo"}]}
    third = extractor.feed('hn", "age": 4')
    assert "/items/0/name" in third.final_paths
    assert extractor.value == {"items": [{"name": "John"}]}, "a number shows once its token ends"
    extractor.feed("2}]}")
    assert extractor.value == {"items": [{"name": "John", "age": 42}]}


def test_a_snapshot_is_a_whole_snapshot_dataclass_in_every_state() -> None:
    fields = {field.name for field in dataclasses.fields(jxray.Snapshot)}
    extractor = jxray.Extractor()
    for chunk in ["Sure!\n", "```json\n", '{"a": [1', ", 2]}", "\n```", "<tool_call>"]:
        snapshot = extractor.feed(chunk)
        assert set(vars(snapshot)) == fields
        assert snapshot == dataclasses.replace(snapshot)
        with pytest.raises(dataclasses.FrozenInstanceError):
            snapshot.state = "changed"  # type: ignore[misc]
    assert (snapshot.state, snapshot.layer, snapshot.why) == ("reading", "fenced", None)


def test_stop_on_names_the_signal_and_the_end_judges_the_text_so_far() -> None:
    extractor = jxray.Extractor(stop_on="runaway,refusal")
    extractor.feed('{"summary": "ok"')
    assert extractor.stopped is None
    snapshot = extractor.feed(" \n" * 400)
    assert extractor.stopped is not None and extractor.stopped["kind"] == "runaway"
    assert snapshot.signals[0]["byte"] == 16 + 511
    outcome = extractor.end()
    assert (outcome.failure.kind, outcome.failure.cause) == ("truncated", "runaway")
    with pytest.raises(ValueError, match="unknown signal 'loop'"):
        jxray.Extractor(stop_on=["loop"])


def test_with_a_pydantic_model_a_bad_item_is_named_as_it_closes() -> None:
    from typing import List, Literal

    from pydantic import BaseModel

    class Ticket(BaseModel):
        title: str
        severity: Literal["low", "high"]

    class Triage(BaseModel):
        tickets: List[Ticket]

    extractor = jxray.Extractor(schema=Triage, stop_on="schema")
    extractor.feed('```json\n{"tickets": [{"title": "disk", "severity": "low"}, ')
    assert extractor.stopped is None
    snapshot = extractor.feed('{"title": "cpu", "severity": "urgent"}, {"title": "net"')
    assert extractor.stopped is not None
    assert [signal["path"] for signal in snapshot.signals] == ["/tickets/1/severity"]
    assert extractor.stopped["message"].startswith('/tickets/1/severity = "urgent": ')
    outcome = extractor.end()
    assert outcome.failure is not None and outcome.failure.kind == "truncated", "the end judges the text"


def test_a_cut_tool_call_is_never_complete() -> None:
    whole = '{"query": "test", "limit": 10}'
    for cut in range(1, len(whole)):
        extractor = jxray.Extractor()
        snapshot = extractor.feed(whole[:cut])
        assert "" not in snapshot.final_paths
        assert not extractor.end().ok


@pytest.fixture(scope="module")
def ai_mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("ai-mock")
    responses = Path(__file__).resolve().parents[3] / "scripts" / "record-e2e-responses.json"
    runaway = {"type": "text", "input": "runaway", "output": '{"summary": "ok"' + " \n" * 2000}
    fenced = {"type": "text", "input": "fenced", "output": FENCED}
    table = json.loads(responses.read_text())
    table["responses"] = [fenced, runaway] + [r for r in table["responses"] if r["input"] != "fenced"]
    (folder / "responses.json").write_text(json.dumps(table))
    server, port = start_ai_mock(folder / "responses.json", folder / "mock.log")
    yield port
    server.send_signal(signal.SIGTERM)
    server.wait(10)


def test_an_openai_stream_passes_through_unchanged_while_it_is_judged(ai_mock: int) -> None:
    client = openai.OpenAI(base_url=f"http://127.0.0.1:{ai_mock}/openai", api_key="sk-test", max_retries=0)
    ask = lambda: client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "fenced"}], stream=True)
    plain = [chunk.model_dump() for chunk in ask()]
    watched = jxray.watch(ask())
    received = [chunk.model_dump() for chunk in watched]
    assert [c["choices"] for c in received] == [c["choices"] for c in plain], "every chunk, unchanged"
    assert watched.outcome is not None and watched.outcome.ok
    assert watched.outcome.layer == "fenced"
    assert watched.outcome.value == {"city": "Paris", "zip": 75001, "tags": ["a", "b\n"]}
    assert watched.extractor.value == watched.outcome.value


def test_stop_on_closes_a_runaway_openai_stream(ai_mock: int) -> None:
    client = openai.OpenAI(base_url=f"http://127.0.0.1:{ai_mock}/openai", api_key="sk-test", max_retries=0)
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "runaway"}], stream=True)
    watched = jxray.watch(stream, stop_on=["runaway"])
    chunks = list(watched)
    assert watched.stopped is not None and watched.stopped["kind"] == "runaway"
    assert stream.response.is_closed, "the connection was closed: the provider stops generating"
    total = sum(len(c.choices[0].delta.content or "") for c in chunks if c.choices)
    assert total < 16 + 512 + 1024, f"read {total} characters past a 512-byte bound"
    assert watched.outcome is not None and not watched.outcome.ok


def test_an_async_anthropic_stream_is_watched_with_async_for(ai_mock: int) -> None:
    import asyncio

    async def run() -> "tuple[jxray.Watched, List[Any]]":
        client = anthropic.AsyncAnthropic(base_url=f"http://127.0.0.1:{ai_mock}/anthropic", api_key="sk-test", max_retries=0)
        stream = await client.messages.create(
            model="claude-3-5-haiku-latest", max_tokens=100, messages=[{"role": "user", "content": "fenced"}], stream=True
        )
        watched = jxray.watch(stream)
        events = [event async for event in watched]
        return watched, events

    watched, events = asyncio.run(run())
    assert any(getattr(event, "type", None) == "content_block_delta" for event in events)
    assert watched.outcome is not None and watched.outcome.ok
    assert watched.outcome.value == {"city": "Paris", "zip": 75001, "tags": ["a", "b\n"]}


def test_a_gemini_stream_of_the_sdks_own_objects_is_watched() -> None:
    from google.genai import types

    def chunk(text: str, finish: "str | None" = None) -> types.GenerateContentResponse:
        candidate: dict = {"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        return types.GenerateContentResponse.model_validate({"candidates": [candidate], "modelVersion": "gemini-2.5-flash"})

    pieces = ['Here:\n```json\n{"city": "Pa', 'ris", "zip": 750', '01}\n```']
    stream = [chunk(p) for p in pieces] + [chunk("", "STOP")]
    watched = jxray.watch(iter(stream))
    received = list(watched)
    assert received == stream, "every object passed through unchanged"
    assert watched.outcome is not None and watched.outcome.ok
    assert (watched.outcome.layer, watched.outcome.value) == ("fenced", {"city": "Paris", "zip": 75001})
    # A stream cut at the token limit is cut, whatever it held so far.
    cut = [chunk(p) for p in pieces[:2]] + [chunk("", "MAX_TOKENS")]
    watched = jxray.watch(iter(cut))
    list(watched)
    assert watched.outcome is not None and watched.outcome.failure.kind == "truncated"
