"""The pytest plugin (entry point ``pytest11``): ``pytest --jxray-fixtures DIR`` (or
``jxray_fixtures = DIR`` in the pytest ini) replays every jxray fixture in DIR as a test
item, as ``jxray test DIR`` does, and reports a regression with the diff it prints."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set, Union

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
    roots: Dict[Path, List[Path]] = {}
    for root in _fixture_roots(config):
        root = root.resolve()
        try:
            # Exactly the files `jxray test` replays, in its order: under build/, dist/ or
            # dot-folders too (pytest's own collection would pass over them), and entries
            # that cannot be read (a dangling symlink, a FIFO), which fail as they do there.
            found = _jxray.fixture_files(str(root))
        except ValueError as error:
            raise pytest.UsageError(f"--jxray-fixtures: {error}") from None
        if not found:
            # `jxray test` exits 2 on a folder without fixtures: it is no green run.
            raise pytest.UsageError(
                f"--jxray-fixtures: no jxray fixtures in {_jxray._escape_line(str(root))}"
            )
        roots[root] = list(found)
    config.stash[_ROOTS] = roots


_ROOTS = pytest.StashKey[Dict[Path, List[Path]]]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: List[pytest.Item]
) -> None:
    """The fixtures are added to what pytest collected, before -k and -m select."""
    seen: Set[Path] = set()
    for files in config.stash.get(_ROOTS, {}).values():
        for path in files:
            if path in seen:
                continue
            seen.add(path)
            # Escaped as jxray escapes every name it prints: a file name can hold a
            # terminal escape, and pytest prints node ids raw.
            where = _jxray._escape_line(os.path.relpath(path, config.rootpath))
            file = FixtureFile.from_parent(session, name=where, path=path, nodeid=where)
            stem = path.name.rsplit(".", 1)[0] if "." in path.name else path.name
            items.append(FixtureItem.from_parent(file, name=_jxray._escape_line(stem)))


class FixtureFile(pytest.File):
    """One fixture file, the parent of its one test item."""

    def collect(self) -> Iterator[Union[pytest.Item, pytest.Collector]]:
        return iter(())


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

    @property
    def location(self) -> Any:
        # pytest prints the location in its report: escaped like the node id.
        path, line, _ = super().location
        return _jxray._escape_line(path), line, f"jxray fixture {self.name}"
