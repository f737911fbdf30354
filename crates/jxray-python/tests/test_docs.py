"""docs/python.md cannot drift from the package: its examples run, each `print` gives what
its comment says, and the pytest example fails with the message shown below it."""

from __future__ import annotations

import contextlib
import io
import re
from typing import Dict, List

import pytest

from conftest import REPO

PAGE = REPO / "docs" / "python.md"


def python_blocks() -> List[str]:
    return re.findall(r"^```python\n(.*?)^```$", PAGE.read_text(), flags=re.S | re.M)


def test_the_use_example_prints_what_its_comments_say() -> None:
    use = python_blocks()[0]
    expected = [line.split("#", 1)[1].strip() for line in use.splitlines() if line.startswith("print(")]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(use, {})
    assert printed.getvalue().splitlines() == expected


def test_the_assert_outcome_example_fails_as_shown() -> None:
    example = python_blocks()[1]
    shown = [line[2:] for line in example.splitlines() if line.startswith("# ")]
    namespace: Dict[str, object] = {}
    exec(example, namespace)
    with pytest.raises(AssertionError) as raised:
        namespace["test_the_reply_is_fenced_json"]()  # type: ignore[operator]
    message = str(raised.value).splitlines()
    assert shown[0] == f"AssertionError: {message[0]}"
    for want, got in zip(shown[1:], message[1:]):
        assert got.startswith(want.rstrip("…").rstrip()), (want, got)
    assert len(shown) == len(message)
