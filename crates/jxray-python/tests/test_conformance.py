"""The conformance cases (the project's copy of the shared spec/cases) and the repository's fixtures through the
Python API: the outcome each requires, and the very line the Rust `jxray check` prints."""

from __future__ import annotations

import base64
import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import jxray
from jxray import _jxray
from conftest import CASES, REPO, check_lines, stdin_lines, without_source

FIXTURES = REPO / "fixtures"


@pytest.fixture(scope="module")
def cases() -> List[Path]:
    if not CASES.is_dir():
        pytest.fail(f"{CASES} is missing: the checkout is incomplete")
    # A case is a capture with its expectation beside it (the folder's README is not one).
    found = sorted(p for p in CASES.iterdir() if p.is_file() and not p.name.endswith(".expect.json"))
    return [p for p in found if p.with_suffix(".expect.json").is_file()]


def meets(expect: Dict[str, Any], outcome: jxray.Outcome) -> List[str]:
    """What of the case's expectation the outcome misses (`repairs` and `warnings` list
    kinds that must be present)."""
    problems = []
    if expect["ok"] != outcome.ok:
        problems.append(f"ok: expected {expect['ok']}, got {outcome.ok}")
    if expect["ok"]:
        if expect["layer"] != outcome.layer:
            problems.append(f"layer: expected {expect['layer']}, got {outcome.layer}")
        if "value" in expect and expect["value"] != outcome.value:
            problems.append(f"value: expected {expect['value']}, got {outcome.value}")
        kinds = [repair["kind"] for repair in outcome.repairs]
        problems += [f"missing repair {k}" for k in expect.get("repairs", []) if k not in kinds]
        problems += [f"missing warning {k}" for k in expect.get("warnings", []) if k not in outcome.warnings]
    else:
        failure = outcome.failure
        if expect["failure"] != failure.kind:
            problems.append(f"failure: expected {expect['failure']}, got {failure.kind}")
        if expect.get("defect") and expect["defect"] != failure.defect:
            problems.append(f"defect: expected {expect['defect']}, got {failure.defect}")
    return problems


def test_every_case_meets_its_expectation_and_is_the_line_check_prints(
    cases: List[Path], jxray_bin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Sources are named from the working folder, here as for the binary (run in REPO).
    monkeypatch.chdir(REPO)
    assert len(cases) >= 50
    failures = []
    for case in cases:
        expect = json.loads(case.with_suffix(".expect.json").read_text())
        (line,) = check_lines(jxray_bin, [str(case)])
        (outcome,) = [outcome for _, outcome in jxray.check(case)]
        if outcome.to_json() != line:
            failures.append(f"{case.name}: check() {outcome.to_json()}\n  jxray check {line}")
        # The same capture through the in-memory entry points.
        if case.suffix == ".json" and outcome.provider:
            (direct,) = jxray.extract_response(case.read_bytes())
        else:
            direct = jxray.extract(case.read_bytes())
        if without_source(direct.to_json()) != without_source(line):
            failures.append(f"{case.name}: extract {direct.to_json()}\n  jxray check {line}")
        failures += [f"{case.name}: {problem}" for problem in meets(expect, outcome)]
    assert not failures, "\n".join(failures)


def fixtures() -> List[Tuple[Path, Dict[str, Any]]]:
    return [(path, json.loads(path.read_text())) for path in sorted(FIXTURES.glob("*.json"))]


def test_every_fixture_extracts_as_jxray_check_does(jxray_bin: Path) -> None:
    by_options: Dict[Tuple[bool, str], List[Dict[str, Any]]] = defaultdict(list)
    for _, fixture in fixtures():
        options = fixture.get("options") or {}
        by_options[(options.get("accept_lenient", False), options.get("pick", "first"))].append(fixture)
    assert sum(map(len, by_options.values())) >= 100
    for (lenient, pick), group in by_options.items():
        texts = [f for f in group if "input" in f]
        flags = ["--pick", pick] + (["--accept-lenient"] if lenient else [])
        lines = check_lines(
            jxray_bin,
            ["-", *flags],
            stdin_lines([f["input"] for f in texts], [f.get("stop_reason") for f in texts]),
        )
        assert len(lines) == len(texts)
        for fixture, line in zip(texts, lines):
            outcome = jxray.extract(
                fixture["input"], stop_reason=fixture.get("stop_reason"), accept_lenient=lenient, pick=pick
            )
            assert without_source(outcome.to_json()) == without_source(line), fixture["name"]
        for fixture in group:
            if "input_base64" in fixture:
                outcome = jxray.extract(base64.b64decode(fixture["input_base64"]))
                assert outcome.failure.kind == "unreadable", fixture["name"]


def test_every_fixture_replays_as_jxray_test_replays_it(jxray_bin: Path) -> None:
    from conftest import run_binary

    run = run_binary(jxray_bin, ["test", str(FIXTURES), "--color", "never"])
    assert run.returncode == 0, run.stdout.decode()
    verdicts = {_jxray.replay_fixture(path).verdict for path in _jxray.fixture_files(FIXTURES)}
    assert verdicts <= {"passed", "expected-failing"}
    closing = run.stdout.decode().splitlines()[-1]
    passed = sum(_jxray.replay_fixture(p).verdict == "passed" for p in _jxray.fixture_files(FIXTURES))
    assert closing.startswith(f"{passed} passed, 0 failed")
