"""What ``generate`` returned, read for the repair loop (contract §6): a text, a dict or
object with ``text``, ``stop_reason``, ``usage`` and ``model``, or the provider SDK's own
response (an OpenAI chat completion or Responses object, an Anthropic message, a Gemini or
Ollama response), which is read as ``jxray.extract_response`` reads it — so a structured
refusal (``message.refusal``, content ``None``) is a refusal, not an empty text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Callable, Optional, Tuple, Union

from ._jxray import Outcome

__all__ = ["read_reply", "field"]

# Where a reply says why it stopped, in each SDK's spelling (as TypeScript's loop reads them).
_STOP_FIELDS = ("stop_reason", "finish_reason", "stopReason", "finishReason", "done_reason")
# Where a reply carries its usage: any SDK's `usage`, a Gemini response's metadata.
_USAGE_FIELDS = ("usage", "usage_metadata", "usageMetadata")
# Ollama counts at the top of its response.
_OLLAMA_COUNTS = ("prompt_eval_count", "eval_count")

Reply = Tuple[Union[str, bytes], Optional[str], Any, Optional[str], Optional[Outcome]]


def read_reply(reply: Any, judge_response: Callable[[bytes], Outcome]) -> Reply:
    """``(text, stop_reason, usage, model, outcome)``: ``outcome`` is the response's own
    judgment (``judge_response`` of its JSON body) when ``reply`` is a provider's response,
    else ``None`` (the loop extracts)."""
    if isinstance(reply, (str, bytes)):
        return reply, None, None, None, None
    response = _as_response(reply)
    if response is not None:
        outcome = judge_response(json.dumps(response).encode())
        return outcome.text or "", outcome.stop_reason, _usage_of(reply), outcome.model, outcome
    text = field(reply, "text")
    if text is None and field(reply, "content") is None:
        raise TypeError(
            "generate returned a text of None: that is usually a refusal or a tool call, which the "
            "SDK's response says — return the response itself and jxray reads it"
        )
    if not isinstance(text, (str, bytes)):
        raise TypeError(
            "generate must return the model's text, a dict or object with text, stop_reason and "
            f"usage, or the SDK's response, not {type(reply).__name__}"
        )
    stop = next((v for v in (field(reply, name) for name in _STOP_FIELDS) if v is not None), None)
    if stop is not None and not isinstance(stop, str):
        raise TypeError(f"the reply's stop reason must be a string (the provider's), not {type(stop).__name__}")
    model = field(reply, "model")
    return text, stop, _usage_of(reply), model if isinstance(model, str) and model else None, None


def _as_response(reply: Any) -> Optional[dict]:
    """The reply as a provider response's JSON, when it is one (a text-bearing dict is not)."""
    as_dict = reply if isinstance(reply, Mapping) else _dumped(reply)
    if not isinstance(as_dict, Mapping) or "text" in as_dict and isinstance(as_dict["text"], (str, bytes)):
        return None
    content = as_dict.get("content")
    shaped = (
        "choices" in as_dict
        or "candidates" in as_dict
        or as_dict.get("object") == "response"
        or (isinstance(content, list) and as_dict.get("role") == "assistant")
        or ("message" in as_dict and "done" in as_dict)
    )
    return dict(as_dict) if shaped else None


def _dumped(item: Any) -> Any:
    """An SDK object's JSON form (pydantic's ``model_dump``), or ``None``."""
    dump = getattr(item, "model_dump", None)
    if not callable(dump):
        return None
    try:
        return dump(mode="json")
    except Exception:
        return None


def _usage_of(reply: Any) -> Any:
    """The reply's usage: the first usage field it has, else Ollama's top-level counts."""
    usage = next((v for v in (field(reply, name) for name in _USAGE_FIELDS) if v is not None), None)
    if usage is not None:
        return usage
    counts = {name: field(reply, name) for name in _OLLAMA_COUNTS}
    return {k: v for k, v in counts.items() if v is not None} or None


def field(item: Any, name: str) -> Any:
    """A dict's key or an object's attribute, whichever ``item`` is; ``None`` when absent."""
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)
