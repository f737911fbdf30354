"""A verdict while the output arrives (docs/streaming.md, contract §7): ``jxray.Extractor``
is fed an output chunk by chunk (or a provider's stream, event by event) and says after each
what is known — never inventing a value, never calling a cut output complete — and
``jxray.watch`` does it over an SDK's own stream while the app reads every chunk unchanged.

The engine does the reading (``_jxray.StreamCore``); this module keeps the partial value as
Python objects, built from the snapshots' changes, and drives the SDKs' iterators.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Iterable, Iterator, List, Optional, Sequence

from ._jxray import Outcome, StreamCore

__all__ = ["Extractor", "Snapshot", "Watched", "watch"]

_SIGNALS = ("runaway", "tool-call-text", "reasoning", "refusal", "invalid", "schema")


@dataclass(frozen=True)
class Snapshot:
    """What is known after a chunk.

    ``state`` is ``waiting`` (``why``: ``prose``, ``reasoning``, ``fence``, ``tool-call``) or
    ``reading`` (``layer``: ``direct``, ``fenced``, ``scanned``, ``tool-call-text`` with its
    ``dialect``); ``deltas`` the changes to the value since the last snapshot; ``value`` the
    value so far (the extractor's own, which later chunks grow: copy it to keep it);
    ``open_paths`` and ``final_paths`` JSON Pointers; ``signals`` those raised by this chunk
    (``kind``, ``byte``, ``line``, ``column``, ``message``, ``defect`` for ``invalid``, and
    ``path`` for ``schema``)."""

    state: str
    why: Optional[str]
    layer: Optional[str]
    dialect: Optional[str]
    provisional: bool
    deltas: List[dict]
    open_paths: List[str]
    final_paths: List[str]
    signals: List[dict]
    bytes: int
    value: Any = field(repr=False)


class Extractor:
    """The streaming extractor of one output.

    ``feed(chunk)`` (``str`` or ``bytes``, split anywhere) returns a :class:`Snapshot`;
    ``end(stop_reason=None)`` returns the :class:`Outcome` ``jxray.extract`` gives the whole
    text. ``events=True`` reads a provider's stream instead: ``feed_event(chunk)`` takes an
    SDK's chunk or event (an object with ``model_dump_json``, a dict, or its JSON text), and
    ``end()`` judges the stream with its own stop reason. ``stop_on`` names the signals
    (``runaway``, ``tool-call-text``, ``reasoning``, ``refusal``, ``invalid``, ``schema``) after
    which ``stopped`` is set. With ``schema`` (a JSON Schema or a Pydantic model), each array
    item and object member is judged by the schema's rules for its path as it closes (a
    ``schema`` signal with its ``path``), and the end judges the whole value."""

    def __init__(
        self,
        *,
        schema: Any = None,
        stop_on: Sequence[str] = (),
        decimals: str = "float",
        accept_lenient: bool = False,
        runaway_bytes: Optional[int] = None,
        events: bool = False,
    ) -> None:
        if isinstance(stop_on, str):
            stop_on = [part.strip() for part in stop_on.split(",")]
        unknown = [name for name in stop_on if name not in _SIGNALS]
        if unknown:
            raise ValueError(f"stop_on: unknown signal {unknown[0]!r}; the signals are {', '.join(_SIGNALS)}")
        self._core = StreamCore(
            schema=schema, decimals=decimals, accept_lenient=accept_lenient, runaway_bytes=runaway_bytes, events=events
        )
        self._stop_on = frozenset(stop_on)
        self._value = _Growing()
        self.stopped: Optional[dict] = None
        """The first signal ``stop_on`` names, once one was raised."""

    @property
    def value(self) -> Any:
        """The value so far, built from every snapshot's changes."""
        return self._value.value

    def feed(self, chunk: "str | bytes") -> Snapshot:
        """Feed the next chunk of the output."""
        return self._snapshot(self._core.feed(chunk))

    def feed_event(self, event: Any) -> Snapshot:
        """Feed the next event of a provider's stream (``events=True``)."""
        return self._snapshot(self._core.feed_event(_event_json(event)))

    def text(self) -> str:
        """The output's text received so far."""
        return self._core.text()

    def end(self, stop_reason: Optional[str] = None) -> Outcome:
        """The outcome of everything fed, as ``jxray.extract`` judges it."""
        return self._core.end(stop_reason)

    def _snapshot(self, raw: dict) -> Snapshot:
        growing = self._value
        for delta in raw["deltas"]:
            growing.apply(delta)
        for signal in raw["signals"]:
            if self.stopped is None and signal["kind"] in self._stop_on:
                self.stopped = signal
        # The core's dict holds every other field: it becomes the snapshot's own, without
        # the frozen dataclass's object.__setattr__ per field (paid at every chunk).
        raw["value"] = growing.value
        snapshot = object.__new__(Snapshot)
        object.__setattr__(snapshot, "__dict__", raw)
        return snapshot


def grows_into(before: Any, after: Any) -> bool:
    """Whether ``before`` is a value ``after`` may have grown from, as contract §7's
    snapshots grow: a string into one it starts, an array into one with those first items
    (each grown), an object into one with those members (each grown); anything else only
    into itself. What the tests and the peer comparison hold every snapshot to."""
    if isinstance(before, str) and isinstance(after, str):
        return after.startswith(before)
    if isinstance(before, list) and isinstance(after, list):
        return len(before) <= len(after) and all(grows_into(a, b) for a, b in zip(before, after))
    if isinstance(before, dict) and isinstance(after, dict):
        return all(key in after and grows_into(value, after[key]) for key, value in before.items())
    return type(before) is type(after) and before == after


def _event_json(event: Any) -> str:
    """An SDK's chunk or event as its JSON text."""
    if isinstance(event, str):
        return event
    if isinstance(event, bytes):
        return event.decode("utf-8", "replace")
    dump = getattr(event, "model_dump_json", None)
    if callable(dump):
        return str(dump())
    if isinstance(event, Mapping):
        return json.dumps(event)
    raise TypeError(f"an event is an SDK chunk, a dict or its JSON text, not {type(event).__name__}")


class _Growing:
    """The value a stream's changes build, as Python objects. The container the last change
    went into is kept with its path: most changes go beside the last one, or into the
    container it added, and are made without walking their path from the top."""

    __slots__ = ("value", "_at", "_parent")

    def __init__(self) -> None:
        self.value: Any = None
        self._at: Optional[str] = None
        self._parent: Any = None

    def apply(self, delta: dict) -> None:
        """One change made: a new member or item, more of a string, or none at all."""
        op = delta["op"]
        if op == "withdraw":
            self.value = self._at = self._parent = None
            return
        path = delta["path"]
        if not path:
            if op == "add":
                self.value, self._at, self._parent = delta["value"], None, None
            else:
                # A string that is the whole value, held only here while it grows in place.
                grown, self.value = self.value, None
                grown += delta["text"]
                self.value = grown
            return
        at, _, last = path.rpartition("/")
        parent = self._parent if at == self._at else self._container(at)
        last = _key(last)
        if op == "add":
            value = delta["value"]
            if isinstance(parent, list):
                parent.append(value)
            else:
                parent[last] = value
            # An object or array added is where its members or items go next.
            self._at, self._parent = (path, value) if isinstance(value, (dict, list)) else (at, parent)
            return
        self._at, self._parent = at, parent
        text = delta["text"]
        # The string being read is its container's last item or member (unless a repeated
        # key put it back in the first one's place): taken out, it is held only here, so
        # `+=` grows it in place instead of copying it whole at every chunk.
        if isinstance(parent, list):
            if int(last) == len(parent) - 1:
                grown = parent.pop()
                grown += text
                parent.append(grown)
            else:
                parent[int(last)] += text
        elif next(reversed(parent)) == last:
            grown = parent.pop(last)
            grown += text
            parent[last] = grown
        else:
            parent[last] += text

    def _container(self, at: str) -> Any:
        """The container at the JSON Pointer `at`, walked from the top."""
        parent = self.value
        for step in at.split("/")[1:]:
            parent = parent[int(step)] if isinstance(parent, list) else parent[_key(step)]
        return parent


def _key(step: str) -> str:
    """A JSON Pointer step's key (`~1` is `/`, `~0` is `~`)."""
    return step.replace("~1", "/").replace("~0", "~") if "~" in step else step


class Watched:
    """An SDK's stream, passed through unchanged while an :class:`Extractor` reads it.

    Iterate it (``for``, or ``async for`` over an async stream) as you would the stream:
    every chunk reaches you as the SDK made it. ``snapshot`` is the latest snapshot,
    ``extractor`` the extractor; once the iteration ends, ``outcome`` is the stream's
    outcome. With ``stop_on``, the stream is closed at the first such signal (the provider
    stops generating) and the iteration ends: ``stopped`` says why."""

    def __init__(self, stream: Any, **options: Any) -> None:
        self._stream = stream
        self.extractor = Extractor(events=True, **options)
        self.snapshot: Optional[Snapshot] = None
        self.outcome: Optional[Outcome] = None

    @property
    def stopped(self) -> Optional[dict]:
        return self.extractor.stopped

    def __iter__(self) -> Iterator[Any]:
        for chunk in self._stream:
            self.snapshot = self.extractor.feed_event(chunk)
            yield chunk
            if self.extractor.stopped is not None:
                _close(self._stream)
                break
        self.outcome = self.extractor.end()

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for chunk in self._stream:
            self.snapshot = self.extractor.feed_event(chunk)
            yield chunk
            if self.extractor.stopped is not None:
                closing = getattr(self._stream, "close", None) or getattr(self._stream, "aclose", None)
                if callable(closing):
                    await closing()
                break
        self.outcome = self.extractor.end()


def watch(stream: "Iterable[Any] | Any", **options: Any) -> Watched:
    """Read an SDK's stream (OpenAI chat or Responses, Anthropic, Gemini, Ollama) as it
    arrives, passing every chunk through: ``for chunk in (watched := jxray.watch(stream)):``.
    Options are :class:`Extractor`'s (``schema``, ``stop_on``, …)."""
    return Watched(stream, **options)


def _close(stream: Any) -> None:
    closing = getattr(stream, "close", None)
    if callable(closing):
        closing()
