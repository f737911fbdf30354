"""The loop the seeds end with (contract §6): generate, extract, and — only when the verdict
says a repair request can fix it — one bounded re-ask that names the failure.

The decision and the request's text are the engine's (``jxray_formats::repair``, the same in
TypeScript); this module only calls ``generate`` and keeps the record.
"""

from __future__ import annotations

import difflib
import inspect
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Awaitable, Callable, Generator, List, Optional, Union

from . import _jxray
from ._captures import Chain, usage_json
from ._replies import read_reply
from ._instrument import count_outcome, outcome_counter
from ._jxray import Outcome

__all__ = ["Attempt", "RepairResult", "arepair", "repair", "repair_prompt"]


@dataclass(frozen=True)
class Attempt:
    """One call of ``generate``: what was sent, what came back, what it came out as.

    ``model`` is the model the reply named (``None`` when it named none); ``capture`` the
    attempt's capture file relative to the ``captures`` folder (``None`` without
    ``captures``, or when it could not be written)."""

    attempt: int
    prompt: str
    text: Union[str, bytes]
    outcome: Outcome
    stop_reason: Optional[str]
    usage: Any
    latency: float
    model: Optional[str] = None
    capture: Optional[str] = None


@dataclass(frozen=True)
class RepairResult:
    """How one logical request ended.

    ``status`` is ``success`` (a value was accepted), ``fallback`` (the fallback's value) or
    ``failure``; ``repaired`` says a repair request was made and its answer accepted;
    ``lenient`` that the value is an accepted lenient reading taken without a call;
    ``stopped`` why the loop ended without a value (the policy's action, ``max-repairs`` or
    ``budget``); ``telemetry`` is seed 003's record, the raw output only as a digest;
    ``chain`` the id the attempts' captures share (``None`` without ``captures``).
    """

    status: str
    value: Any
    repaired: bool
    lenient: bool
    outcome: Outcome
    stopped: Optional[str]
    attempts: List[Attempt] = field(default_factory=list)
    telemetry: dict = field(default_factory=dict)
    chain: Optional[str] = None

    def value_or_raise(self) -> Any:
        """The value — the accepted one, or the fallback's, which the caller asked for —
        or, when the loop ended without one, the exception of the last failure's kind (a
        ``jxray.ExtractError``, a ``ValueError``, carrying the outcome): ``result =
        jxray.repair(...).value_or_raise()`` drops in where a loop that raised was."""
        if self.status != "failure":
            return self.value
        if not self.outcome.ok:
            return self.outcome.value_or_raise()
        # The accepted body of a tool call written as text: no answer, as for no JSON.
        error = _jxray.NoJsonError(
            f"{self.outcome.source}: the output is a tool call written as text; the serving "
            "layer did not parse the model's tool call (fix its tool parser or chat template)"
        )
        error.outcome = self.outcome
        error.failure = None
        raise error


def repair_prompt(
    outcome: Outcome,
    *,
    schema: Any = None,
    max_output_chars: Optional[int] = None,
    required: Optional[List[str]] = None,
) -> Optional[str]:
    """The text of one repair request for a failed outcome (``None`` when it is ok): the
    failure, each defect with line, column and advice, the schema's failing paths and
    required keys, and the output between markers as untrusted data."""
    return _jxray.repair_decision(
        outcome, schema=schema, max_output_chars=max_output_chars, required=required
    )[1]


_EXTRACT_OPTIONS = ("accept_lenient", "decode_stringified", "pick", "decimals")
_OPTIONS = (
    "schema", "max_repairs", "budget", "fallback", "fallback_kind", "schema_version", "policy",
    "max_output_chars", "required", "captures", *_EXTRACT_OPTIONS,
)
# The request files' `source`: which loop wrote the chain.
_CAPTURES_SOURCE = "jxray.repair (python)"


class _Loop:
    """What one call of ``repair`` or ``arepair`` keeps between attempts: the options read
    once, the attempts, and the engine's run (``RepairRun``: the decisions, the budget, when
    to stop and the telemetry record are the pure core's, as in TypeScript)."""

    def __init__(self, prompt: str, options: dict) -> None:
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be str, not {type(prompt).__name__}")
        self.schema = options.pop("schema", None)
        max_repairs = options.pop("max_repairs", 1)
        if not isinstance(max_repairs, int) or max_repairs < 0:
            raise ValueError("max_repairs must be a whole number, 0 or more")
        budget = _budget(options.pop("budget", None))
        self.fallback = options.pop("fallback", None)
        self.fallback_kind = options.pop("fallback_kind", None)
        self.schema_version = options.pop("schema_version", None)
        policy = options.pop("policy", None) or {}
        if not isinstance(policy, Mapping):
            raise TypeError("policy must map a failure kind or cause to an action's name")
        max_output_chars = options.pop("max_output_chars", None)
        required = options.pop("required", None)
        self.extract_options = {n: options.pop(n) for n in _EXTRACT_OPTIONS if n in options}
        captures = options.pop("captures", None)
        if options:
            name = sorted(options)[0]
            raise TypeError(f"unknown option {name!r}{_did_you_mean(name, _OPTIONS)}")
        self.run = _jxray.RepairRun(
            prompt,
            max_repairs=max_repairs,
            max_tokens=budget.get("max_tokens"),
            max_seconds=budget.get("max_seconds"),
            schema=self.schema,
            policy=[(str(name), str(action)) for name, action in policy.items()],
            max_output_chars=max_output_chars,
            required=required,
            **self.extract_options,
        )
        self.chain = None if captures is None else Chain(captures, _CAPTURES_SOURCE, self.schema)
        self.started = time.monotonic()
        self.attempts: List[Attempt] = []
        self.request = prompt
        self.action = "accept"

    def may_call(self) -> bool:
        """Whether another call is allowed: within ``1 + max_repairs`` and the budget."""
        return self.run.may_call(time.monotonic() - self.started)

    def took(self, reply: Any, latency: float, started: datetime) -> bool:
        """Record one reply to the call begun at ``started`` (and write it when there is a
        captures folder); whether to call again."""
        text, stop_reason, usage, model, judged = read_reply(reply, self.run.judge_response)
        as_json = usage_json(usage)
        usage_text = None if as_json is None else json.dumps(as_json)
        if judged is None:
            outcome, self.action, request = self.run.took_text(text, stop_reason, usage_text)
        else:
            outcome = judged
            self.action, request = self.run.took(judged, text, usage_text)
        attempt = Attempt(len(self.attempts) + 1, self.request, text, outcome, stop_reason, usage, latency, model)
        if self.chain is not None:
            attempt = replace(attempt, capture=self.chain.write(attempt, started))
        self.attempts.append(attempt)
        if request is None:
            return False
        self.request = request
        return True

    def result(self) -> RepairResult:
        outcome = self.attempts[-1].outcome
        fallback_kind = None
        if self.fallback is not None:
            fallback_kind = self.fallback_kind or ("function" if callable(self.fallback) else "value")
        ending = json.loads(self.run.end(fallback_kind, json.dumps(self.schema_version)))
        value = outcome.value if ending["status"] == "success" else None
        if ending["status"] == "fallback":
            value = self.fallback(outcome) if callable(self.fallback) else self.fallback
        return RepairResult(
            status=ending["status"],
            value=value,
            repaired=ending["repaired"],
            lenient=ending["lenient"],
            outcome=outcome,
            stopped=ending["stopped"],
            attempts=list(self.attempts),
            telemetry=ending["telemetry"],
            chain=None if self.chain is None else self.chain.id,
        )


class _Spans:
    """The loop's OpenTelemetry spans and outcome counts when ``opentelemetry-api`` is
    installed (an optional dependency); without it every method does nothing."""

    def __init__(self) -> None:
        try:
            from opentelemetry import metrics, trace
        except ImportError:
            self.trace = None
            return
        self.trace = trace
        self.tracer = trace.get_tracer("jxray")
        self.counter = outcome_counter(metrics)
        self.request = self.tracer.start_span("jxray.repair", attributes={"gen_ai.operation.name": "chat"})

    def attempt(self, number: int) -> Any:
        if self.trace is None:
            return None
        context = self.trace.set_span_in_context(self.request)
        return self.tracer.start_span("jxray.repair.attempt", context=context, attributes={"jxray.attempt": number})

    def judged(self, span: Any, attempt: Attempt, action: str) -> None:
        if span is None:
            return
        outcome = attempt.outcome
        attributes: dict = {"jxray.action": action, "jxray.repaired": outcome.ok and attempt.attempt > 1}
        if outcome.ok:
            attributes["jxray.layer"] = outcome.layer
        else:
            failure = outcome.failure
            attributes["jxray.failure.kind"] = failure.kind
            for name, value in (("defect", failure.defect), ("cause", failure.cause)):
                if value:
                    attributes[f"jxray.failure.{name}"] = value
        if attempt.stop_reason:
            attributes["gen_ai.response.finish_reasons"] = [attempt.stop_reason]
        attributes.update(_usage_attributes(attempt.usage))
        span.set_attributes(attributes)
        span.end()
        count_outcome(self.counter, outcome, "repair")

    def failed(self, span: Any, error: BaseException) -> None:
        """End the attempt's span (when there is one) and the loop's, with the error."""
        if self.trace is None:
            return
        from opentelemetry.trace import Status, StatusCode

        for each in (span, self.request) if span is not None else (self.request,):
            each.record_exception(error)
            each.set_status(Status(StatusCode.ERROR, str(error)))
            each.end()

    def end(self, result: RepairResult) -> None:
        if self.trace is None:
            return
        telemetry = result.telemetry
        attributes = {
            "jxray.status": result.status,
            "jxray.repaired": result.repaired,
            "jxray.attempt_count": telemetry["attempt_count"],
            "jxray.raw_output_hash": telemetry["raw_output_hash"],
        }
        for name in ("initial_failure", "repair_failure", "fallback_kind", "schema_version"):
            if telemetry[name] is not None:
                attributes[f"jxray.{name}"] = telemetry[name]
        if result.stopped is not None:
            attributes["jxray.stopped"] = result.stopped
        self.request.set_attributes(attributes)
        self.request.end()


def _usage_attributes(usage: Any) -> dict:
    inputs, outputs, _ = _usage_counts(usage)
    found = {}
    if inputs is not None:
        found["gen_ai.usage.input_tokens"] = inputs
    if outputs is not None:
        found["gen_ai.usage.output_tokens"] = outputs
    return found


def repair(generate: Callable[[str], Any], prompt: str, **options: Any) -> RepairResult:
    """Call ``generate(prompt)``, extract its output and, when the policy says a repair
    request can fix the failure (``invalid``, ``no-json`` without a cause, ``schema``), call
    it again with the prompt and the request — at most ``1 + max_repairs`` calls in all.

    ``generate`` returns the text, or a dict or object with ``text``, ``stop_reason`` and
    ``usage``; an exception it raises is the caller's and ends the loop. Options: ``schema``
    (a JSON Schema dict, a schema file's path or a Pydantic model), ``max_repairs`` (1),
    ``budget`` (``{"max_tokens": N, "max_seconds": S}``, checked before each repair call),
    ``fallback`` (a value, or a function of the last outcome; never marked success),
    ``fallback_kind``, ``schema_version`` (for the telemetry), ``policy`` (a failure's
    cause, else its kind, to an action), ``max_output_chars``, ``required``, ``captures``
    (a folder: each attempt is written there as a capture and its request file, one chain
    the workbench and ``jxray check`` show), and ``extract``'s ``accept_lenient``,
    ``decode_stringified``, ``pick`` and ``decimals``.
    """
    if inspect.iscoroutinefunction(generate):
        raise TypeError("generate is a coroutine function: use jxray.arepair")
    steps = _steps(_Loop(prompt, dict(options)))
    request = next(steps)
    while True:
        try:
            reply = generate(request)
        except BaseException as error:
            steps.throw(error)
        try:
            request = steps.send(reply)
        except StopIteration as done:
            return done.value


async def arepair(generate: Callable[[str], Awaitable[Any]], prompt: str, **options: Any) -> RepairResult:
    """:func:`repair` for an async ``generate``. Cancelling the task stops the loop at the
    call it is in: ``CancelledError`` propagates, no fallback is given, and no capture is
    written after it (the captures are written synchronously: they are small)."""
    steps = _steps(_Loop(prompt, dict(options)))
    request = next(steps)
    while True:
        try:
            reply = generate(request)
            if inspect.isawaitable(reply):
                reply = await reply
        except BaseException as error:
            steps.throw(error)
        try:
            request = steps.send(reply)
        except StopIteration as done:
            return done.value


def _steps(loop: _Loop) -> Generator[str, Any, RepairResult]:
    """The loop, as the calls it wants: yields each request to send to ``generate``, is sent
    the reply (or thrown what ``generate`` raised, which it records and raises again), and
    returns the result. Both ``repair`` and ``arepair`` drive it."""
    spans = _Spans()
    while loop.may_call():
        span = spans.attempt(len(loop.attempts) + 1)
        began = datetime.now().astimezone()
        started = time.monotonic()
        try:
            reply = yield loop.request
            again = loop.took(reply, time.monotonic() - started, began)
        except BaseException as error:
            # generate raised, or returned what cannot be read: the attempt's span and the
            # loop's end here, with the error.
            spans.failed(span, error)
            raise
        spans.judged(span, loop.attempts[-1], loop.action)
        if not again:
            break
    try:
        result = loop.result()
    except BaseException as error:
        # The fallback raised.
        spans.failed(None, error)
        raise
    spans.end(result)
    return result


_BUDGET_KEYS = ("max_tokens", "max_seconds")


def _budget(budget: Any) -> Mapping:
    """The budget option, checked before any call: a misspelt key or a count that is not a
    number would otherwise mean no budget at all."""
    if budget is None:
        return {}
    if not isinstance(budget, Mapping):
        raise TypeError(f'budget must be a dict with "max_tokens" and/or "max_seconds", not {type(budget).__name__}')
    for key in budget:
        if key not in _BUDGET_KEYS:
            raise TypeError(f"budget: unknown key {key!r}{_did_you_mean(str(key), _BUDGET_KEYS)}; the keys are max_tokens and max_seconds")
    tokens, seconds = budget.get("max_tokens"), budget.get("max_seconds")
    if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0):
        raise TypeError(f"budget: max_tokens must be a whole number, 0 or more, not {tokens!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0):
        raise TypeError(f"budget: max_seconds must be a number of seconds, 0 or more, not {seconds!r}")
    return {"max_tokens": tokens, "max_seconds": seconds}


def _did_you_mean(name: str, known: "tuple[str, ...] | list[str]") -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _usage_counts(usage: Any) -> "tuple[Optional[int], Optional[int], int]":
    """Input, output and total tokens one call used, read by the engine's usage reader in
    every provider's spelling (the same as TypeScript's); a count the usage does not give
    is ``None``, and the total is 0 when none is given."""
    as_json = usage_json(usage)
    if as_json is None:
        return None, None, 0
    inputs, outputs, total = _jxray.token_usage(json.dumps(as_json))
    return inputs, outputs, total or 0
