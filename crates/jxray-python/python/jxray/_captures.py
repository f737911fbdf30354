"""A repair loop's attempts written as a chain of captures (``repair(..., captures=FOLDER)``).

Each attempt is ``FOLDER/YYYY-MM-DD/HH-MM-SS.mmm-MODEL-CHAIN8-aN.jsonl`` (one
``{"output", "stop_reason"}`` line, which every jxray reader takes) and, beside it, the
request file ``….request.json`` naming the chain, the attempt and the capture it re-asks:
the format ``jxray check`` and the workbench read as a chain (docs/repair.md).

The files are written by the writer ``jxray record`` uses (``jxray._jxray.write_capture``):
relative to the folder's handle, a date folder planted as a symlink refused, each file whole
or not at all, and never over one that is there (a taken name gets ``-2``, ``-3``, …).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import warnings
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Dict, Optional, Tuple

from . import _jxray

__all__ = ["Chain"]

CAPTURE_SUFFIX = ".jsonl"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


class Chain:
    """One loop's attempts, written under ``folder`` as they are judged."""

    def __init__(self, folder: "os.PathLike[str] | str", source: str, schema: Any = None) -> None:
        path = os.fspath(folder) if isinstance(folder, (str, os.PathLike)) else None
        if not isinstance(path, str):
            raise TypeError(f"captures must be a folder's path (str or os.PathLike), not {type(folder).__name__}")
        if "\0" in path:
            raise ValueError(f"captures: the folder's path {path!r} holds a NUL character")
        # A folder that cannot be used is the caller's error, said before the first paid call;
        # a write that fails later (a full disk) is a warning and the loop goes on.
        _jxray.open_captures(path)
        self.folder = path
        self.source = source
        # Written into each request file, so `check` and the workbench judge the attempts
        # against the schema the loop judged them against (contract §2).
        self.schema = json_schema_of(schema)
        self.id = secrets.token_hex(8)
        # The last attempt's capture, which the next one re-asks.
        self.previous: Optional[str] = None

    def write(self, attempt: Any, started: datetime) -> Optional[str]:
        """Write one judged attempt (an ``Attempt``: its number, prompt, text, stop reason,
        usage, model and latency), begun at the local time ``started``. Returns the
        capture's path relative to the folder, or ``None`` with a ``RuntimeWarning`` when
        it could not be written: a full disk must not end the caller's loop."""
        day = started.strftime("%Y-%m-%d")
        stem = f"{started:%H-%M-%S}.{started.microsecond // 1000:03d}-{model_label(attempt.model)}-{self.id[:8]}-a{attempt.attempt}"
        request, capture = self._files(attempt, started)
        try:
            written, request_error = _jxray.write_capture(self.folder, day, stem, CAPTURE_SUFFIX, capture, request)
        except OSError as error:
            target = os.path.join(self.folder, day, stem + CAPTURE_SUFFIX)
            reason = " ".join(str(error.strerror or error).split())
            warnings.warn(f"jxray: the capture {target} was not written: {reason}", RuntimeWarning, stacklevel=2)
            # The next attempt re-asks a capture that is not there: it names none.
            self.previous = None
            return None
        if request_error is not None:
            warnings.warn(
                f"jxray: the request file beside {os.path.join(self.folder, written)} was not written: {request_error}",
                RuntimeWarning,
                stacklevel=2,
            )
        self.previous = written
        return written

    def _body(self, prompt: str) -> Dict[str, Any]:
        """The request's body: the prompt sent, and the schema as a JSON response format."""
        body: Dict[str, Any] = {"messages": [{"role": "user", "content": prompt}]}
        if self.schema is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {"name": "schema", "schema": self.schema}}
        return body

    def _files(self, attempt: Any, started: datetime) -> Tuple[bytes, bytes]:
        """The request file's bytes and the capture's."""
        chain: Dict[str, Any] = {"id": self.id, "attempt": attempt.attempt}
        if attempt.attempt > 1 and self.previous is not None:
            chain["re_ask_of"] = self.previous
        request = {
            "jxray_request": 1,
            "source": self.source,
            "model": attempt.model,
            "started": started.isoformat(timespec="milliseconds"),
            "duration_ms": round(attempt.latency * 1000),
            "stop_reason": attempt.stop_reason,
            "usage": usage_json(attempt.usage),
            "body": self._body(attempt.prompt),
            "chain": chain,
        }
        text = attempt.text.decode("utf-8", "replace") if isinstance(attempt.text, bytes) else attempt.text
        capture = {"output": text, "stop_reason": attempt.stop_reason}
        return _json_line(request), _json_line(capture) + b"\n"


def json_schema_of(schema: Any) -> Optional[Dict[str, Any]]:
    """The loop's schema as a JSON Schema document: a dict as it is, a Pydantic model's or
    TypeAdapter's JSON Schema, a schema file's content; ``None`` when there is none to say."""
    if schema is None:
        return None
    if isinstance(schema, Mapping):
        return dict(schema)
    for name in ("model_json_schema", "json_schema"):
        method = getattr(schema, name, None)
        if callable(method):
            try:
                made = method()
            except Exception:
                return None
            return dict(made) if isinstance(made, Mapping) else None
    if isinstance(schema, (str, os.PathLike)):
        try:
            with open(schema, encoding="utf-8") as file:
                loaded = json.load(file)
        except (OSError, ValueError):
            return None
        return loaded if isinstance(loaded, dict) else None
    return None


def model_label(model: Optional[str]) -> str:
    """The model as a file name's part: safe characters only, at most 64; ``repair`` when
    the reply did not name one."""
    return _UNSAFE.sub("-", model)[:64] if model else "repair"


def usage_json(usage: Any) -> Optional[Dict[str, Any]]:
    """The reply's usage as a JSON object: a dict as it is, an SDK object through its
    ``model_dump()`` or ``dict()``; ``None`` for anything else or anything JSON cannot carry."""
    if not isinstance(usage, Mapping):
        usage = _dumped(usage)
    if not isinstance(usage, Mapping):
        return None
    try:
        copied: Dict[str, Any] = json.loads(json.dumps(dict(usage), allow_nan=False, default=_none))
    except (TypeError, ValueError):
        return None
    return copied


def _dumped(item: Any) -> Any:
    """What an SDK object says it holds (pydantic 2's ``model_dump``, 1's ``dict``)."""
    for name in ("model_dump", "dict"):
        method = getattr(item, name, None)
        if callable(method):
            try:
                return method()
            except Exception:
                return None
    return None


def _none(_: Any) -> None:
    """What a value JSON has no form for is written as: null."""
    return None


def _json_line(document: Dict[str, Any]) -> bytes:
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    # A lone surrogate in a prompt is no Unicode text; the file stays UTF-8.
    return text.encode("utf-8", "replace")
