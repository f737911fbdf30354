"""jxray.check: every capture under a file, folder or log store, streamed in the order
and with the outcome `jxray check --format jsonl` gives."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import jxray
from conftest import REPO, check_lines

LOGS = REPO / "tests" / "data" / "logs"


@pytest.fixture(autouse=True)
def from_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sources are named from the working folder, as `jxray check` names them."""
    monkeypatch.chdir(REPO)


@pytest.mark.parametrize(
    "path",
    ["assets/demo", "assets/demo/batches/product-eval-log.jsonl", *sorted(
        str(path.relative_to(REPO)) for path in LOGS.iterdir()
    )],
)
def test_every_outcome_is_the_line_check_prints_in_its_order(jxray_bin: Path, path: str) -> None:
    expected = check_lines(jxray_bin, [path])
    checked = list(jxray.check(path))
    assert [source for source, _ in checked] == [json.loads(line)["source"] for line in expected]
    assert [outcome.to_json() for _, outcome in checked] == expected


def test_options_and_field_paths_are_checks_flags(jxray_bin: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(
        json.dumps({"rid": "r1", "reply": {"text": "{'a': 1}"}, "why": "stop"}) + "\n"
        + json.dumps({"rid": "r2", "reply": {"text": '{"a": [1,'}, "why": "length"}) + "\n"
    )
    flags = ["--text-path", "reply.text", "--stop-path", "why", "--id-path", "rid", "--accept-lenient"]
    expected = check_lines(jxray_bin, [str(log), *flags])
    checked = jxray.check(log, text_path="reply.text", stop_path="why", id_path="rid", accept_lenient=True)
    assert [outcome.to_json() for _, outcome in checked] == expected
    assert json.loads(expected[0])["layer"] == "lenient"
    assert json.loads(expected[1])["failure"]["kind"] == "truncated"


def test_a_schema_applies_to_every_capture(jxray_bin: Path) -> None:
    schema = REPO / "assets" / "demo" / "schema.json"
    expected = check_lines(jxray_bin, ["assets/demo", "--schema", str(schema)])
    assert [o.to_json() for _, o in jxray.check("assets/demo", schema=schema)] == expected
    as_dict = json.loads(schema.read_text())
    assert [o.to_json() for _, o in jxray.check("assets/demo", schema=as_dict)] == expected


def test_a_large_log_streams_and_an_abandoned_run_stops(tmp_path: Path) -> None:
    log = tmp_path / "big.jsonl"
    with log.open("w") as out:
        for number in range(200_000):
            out.write(json.dumps({"custom_id": f"r{number}", "output": f'{{"n": {number}}}'}) + "\n")
    started = time.monotonic()
    run = jxray.check(log)
    source, outcome = next(run)
    assert (source, outcome.value) == (f"{log}:1", {"n": 0})
    # The first outcome comes long before the log is through.
    assert time.monotonic() - started < 5
    del run
    count = sum(1 for _ in jxray.check(log))
    assert count == 200_000


def test_bad_paths_and_arguments_are_python_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nowhere: no such file or folder; check the path"):
        jxray.check("nowhere")
    with pytest.raises(ValueError, match="pass a text to jxray.extract"):
        jxray.check("-")
    with pytest.raises(ValueError, match="stop_path needs text_path or preset"):
        jxray.check(tmp_path, stop_path="a.b")
    with pytest.raises(ValueError, match="preset must be one of"):
        jxray.check(tmp_path, preset="splunk")
    with pytest.raises(ValueError, match="text_path"):
        jxray.check(tmp_path, text_path="a..b")
    assert list(jxray.check(tmp_path)) == []


def test_an_unreadable_file_is_its_own_outcome(tmp_path: Path) -> None:
    (tmp_path / "ok.txt").write_text("[1]")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9 {}")
    outcomes = dict(jxray.check(tmp_path))
    assert len(outcomes) == 2
    kinds = {Path(source).name: o.failure.kind if o.failure else o.layer for source, o in outcomes.items()}
    assert kinds == {"ok.txt": "direct", "latin1.txt": "unreadable"}


def test_the_fixtures_folder_is_passed_over_as_check_passes_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "saved.json").write_text("{}")
    (tmp_path / "a.txt").write_text("[1]")
    monkeypatch.chdir(tmp_path)
    assert [source for source, _ in jxray.check(".")] == ["a.txt"]


def test_check_reads_what_the_cli_reads_under_a_path(
    jxray_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stray fixture file and the config file's fixtures folder are passed over by both."""
    config = tmp_path / "config-home"
    (config / "jxray").mkdir(parents=True)
    (config / "jxray" / "config.toml").write_text('fixtures = "runs/golden"\n')
    runs = tmp_path / "runs"
    (runs / "golden").mkdir(parents=True)
    (runs / "a.txt").write_text('{"a": 1}')
    (runs / "golden" / "saved.txt").write_text("not a capture to check")
    fixture = {"jxray_fixture": 1, "name": "stray", "input": "{}", "expect": {"ok": True}}
    (runs / "stray.json").write_text(json.dumps(fixture))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    cli = subprocess.run(
        [str(jxray_bin), "check", "runs", "--format", "jsonl"],
        capture_output=True,
        env=dict(os.environ, NO_COLOR="1"),
        timeout=60,
    )
    assert cli.returncode == 0, cli.stderr.decode()
    expected = cli.stdout.decode().splitlines()
    assert [json.loads(line)["source"] for line in expected] == ["runs/a.txt"]
    assert [outcome.to_json() for _, outcome in jxray.check("runs")] == expected
