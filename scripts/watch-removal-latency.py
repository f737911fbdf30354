#!/usr/bin/env python3
"""Key latency in watch mode while a watched folder is emptied (BENCHMARKS.md).

Makes N small captures, runs `jxray --watch` on them in a tmux window, waits until all are
listed, deletes them all at once, and keeps pressing `?` / `Escape` (help on, help off),
timing each key from `send-keys` until the screen shows its effect, until the footer
counts 0 captures and stays there. Prints the key count, median and worst latency.

    scripts/watch-removal-latency.py [--binary target/debug/jxray] [--files 10000 20000]

The time includes tmux's own round trip (about 5 ms a `capture-pane` here), so it is an
upper bound on jxray's part.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HELP_TITLE = "Help: jxray keys"


def tmux(socket, *args):
    return subprocess.run(
        ["tmux", "-L", socket, *args], check=True, capture_output=True, text=True
    ).stdout


def screen(socket):
    return tmux(socket, "capture-pane", "-p", "-t", "main")


def footer(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def wait_for(socket, ready, timeout):
    start = time.monotonic()
    while True:
        text = screen(socket)
        if ready(text):
            return time.monotonic() - start, text
        if time.monotonic() - start > timeout:
            raise SystemExit(f"timed out; the screen:\n{text}")


def measure(binary, count):
    folder = tempfile.mkdtemp(prefix="jxray-watch-bench-")
    captures = os.path.join(folder, "captures")
    os.mkdir(captures)
    for index in range(count):
        with open(os.path.join(captures, f"cap-{index:06}.txt"), "w") as file:
            file.write('{"a": %d}' % index)
    socket = f"jxray-bench-{os.getpid()}-{count}"
    tmux(socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "140", "-y", "40",
         f"cd {folder} && exec env TERM=xterm-256color {binary} --watch captures")
    try:
        wait_for(socket, lambda s: f"{count} captures" in footer(s) and "loading" not in footer(s),
                 timeout=600)
        remover = subprocess.Popen(["find", captures, "-name", "*.txt", "-delete"])
        latencies = []
        empty_since = None
        started = time.monotonic()
        while True:
            tmux(socket, "send-keys", "-t", "main", "?")
            took, _ = wait_for(socket, lambda s: HELP_TITLE in s, timeout=60)
            latencies.append(took)
            tmux(socket, "send-keys", "-t", "main", "Escape")
            took, text = wait_for(socket, lambda s: HELP_TITLE not in s, timeout=60)
            latencies.append(took)
            done = remover.poll() is not None and "0 captures" in footer(text)
            if done and empty_since is None:
                empty_since = time.monotonic()
            if empty_since is not None and time.monotonic() - empty_since > 2:
                break
            if time.monotonic() - started > 600:
                raise SystemExit("the list never emptied")
        drained = empty_since - started
        return len(latencies), statistics.median(latencies), max(latencies), drained
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/debug/jxray")
    parser.add_argument("--files", type=int, nargs="+", default=[10000, 20000])
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: not built; run cargo build first")
    print("| files deleted | keys timed | median | worst | list empty after |")
    print("| --- | --- | --- | --- | --- |")
    for count in args.files:
        keys, median, worst, drained = measure(binary, count)
        print(f"| {count:,} | {keys} | {median * 1000:.0f} ms | {worst * 1000:.0f} ms "
              f"| {drained:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
