"""`jxray.exe record` under Wine, end to end: a local upstream (this script's HTTP server),
the Windows recorder between it and a client, and the capture it writes read back by both
the Windows and the Linux binary. Run by scripts/windows-tests.sh.

Usage: python3 scripts/windows_record_roundtrip.py JXRAY_EXE LINUX_JXRAY
"""

import http.server
import json
import pathlib
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


class Upstream(http.server.BaseHTTPRequestHandler):
    seen = []

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        Upstream.seen.append((self.path, self.headers.get("authorization"), self.rfile.read(length)))
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
        finally:
            recorder.terminate()
            recorder.wait(timeout=30)
        if json.loads(captured[0].read_bytes()) != ANSWER:
            fail(f"{captured[0]} is not the upstream's response")
        if b"sk-not-saved" in requests[0].read_bytes():
            fail(f"{requests[0]} keeps the authorization header")
        leftovers = [p.name for p in captured[0].parent.iterdir() if p.name.startswith(".")]
        if leftovers:
            fail(f"temporary files left: {leftovers}")
        windows = subprocess.run(["wine", exe, "check", str(captures), "--format", "jsonl"],
                                 capture_output=True)
        native = subprocess.run([linux, "check", str(captures), "--format", "jsonl"],
                                capture_output=True)
        if (windows.returncode, windows.stdout) != (native.returncode, native.stdout):
            fail(f"check on the capture differs:\nwindows {windows}\nlinux {native}")
        if windows.returncode != 0 or b'"severity"' not in windows.stdout:
            fail(f"check did not read the capture: {windows}")
        print(f"windows record round trip: ok ({captured[0].relative_to(captures)})")


main()
