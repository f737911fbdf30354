"""value_or_raise: one exception class per failure kind, each a jxray.ExtractError and a
ValueError, with the line `jxray extract` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import jxray
from conftest import run_binary

CASES = [
    ('{"items": [1, 2,', jxray.TruncatedError, "truncated"),
    ("Happy to help, but no JSON today.", jxray.NoJsonError, "no-json"),
    ("{'a': 1}", jxray.InvalidJsonError, "invalid"),
    (b"\xff\xfe not text", jxray.UnreadableError, "unreadable"),
]


@pytest.mark.parametrize("text, error, kind", CASES)
def test_each_failure_kind_raises_its_own_value_error(text, error, kind) -> None:  # type: ignore[no-untyped-def]
    outcome = jxray.extract(text)
    with pytest.raises(error) as raised:
        outcome.value_or_raise()
    assert isinstance(raised.value, jxray.ExtractError)
    assert isinstance(raised.value, ValueError)
    assert raised.value.outcome is outcome
    assert raised.value.failure.kind == kind
    assert str(raised.value).startswith(kind)


def test_a_schema_failure_raises_schema_error() -> None:
    outcome = jxray.extract('{"a": "x"}', schema={"properties": {"a": {"type": "integer"}}})
    with pytest.raises(jxray.SchemaError, match=r"^schema at 1:1: the value breaks the schema"):
        outcome.value_or_raise()


def test_it_drops_in_where_json_loads_was() -> None:
    assert jxray.extract('{"a": 1}').value_or_raise() == json.loads('{"a": 1}')
    for text in ['{"a": 1,}', '{"a": 1']:
        with pytest.raises(ValueError):
            json.loads(text)
        with pytest.raises(ValueError):
            jxray.extract(text).value_or_raise()


@pytest.mark.parametrize("text", ['{"items": [1, 2,', "none", "{'a': 1}", '{"a": 1,\n  "b": [1,}'])
def test_the_message_is_the_line_jxray_extract_prints(jxray_bin: Path, text: str) -> None:
    run = run_binary(jxray_bin, ["extract", "-"], text.encode())
    assert run.returncode == 1
    (line,) = run.stderr.decode().splitlines()
    with pytest.raises(jxray.ExtractError) as raised:
        jxray.extract(text).value_or_raise()
    assert f"stdin: {raised.value}" == line


def test_a_checked_capture_names_its_source_in_the_message() -> None:
    repo = Path(__file__).resolve().parents[3]
    outcomes = dict(jxray.check(repo / "assets/demo/support/triage-cut-off.txt"))
    (outcome,) = outcomes.values()
    with pytest.raises(jxray.TruncatedError) as raised:
        outcome.value_or_raise()
    assert str(raised.value).startswith(f"{outcome.source}: truncated at ")
