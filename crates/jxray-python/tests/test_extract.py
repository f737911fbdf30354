"""jxray.extract and the Outcome it returns: every field, every option, exact values, and
the same line `jxray check` prints for the same text."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Iterator

import pytest

import jxray
from conftest import check_lines, stdin_lines, without_source

FENCED = 'Sure!\n```json\n{"city": "Paris", "n": 2}\n```\nAnything else?'


def test_the_layer_value_span_and_warnings_of_a_fenced_answer() -> None:
    outcome = jxray.extract(FENCED)
    assert outcome.ok and outcome.layer == "fenced"
    assert outcome.value == {"city": "Paris", "n": 2}
    start, end = outcome.span
    assert FENCED.encode()[start:end] == b'{"city": "Paris", "n": 2}'
    assert outcome.warnings == ["trailing-prose"]
    assert outcome.warning_details[0]["kind"] == "trailing-prose"
    assert outcome.failure is None and outcome.repairs == []
    assert outcome.source == "-" and outcome.text == FENCED
    assert [attempt["layer"] for attempt in outcome.trace][:2] == ["direct", "fenced"]
    assert repr(outcome) == "Outcome(source='-', ok=True, layer='fenced')"


def test_every_layer() -> None:
    assert jxray.extract('{"a": 1}').layer == "direct"
    assert jxray.extract('x {"a": 1}').layer == "scanned"
    assert jxray.extract("{'a': 1}", accept_lenient=True).layer == "lenient"


@pytest.fixture
def digit_limit_raised() -> Iterator[None]:
    """Python's 4300-digit limit for int(str), raised to 10000 for the test."""
    if not hasattr(sys, "set_int_max_str_digits"):
        yield
        return
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(10_000)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def test_numbers_are_exact_and_keys_keep_their_order(digit_limit_raised: None) -> None:
    big = "1" + "0" * 40
    huge = "9" * 9000  # past Python's default limit for int(str), which jxray honours
    value = jxray.extract(f'{{"z": {big}, "a": -{huge}, "m": 0.1, "e": 1e400, "n": -0}}').value
    assert list(value) == ["z", "a", "m", "e", "n"]
    assert value["z"] == 10**40 and type(value["z"]) is int
    assert value["a"] == -(10**9000 - 1)
    assert value["m"] == 0.1 and value["e"] == float("inf") and value["n"] == 0
    exact = jxray.extract('[0.10, 1e400, 3, 2.5E-3]', decimals="decimal").value
    assert exact == [Decimal("0.10"), Decimal("1e400"), 3, Decimal("2.5E-3")]
    assert str(exact[0]) == "0.10" and type(exact[2]) is int


def test_a_failure_has_its_kind_defect_place_message_and_defects() -> None:
    outcome = jxray.extract('{"a": 1,\n "b": 2,}')
    failure = outcome.failure
    assert not outcome.ok and outcome.value is None and outcome.layer is None
    assert (failure.kind, failure.defect, failure.cause) == ("invalid", "trailing-comma", None)
    assert (failure.line, failure.column) == (2, 9)
    assert "trailing comma" in failure.message
    assert [defect["kind"] for defect in failure.defects] == ["trailing-comma"]
    assert outcome.lenient["value"] == {"a": 1, "b": 2}
    assert outcome.lenient["accepted"] is False
    assert repr(failure) == "Failure(kind='invalid', defect='trailing-comma', line=2, column=9)"


def test_the_options_change_the_outcome() -> None:
    assert jxray.extract('{"a": 1', stop_reason="length").failure.kind == "truncated"
    assert jxray.extract('{"a": 1}', stop_reason="length").failure.kind == "truncated"
    assert jxray.extract("I can't help with that.").failure.cause == "refusal"
    lenient = jxray.extract("{'a': True}", accept_lenient=True)
    assert lenient.value == {"a": True}
    assert [repair["kind"] for repair in lenient.repairs] == ["single-quotes", "python-literal"]
    stringified = '{"args": "{\\"x\\": 1}"}'
    assert jxray.extract(stringified).value == {"args": '{"x": 1}'}
    assert jxray.extract(stringified, decode_stringified=True).value == {"args": {"x": 1}}
    two = 'first {"a": 1} then {"a": 2}'
    assert jxray.extract(two).value == {"a": 1}
    assert jxray.extract(two, pick="last").value == {"a": 2}


def test_a_schema_as_a_dict_or_a_file_picks_the_first_candidate_that_validates(tmp_path: Path) -> None:
    schema = {"properties": {"a": {"type": "integer"}}, "required": ["a"]}
    text = 'A draft: {"a": "five"}\nThe answer: {"a": 5}'
    assert jxray.extract(text).value == {"a": "five"}
    assert jxray.extract(text, schema=schema).value == {"a": 5}
    file = tmp_path / "schema.json"
    file.write_text(json.dumps(schema))
    assert jxray.extract(text, schema=file).value == {"a": 5}
    assert jxray.extract(text, schema=str(file)).value == {"a": 5}
    broken = jxray.extract('{"a": "x"}', schema=schema)
    assert broken.failure.kind == "schema" and broken.value == {"a": "x"}
    assert "/a" in broken.failure.message


def test_bytes_are_read_as_a_capture_file_is() -> None:
    assert jxray.extract('{"a": 1}'.encode()).value == {"a": 1}
    assert jxray.extract(b"\xef\xbb\xbf[1]").value == [1]
    latin1 = jxray.extract(b'{"caf\xe9": 1}')
    assert latin1.failure.kind == "unreadable" and latin1.text is None


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: jxray.extract(5), TypeError, "text must be str or bytes, not int"),
        (lambda: jxray.extract("x", pick="middle"), ValueError, 'pick must be "first" or "last"'),
        (lambda: jxray.extract("x", decimals="exact"), ValueError, 'decimals must be "float" or "decimal"'),
        (lambda: jxray.extract("x", schema=3), TypeError, "schema must be a JSON Schema as a dict"),
        (lambda: jxray.extract("x", schema={"type": 5}), ValueError, "not a valid JSON Schema"),
        (lambda: jxray.extract("x", schema="missing.json"), ValueError, "missing.json: cannot read the schema given as schema="),
        (lambda: jxray.extract("x", accept_lenient="yes"), TypeError, "accept_lenient must be True or False, not str"),
        (lambda: jxray.extract("x", decode_stringified=1), TypeError, "decode_stringified must be True or False, not int"),
        (lambda: jxray.extract("x", pick=1), TypeError, "pick must be a str, not int"),
        (lambda: jxray.extract("x", stop_reason=5), TypeError, "stop_reason must be a str or None, not int"),
        (lambda: jxray.check(5), TypeError, "path must be a str or an os.PathLike, not int"),
        (lambda: jxray.check(".", max_bytes=-1), ValueError, "max_bytes must be 0 or more, not -1"),
        (lambda: jxray.check(".", max_bytes="big"), TypeError, "max_bytes must be an int, not str"),
        (lambda: jxray.check(".", text_path=["a"]), TypeError, "text_path must be a str or None, not list"),
        (lambda: jxray.extract_response({"object": "chat.completion"}, pick=None), TypeError, "pick must be a str, not NoneType"),
        (lambda: jxray.extract("x", colour=True), TypeError, "colour"),
    ],
)
def test_bad_arguments_are_one_line_python_errors(call, error, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as raised:
        call()
    message = str(raised.value)
    assert words in message and "\n" not in message


def test_to_json_is_the_line_check_prints_and_to_dict_is_that_line(jxray_bin: Path) -> None:
    texts = [FENCED, '{"a": [1, 2,', "{'a': 1,}", "no json here", '{"k": 1, "k": 2}', '"\u0085\u202e"']
    stops = [None, "length", None, None, None, None]
    lines = check_lines(jxray_bin, ["-"], stdin_lines(texts, stops))
    for text, stop, line in zip(texts, stops, lines):
        outcome = jxray.extract(text, stop_reason=stop)
        assert without_source(outcome.to_json()) == without_source(line)
        assert outcome.to_dict() == json.loads(outcome.to_json())
    # C1 and bidi controls are escaped as check escapes them.
    assert "\\u0085\\u202e" in jxray.extract('"\u0085\u202e"').to_json()
    direct = jxray.extract('x {"a": 1}').to_json()
    assert direct.startswith('{"source":"-","ok":true,"layer":"scanned"')


def test_a_text_from_check_input_text_is_the_same_line(jxray_bin: Path) -> None:
    text = 'Here: {"a": 1} and more'
    (line,) = check_lines(jxray_bin, ["-", "--input", "text"], text.encode())
    assert jxray.extract(text).to_json() == line


def test_a_failure_is_explained_when_first_read_the_same_whichever_is_read_first() -> None:
    text = 'Here: {"a": 1, "b": [2, 3],}'
    lines = set()
    for first in ("failure", "to_json", "trace", "warnings", "lenient", "repr", "raise"):
        outcome = jxray.extract(text)
        assert outcome.ok is False and outcome.layer is None and outcome.value is None
        if first == "raise":
            with pytest.raises(jxray.InvalidJsonError):
                outcome.value_or_raise()
        elif first == "repr":
            assert repr(outcome) == "Outcome(source='-', ok=False, failure='invalid', defect='trailing-comma')"
        else:
            getattr(outcome, first)() if first == "to_json" else getattr(outcome, first)
        assert outcome.failure is outcome.failure  # explained once, then kept
        assert outcome.failure.defect == "trailing-comma"
        lines.add(outcome.to_json())
    assert len(lines) == 1
    assert json.loads(lines.pop())["failure"]["defect"] == "trailing-comma"


def test_keys_come_out_right_however_often_they_repeat() -> None:
    # More distinct keys than the table of made keys has slots, long and non-ASCII keys,
    # and the same keys again in a later reply: every dict equals json.loads's.
    keys = [f"k{i}" for i in range(3000)] + ["ключ", "键", "x" * 65, "x" * 64, ""]
    document = json.dumps([{key: i for i, key in enumerate(keys)}, {key: key for key in reversed(keys)}])
    for _ in range(3):
        value = jxray.extract(document).value
        assert value == json.loads(document)
        assert list(value[1]) == list(reversed(keys))
