"""The repair loop end to end: the official openai SDK calls a real mock server (ai-mock)
through `jxray record`; the mock answers a broken output, then, to the repair request, a
good one. The recorded folder holds one chain of two attempts, linked, and `jxray check`
counts it repaired."""

import json
import os
import signal
import subprocess
import time

import openai

import jxray
from conftest import free_port, start_ai_mock, wait_for

PROMPT = "Give the city of the Louvre as a JSON object with the key city."
BROKEN = '{"city": "Paris",}'
GOOD = '{"city": "Paris"}'


def test_a_repaired_call_through_jxray_record_is_one_chain_of_two_attempts(tmp_path):
    binary = os.environ["JXRAY_BIN"]
    # ai-mock answers by the exact last message: the repair request is the engine's own.
    second = f"{PROMPT}\n\n{jxray.repair_prompt(jxray.extract(BROKEN))}"
    responses = tmp_path / "responses.json"
    responses.write_text(json.dumps({"responses": [
        {"type": "text", "input": PROMPT, "output": BROKEN},
        {"type": "text", "input": second, "output": GOOD},
    ]}))
    proxy_port = free_port()
    captures = tmp_path / "captures"
    proxy_log = tmp_path / "proxy.log"
    server, mock_port = start_ai_mock(responses, tmp_path / "mock.log")
    with open(proxy_log, "w") as proxy_out:
        proxy = subprocess.Popen(
            [binary, "record", "--port", str(proxy_port), "--to", str(captures),
             "--upstream", f"openai=http://127.0.0.1:{mock_port}/openai"],
            stdout=proxy_out, stderr=subprocess.STDOUT)
        try:
            wait_for(proxy_port, proxy_log)
            client = openai.OpenAI(base_url=f"http://127.0.0.1:{proxy_port}/openai",
                                   api_key="sk-e2e", max_retries=0)
            calls = []

            def generate(prompt: str):
                calls.append(prompt)
                reply = client.chat.completions.create(
                    model="gpt-4o-mini", messages=[{"role": "user", "content": prompt}])
                choice = reply.choices[0]
                return {"text": choice.message.content, "stop_reason": choice.finish_reason,
                        "usage": reply.usage}

            result = jxray.repair(generate, PROMPT)
            assert result.status == "success" and result.repaired, result
            assert result.value == {"city": "Paris"}
            assert calls == [PROMPT, second]
            # Each exchange is written when its response ends: give the last one a moment.
            for _ in range(100):
                if len(list(captures.rglob("*.request.json"))) == 2:
                    break
                time.sleep(0.1)
        finally:
            for process in (proxy, server):
                process.send_signal(signal.SIGTERM)
                process.wait(10)

    lines = subprocess.run([binary, "check", str(captures), "--format", "jsonl"],
                           capture_output=True, text=True).stdout.splitlines()
    records = [json.loads(line) for line in lines]
    assert [record.get("attempt") for record in records] == [None, 2], records
    first, repaired = records
    assert first["failure"]["kind"] == "invalid"
    assert repaired["ok"] and repaired["value"] == {"city": "Paris"}
    assert first["source"].endswith(repaired["re_ask_of"]), records
    assert repaired["chain"] == repaired["re_ask_of"]
    text = subprocess.run([binary, "check", str(captures)], capture_output=True, text=True).stdout
    assert "repair chains: 1 re-asked, 1 repaired (100%) · by first failure: invalid 1 of 1" in text, text
