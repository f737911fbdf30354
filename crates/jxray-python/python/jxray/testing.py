"""Assertions for a team's own tests: ``assert_outcome`` checks what jxray makes of a
model output, and says what it made of it (the layer, the failure, the defect, where and
why) when that is not what the test expects."""

from __future__ import annotations

from typing import Any, Union

from jxray._jxray import Outcome, extract

__all__ = ["assert_outcome"]


class _Unset:
    """An expectation not given (``None`` is a value one can expect)."""

    def __repr__(self) -> str:
        return "unset"


_UNSET: Any = _Unset()


def assert_outcome(
    text: Union[str, bytes, Outcome],
    *,
    ok: Any = _UNSET,
    layer: Any = _UNSET,
    value: Any = _UNSET,
    failure: Any = _UNSET,
    defect: Any = _UNSET,
    cause: Any = _UNSET,
    warnings: Any = _UNSET,
    **options: Any,
) -> Outcome:
    """Extract ``text`` (with :func:`jxray.extract`'s ``options``) or take an ``Outcome``,
    and check each expectation given: ``ok``, ``layer`` (``"fenced"``), ``value`` (compared
    exactly: ``1``, ``1.0`` and ``True`` differ), ``failure`` (the kind, ``"truncated"``),
    ``defect``, ``cause`` and ``warnings`` (the list of kinds). Returns the outcome.

    The ``AssertionError`` lists every expectation not met and what jxray found instead,
    e.g. ``got invalid (trailing-comma) at 3:18: trailing comma before `}` …``.
    """
    __tracebackhide__ = True
    outcome = text if isinstance(text, Outcome) else extract(text, **options)
    found = outcome.failure
    actual = {
        "ok": outcome.ok,
        "layer": outcome.layer,
        "value": outcome.value,
        "failure": found.kind if found else None,
        "defect": found.defect if found else None,
        "cause": found.cause if found else None,
        "warnings": outcome.warnings,
    }
    expected = {
        "ok": ok,
        "layer": layer,
        "value": value,
        "failure": failure,
        "defect": defect,
        "cause": cause,
        "warnings": warnings,
    }
    unmet = [
        f"  {name}: expected {want!r}, got {actual[name]!r}"
        for name, want in expected.items()
        if want is not _UNSET and not _same(want, actual[name])
    ]
    if unmet:
        raise AssertionError(
            "\n".join(["jxray outcome is not what the test expects:", *unmet, "  " + describe(outcome)])
        )
    return outcome


def describe(outcome: Outcome) -> str:
    """What jxray made of it, in one line: the layer and value, or the failure."""
    failure = outcome.failure
    if failure is None:
        line = f"got layer {outcome.layer!r}, value {outcome.value!r}"
        if outcome.warnings:
            line += f", warnings {outcome.warnings!r}"
        return line
    kind = failure.kind + (f" ({failure.defect})" if failure.defect else "")
    line = f"got {kind} at {failure.line}:{failure.column}: {failure.message}"
    if failure.cause:
        line += f" [cause: {failure.cause}]"
    # A schema failure keeps the layer its value came from.
    return line + (f" (layer {outcome.layer!r})" if outcome.layer else "")


def _same(expected: Any, actual: Any) -> bool:
    """Equal values of the same JSON types: ``True`` is not ``1`` and ``1.0`` is not ``1``."""
    pending = [(expected, actual)]
    while pending:
        want, got = pending.pop()
        if isinstance(want, bool) or isinstance(got, bool) or type(want) in (int, float):
            if type(want) is not type(got) or want != got:
                return False
        elif isinstance(want, dict):
            if not isinstance(got, dict) or want.keys() != got.keys():
                return False
            pending.extend((want[key], got[key]) for key in want)
        elif isinstance(want, (list, tuple)):
            if not isinstance(got, list) or len(want) != len(got):
                return False
            pending.extend(zip(want, got))
        elif want != got:
            return False
    return True
