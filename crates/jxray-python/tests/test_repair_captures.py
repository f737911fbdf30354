"""jxray.repair(..., captures=FOLDER): each attempt written as a capture and its request file,
in the chain format the Rust readers read (docs/repair.md); files never replaced, a failed
write a warning, and jxray check reading the folder."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, List, Tuple

import pydantic
import pytest

import jxray
from jxray import _captures

from conftest import cancel_during_the_repair_call, run_binary

BROKEN = {"text": '{"ticketId": "T-1", "severity": "high",}', "stop_reason": "stop", "model": "gpt-4o-mini", "usage": {"prompt_tokens": 12, "completion_tokens": 9}}
GOOD = {"text": '{"ticketId": "T-1", "severity": "high"}', "stop_reason": "stop", "model": "gpt-4o-mini-2024-07-18", "usage": {"prompt_tokens": 40, "completion_tokens": 8}}
STEM = re.compile(r"^(\d{2}-\d{2}-\d{2}\.\d{3})-(.+)-([0-9a-f]{8})-a(\d+)$")
STARTED = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$")


class Scripted:
    """A generate that answers from a script and keeps the prompts it was sent."""

    def __init__(self, *replies: Any) -> None:
        self.replies = replies
        self.prompts: List[str] = []

    def __call__(self, prompt: str) -> Any:
        self.prompts.append(prompt)
        reply = self.replies[len(self.prompts) - 1]
        if isinstance(reply, BaseException):
            raise reply
        return reply


def written(folder: Path) -> Tuple[List[Path], List[Path]]:
    """The captures and the request files under ``folder``, by name; no other file, and no
    temporary file left behind."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    captures = [p for p in files if p.name.endswith(".jsonl")]
    requests = [p for p in files if p.name.endswith(".request.json")]
    assert len(captures) + len(requests) == len(files), [p.name for p in files]
    return captures, requests


def read_attempt(folder: Path, relative: str) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The capture's one line and its request file, parsed."""
    capture = folder / relative
    raw = capture.read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1, raw
    request = capture.with_name(capture.name[: -len(".jsonl")] + ".request.json").read_bytes()
    assert b"\n" not in request, "the request file is one compact object"
    return json.loads(raw), json.loads(request)


def test_a_repaired_loop_leaves_two_attempts_of_one_chain(tmp_path: Path) -> None:
    generate = Scripted(BROKEN, GOOD)
    result = jxray.repair(generate, "Triage this ticket as JSON.", captures=tmp_path)
    assert (result.status, result.repaired) == ("success", True)
    captures, requests = written(tmp_path)
    assert len(captures) == len(requests) == 2

    first, second = result.attempts
    assert re.fullmatch(r"[0-9a-f]{16}", result.chain or "")
    assert (first.model, second.model) == ("gpt-4o-mini", "gpt-4o-mini-2024-07-18")
    assert sorted(str(p.relative_to(tmp_path)) for p in captures) == sorted([first.capture, second.capture])
    for attempt, prompt, reply in ((first, generate.prompts[0], BROKEN), (second, generate.prompts[1], GOOD)):
        assert attempt.capture is not None
        day, name = attempt.capture.split("/")
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", day)
        time, model, chain8, number = STEM.fullmatch(name[: -len(".jsonl")]).groups()  # type: ignore[union-attr]
        assert (model, chain8, int(number)) == (reply["model"], result.chain[:8], attempt.attempt)
        line, request = read_attempt(tmp_path, attempt.capture)
        assert line == {"output": reply["text"], "stop_reason": "stop"}
        assert request["jxray_request"] == 1
        assert request["source"] == "jxray.repair (python)"
        assert request["model"] == reply["model"]
        assert STARTED.fullmatch(request["started"])
        assert request["started"][:10] == day and request["started"][11:23] == time.replace("-", ":")
        assert isinstance(request["duration_ms"], int) and request["duration_ms"] >= 0
        assert request["stop_reason"] == "stop"
        assert request["usage"] == reply["usage"]
        assert request["body"] == {"messages": [{"role": "user", "content": prompt}]}
        assert request["chain"]["id"] == result.chain
        assert request["chain"]["attempt"] == attempt.attempt
    assert "re_ask_of" not in read_attempt(tmp_path, first.capture)[1]["chain"]
    assert read_attempt(tmp_path, second.capture)[1]["chain"]["re_ask_of"] == first.capture
    assert generate.prompts[1].startswith("Triage this ticket as JSON.\n\nYour last reply ")


def test_without_captures_nothing_is_written_and_there_is_no_chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = jxray.repair(Scripted(BROKEN, GOOD), "p")
    assert result.chain is None
    assert [a.capture for a in result.attempts] == [None, None]
    assert [a.model for a in result.attempts] == ["gpt-4o-mini", "gpt-4o-mini-2024-07-18"]
    assert list(tmp_path.iterdir()) == []


def test_a_truncated_first_reply_writes_its_one_attempt(tmp_path: Path) -> None:
    result = jxray.repair(Scripted({"text": '{"ticketId": "T-1", "sev', "finish_reason": "length"}), "p", captures=str(tmp_path))
    assert result.stopped == "raise-limit"
    captures, requests = written(tmp_path)
    assert len(captures) == len(requests) == 1
    line, request = read_attempt(tmp_path, result.attempts[0].capture or "")
    assert line == {"output": '{"ticketId": "T-1", "sev', "stop_reason": "length"}
    assert request["chain"] == {"id": result.chain, "attempt": 1}
    assert request["model"] is None and request["usage"] is None
    assert "-repair-" in captures[0].name, "a reply without a model is named for the loop"


def test_an_attempt_whose_generate_raises_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="503"):
        jxray.repair(Scripted(RuntimeError("503")), "p", captures=tmp_path)
    assert written(tmp_path) == ([], [])
    with pytest.raises(RuntimeError, match="503"):
        jxray.repair(Scripted(BROKEN, RuntimeError("503")), "p", captures=tmp_path)
    captures, requests = written(tmp_path)
    assert len(captures) == len(requests) == 1
    assert captures[0].name.endswith("-a1.jsonl")


GOLDEN = Path(__file__).resolve().parents[2] / "jxray-formats" / "tests" / "snapshots" / "recorded"


def golden_records() -> List[bytes]:
    """The attempts the golden chain is made of, each as the core's record (JSON)."""
    return [json.dumps(record).encode() for record in json.loads((GOLDEN / "attempts.json").read_text(encoding="utf-8"))]


def test_an_attempts_files_are_the_golden_files_byte_for_byte(tmp_path: Path) -> None:
    """The same bytes the Rust core and the npm package write (crates/jxray-formats/tests/recorded_files.rs)."""
    for record in golden_records():
        stem, files = _captures._jxray.attempt_files_of(record)
        for ending, data in files:
            assert data == (GOLDEN / f"{stem}{ending}").read_bytes(), stem + ending
        written, request_error = _captures._jxray.write_attempt(str(tmp_path), record)
        assert (written, request_error) == (f"2026-12-02/{stem}.jsonl", None)
        for ending, _ in files:
            assert (tmp_path / "2026-12-02" / f"{stem}{ending}").read_bytes() == (GOLDEN / f"{stem}{ending}").read_bytes()


def test_the_loop_gives_the_core_the_attempt_it_judged(tmp_path: Path) -> None:
    """Chain builds the record the golden chain's first attempt is: the same files."""
    chain = _captures.Chain(tmp_path, "jxray.repair (python)", {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}})
    chain.id = "1a2b3c4d5e6f7a8b"
    first = json.loads((GOLDEN / "attempts.json").read_text(encoding="utf-8"))[0]
    attempt = SimpleNamespace(
        attempt=1, prompt=first["prompt"], text=first["text"], stop_reason="stop", usage=first["usage"], model=first["model"], latency=0.812
    )
    started = datetime(2026, 12, 2, 7, 50, 1, 123456, tzinfo=timezone(timedelta(hours=1)))
    written = chain.write(attempt, started)
    assert written == "2026-12-02/07-50-01.123-openai-gpt-4o-mini-latest-1a2b3c4d-a1.jsonl"
    for name in (written, written[: -len(".jsonl")] + ".request.json"):
        assert (tmp_path / name).read_bytes() == (GOLDEN / name.split("/")[1]).read_bytes(), name


def test_a_taken_name_is_never_replaced_the_next_free_stem_is_used(tmp_path: Path) -> None:
    """The writer jxray record uses: a taken capture or request name moves both files on."""
    write = _captures._jxray.write_attempt
    first, second = golden_records()
    day = tmp_path / "2026-12-02"
    day.mkdir()
    stem = "07-50-01.123-openai-gpt-4o-mini-latest-1a2b3c4d-a1"
    (day / f"{stem}.jsonl").write_bytes(b"theirs\n")
    assert write(str(tmp_path), first) == (f"2026-12-02/{stem}-2.jsonl", None)
    assert (day / f"{stem}.jsonl").read_bytes() == b"theirs\n"
    assert not (day / f"{stem}.request.json").exists(), "a stem's files are kept together"
    assert (day / f"{stem}-2.request.json").read_bytes() == (GOLDEN / f"{stem}.request.json").read_bytes()
    stem = "07-50-02.301-repair-1a2b3c4d-a2"
    (day / f"{stem}.request.json").write_bytes(b"theirs")
    assert write(str(tmp_path), second)[0] == f"2026-12-02/{stem}-2.jsonl"
    assert write(str(tmp_path), second)[0] == f"2026-12-02/{stem}-3.jsonl"
    assert (day / f"{stem}.request.json").read_bytes() == b"theirs"
    assert not [p.name for p in day.iterdir() if p.name.startswith(".")], "no temporary file is left"


def test_a_date_folder_planted_as_a_symlink_is_refused_and_nothing_lands_outside(tmp_path: Path) -> None:
    folder, outside = tmp_path / "captures", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    generate = Scripted(BROKEN, GOOD)
    # The loop names the date folder after the local day the attempt began.
    for day in {datetime.now().astimezone().strftime("%Y-%m-%d"), (datetime.now().astimezone() + timedelta(minutes=5)).strftime("%Y-%m-%d")}:
        (folder / day).symlink_to(outside, target_is_directory=True)
    with pytest.warns(RuntimeWarning, match="symlink planted there is refused"):
        result = jxray.repair(generate, "p", captures=folder)
    assert (result.status, result.repaired) == ("success", True)
    assert [a.capture for a in result.attempts] == [None, None]
    assert list(outside.iterdir()) == []


def test_a_folder_that_cannot_be_used_is_an_error_before_the_first_call(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    generate = Scripted(GOOD)
    with pytest.raises(OSError):
        jxray.repair(generate, "p", captures=blocked)
    with pytest.raises(ValueError, match="NUL"):
        jxray.repair(generate, "p", captures=str(tmp_path / "a\0b"))
    assert generate.prompts == [], "nothing was paid for"


def test_a_write_that_fails_in_the_loop_warns_and_the_loop_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = _captures._jxray.write_attempt
    calls: List[bytes] = []

    def full_once(*args: Any) -> Any:
        calls.append(args[1])
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        return real_write(*args)

    monkeypatch.setattr(_captures._jxray, "write_attempt", full_once)
    with pytest.warns(RuntimeWarning, match="a1.jsonl was not written: No space left on device") as caught:
        result = jxray.repair(Scripted(BROKEN, BROKEN, GOOD), "p", captures=tmp_path, max_repairs=2)
    assert all("\n" not in str(w.message) for w in caught)
    assert result.status == "success"
    first, second, third = result.attempts
    assert first.capture is None and second.capture and third.capture
    assert read_attempt(tmp_path, second.capture)[1]["chain"] == {"id": result.chain, "attempt": 2}
    assert read_attempt(tmp_path, third.capture)[1]["chain"]["re_ask_of"] == second.capture


def test_arepair_writes_the_same_chain(tmp_path: Path) -> None:
    replies = iter([BROKEN, GOOD])

    async def generate(prompt: str) -> Any:
        await asyncio.sleep(0)
        return next(replies)

    result = asyncio.run(jxray.arepair(generate, "p", captures=tmp_path))
    assert result.status == "success"
    captures, requests = written(tmp_path)
    assert len(captures) == len(requests) == 2
    first, second = (read_attempt(tmp_path, a.capture or "")[1] for a in result.attempts)
    assert first["chain"] == {"id": result.chain, "attempt": 1}
    assert second["chain"] == {"id": result.chain, "attempt": 2, "re_ask_of": result.attempts[0].capture}
    assert first["source"] == "jxray.repair (python)"


def test_cancelling_arepair_writes_nothing_after(tmp_path: Path) -> None:
    cancel_during_the_repair_call(BROKEN, captures=tmp_path, fallback={})
    captures, requests = written(tmp_path)
    assert [p.name[-9:] for p in captures] == ["-a1.jsonl"]
    assert len(requests) == 1


def test_bytes_sdk_usage_and_odd_model_names(tmp_path: Path) -> None:
    class Usage(pydantic.BaseModel):
        input_tokens: int
        output_tokens: int

    class Opaque:
        total_tokens = 3

    reply = {"text": b'{"a": "\xff"', "model": "models/gemini 2.5:pro" + "x" * 80, "usage": Usage(input_tokens=1, output_tokens=2)}
    result = jxray.repair(Scripted(reply), "p", captures=tmp_path)
    line, request = read_attempt(tmp_path, result.attempts[0].capture or "")
    assert line["output"] == '{"a": "\ufffd"'
    assert request["usage"] == {"input_tokens": 1, "output_tokens": 2}
    assert request["model"] == reply["model"]
    model = STEM.fullmatch(Path(result.attempts[0].capture or "").name[:-6]).group(2)  # type: ignore[union-attr]
    assert model == ("models-gemini-2.5-pro" + "x" * 80)[:64]
    assert _captures.usage_json(Opaque()) is None
    assert _captures.usage_json({"n": float("nan")}) is None


def test_captures_must_be_a_path() -> None:
    with pytest.raises(TypeError, match="captures must be a folder's path"):
        jxray.repair(Scripted(GOOD), "p", captures=3)


def checked(folder: Path, binary: Path) -> List[Dict[str, Any]]:
    """The records `jxray check FOLDER --format jsonl` prints."""
    run = run_binary(binary, ["check", str(folder), "--format", "jsonl"])
    assert run.returncode in (0, 1), run.stderr.decode()
    return [json.loads(line) for line in run.stdout.decode().splitlines()]


def test_jxray_check_reads_each_attempt_as_its_capture(tmp_path: Path, jxray_bin: Path) -> None:
    result = jxray.repair(Scripted(BROKEN, GOOD), "p", captures=tmp_path)
    records = {r["source"]: r for r in checked(tmp_path, jxray_bin)}
    first, second = (records[str(tmp_path / a.capture) + ":1"] for a in result.attempts)  # type: ignore[operator]
    assert (first["ok"], first["failure"]["kind"], first["failure"]["defect"]) == (False, "invalid", "trailing-comma")
    assert (second["ok"], second["layer"], second["value"]) == (True, "direct", {"ticketId": "T-1", "severity": "high"})
    assert first["stop_reason"] == second["stop_reason"] == "stop"


def test_jxray_check_lists_the_two_captures_and_no_request_file(tmp_path: Path, jxray_bin: Path) -> None:
    """The request files beside `.jsonl` captures are requests, not captures (the Rust
    readers learn `.jsonl` beside `.request.json` with the chains)."""
    jxray.repair(Scripted(BROKEN, GOOD), "p", captures=tmp_path)
    sources = [r["source"] for r in checked(tmp_path, jxray_bin)]
    assert [s.endswith(".jsonl:1") for s in sources] == [True, True], sources


def test_the_loops_schema_is_in_each_request_file_so_check_agrees_with_the_loop(tmp_path: Path, jxray_bin: Path) -> None:
    class Triage(pydantic.BaseModel):
        ticketId: str
        severity: str

    # The first reply parses but misses a key: a schema failure the loop re-asks.
    missing = {"text": '{"ticketId": "T-1"}', "stop_reason": "stop", "model": "m"}
    result = jxray.repair(Scripted(missing, GOOD), "p", schema=Triage, captures=tmp_path)
    assert (result.status, result.repaired) == ("success", True)
    _, request = read_attempt(tmp_path, result.attempts[0].capture or "")
    schema = request["body"]["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["ticketId", "severity"]
    lines = [json.loads(line) for line in run_binary(jxray_bin, ["check", str(tmp_path), "--format", "jsonl"]).stdout.decode().splitlines()]
    assert [line["failure"]["kind"] if line["failure"] else None for line in lines] == ["schema", None]
    text = run_binary(jxray_bin, ["check", str(tmp_path)]).stdout.decode()
    assert "repair chains: 1 re-asked, 1 repaired (100%) · by first failure: schema 1 of 1" in text, text
