"""jxray.extract_response: a provider response as the official SDK's object, as a dict or
as its JSON body, read by the same envelope readers as the `.json` capture file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import jxray
from conftest import REPO, check_lines, without_source

API = REPO / "assets" / "demo" / "api"


def openai_chat(body: Dict[str, Any]) -> Any:
    from openai.types.chat import ChatCompletion

    return ChatCompletion.model_validate(body)


def openai_responses(body: Dict[str, Any]) -> Any:
    from openai.types.responses import Response

    # Fields the API always sends that the saved capture leaves out.
    full = {"parallel_tool_calls": True, "tool_choice": "auto", "tools": [], **body}
    full["usage"] = {
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
        **body["usage"],
    }
    return Response.model_validate(full)


def anthropic_message(body: Dict[str, Any]) -> Any:
    from anthropic.types import Message

    return Message.model_validate(body)


def gemini_response(body: Dict[str, Any]) -> Any:
    from google.genai import types

    return types.GenerateContentResponse.model_validate(body)


def ollama_response(body: Dict[str, Any]) -> Any:
    import ollama

    kind = ollama.ChatResponse if "message" in body else ollama.GenerateResponse
    return kind.model_validate(body)


SDK_OBJECTS: Dict[str, Callable[[Dict[str, Any]], Any]] = {
    "openai-chat-length.json": openai_chat,
    "openai-tool-call.json": openai_chat,
    "openai-responses-incomplete.json": openai_responses,
    "anthropic-fenced.json": anthropic_message,
    "anthropic-tool-use.json": anthropic_message,
    "gemini-max-tokens.json": gemini_response,
    "ollama-chat-thinking.json": ollama_response,
    "ollama-generate-masked-stop.json": ollama_response,
}


def expected_for(jxray_bin: Path, name: str) -> list:  # type: ignore[type-arg]
    return [without_source(line) for line in check_lines(jxray_bin, [str(API / name)])]


def suffixes(outcomes: list) -> list:  # type: ignore[type-arg]
    return [outcome.source.partition("#")[2] for outcome in outcomes]


@pytest.mark.parametrize("name", sorted(SDK_OBJECTS))
def test_a_dict_or_a_body_gives_the_outcomes_check_gives_the_file(jxray_bin: Path, name: str) -> None:
    expected = expected_for(jxray_bin, name)
    text = (API / name).read_text()
    for response in (json.loads(text), text, text.encode()):
        outcomes = jxray.extract_response(response)
        assert [without_source(o.to_json()) for o in outcomes] == expected
    check_sources = [json.loads(line)["source"] for line in check_lines(jxray_bin, [str(API / name)])]
    assert suffixes(outcomes) == [source.partition("#")[2] for source in check_sources]


@pytest.mark.parametrize("name", sorted(SDK_OBJECTS))
def test_the_official_sdks_response_objects_give_the_same_outcomes(jxray_bin: Path, name: str) -> None:
    body = json.loads((API / name).read_text())
    response = SDK_OBJECTS[name](body)
    outcomes = jxray.extract_response(response)
    assert [without_source(o.to_json()) for o in outcomes] == expected_for(jxray_bin, name)


def test_every_tool_call_is_its_own_outcome() -> None:
    body = json.loads((API / "anthropic-tool-use.json").read_text())
    body["content"].append({"type": "tool_use", "id": "toolu_02", "name": "tag", "input": {"tag": "oak"}})
    body["content"][0]["text"] = "Two calls follow: {\"note\": 1}"
    outcomes = jxray.extract_response(body)
    assert len(outcomes) >= 2
    calls = [o for o in outcomes if "#call-" in o.source]
    assert [o.value for o in calls][-1] == {"tag": "oak"}
    assert all(o.provider == "anthropic" and o.stop_reason == "tool_use" for o in outcomes)


def test_a_cut_off_response_is_truncated_whatever_it_holds() -> None:
    body = {
        "id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "length",
                     "message": {"role": "assistant", "content": '{"a": 1}'}}],
    }
    (outcome,) = jxray.extract_response(body)
    assert outcome.failure.kind == "truncated"
    with pytest.raises(jxray.TruncatedError):
        outcome.value_or_raise()


def test_what_is_no_response_is_an_error_and_a_broken_one_unreadable() -> None:
    with pytest.raises(ValueError, match="not an OpenAI, Anthropic, Gemini or Ollama response"):
        jxray.extract_response({"answer": 42})
    with pytest.raises(TypeError, match="response must be an SDK response object, a dict or its JSON body"):
        jxray.extract_response(42)
    (broken,) = jxray.extract_response({"object": "chat.completion", "choices": [{}]})
    assert broken.failure.kind == "unreadable"
    assert "without its text" in broken.failure.message
    with pytest.raises(jxray.UnreadableError):
        broken.value_or_raise()
