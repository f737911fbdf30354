"""The pytest plugin (entry point ``pytest11``): ``pytest --jxray-fixtures DIR`` (or
``jxray_fixtures = DIR`` in the pytest ini) replays every jxray fixture in DIR as a test
item, as ``jxray test DIR`` does, and reports a regression with the diff it prints."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Iterator, List, Optional, Set

import pytest

from jxray import _jxray


class FixtureFixedWarning(UserWarning):
    """A fixture marked as a known gap now passes: remove ``known_gap`` from it."""


class FixtureRegression(Exception):
    """A fixture's replay differs from its expectation (or the file is no fixture)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jxray", "jxray fixtures")
    group.addoption(
        "--jxray-fixtures",
        action="append",
        metavar="DIR",
        default=[],
        help="replay the jxray fixtures in DIR (a folder, or one fixture file) as tests",
    )
    parser.addini(
        "jxray_fixtures",
        type="paths",
        default=[],
        help="jxray fixtures folders to replay as tests (relative to the ini file)",
    )


def _fixture_roots(config: pytest.Config) -> List[Path]:
    given = [Path(path) for path in config.getoption("jxray_fixtures")]
    return given or list(config.getini("jxray_fixtures"))


def pytest_configure(config: pytest.Config) -> None:
    roots = [root.resolve() for root in _fixture_roots(config)]
    files: Set[Path] = set()
    for root in roots:
        try:
            found = _jxray.fixture_files(str(root))
        except ValueError as error:
            raise pytest.UsageError(f"--jxray-fixtures: {error}") from None
        files.update(path.resolve() for path in found if path.is_file())
    config.stash[_FILES] = files
    # A fixtures folder outside the paths pytest collects is collected too.
    collected = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    for root in roots:
        if not any(root == path or path in root.parents for path in collected):
            config.args.append(str(root))


_FILES = pytest.StashKey[Set[Path]]()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Optional[pytest.File]:
    files = parent.config.stash.get(_FILES, set())
    if file_path.resolve() in files:
        return FixtureFile.from_parent(parent, path=file_path)
    return None


class FixtureFile(pytest.File):
    """One fixture file: one test item."""

    def collect(self) -> Iterator[pytest.Item]:
        yield FixtureItem.from_parent(self, name=self.path.stem)


class FixtureItem(pytest.Item):
    """A fixture replayed as ``jxray test`` replays it."""

    def runtest(self) -> None:
        replay = _jxray.replay_fixture(str(self.path))
        text = replay.text.rstrip("\n")
        if replay.verdict == "passed":
            return
        if replay.verdict == "expected-failing":
            pytest.xfail(text)
        if replay.verdict == "fixed":
            warnings.warn(FixtureFixedWarning(text))
            return
        raise FixtureRegression(text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, FixtureRegression):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> Any:
        return self.path, None, f"jxray fixture {self.name}"
