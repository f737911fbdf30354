"""`jxray record --stop-on runaway` end to end, with the official SDKs.

Run by scripts/stop-on-e2e.sh inside the SDK environment (scripts/sdk-venv.sh):

  stop_on_e2e.py JXRAY

A local upstream streams, for OpenAI chat and Responses, Anthropic messages, Gemini and
Ollama chat, either a good answer or a runaway (a value, then white space in 64-byte chunks until 6 KB or until the client goes
away), and notes whether each stream's reader hung up before the end. Through `jxray
record --stop-on runaway`, the official openai, anthropic, google-genai and ollama Python
SDKs must read the runaway as a length stop (nothing raised) within 1 KB after the
bound, the upstream must see its request dropped, the good answer must arrive byte for byte
as the upstream sent it, and the capture must say who stopped it. Without `--stop-on`,
both arrive whole. Prints one line per check; exits 1 on the first difference.
"""

import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anthropic
import ollama
import openai
from google import genai
from google.genai import types
from script_support import free_port

VALUE = '{"a": 1,'
SPACES = " " * 64
RUNAWAY_CHUNKS = 96  # 6 KB of white space when nobody stops it
BOUND = 512
GOOD = ['{"city": ', '"Paris", ', '"zip": 75001}']

# What each stream's reader did: kind -> {"sent": bytes of answer, "hung_up": bool}.
SEEN = {}
SEEN_LOCK = threading.Lock()


def openai_event(content, finish=None):
    chunk = {"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": {"content": content} if content is not None else {},
                          "finish_reason": finish}]}
    return f"data: {json.dumps(chunk)}\n\n"


def anthropic_events(pieces, stop):
    def event(name, data):
        return f"event: {name}\ndata: {json.dumps(data)}\n\n"
    yield event("message_start", {"type": "message_start", "message": {
        "id": "msg_e2e", "type": "message", "role": "assistant", "model": "m", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 0}}})
    yield event("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}})
    for piece in pieces:
        yield event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "text_delta", "text": piece}})
    yield event("content_block_stop", {"type": "content_block_stop", "index": 0})
    yield event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                  "usage": {"output_tokens": 9}})
    yield event("message_stop", {"type": "message_stop"})


def responses_events(pieces):
    response = {"id": "resp_e2e", "object": "response", "created_at": 1, "status": "in_progress",
                "model": "m", "output": [], "error": None, "incomplete_details": None}
    def event(data):
        return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"
    yield event({"type": "response.created", "sequence_number": 0, "response": response})
    item = {"type": "message", "id": "msg_e2e", "status": "in_progress", "role": "assistant", "content": []}
    yield event({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
    for n, piece in enumerate(pieces):
        yield event({"type": "response.output_text.delta", "sequence_number": 2 + n, "item_id": "msg_e2e",
                     "output_index": 0, "content_index": 0, "delta": piece})
    text = "".join(pieces)
    done = dict(item, status="completed", content=[{"type": "output_text", "text": text, "annotations": []}])
    yield event({"type": "response.output_item.done", "sequence_number": 2 + len(pieces), "output_index": 0,
                 "item": done})
    yield event({"type": "response.completed", "sequence_number": 3 + len(pieces),
                 "response": dict(response, status="completed", output=[done])})


def gemini_events(pieces):
    for piece in pieces:
        chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": piece}]}, "index": 0}],
                 "modelVersion": "m"}
        yield f"data: {json.dumps(chunk)}\r\n\r\n"
    last = {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP",
                            "index": 0}], "modelVersion": "m"}
    yield f"data: {json.dumps(last)}\r\n\r\n"


def ollama_lines(pieces):
    for piece in pieces:
        yield json.dumps({"model": "m", "created_at": "2026-12-06T00:00:00Z",
                          "message": {"role": "assistant", "content": piece}, "done": False}) + "\n"
    yield json.dumps({"model": "m", "created_at": "2026-12-06T00:00:00Z",
                      "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"}) + "\n"


def answer(kind):
    return [VALUE] + [SPACES] * RUNAWAY_CHUNKS if kind == "runaway" else GOOD


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if "input" in body:
            kind = body["input"]
        elif "contents" in body:
            kind = body["contents"][-1]["parts"][0]["text"]
        else:
            kind = body["messages"][-1]["content"]
        pieces = answer(kind)
        content_type = "text/event-stream"
        if self.path.endswith("/responses"):
            events = list(responses_events(pieces))
            provider = "responses"
        elif "streamGenerateContent" in self.path:
            events = list(gemini_events(pieces))
            provider = "gemini"
        elif self.path.startswith("/ollama/"):
            events = list(ollama_lines(pieces))
            provider = "ollama"
            content_type = "application/x-ndjson"
        elif self.path.startswith("/openai/"):
            events = [openai_event(p) for p in pieces] + [openai_event(None, "stop"), "data: [DONE]\n\n"]
            provider = "openai"
        else:
            events = list(anthropic_events(pieces, "end_turn"))
            provider = "anthropic"
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        sent, hung_up = 0, False
        try:
            for event in events:
                data = event.encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
                sent += 1
                time.sleep(0.004)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            hung_up = True
        with SEEN_LOCK:
            SEEN[(provider, kind)] = {"events": sent, "of": len(events), "hung_up": hung_up}


def fail(message):
    print(f"stop-on-e2e: {message}", file=sys.stderr)
    sys.exit(1)


def start_proxy(jxray, upstream, folder, stop_on):
    port = free_port()
    args = [jxray, "record", "--port", str(port), "--to", str(folder),
            "--upstream", f"openai=http://127.0.0.1:{upstream}/openai",
            "--upstream", f"anthropic=http://127.0.0.1:{upstream}/anthropic",
            "--upstream", f"gemini=http://127.0.0.1:{upstream}/gemini",
            "--upstream", f"ollama=http://127.0.0.1:{upstream}/ollama"]
    if stop_on:
        args += ["--stop-on", stop_on]
    proxy = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    urls = {}
    while len(urls) < 2:
        line = proxy.stdout.readline()
        if not line:
            fail(f"jxray record ended: {proxy.stderr.read()}")
        found = re.match(r"\s*export (OPENAI|ANTHROPIC)_BASE_URL=(\S+)", line)
        if found:
            urls[found.group(1)] = found.group(2)
    return proxy, urls


def openai_stream(base, kind):
    client = openai.OpenAI(base_url=base, api_key="sk-e2e", max_retries=0)
    stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": kind}], stream=True)
    content, finish = "", None
    for chunk in stream:
        if chunk.choices:
            content += chunk.choices[0].delta.content or ""
            finish = chunk.choices[0].finish_reason or finish
    return content, finish


def responses_stream(base, kind):
    client = openai.OpenAI(base_url=base, api_key="sk-e2e", max_retries=0)
    text, last = "", None
    for event in client.responses.create(model="m", input=kind, stream=True):
        if event.type == "response.output_text.delta":
            text += event.delta
        last = event
    if last.type == "response.incomplete":
        return text, last.response.incomplete_details.reason
    return text, last.response.status


def gemini_stream(base, kind):
    client = genai.Client(api_key="e2e", http_options=types.HttpOptions(base_url=base))
    text, finish = "", None
    for chunk in client.models.generate_content_stream(model="m", contents=kind):
        candidate = chunk.candidates[0]
        text += "".join(part.text or "" for part in candidate.content.parts or [])
        finish = candidate.finish_reason or finish
    return text, finish.name if finish else None


def ollama_stream(base, kind):
    client = ollama.Client(host=base)
    text, reason = "", None
    for chunk in client.chat(model="m", messages=[{"role": "user", "content": kind}], stream=True):
        text += chunk.message.content or ""
        reason = chunk.done_reason or reason
    return text, reason


def anthropic_stream(base, kind):
    client = anthropic.Anthropic(base_url=base, api_key="sk-e2e", max_retries=0)
    with client.messages.stream(model="m", max_tokens=64, messages=[{"role": "user", "content": kind}]) as stream:
        for _ in stream.text_stream:
            pass
        message = stream.get_final_message()
    text = "".join(block.text for block in message.content if block.type == "text")
    return text, message.stop_reason


def raw_bytes(url, kind):
    """What a reader gets through `url` for an OpenAI chat stream, byte for byte."""
    import urllib.request
    request = urllib.request.Request(url + "/chat/completions", method="POST",
                                     data=json.dumps({"model": "m", "stream": True,
                                                      "messages": [{"role": "user", "content": kind}]}).encode(),
                                     headers={"content-type": "application/json", "authorization": "Bearer sk-e2e"})
    with urllib.request.urlopen(request) as response:
        return response.read()


def wait_for_captures(folder, count):
    for _ in range(100):
        requests = list(folder.rglob("*.request.json"))
        if len(requests) >= count:
            return requests
        time.sleep(0.1)
    fail(f"{count} captures expected under {folder}")


def main():
    jxray = sys.argv[1]
    upstream_port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", upstream_port), Upstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    whole = len(VALUE) + len(SPACES) * RUNAWAY_CHUNKS
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        # With --stop-on runaway.
        proxy, urls = start_proxy(jxray, upstream_port, work / "stopped", "runaway")
        try:
            proxy_root = urls["OPENAI"].rsplit("/", 1)[0]
            calls = [("openai", "openai SDK", lambda kind: openai_stream(urls["OPENAI"], kind)),
                     ("responses", "openai SDK's Responses", lambda kind: responses_stream(urls["OPENAI"], kind)),
                     ("anthropic", "anthropic SDK", lambda kind: anthropic_stream(urls["ANTHROPIC"], kind)),
                     ("gemini", "google-genai SDK", lambda kind: gemini_stream(proxy_root + "/gemini", kind)),
                     ("ollama", "ollama SDK", lambda kind: ollama_stream(proxy_root + "/ollama", kind))]
            for provider, who, call in calls:
                with SEEN_LOCK:
                    SEEN.clear()
                content, finish = call("runaway")
                if finish not in ("length", "max_tokens", "max_output_tokens", "MAX_TOKENS"):
                    fail(f"{who}: the stopped runaway ended with {finish!r}, not a length stop")
                if not content.startswith(VALUE) or len(content) > len(VALUE) + BOUND + 1024:
                    fail(f"{who}: {len(content)} bytes of the runaway arrived; at most {len(VALUE) + BOUND + 1024}")
                for _ in range(100):
                    with SEEN_LOCK:
                        seen = SEEN.get((provider, "runaway"))
                    if seen:
                        break
                    time.sleep(0.05)
                if not seen or not seen["hung_up"] or seen["events"] >= seen["of"]:
                    fail(f"{who}: the upstream did not see its request dropped: {seen}")
                print(f"{who}: the runaway ended as a length stop after {len(content)} bytes; the upstream request was dropped")
                good, finish = call("good")
                if good != "".join(GOOD) or finish not in ("stop", "end_turn", "completed", "STOP"):
                    fail(f"{who}: the good answer arrived as {good!r} ({finish})")
                print(f"{who}: the good answer arrived whole")
            direct = raw_bytes(f"http://127.0.0.1:{upstream_port}/openai/v1", "good")
            if raw_bytes(urls["OPENAI"], "good") != direct:
                fail("the good stream through the proxy differs from the upstream's bytes")
            print("the good stream arrived byte for byte")
            requests = wait_for_captures(work / "stopped", 11)
            stopped = [json.loads(path.read_text()) for path in requests]
            stopped = [doc["stopped"] for doc in stopped if "stopped" in doc]
            if len(stopped) != 5 or any(s["by"] != "jxray" or s["signal"] != "runaway" for s in stopped):
                fail(f"5 request files should say jxray stopped a runaway: {stopped}")
            print("5 captures say jxray stopped them, and why")
            for path in requests:
                arrival = json.loads(path.read_text()).get("arrival")
                capture = next(p for p in path.parent.iterdir()
                               if p.name.startswith(path.name[: -len(".request.json")]) and p != path)
                if not arrival or arrival["bytes"][-1] != capture.stat().st_size:
                    fail(f"{path.name}: no arrival that ends at the capture's size: {arrival}")
                if arrival["ms"] != sorted(arrival["ms"]) or len(arrival["ms"]) < 2:
                    fail(f"{path.name}: the arrival's times do not go forward: {arrival['ms']}")
            print("every recorded stream says when its bytes came")
            check = subprocess.run([jxray, "check", str(work / "stopped"), "--format", "jsonl"],
                                   capture_output=True, text=True, check=False)
            causes = [json.loads(line)["failure"] for line in check.stdout.splitlines()]
            if sum(1 for failure in causes if failure and failure.get("cause") == "runaway") != 5:
                fail(f"check should call the stopped runaways truncated by a runaway: {check.stdout}")
            print("check calls the stopped captures runaways")
        finally:
            proxy.terminate()
            proxy.wait()
        # Without --stop-on, both arrive whole.
        proxy, urls = start_proxy(jxray, upstream_port, work / "whole", None)
        try:
            content, finish = openai_stream(urls["OPENAI"], "runaway")
            if len(content) != whole or finish != "stop":
                fail(f"without --stop-on the runaway arrived as {len(content)} bytes ({finish}), not {whole}")
            text, stop = anthropic_stream(urls["ANTHROPIC"], "runaway")
            if len(text) != whole or stop != "end_turn":
                fail(f"without --stop-on the anthropic runaway arrived as {len(text)} bytes ({stop})")
            print("without --stop-on, the runaways arrived whole")
        finally:
            proxy.terminate()
            proxy.wait()
    server.shutdown()
    print("stop-on end to end: passed")


if __name__ == "__main__":
    main()
