"""docs/python.md cannot drift from the package: its examples run, each `print` gives what
its comment says, and the pytest example fails with the message shown below it. The repair
loop's example in docs/repair.md runs as written, the official SDK against a mock server."""

from __future__ import annotations

import contextlib
import io
import json
import re
import signal
from pathlib import Path
from typing import Any, Dict, List

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


REPAIR_PAGE = REPO / "docs" / "repair.md"
ASKED = "Triage this ticket as JSON: …"


def repair_example() -> str:
    """docs/repair.md's Python example of the loop (the one that calls the SDK)."""
    blocks = re.findall(r"^```python\n(.*?)^```$", REPAIR_PAGE.read_text(), flags=re.S | re.M)
    return next(block for block in blocks if "client.chat.completions.create" in block)


@pytest.mark.parametrize(
    "answer, status, value",
    [
        # A refusal is stopped after one call: no paid re-ask.
        ("I'm sorry, but I can't help with that request.", "fallback", {"ticketId": "?", "severity": "review"}),
        ('{"ticketId": "T-1", "severity": "high"}', "success", {"ticketId": "T-1", "severity": "high"}),
    ],
)
def test_the_repair_example_runs_as_written_against_a_mock_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, status: str, value: Dict[str, str]
) -> None:
    from conftest import start_ai_mock

    responses = tmp_path / "responses.json"
    responses.write_text(json.dumps({"responses": [{"type": "text", "input": ASKED, "output": answer}]}))
    server, port = start_ai_mock(responses, tmp_path / "mock.log")
    try:
        # The official SDK, configured as an app configures it: from the environment.
        monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/openai")
        monkeypatch.setenv("OPENAI_API_KEY", "sk-docs-example")
        namespace: Dict[str, Any] = {}
        exec(repair_example(), namespace)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    result = namespace["result"]
    assert result.status == status, result
    assert len(result.attempts) == 1, result.attempts
    got = result.value.model_dump() if status == "success" else result.value
    assert got == value
    if status == "success":
        assert isinstance(result.value, namespace["Triage"])
    # The model the SDK's response named, for `check --by model`.
    assert result.attempts[0].model == "gpt-4o-mini"
