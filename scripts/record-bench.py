#!/usr/bin/env python3
"""The latency `jxray record` adds, side by side with a direct call to the same upstream.

Usage: scripts/record-bench.py target/release/jxray [CALLS]

A local upstream (this script, stdlib only) answers a chat completion as JSON (about
1 KB) or as an SSE stream of 20 events whose contents add up to a JSON object. Each call
goes straight to it, through `jxray record` (which writes every exchange to a temporary
folder, as in use), and through `jxray record --stop-on runaway,refusal,tool-call-text,invalid`
(every streamed event read by the streaming extractor as it passes), alternating so all
three see the same machine. Prints the median and p99 of the whole request
(non-streamed), of the time to the first streamed byte and of the whole stream, for each
path, and the machine it ran on. Stdlib only: nothing to install.
"""

import http.client
import http.server
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from script_support import free_port, machine

ANSWER = json.dumps({
    "object": "chat.completion",
    "model": "bench",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"a\": 1}" + " " * 900},
                 "finish_reason": "stop"}],
}).encode()


def event(content):
    chunk = {"object": "chat.completion.chunk",
             "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}]}
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


# A JSON object in 20 pieces: what the watching proxy reads as a value growing.
EVENTS = ([event('{"items": [')] + [event('{"n": %d, "name": "item %d"}, ' % (i, i)) for i in range(17)]
          + [event('{"n": 17, "name": "last"}'), event("]}")])


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # Without it, Nagle's algorithm holds the first event back for the client's ACK.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if body.get("stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in EVENTS:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(ANSWER)))
            self.end_headers()
            self.wfile.write(ANSWER)

    def log_message(self, *args):
        pass


class Connection(http.client.HTTPConnection):
    def connect(self):
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def wait_for(port):
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"record-bench: nothing listens on {port}")


def call(conn, path, stream):
    """(seconds to the whole response, seconds to the first body byte)."""
    body = json.dumps({"model": "bench", "stream": stream,
                       "messages": [{"role": "user", "content": "hi"}]})
    start = time.perf_counter()
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read(1)
    first = time.perf_counter() - start
    response.read()
    return time.perf_counter() - start, first


def p99(values):
    return statistics.quantiles(values, n=100)[98]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) == 3 else 2000
    upstream_port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", upstream_port), Upstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as folder:
        proxies, routes = [], {"direct": (Connection("127.0.0.1", upstream_port), "/v1/chat/completions")}
        try:
            for name, flags in [("through jxray record", []),
                                ("through jxray record --stop-on", ["--stop-on", "runaway,refusal,tool-call-text,invalid"])]:
                port = free_port()
                proxies.append(subprocess.Popen(
                    [binary, "record", "--port", str(port), "--to", os.path.join(folder, str(port)),
                     "--upstream", f"bench=http://127.0.0.1:{upstream_port}/v1", *flags],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                wait_for(port)
                routes[name] = (Connection("127.0.0.1", port), "/bench/chat/completions")
            whole = {name: [] for name in routes}
            first = {name: [] for name in routes}
            stream = {name: [] for name in routes}
            for name, (conn, path) in routes.items():
                for _ in range(50):  # warm up every path
                    call(conn, path, False)
                    call(conn, path, True)
            for _ in range(calls):
                for name, (conn, path) in routes.items():
                    whole[name].append(call(conn, path, False)[0])
                    streamed, first_byte = call(conn, path, True)
                    first[name].append(first_byte)
                    stream[name].append(streamed)
        finally:
            for proxy in proxies:
                proxy.terminate()
                proxy.wait()
    print(f"{calls} calls each way, {machine()}")
    print("| path | request median | request p99 | first streamed byte median | first streamed byte p99 "
          "| whole stream median | whole stream p99 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in routes:
        w, f, t = whole[name], first[name], stream[name]
        print(f"| {name} | {statistics.median(w) * 1e3:.3f} ms | {p99(w) * 1e3:.3f} ms "
              f"| {statistics.median(f) * 1e3:.3f} ms | {p99(f) * 1e3:.3f} ms "
              f"| {statistics.median(t) * 1e3:.3f} ms | {p99(t) * 1e3:.3f} ms |")
    d, p, w = "direct", "through jxray record", "through jxray record --stop-on"
    print(f"added by the proxy: request median {(statistics.median(whole[p]) - statistics.median(whole[d])) * 1e3:.3f} ms, "
          f"p99 {(p99(whole[p]) - p99(whole[d])) * 1e3:.3f} ms; first streamed byte median "
          f"{(statistics.median(first[p]) - statistics.median(first[d])) * 1e3:.3f} ms, "
          f"p99 {(p99(first[p]) - p99(first[d])) * 1e3:.3f} ms")
    per_chunk = (statistics.median(stream[w]) - statistics.median(stream[p])) / len(EVENTS)
    print(f"added by watching (--stop-on against none): whole stream median "
          f"{(statistics.median(stream[w]) - statistics.median(stream[p])) * 1e3:.3f} ms, "
          f"{per_chunk * 1e6:.1f} µs per chunk")


if __name__ == "__main__":
    main()
