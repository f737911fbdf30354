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
    extract,
)

__version__: str = _jxray.__version__

__all__ = [
    "CheckRun",
    "ExtractError",
    "Failure",
    "InvalidJsonError",
    "NoJsonError",
    "Outcome",
    "SchemaError",
    "TruncatedError",
    "UnreadableError",
    "check",
    "extract",
    "extract_response",
    "__version__",
]


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
        return response.encode()
    if isinstance(response, Mapping):
        return json.dumps(response).encode()
    dump = getattr(response, "model_dump", None)
    if callable(dump):
        try:
            # The wire's field names (Gemini's finishReason), without the SDK's empty fields.
            dumped = dump(mode="json", by_alias=True, exclude_none=True)
        except TypeError:
            dumped = dump()
        return json.dumps(dumped).encode()
    to_dict = getattr(response, "to_dict", None)
    if callable(to_dict):
        return json.dumps(to_dict()).encode()
    raise TypeError(
        "response must be an SDK response object, a dict or its JSON body, not "
        + type(response).__name__
    )

