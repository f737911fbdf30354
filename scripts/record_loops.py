"""Other loops' re-asks through `jxray record` (contract §6): the real instructor and
PydanticAI packages call a real mock server (ai-mock) through the proxy; the mock's first
answer breaks the loop's Pydantic model, the loop re-asks in its own way, and the mock's
answer to the re-ask fits. `jxray check` on the recorded folder must link every re-ask to
the output it re-asks and judge each output against the schema its request carried, so
that it counts the repaired chains the loops counted themselves.

Run by scripts/record-e2e.sh, each loop in the environment that holds its package
(OPENAI_BASE_URL is the line `jxray record` printed):

  record_loops.py instructor           Mode.TOOLS, Mode.JSON and Mode.MD_JSON
  record_loops.py pydantic-ai          ToolOutput (a tool call) and NativeOutput
                                       (response_format json_schema)
  record_loops.py check JSONL N        the report `jxray check --format jsonl` wrote
                                       must hold N chains of two attempts, each a
                                       `schema` failure against the request's schema
                                       repaired by its re-ask

The answers are in scripts/record-e2e-responses.json. ai-mock picks an answer by one
message of the request: the first call by its last message (the question), the re-ask by
the question three messages back (instructor: the question, the model's turn, the loop's
correction; PydanticAI's tool output: the question, the call, the tool's error) or by
the bad answer carried back as the model's turn (PydanticAI puts a
system note between them). instructor's MD_JSON mode adds its instruction to the question,
so that message is matched as instructor 1.17 writes it.

ai-mock sends a tool call's arguments as a JSON object where OpenAI sends a string of JSON.
instructor takes either; PydanticAI's OpenAI model validates the response first, so it is
given the answer through the hook PydanticAI offers for compatible servers' answers
(`_validate_completion`), which writes the object as the string it stands for. The proxy
records what the mock sent (the object); PydanticAI carries back its own string of it.

Each loop prints `record-loops: NAME re-asked N, repaired M` from its own record (the
calls instructor made, the model's responses in PydanticAI's message history); exits 1 when a loop
did not end with the mock's right answer.
"""

import json
import os
import sys
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

# The answer the mock's second reply gives each loop.
RIGHT = {
    "instructor-tools": {"severity": "high", "escalate": True},
    "instructor-json": {"severity": "high", "escalate": False},
    "instructor-md-json": {"severity": "low", "escalate": False},
    "pydantic-ai-native": {"severity": "high", "escalate": True},
    "pydantic-ai-tool": {"severity": "medium", "escalate": False},
}


class Triage(BaseModel):
    severity: Literal["low", "medium", "high"]
    escalate: bool


def report(name, calls, value):
    re_asked = calls > 1
    repaired = re_asked and value is not None and value.model_dump() == RIGHT[name]
    print(f"record-loops: {name} re-asked {int(re_asked)}, repaired {int(repaired)} ({calls} calls)")
    return repaired


def instructor_loops():
    import instructor
    import openai

    client = openai.OpenAI(api_key="sk-e2e-loops", max_retries=0)
    assert str(client.base_url).startswith(os.environ["OPENAI_BASE_URL"])
    modes = {
        "instructor-tools": instructor.Mode.TOOLS,
        "instructor-json": instructor.Mode.JSON,
        "instructor-md-json": instructor.Mode.MD_JSON,
    }
    ok = True
    for name, mode in modes.items():
        patched = instructor.from_openai(client, mode=mode)
        calls = []
        # instructor's own hook: one event per request it sends.
        patched.on("completion:kwargs", lambda *args, **kwargs: calls.append(kwargs))
        value = patched.chat.completions.create(
            model="gpt-4o-mini",
            response_model=Triage,
            max_retries=2,
            messages=[{"role": "user", "content": f"loop-{name}"}],
        )
        ok &= report(name, len(calls), value)
    return 0 if ok else 1


def pydantic_ai_loops():
    from pydantic_ai import Agent, NativeOutput, ToolOutput
    from pydantic_ai.messages import ModelResponse
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    class CompatibleServer(OpenAIChatModel):
        """A tool call's arguments sent as an object, written as the string OpenAI sends."""

        def _validate_completion(self, response):
            for choice in response.choices:
                for call in choice.message.tool_calls or []:
                    if not isinstance(call.function.arguments, str):
                        call.function.arguments = json.dumps(call.function.arguments)
            return super()._validate_completion(response)

    provider = OpenAIProvider(base_url=os.environ["OPENAI_BASE_URL"], api_key="sk-e2e-loops")
    model = CompatibleServer("gpt-4o-mini", provider=provider)
    ok = True
    for name, output_type in (("pydantic-ai-tool", ToolOutput(Triage)), ("pydantic-ai-native", NativeOutput(Triage))):
        agent = Agent(model, output_type=output_type, retries=2)
        result = agent.run_sync(f"loop-{name}")
        responses = [m for m in result.all_messages() if isinstance(m, ModelResponse)]
        ok &= report(name, len(responses), result.output)
    return 0 if ok else 1


def check(jsonl, expected):
    records = [json.loads(line) for line in Path(jsonl).read_text().splitlines() if line.strip()]
    by_source = {record["source"]: record for record in records}
    problems = []
    repaired = 0
    for record in records:
        if record.get("schema_from") != "request":
            problems.append(f"{record['source']}: judged without its request's schema")
        if record.get("attempt") is None:
            continue
        first = next((r for s, r in by_source.items() if s.endswith(record["re_ask_of"])), None)
        if record["attempt"] != 2 or first is None or record["chain"] != record["re_ask_of"]:
            problems.append(f"{record['source']}: a link that is not to its first attempt: {record}")
            continue
        if (first["failure"] or {}).get("kind") != "schema":
            problems.append(f"{first['source']}: the re-asked output is no schema failure: {first['failure']}")
        elif record["ok"]:
            repaired += 1
    unlinked = [r["source"] for r in records if not r["ok"] and not any(
        o.get("re_ask_of") and r["source"].endswith(o["re_ask_of"]) for o in records)]
    if unlinked:
        problems.append(f"failed outputs no re-ask links to: {unlinked}")
    if len(records) != 2 * expected:
        problems.append(f"{len(records)} captures recorded, {2 * expected} expected")
    for problem in problems:
        print(f"record-loops: {problem}")
    print(f"record-loops: jxray check linked {repaired} repaired chains of {expected} the loops repaired")
    return 1 if problems or repaired != expected else 0


if __name__ == "__main__":
    command = sys.argv[1:2]
    if command == ["instructor"]:
        sys.exit(instructor_loops())
    if command == ["pydantic-ai"]:
        sys.exit(pydantic_ai_loops())
    if command == ["check"] and len(sys.argv) == 4:
        sys.exit(check(sys.argv[2], int(sys.argv[3])))
    sys.exit("usage: record_loops.py instructor | pydantic-ai | check JSONL N")
