#!/usr/bin/env python3
"""Run a server for the end-to-end tests so that nothing it starts outlives the test.

    python3 scripts/own_group.py COMMAND [ARG...]

The command runs in a process group of its own (ai-mock starts uvicorn as a child, which a
plain kill of ai-mock leaves running, re-parented to init). This launcher stays in the
caller's group and ends the command's whole group, children included, when

- it is sent SIGTERM, SIGINT or SIGHUP (the test's cleanup kills the launcher as usual),
- the process that started it is gone (a test runner killed with SIGKILL, a timeout), or
- the command exits on its own (what is left of its group goes with it).

It exits with the command's status (128 + the signal's number when a signal ended it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

GRACE_SECONDS = 3.0
POLL_SECONDS = 0.2


def end_group(group: int) -> None:
    """SIGTERM to every process of the group, then SIGKILL to what is left after a grace."""
    try:
        os.killpg(group, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main(command: list[str]) -> int:
    if not command:
        print("usage: own_group.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    parent = os.getppid()
    child = subprocess.Popen(command, start_new_session=True)
    stop: list[int] = []

    def stopped(number: int, _frame: object) -> None:
        stop.append(number)

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, stopped)
    try:
        while not stop and child.poll() is None and os.getppid() == parent:
            time.sleep(POLL_SECONDS)
    finally:
        end_group(child.pid)
    code = child.wait()
    if stop:
        return 128 + stop[0]
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
