"""A repair loop's attempts written as a chain of captures (``repair(..., captures=FOLDER)``).

Each attempt is ``FOLDER/YYYY-MM-DD/HH-MM-SS.mmm-MODEL-CHAIN8-aN.jsonl`` (one
``{"output", "stop_reason"}`` line, which every jxray reader takes) and, beside it, the
request file ``….request.json`` naming the chain, the attempt and the capture it re-asks:
the format ``jxray check`` and the workbench read as a chain (docs/repair.md).

Files appear whole or not at all and never replace one that is there: each is written to a
hidden temporary file, then hard-linked to its name, which fails when the name is taken.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import secrets
import warnings
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["Chain", "place"]

# Hidden, and what the readers and the watcher pass over (jxray_formats::recorded).
TEMP_PREFIX = ".jxray-tmp-"
REQUEST_SUFFIX = ".request.json"
CAPTURE_SUFFIX = ".jsonl"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


class Chain:
    """One loop's attempts, written under ``folder`` as they are judged."""

    def __init__(self, folder: "os.PathLike[str] | str", source: str) -> None:
        path = os.fspath(folder) if isinstance(folder, (str, os.PathLike)) else None
        if not isinstance(path, str):
            raise TypeError(f"captures must be a folder's path (str or os.PathLike), not {type(folder).__name__}")
        self.folder = path
        self.source = source
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
        folder = os.path.join(self.folder, day)
        try:
            os.makedirs(folder, exist_ok=True)
            stem = place(folder, stem, self._files(attempt, started))
        except OSError as error:
            target = os.path.join(folder, stem + CAPTURE_SUFFIX)
            reason = " ".join(str(error.strerror or error).split())
            warnings.warn(f"jxray: the capture {target} was not written: {reason}", RuntimeWarning, stacklevel=2)
            # The next attempt re-asks a capture that is not there: it names none.
            self.previous = None
            return None
        self.previous = f"{day}/{stem}{CAPTURE_SUFFIX}"
        return self.previous

    def _files(self, attempt: Any, started: datetime) -> List[Tuple[str, bytes]]:
        """The request file, then the capture: a reader that finds a capture finds its
        request."""
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
            "body": {"messages": [{"role": "user", "content": attempt.prompt}]},
            "chain": chain,
        }
        text = attempt.text.decode("utf-8", "replace") if isinstance(attempt.text, bytes) else attempt.text
        capture = {"output": text, "stop_reason": attempt.stop_reason}
        return [(REQUEST_SUFFIX, _json_line(request)), (CAPTURE_SUFFIX, _json_line(capture) + b"\n")]


def model_label(model: Optional[str]) -> str:
    """The model as a file name's part: safe characters only, at most 64; ``repair`` when
    the reply did not name one."""
    return _UNSAFE.sub("-", model)[:64] if model else "repair"


def place(folder: str, stem: str, files: List[Tuple[str, bytes]]) -> str:
    """Write each ``(suffix, bytes)`` of ``files`` as ``STEM + suffix`` in ``folder``, in
    order, under the first of ``stem``, ``stem-2``, ``stem-3``, … where every name is free.
    Returns the stem used; nothing that was there is replaced."""
    for number in itertools.count(1):
        candidate = stem if number == 1 else f"{stem}-{number}"
        if any(os.path.lexists(os.path.join(folder, candidate + suffix)) for suffix, _ in files):
            continue
        if _link_all(folder, candidate, files):
            return candidate
    raise AssertionError("itertools.count does not end")


def _link_all(folder: str, stem: str, files: List[Tuple[str, bytes]]) -> bool:
    """Link every file under ``stem``; when a name was taken meanwhile, remove the ones
    this call linked (so the stem's files stay together) and say so."""
    linked: List[str] = []
    for suffix, data in files:
        name = os.path.join(folder, stem + suffix)
        if not _link_new(folder, name, data):
            for mine in linked:
                os.unlink(mine)
            return False
        linked.append(name)
    return True


def _link_new(folder: str, name: str, data: bytes) -> bool:
    """Write ``data`` to a hidden temporary file, flush it to disk, and hard-link it to
    ``name``; ``False`` when ``name`` exists (the link refuses to replace it)."""
    temp = os.path.join(folder, f"{TEMP_PREFIX}{os.path.basename(name)}.{secrets.token_hex(4)}")
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
            os.fsync(handle)
        finally:
            os.close(handle)
        try:
            os.link(temp, name)
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(temp)


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
