"""jxray: find, repair and explain the JSON in raw language-model output.

The same engine, readers and words as the ``jxray`` command line (which this package also
installs)::

    import jxray

    outcome = jxray.extract('Sure! ```json\\n{"city": "Paris"}\\n```')
    outcome.layer            # 'fenced'
    outcome.value            # {'city': 'Paris'}
    jxray.extract('{"a": [1, 2,').value_or_raise()   # raises jxray.TruncatedError
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, List

from . import _jxray
from ._instrument import counted as _counted, instrument
from ._repair import Attempt, RepairResult, arepair, repair, repair_prompt
from ._stream import Extractor, Snapshot, Watched, watch
from ._jxray import (
    CheckRun,
    ExtractError,
    Failure,
    InvalidJsonError,
    NoJsonError,
    Outcome,
    SchemaError,
    TruncatedError,
    UnreadableError,
    check,
)

__version__: str = _jxray.__version__

__all__ = [
    "Attempt",
    "CheckRun",
    "ExtractError",
    "Extractor",
    "Failure",
    "InvalidJsonError",
    "NoJsonError",
    "Outcome",
    "RepairResult",
    "SchemaError",
    "Snapshot",
    "TruncatedError",
    "UnreadableError",
    "Watched",
    "arepair",
    "check",
    "extract",
    "extract_response",
    "instrument",
    "repair",
    "repair_prompt",
    "watch",
    "__version__",
]


# Counted in OpenTelemetry once `instrument(extract=True)` says so (`_instrument`).
extract = _counted("extract")(_jxray.extract)


@_counted("extract_response")
def extract_response(response: Any, **options: Any) -> List[Outcome]:
    """The outcomes of one provider response: OpenAI (chat or Responses), Anthropic,
    Gemini or Ollama, given as the SDK's response object, as a dict (``model_dump()``),
    or as the JSON body (``str`` or ``bytes``).

    The text and stop reason are read by the same envelope readers as a ``.json`` capture
    file. The list holds the message text first (when it is a capture: a blank text or a
    preamble to tool calls is not), then every tool call's arguments in call order, each
    its own outcome; sources read ``response``, or ``response#call-N`` when there are
    several. Options are those of :func:`extract` except ``stop_reason``, which comes
    from the response. Raises ``ValueError`` when it is no provider response.
    """
    return _jxray.extract_response_body(_response_body(response), **options)


def _response_body(response: Any) -> bytes:
    """The JSON body of a response, as the provider sent it."""
    if isinstance(response, bytes):
        return response
    if isinstance(response, str):
        return _utf8(response, "response")
    if isinstance(response, Mapping):
        return _json_body(response)
    dump = getattr(response, "model_dump", None)
    if callable(dump):
        try:
            # The wire's field names (Gemini's finishReason), without the SDK's empty fields.
            dumped = dump(mode="json", by_alias=True, exclude_none=True)
        except TypeError:
            dumped = dump()
        return _json_body(dumped)
    to_dict = getattr(response, "to_dict", None)
    if callable(to_dict):
        return _json_body(to_dict())
    raise TypeError(
        "response must be an SDK response object, a dict or its JSON body, not "
        + type(response).__name__
    )


def _json_body(value: Any) -> bytes:
    """``value`` as JSON, or a ``ValueError`` saying what in it JSON cannot carry (a NaN or
    an infinity, a lone surrogate) and where, instead of "not a response"."""
    try:
        return json.dumps(value, allow_nan=False, ensure_ascii=False).encode()
    except (ValueError, UnicodeEncodeError):
        pass
    place, what = _unrepresentable(value)
    raise ValueError(
        f"the response holds {what} at {place}, which JSON cannot carry; "
        "it is a response, but not one a provider sends"
    ) from None


def _utf8(text: str, argument: str) -> bytes:
    try:
        return text.encode()
    except UnicodeEncodeError as error:
        raise UnicodeEncodeError(
            "utf-8",
            text,
            error.start,
            error.end,
            f"{argument} holds a lone surrogate (U+{ord(text[error.start]):04X} at index "
            f"{error.start}), which is not Unicode text and cannot be read",
        ) from None


def _unrepresentable(value: Any) -> "tuple[str, str]":
    """The first place in ``value`` that JSON cannot carry, as ``$.a[0]``, and what it is."""
    pending = [("$", value)]
    while pending:
        place, item = pending.pop()
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            return place, f"the number {item!r}"
        if isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError as error:
                code = ord(item[error.start])
                return place, f"a lone surrogate (U+{code:04X}) in a string"
        if isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                if isinstance(key, str):
                    try:
                        key.encode()
                    except UnicodeEncodeError:
                        return place, "a lone surrogate in a member name"
                name = key if isinstance(key, str) and key.isidentifier() else repr(key)
                pending.append((f"{place}.{name}", child))
        elif isinstance(item, (list, tuple)):
            for index in reversed(range(len(item))):
                pending.append((f"{place}[{index}]", item[index]))
    return "$", "a value"
