"""The pytest plugin on a fixtures folder: each fixture a test item, a regression reported
with the diff `jxray test` prints; and jxray.testing.assert_outcome's messages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO, run_binary
from jxray.testing import assert_outcome

FIXTURES = REPO / "fixtures"
KEPT = ["bare-json.json", "fence-tagged-trailing-prose.json", "truncated-no-fence.json"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three fixtures from the repository, one of them made to regress."""
    folder = tmp_path / "llm-fixtures"
    folder.mkdir()
    for name in KEPT:
        shutil.copy(FIXTURES / name, folder / name)
    regressed = json.loads((folder / "bare-json.json").read_text())
    regressed["expect"]["value"] = {"city": "Lyon"}
    (folder / "bare-json.json").write_text(json.dumps(regressed, indent=2))
    return folder


def test_each_fixture_is_an_item_and_a_regression_shows_jxray_tests_diff(
    pytester: pytest.Pytester, folder: Path, jxray_bin: Path
) -> None:
    result = pytester.runpytest("--jxray-fixtures", str(folder), "-p", "no:cacheprovider", "-rf")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["FAILED *bare-json.json::bare-json*"])
    report = result.stdout.str()
    cli = run_binary(jxray_bin, ["test", str(folder / "bare-json.json"), "--color", "never"])
    assert cli.returncode == 1
    diff = cli.stdout.decode().split("\n")[:-2]  # without the closing "N passed, N failed"
    assert "FAIL bare-json" in diff[0] and any("Lyon" in line for line in diff)
    for line in diff:
        assert line in report, f"{line!r} missing from the pytest report:\n{report}"


def test_the_ini_option_names_the_folder(pytester: pytest.Pytester, folder: Path) -> None:
    pytester.makeini(f"[pytest]\njxray_fixtures = {folder}\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2, failed=1)


def test_a_known_gap_is_an_expected_failure_and_a_broken_file_fails(
    pytester: pytest.Pytester, folder: Path
) -> None:
    gap = json.loads((folder / "truncated-no-fence.json").read_text())
    gap["known_gap"] = True
    gap["note"] = "not yet"
    gap["expect"] = {"ok": True, "layer": "direct", "value": [1]}
    (folder / "truncated-no-fence.json").write_text(json.dumps(gap))
    (folder / "broken.json").write_text("{ not a fixture")
    result = pytester.runpytest("--jxray-fixtures", str(folder), "-p", "no:cacheprovider", "-rxX")
    result.assert_outcomes(passed=1, failed=2, xfailed=1)
    assert "not a jxray fixture" in result.stdout.str()


def test_a_missing_folder_is_a_usage_error(pytester: pytest.Pytester, tmp_path: Path) -> None:
    result = pytester.runpytest("--jxray-fixtures", str(tmp_path / "nowhere"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "no such fixtures folder or fixture file" in result.stderr.str()


def test_assert_outcome_passes_and_returns_the_outcome() -> None:
    outcome = assert_outcome('```json\n{"a": 1}\n```', layer="fenced", value={"a": 1}, ok=True)
    assert outcome.value == {"a": 1}
    assert_outcome('{"a": [1,', failure="truncated", defect=None)
    assert_outcome("{'a': 1}", accept_lenient=True, layer="lenient", value={"a": 1})


def test_assert_outcome_names_the_layer_failure_and_defect() -> None:
    with pytest.raises(AssertionError) as raised:
        assert_outcome('```json\n{"a": 1,}\n```', layer="fenced", value={"a": 1})
    message = str(raised.value)
    assert "layer: expected 'fenced', got None" in message
    assert "value: expected {'a': 1}, got None" in message
    assert "got invalid (trailing-comma) at 2:9: trailing comma" in message
    assert not message.endswith("(layer None)")
    with pytest.raises(AssertionError, match="failure: expected 'truncated', got None"):
        assert_outcome('{"a": 1}', failure="truncated")
    with pytest.raises(AssertionError, match=r"got layer 'direct', value \{'a': 1\}"):
        assert_outcome('{"a": 1}', layer="fenced")


def test_assert_outcome_compares_values_exactly() -> None:
    with pytest.raises(AssertionError, match="value: expected"):
        assert_outcome('{"a": 1}', value={"a": 1.0})
    with pytest.raises(AssertionError, match="value: expected"):
        assert_outcome('{"a": 1}', value={"a": True})
    assert_outcome('{"a": [1, 2.5, null]}', value={"a": [1, 2.5, None]})
