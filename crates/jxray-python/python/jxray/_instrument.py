"""Outcomes counted in OpenTelemetry's ``jxray.outcomes`` (by ``jxray.outcome``: the layer
that fired or the failure kind, and ``jxray.source``): the repair loop's attempts always,
when ``opentelemetry-api`` is installed; plain ``extract`` and ``extract_response`` calls
once ``instrument(extract=True)`` switched them on. Switched off, a plain call pays for one
check of a module global, and OpenTelemetry is not imported.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional, TypeVar, cast

__all__ = ["count_outcome", "counted", "instrument", "outcome_counter"]

F = TypeVar("F", bound=Callable[..., Any])

# The counter plain calls add to; None while they are not counted.
_extract_counter: Optional[Any] = None


def instrument(*, extract: bool = False) -> bool:
    """Count every ``jxray.extract`` and ``jxray.extract_response`` outcome in
    ``jxray.outcomes`` (``extract=True``), or stop counting them (``extract=False``).
    Returns whether ``opentelemetry-api`` is installed; without it this does nothing.
    A counted failure is explained, to read its kind."""
    global _extract_counter
    try:
        from opentelemetry import metrics
    except ImportError:
        _extract_counter = None
        return False
    _extract_counter = outcome_counter(metrics) if extract else None
    return True


def outcome_counter(metrics: Any) -> Any:
    """The ``jxray.outcomes`` counter of the global meter provider (``metrics`` is
    ``opentelemetry.metrics``)."""
    return metrics.get_meter("jxray").create_counter(
        "jxray.outcomes", unit="{outcome}", description="Outputs judged, by the layer that fired or the failure kind"
    )


def count_outcome(counter: Any, outcome: Any, source: str) -> None:
    """Add one to ``counter`` for ``outcome``, by its layer or its failure's kind."""
    kind = outcome.layer if outcome.ok else outcome.failure.kind
    counter.add(1, {"jxray.outcome": kind, "jxray.source": source})


def counted(source: str) -> Callable[[F], F]:
    """``function`` (which returns an outcome or a list of them), its outcomes counted as
    ``source`` while ``instrument(extract=True)`` holds; the same signature for type
    checkers, and pickled by its name in ``jxray``."""

    def wrap(function: F) -> F:
        @functools.wraps(function)
        def counting(*args: Any, **options: Any) -> Any:
            result = function(*args, **options)
            counter = _extract_counter
            if counter is not None:
                for outcome in result if isinstance(result, list) else (result,):
                    count_outcome(counter, outcome, source)
            return result

        counting.__module__ = "jxray"
        return cast(F, counting)

    return wrap
