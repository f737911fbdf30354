"""The package under attack: values Python cannot hold, process pools, lone surrogates,
responses JSON cannot carry, and the pytest plugin collecting exactly what `jxray test`
replays."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from multiprocessing import get_context
from operator import methodcaller
from pathlib import Path
from typing import Dict

import pytest

import jxray
from conftest import REPO, run_binary

FIXTURES = REPO / "fixtures"

# --- values Python cannot hold ---------------------------------------------------------


def test_a_decimal_past_what_decimal_holds_comes_out_as_jsons_float() -> None:
    outcome = jxray.extract('{"a": 1e99999999999999999999, "b": 1.5}', decimals="decimal")
    assert outcome.value == {"a": float("inf"), "b": Decimal("1.5")}


def test_check_goes_on_past_a_value_python_cannot_hold(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"a": 1e99999999999999999999}')
    (tmp_path / "b.json").write_text('{"b": ' + "9" * 5000 + "}")
    (tmp_path / "c.json").write_text('{"c": 1.25}')
    seen: Dict[str, jxray.Outcome] = {}
    for source, outcome in jxray.check(tmp_path, decimals="decimal"):
        seen[Path(source).name] = outcome
    assert sorted(seen) == ["a.json", "b.json", "c.json"], "the loop saw every capture"
    assert seen["a.json"].value == {"a": float("inf")}
    with pytest.raises(ValueError, match=r"Exceeds the limit \(\d+ digits\)"):
        seen["b.json"].value
    assert seen["c.json"].value == {"c": Decimal("1.25")}


@pytest.mark.skipif(
    not hasattr(sys, "get_int_max_str_digits"), reason="no digit limit in this interpreter"
)
def test_an_integer_past_the_interpreters_digit_limit_is_refused_at_once() -> None:
    digits = "7" * 4_000_000
    started = time.perf_counter()
    outcome = jxray.extract("[" + digits + "]")
    assert outcome.ok
    with pytest.raises(ValueError) as raised:
        outcome.value
    with pytest.raises(ValueError) as by_json:
        json.loads("[" + digits + "]")
    assert str(raised.value).split(":")[0] == str(by_json.value).split(":")[0]
    with pytest.raises(ValueError):
        outcome.value_or_raise()
    assert time.perf_counter() - started < 5, "no conversion was attempted"
    # A raised limit is honoured as well.
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert jxray.extract("[" + "7" * 6000 + "]").value == [int("7" * 6000)]
    finally:
        sys.set_int_max_str_digits(limit)


# --- lone surrogates, NaN -------------------------------------------------------------


def test_a_lone_surrogate_in_the_text_is_named_with_its_argument() -> None:
    with pytest.raises(UnicodeEncodeError) as raised:
        jxray.extract('{"a": "x\ud800"}')
    message = str(raised.value)
    assert "text holds a lone surrogate (U+D800 at index 8)" in message, message
    assert raised.value.start == 8


def _chat(content: object) -> Dict[str, object]:
    return {
        "object": "chat.completion",
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def test_a_response_json_cannot_carry_says_what_is_wrong_with_it() -> None:
    reply = _chat('{"a": 1}')
    reply["usage"] = {"prompt_tokens": float("nan")}
    with pytest.raises(ValueError) as raised:
        jxray.extract_response(reply)
    message = str(raised.value)
    assert "not an OpenAI" not in message, message
    assert "nan" in message and "$.usage.prompt_tokens" in message, message

    with pytest.raises(ValueError) as raised:
        jxray.extract_response(_chat('{"a": "\udc80"}'))
    message = str(raised.value)
    assert "lone surrogate (U+DC80)" in message and "$.choices[0].message.content" in message

    with pytest.raises(ValueError) as raised:
        jxray.extract_response(json.dumps(_chat("{}")).replace('"index": 0', '"index": NaN'))
    assert "not JSON" in str(raised.value), raised.value

    with pytest.raises(UnicodeEncodeError) as raised_encode:
        jxray.extract_response('{"choices": "\ud800"}')
    assert "response holds a lone surrogate" in str(raised_encode.value)


# --- pickling, process pools ------------------------------------------------------------


def test_outcomes_failures_and_exceptions_pickle() -> None:
    good = jxray.extract('```json\n{"a": [1, 2.5]}\n```', decimals="decimal")
    restored = pickle.loads(pickle.dumps(good))
    assert restored.to_json() == good.to_json()
    assert restored.value == {"a": [1, Decimal("2.5")]}
    assert (restored.layer, restored.text, restored.source) == ("fenced", good.text, "-")

    cut = jxray.extract('{"items": [1, 2,', stop_reason="length")
    again = pickle.loads(pickle.dumps(cut))
    assert again.to_json() == cut.to_json()
    assert again.failure is not None and again.failure.kind == "truncated"
    assert pickle.loads(pickle.dumps(cut.failure)).message == cut.failure.message

    with pytest.raises(jxray.TruncatedError) as raised:
        cut.value_or_raise()
    error = pickle.loads(pickle.dumps(raised.value))
    assert isinstance(error, jxray.TruncatedError)
    assert str(error) == str(raised.value)
    assert error.outcome.to_json() == cut.to_json()
    assert error.failure.kind == "truncated"


def test_a_process_pool_maps_extract_and_carries_its_exceptions_back() -> None:
    texts = ['{"a": 1}', "```json\n[1, 2]\n```", '{"b": [1,']
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        outcomes = list(pool.map(jxray.extract, texts))
        assert [outcome.value for outcome in outcomes] == [{"a": 1}, [1, 2], None]
        with pytest.raises(jxray.TruncatedError) as raised:
            list(pool.map(methodcaller("value_or_raise"), outcomes))
    assert raised.value.failure.kind == "truncated"


# --- the pytest plugin collects what `jxray test` replays -------------------------------


@pytest.fixture
def fixtures(tmp_path: Path) -> Path:
    """A passing fixture at the top, and a regressed one in each folder pytest itself
    would not enter."""
    folder = tmp_path / "llm-fixtures"
    folder.mkdir()
    shutil.copy(FIXTURES / "bare-json.json", folder / "bare-json.json")
    regressed = json.loads((FIXTURES / "bare-json.json").read_text())
    regressed["expect"]["value"] = {"city": "Lyon"}
    for hidden in ["build", "dist", "venv", ".cache"]:
        (folder / hidden).mkdir()
        (folder / hidden / "regressed.json").write_text(json.dumps(regressed))
    return folder


def _replayed_by_jxray_test(jxray_bin: Path, folder: Path) -> int:
    run = run_binary(jxray_bin, ["test", str(folder), "--color", "never"])
    return run.returncode


def test_the_plugin_enters_every_folder_jxray_test_enters(
    pytester: pytest.Pytester, fixtures: Path, jxray_bin: Path
) -> None:
    run = run_binary(jxray_bin, ["test", str(fixtures), "--color", "never"])
    assert run.returncode == 1
    summary = run.stdout.decode().splitlines()[-1]
    assert summary.startswith("1 passed, 3 failed"), summary
    result = pytester.runpytest("--jxray-fixtures", str(fixtures), "-p", "no:cacheprovider")
    # build/, dist/ and venv/ are replayed, as by `jxray test`; so are its dot-folder rules.
    result.assert_outcomes(passed=1, failed=3)


def test_an_empty_fixtures_folder_is_not_a_green_run(
    pytester: pytest.Pytester, tmp_path: Path, jxray_bin: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _replayed_by_jxray_test(jxray_bin, empty) == 2
    result = pytester.runpytest("--jxray-fixtures", str(empty))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "no jxray fixtures in" in result.stderr.str()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_entry_that_cannot_be_read_fails_as_it_does_for_jxray_test(
    pytester: pytest.Pytester, fixtures: Path, jxray_bin: Path
) -> None:
    shutil.rmtree(fixtures / "build")
    shutil.rmtree(fixtures / "dist")
    shutil.rmtree(fixtures / "venv")
    shutil.rmtree(fixtures / ".cache")
    (fixtures / "gone.json").symlink_to(fixtures / "nowhere.json")
    os.mkfifo(fixtures / "pipe.json")
    assert _replayed_by_jxray_test(jxray_bin, fixtures) != 0
    result = pytester.runpytest("--jxray-fixtures", str(fixtures), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=2)


def test_a_fixture_file_name_never_reaches_the_report_raw(
    pytester: pytest.Pytester, fixtures: Path
) -> None:
    for hidden in ["build", "dist", "venv", ".cache"]:
        shutil.rmtree(fixtures / hidden)
    regressed = json.loads((FIXTURES / "bare-json.json").read_text())
    regressed["expect"]["value"] = {"city": "Lyon"}
    (fixtures / "evil\x1b]0;pwned\x07.json").write_text(json.dumps(regressed))
    result = pytester.runpytest(
        "--jxray-fixtures", str(fixtures), "-p", "no:cacheprovider", "-rf", "-v"
    )
    result.assert_outcomes(passed=1, failed=1)
    report = result.stdout.str()
    assert "\x1b]0;" not in report
    assert "evil\\u{1b}]0;pwned\\u{7}" in report, report
