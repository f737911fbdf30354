"""A repair loop's attempts written as a chain of captures (``repair(..., captures=FOLDER)``).

Each attempt is ``FOLDER/YYYY-MM-DD/HH-MM-SS.mmm-MODEL-CHAIN8-aN.jsonl`` (one
``{"output", "stop_reason"}`` line, which every jxray reader takes) and, beside it, the
request file ``….request.json`` naming the chain, the attempt and the capture it re-asks:
the format ``jxray check`` and the workbench read as a chain (docs/repair.md).

The names and bytes are the file contract's (``jxray_formats::recorded``, the same as npm's
loop writes) and the files are written by the writer ``jxray record`` uses
(``jxray._jxray.write_attempt``): relative to the folder's handle, a date folder planted as
a symlink refused, each file whole or not at all, and never over one that is there (a taken
name gets ``-2``, ``-3``, …). This module only gathers what the attempt was.
"""

from __future__ import annotations

import json
import os
import secrets
import warnings
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Dict, Optional

from . import _jxray

__all__ = ["Chain"]

CAPTURE_SUFFIX = ".jsonl"


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
        record = self._record(attempt, started)
        try:
            written, request_error = _jxray.write_attempt(self.folder, record)
        except OSError as error:
            stem, _ = _jxray.attempt_files_of(record)
            target = os.path.join(self.folder, started.strftime("%Y-%m-%d"), stem + CAPTURE_SUFFIX)
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

    def _record(self, attempt: Any, started: datetime) -> bytes:
        """The attempt as the core's ``AttemptRecord`` (JSON), which names and words its files."""
        local = started if started.tzinfo is not None else started.astimezone()
        offset = local.utcoffset()
        text = attempt.text.decode("utf-8", "replace") if isinstance(attempt.text, bytes) else attempt.text
        record = {
            "source": self.source,
            "chain": self.id,
            "attempt": attempt.attempt,
            "re_ask_of": self.previous if attempt.attempt > 1 else None,
            "started": {
                "year": local.year,
                "month": local.month,
                "day": local.day,
                "hour": local.hour,
                "minute": local.minute,
                "second": local.second,
                "millisecond": local.microsecond // 1000,
                "offset_minutes": 0 if offset is None else int(offset.total_seconds()) // 60,
            },
            "duration_ms": round(attempt.latency * 1000),
            "model": attempt.model,
            "prompt": attempt.prompt,
            "schema": self.schema,
            "text": text,
            "stop_reason": attempt.stop_reason,
            "usage": usage_json(attempt.usage),
        }
        # A lone surrogate in a prompt is no Unicode text; the files stay UTF-8.
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")


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
