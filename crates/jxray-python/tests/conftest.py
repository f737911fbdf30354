"""What the Python package's tests share: the repository, the Rust binary they compare
against, and running it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[3]
# The project's copy of the shared conformance cases (checked against the shared folder by
# crates/jxray-engine/tests/shared_copies.rs).
CASES = REPO / "crates" / "jxray-engine" / "tests" / "data" / "spec" / "cases"


def rust_binary() -> Path:
    """The jxray binary cargo built: $JXRAY_BIN, else the debug build in the target dir."""
    if os.environ.get("JXRAY_BIN"):
        return Path(os.environ["JXRAY_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "debug" / "jxray"


@pytest.fixture(scope="session")
def jxray_bin() -> Path:
    binary = rust_binary()
    if not binary.is_file():
        pytest.fail(
            f"{binary}: the jxray binary these tests compare against is missing; run "
            "`cargo build`, or set JXRAY_BIN to a built jxray (scripts/python-tests.sh does)"
        )
    return binary


def run_binary(
    binary: Path, args: Sequence[str], stdin: bytes = b"", cwd: Path = REPO
) -> subprocess.CompletedProcess[bytes]:
    """The Rust binary run on `args`, with no config file of the user's."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(cwd / ".no-config"), NO_COLOR="1")
    return subprocess.run(
        [str(binary), *args], input=stdin, capture_output=True, cwd=cwd, env=env, timeout=300
    )


def check_lines(binary: Path, args: Sequence[str], stdin: bytes = b"") -> List[str]:
    """The lines `jxray check ARGS --format jsonl` prints."""
    run = run_binary(binary, ["check", *args, "--format", "jsonl"], stdin)
    assert run.returncode in (0, 1), run.stderr.decode()
    return run.stdout.decode().splitlines()


def without_source(line: str) -> Dict[str, Any]:
    """A jsonl line as a dict, its source left out (it names where the text came from)."""
    record = json.loads(line)
    record.pop("source")
    return record


def stdin_lines(texts: Sequence[str], stop_reasons: Optional[Sequence[Optional[str]]] = None) -> bytes:
    """Texts as the JSON Lines `jxray check -` reads: one capture a line."""
    stops = stop_reasons or [None] * len(texts)
    records = [
        json.dumps({"output": text, "stop_reason": stop} if stop else {"output": text})
        for text, stop in zip(texts, stops)
    ]
    return ("\n".join(records) + "\n").encode()


def cancel_during_the_repair_call(first_reply: str, **options: Any) -> List[str]:
    """Run ``jxray.arepair`` with a ``generate`` that answers ``first_reply``, then hangs on
    the repair call; cancel the task there and check it ends cancelled. The prompts
    ``generate`` was given."""
    import asyncio

    import jxray

    calls: List[str] = []

    async def generate(prompt: str) -> Any:
        calls.append(prompt)
        if len(calls) == 1:
            return first_reply
        await asyncio.sleep(60)

    async def main() -> None:
        task = asyncio.create_task(jxray.arepair(generate, "p", **options))
        while len(calls) < 2:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    return calls


# Starts a server in a process group of its own and ends the group with it (ai-mock's
# uvicorn included), even when the test fails.
OWN_GROUP = Path(__file__).resolve().parents[3] / "scripts" / "own_group.py"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, log: Path) -> None:
    import socket
    import time

    for _ in range(150):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}: {log.read_text()}")


def start_ai_mock(responses: Path, log: Path) -> "tuple[subprocess.Popen[bytes], int]":
    """ai-mock (the real mock server from PyPI, `AI_MOCK`) answering from `responses`, and
    its port; the caller ends it with SIGTERM."""
    import sys

    mock = os.environ["AI_MOCK"]
    port = free_port()
    # ai-mock starts its server through its environment's uvicorn.
    path = f"{Path(mock).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [sys.executable, str(OWN_GROUP), mock, "server", str(responses), "-p", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PATH": path},
        )
    wait_for(port, log)
    return server, port
