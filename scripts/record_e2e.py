"""The official SDKs through `jxray record`, against a real mock server (ai-mock).

Run by scripts/record-e2e.sh inside its virtual environment:

  record_e2e.py calls MOCK_URL     every case, streaming and not, with each SDK: once
                                   straight to the mock, once through the proxy (whose
                                   base URLs come from OPENAI_BASE_URL / ANTHROPIC_BASE_URL,
                                   the lines `jxray record` prints); what each SDK
                                   received must be the same either way.
  record_e2e.py check DIR JSONL    each recorded capture, found by the request file
                                   beside it, must have the expected `jxray check` outcome.

Exits 1 with one line per difference.
"""

import json
import os
import sys
from pathlib import Path

import anthropic
import openai

# The last user message picks ai-mock's answer (scripts/record-e2e-responses.json).
CASES = ["fenced", "cut", "comma", "tool", "refusal"]
SYSTEM = "Answer with one JSON object."
WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}

# What `jxray check` says of each recorded capture: (ok, layer, failure kind, defect,
# cause). Text cut off mid-value is `truncated` whatever the stop reason: ai-mock reports
# a normal stop on every non-streamed answer and on Anthropic streams (jxray then warns
# `unsignalled-truncation`: the stop reason says finished, the text says cut), and no
# finish reason at all on OpenAI streams.
EXPECTED = {
    "fenced": (True, "fenced", None, None, None),
    "cut": (False, None, "truncated", None, None),
    "comma": (False, None, "invalid", "trailing-comma", None),
    "tool": (True, "direct", None, None, None),
    "refusal": (False, None, "no-json", None, "refusal"),
}


def without_volatile(value):
    """The value without what the mock makes up anew on each call (ids, timestamps)."""
    if isinstance(value, dict):
        return {k: without_volatile(v) for k, v in value.items() if k not in ("id", "created")}
    if isinstance(value, list):
        return [without_volatile(v) for v in value]
    return value


def openai_call(client, case, stream):
    kwargs = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": case},
        ],
    }
    if case == "tool":
        kwargs["tools"] = [
            {"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_SCHEMA}}
        ]
    else:
        kwargs["response_format"] = {"type": "json_object"}
    if stream:
        return [chunk.model_dump() for chunk in client.chat.completions.create(stream=True, **kwargs)]
    return client.chat.completions.create(**kwargs).model_dump()


def anthropic_call(client, case, stream):
    kwargs = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 256,
        "system": SYSTEM,
        "messages": [{"role": "user", "content": case}],
    }
    if case == "tool":
        kwargs["tools"] = [{"name": "get_weather", "input_schema": WEATHER_SCHEMA}]
    if stream:
        return [event.model_dump() for event in client.messages.create(stream=True, **kwargs)]
    return client.messages.create(**kwargs).model_dump()


def calls(mock):
    key = os.environ["E2E_API_KEY"]
    sdks = {
        "openai": (
            openai_call,
            openai.OpenAI(base_url=f"{mock}/openai", api_key=key, max_retries=0),
            # Through the proxy: the base URL is the line `jxray record` printed.
            openai.OpenAI(api_key=key, max_retries=0),
        ),
        "anthropic": (
            anthropic_call,
            anthropic.Anthropic(base_url=f"{mock}/anthropic", api_key=key, max_retries=0),
            anthropic.Anthropic(api_key=key, max_retries=0),
        ),
    }
    problems = []
    count = 0
    for name, (call, direct, proxied) in sdks.items():
        assert str(proxied.base_url).startswith(os.environ[f"{name.upper()}_BASE_URL"])
        for case in CASES:
            for stream in (False, True):
                want = without_volatile(call(direct, case, stream))
                got = without_volatile(call(proxied, case, stream))
                count += 1
                if got != want:
                    problems.append(f"{name} {case} stream={stream}: the SDK received {got!r}, directly {want!r}")
    for problem in problems:
        print(f"record-e2e: {problem}")
    print(f"record-e2e: {count - len(problems)} of {count} SDK calls received the same through the proxy")
    return 1 if problems else 0


def recorded_case(request_file):
    """(sdk, case, stream) of a recorded exchange, from its request file."""
    request = json.loads(request_file.read_text())
    sdk = request["path"].split("/")[1]
    case = request["body"]["messages"][-1]["content"]
    return sdk, case, bool(request["body"].get("stream"))


def check(folder, jsonl):
    folder = Path(folder)
    # Keyed by the capture's real path: sources are spelled as the folder was given.
    outcomes = {}
    for line in Path(jsonl).read_text().splitlines():
        outcome = json.loads(line)
        outcomes[os.path.realpath(outcome["source"].split("#")[0])] = outcome
    problems = []
    seen = wrong = 0
    for request_file in sorted(folder.rglob("*.request.json")):
        text = request_file.read_text()
        if os.environ["E2E_API_KEY"] in text:
            problems.append(f"{request_file}: holds the API key")
        sdk, case, stream = recorded_case(request_file)
        stem = request_file.name[: -len(".request.json")]
        captures = [p for p in request_file.parent.iterdir() if p.stem == stem and p != request_file]
        if len(captures) != 1:
            problems.append(f"{request_file}: {len(captures)} captures beside it")
            continue
        source = str(captures[0].relative_to(folder))
        outcome = outcomes.get(os.path.realpath(captures[0]))
        if outcome is None:
            problems.append(f"{source}: not in the jxray check report")
            continue
        seen += 1
        failure = outcome["failure"] or {}
        got = (outcome["ok"], outcome["layer"], failure.get("kind"), failure.get("defect"), failure.get("cause"))
        want = EXPECTED[case]
        signalled_stop = not (sdk == "openai" and stream)
        if case == "cut" and signalled_stop and "unsignalled-truncation" not in outcome["warnings"]:
            wrong += 1
            problems.append(f"{source}: no unsignalled-truncation warning: {outcome['warnings']}")
        elif got != want:
            wrong += 1
            problems.append(f"{source} ({sdk} {case} stream={stream}): jxray check gave {got}, expected {want}")
        elif case == "tool" and outcome["value"] != {"city": "Paris"}:
            wrong += 1
            problems.append(f"{source}: the tool call's value is {outcome['value']!r}")
    if len(outcomes) != seen:
        problems.append(f"{len(outcomes)} captures reported, {seen} recorded exchanges found")
    for problem in problems:
        print(f"record-e2e: {problem}")
    print(f"record-e2e: {seen - wrong} of {seen} recorded captures had the expected outcome")
    return 1 if problems or seen == 0 else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["calls"] and len(sys.argv) == 3:
        sys.exit(calls(sys.argv[2]))
    if sys.argv[1:2] == ["check"] and len(sys.argv) == 4:
        sys.exit(check(sys.argv[2], sys.argv[3]))
    sys.exit("usage: record_e2e.py calls MOCK_URL | check DIR JSONL")
