"""Properties over random texts: `extract(t).to_json()` is the line `jxray check` prints for
the same text (each batch through one `jxray check -` run), and `to_dict()` is that line."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import List, Optional, Tuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jxray
from conftest import check_lines, rust_binary, stdin_lines, without_source

# Pieces that steer texts through every layer, repair and defect.
PIECES = [
    "{", "}", "[", "]", '"', "'", ":", ",", " ", "\n", "\t", "\\", "\\n", "\\`", "`",
    "```json\n", "```\n", "~~~\n", "```python\n", "<think>", "</think>", "{{", "}}",
    "true", "True", "None", "null", "NaN", "-0", "007", "1e400", "0.1", "12345678901234567890123",
    '"a"', '"k": ', "// c\n", "/* c */", "...", "\u201c", "\u201d", "\u0085", "\u202e", "\ufeff",
    "Sure! Here it is:", "I can't help with that.", '"{\\"x\\": 1}"',
]

texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=40).map("".join)
stop_reasons = st.sampled_from([None, None, "stop", "length", "max_tokens", "end_turn", "MAX_TOKENS", "odd"])
batches = st.lists(st.tuples(texts, stop_reasons), min_size=1, max_size=60)


def cli_lines(batch: List[Tuple[str, Optional[str]]], flags: List[str]) -> List[str]:
    stdin = stdin_lines([text for text, _ in batch], [stop for _, stop in batch])
    return check_lines(rust_binary(), ["-", *flags], stdin)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=batches, lenient=st.booleans())
def test_to_json_equals_jxray_check_on_the_same_text(
    jxray_bin: Path, batch: List[Tuple[str, Optional[str]]], lenient: bool
) -> None:
    flags = ["--accept-lenient"] if lenient else []
    lines = cli_lines(batch, flags)
    assert len(lines) == len(batch)
    for (text, stop), line in zip(batch, lines):
        outcome = jxray.extract(text, stop_reason=stop, accept_lenient=lenient)
        assert without_source(outcome.to_json()) == without_source(line), repr(text)


@settings(max_examples=200, deadline=None)
@given(text=texts, decode=st.booleans())
def test_to_dict_is_the_json_line_and_value_is_its_value(text: str, decode: bool) -> None:
    outcome = jxray.extract(text, decode_stringified=decode)
    line = json.loads(outcome.to_json())
    assert outcome.to_dict() == line
    assert outcome.value == line["value"]
    assert outcome.ok == (outcome.failure is None)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(
    value=st.lists(json_values, max_size=4) | st.dictionaries(st.text(max_size=6), json_values, max_size=4),
    ascii_only=st.booleans(),
    indent=st.sampled_from([None, 2]),
    fenced=st.booleans(),
)
def test_a_value_comes_back_as_json_loads_reads_it(
    value: object, ascii_only: bool, indent: Optional[int], fenced: bool
) -> None:
    json_text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    text = f"Here:\n```json\n{json_text}\n```" if fenced else json_text
    assert jxray.extract(text).value == json.loads(json_text)
    exact = json.loads(json_text, parse_float=Decimal)
    assert jxray.extract(text, decimals="decimal").value == exact


def test_repeated_keys_and_escapes_read_as_json_loads_reads_them() -> None:
    for text in ['{"a": 1, "b": 2, "a": 3}', '{"s": "\\u00e9\\n\\"q\\"\\\\", "\\u0061": [1.5, -0, 1e400]}', '["\\ud83d\\ude00"]']:
        assert jxray.extract(text).value == json.loads(text)
