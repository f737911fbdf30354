"""`jxray.exe record` under Wine, end to end: a local upstream (this script's HTTP server),
the Windows recorder between it and a client, and the capture it writes read back by both
the Windows and the Linux binary; then Ctrl-C while a stream is in flight (Wine turns a
SIGINT into the console's Ctrl-C event): the recorder stops cleanly, keeping what arrived,
and exits 130 as on Linux. Run by scripts/windows-tests.sh.

Usage: python3 scripts/windows_record_roundtrip.py JXRAY_EXE LINUX_JXRAY
"""

import http.client
import http.server
import json
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from script_support import free_port

ANSWER = {
    "id": "chatcmpl-win",
    "object": "chat.completion",
    "model": "gpt-4o-mini",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": '{"severity": "high", "ok": true}'},
            "finish_reason": "stop",
        }
    ],
}
BODY = json.dumps(ANSWER).encode()
# The one event of the stream that never ends (the `held` route).
FIRST = b'data: {"choices":[{"delta":{"content":"{\\"a\\""}}]}\n\n'


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # a chunked response needs it
    seen = []
    held = threading.Event()
    release = threading.Event()

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        Upstream.seen.append((self.path, self.headers.get("authorization"), self.rfile.read(length)))
        if self.path.endswith("/held/chat/completions"):
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(FIRST), FIRST))
            self.wfile.flush()
            Upstream.held.set()
            Upstream.release.wait(60)
            return
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


def fail(message):
    print(f"windows record round trip: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    exe, linux = sys.argv[1], sys.argv[2]
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        captures = pathlib.Path(scratch) / "captures"
        recorder = subprocess.Popen(
            ["wine", exe, "record", "--port", str(port), "--to", str(captures),
             "--upstream", f"up=http://127.0.0.1:{upstream.server_address[1]}/v1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        log = []
        try:
            for line in recorder.stdout:
                log.append(line)
                if line.startswith("Watch them arrive"):
                    break
            else:
                fail("the recorder ended before listening:\n" + "".join(log))
            request = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]})
            call = urllib.request.Request(
                f"http://127.0.0.1:{port}/up/chat/completions", data=request.encode(),
                headers={"content-type": "application/json", "authorization": "Bearer sk-not-saved"},
            )
            with urllib.request.urlopen(call, timeout=30) as response:
                if response.read() != BODY:
                    fail("the client did not get the upstream's body unchanged")
            if Upstream.seen[-1][:2] != ("/v1/chat/completions", "Bearer sk-not-saved"):
                fail(f"the upstream saw {Upstream.seen[-1][:2]}")
            deadline = time.time() + 30
            while True:
                found = sorted(captures.glob("*/*.json"))
                requests = [p for p in found if p.name.endswith(".request.json")]
                captured = [p for p in found if not p.name.endswith(".request.json")]
                if captured and requests:
                    break
                if time.time() > deadline:
                    fail(f"no capture and request file in {captures}: {found}")
                time.sleep(0.2)
            stop_with_ctrl_c(recorder, port, captures, log)
        finally:
            Upstream.release.set()
            if recorder.poll() is None:
                recorder.kill()
                recorder.wait(timeout=30)
        if json.loads(captured[0].read_bytes()) != ANSWER:
            fail(f"{captured[0]} is not the upstream's response")
        if b"sk-not-saved" in requests[0].read_bytes():
            fail(f"{requests[0]} keeps the authorization header")
        leftovers = [p.name for p in captured[0].parent.iterdir() if p.name.startswith(".")]
        if leftovers:
            fail(f"temporary files left: {leftovers}")
        # The completed call's capture (the stream cut by Ctrl-C is truncated on purpose).
        windows = subprocess.run(["wine", exe, "check", str(captured[0]), "--format", "jsonl"],
                                 capture_output=True)
        native = subprocess.run([linux, "check", str(captured[0]), "--format", "jsonl"],
                                capture_output=True)
        if (windows.returncode, windows.stdout) != (native.returncode, native.stdout):
            fail(f"check on the capture differs:\nwindows {windows}\nlinux {native}")
        if windows.returncode != 0 or b'"severity"' not in windows.stdout:
            fail(f"check did not read the capture: {windows}")
        print(f"windows record round trip: ok ({captured[0].relative_to(captures)}); Ctrl-C kept the stream in flight")


def stop_with_ctrl_c(recorder, port, captures, log):
    """A stream in flight, then Ctrl-C: the recorder says it stops, writes what arrived
    with the request file saying the proxy stopped it, and exits 130 (128 + SIGINT)."""
    request = json.dumps({"model": "held-model", "stream": True, "messages": []}).encode()
    call = urllib.request.Request(f"http://127.0.0.1:{port}/up/held/chat/completions",
                                  data=request, headers={"content-type": "application/json"})
    client = threading.Thread(target=lambda: read_until_closed(call), daemon=True)
    client.start()
    if not Upstream.held.wait(30):
        fail("the held stream never reached the upstream")
    time.sleep(0.5)
    recorder.send_signal(signal.SIGINT)
    try:
        rest, _ = recorder.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        fail("Ctrl-C did not stop the recorder within 30 s:\n" + "".join(log))
    log.append(rest)
    printed = "".join(log)
    if recorder.returncode != 130 or "jxray record: stopping" not in printed:
        fail(f"Ctrl-C: exit {recorder.returncode}, not 130 after a clean stop:\n{printed}")
    streams = sorted(captures.glob("*/*-held-model.sse"))
    if len(streams) != 1 or streams[0].read_bytes() != FIRST:
        fail(f"the stream in flight was not kept as it arrived: {sorted(captures.rglob('*'))}")
    stopped = streams[0].with_name(streams[0].name[: -len(".sse")] + ".request.json")
    if "the proxy was stopped before the response ended" not in stopped.read_text():
        fail(f"{stopped} does not say the proxy stopped the response")


def read_until_closed(call):
    try:
        with urllib.request.urlopen(call, timeout=60) as response:
            response.read()
    except (OSError, http.client.HTTPException):
        pass  # cut off by the stop: what the client gets then is not under test


main()
