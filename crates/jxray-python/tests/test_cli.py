"""The `jxray` command the package installs, and `python -m jxray`: the same output, exit
statuses and terminal UI as the Rust binary."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Sequence

import pytest

from conftest import REPO, run_binary

SCRIPT = Path(sys.executable).parent / "jxray"


def run_script(command: Sequence[str], args: Sequence[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(REPO / ".no-config"), NO_COLOR="1")
    return subprocess.run([*command, *args], input=stdin, capture_output=True, cwd=REPO, env=env, timeout=300)


FRONT_ENDS = {"console script": [str(SCRIPT)], "python -m jxray": [sys.executable, "-m", "jxray"]}


@pytest.fixture(params=sorted(FRONT_ENDS))
def front_end(request: pytest.FixtureRequest) -> List[str]:
    return FRONT_ENDS[request.param]


@pytest.mark.parametrize(
    "args, status",
    [
        (["check", "assets/demo", "--format", "jsonl"], 1),
        (["check", "assets/demo", "--color", "never"], 1),
        (["check", "assets/demo/support/triage-direct.txt"], 0),
        (["check", "nowhere"], 2),
        (["check", "--bogus"], 2),
        (["extract", "assets/demo/support/triage-fenced.md", "--pretty"], 0),
        (["test", "fixtures", "--color", "never"], 0),
        (["--version"], 0),
        (["--help"], 0),
    ],
)
def test_the_same_output_and_status_as_the_binary(
    jxray_bin: Path, front_end: List[str], args: List[str], status: int
) -> None:
    binary = run_binary(jxray_bin, args)
    script = run_script(front_end, args)
    assert binary.returncode == status, binary.stderr.decode()
    assert (script.returncode, script.stdout, script.stderr) == (status, binary.stdout, binary.stderr)


def test_standard_input_is_read_and_a_closed_reader_keeps_the_status(front_end: List[str]) -> None:
    run = run_script(front_end, ["check", "-", "--input", "text", "--format", "jsonl"], b'x {"a": 1}')
    assert run.returncode == 0 and b'"layer":"scanned"' in run.stdout
    shell = f"{shlex.join([*front_end, 'check', 'assets/demo', '--format', 'jsonl'])} | head -1"
    piped = subprocess.run(["bash", "-c", f"set -o pipefail; {shell}"], cwd=REPO, capture_output=True)
    assert piped.returncode == 1 and piped.stdout.count(b"\n") == 1


def test_what_python_printed_comes_first() -> None:
    code = "from jxray._cli import main; print('before', flush=False); main(['--version'])"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert run.stdout.decode().splitlines() == ["before", run.stdout.decode().splitlines()[1]]
    assert run.stdout.decode().splitlines()[1].startswith("jxray ")


def test_sigint_ends_a_waiting_check_with_130_as_the_binary_does(jxray_bin: Path, front_end: List[str]) -> None:
    for command in ([str(jxray_bin)], front_end):
        process = subprocess.Popen(
            [*command, "check", "-", "--format", "jsonl"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b'{"output": "[1]"}\n')
        process.stdin.flush()
        first = process.stdout.readline()
        assert b'"layer":"direct"' in first
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 130, command
        assert b"Traceback" not in process.stderr.read()


class Tmux:
    """One tmux server running one command in a window; the pane stays after it exits."""

    def __init__(self, name: str, command: List[str], tmp: Path) -> None:
        self.socket = f"jxray-py-{name}-{os.getpid()}"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "140", "-y", "40")
        self.tmux("set-option", "-t", "main", "remain-on-exit", "on")
        shell = '"$0" "$@"; echo "[jxray exited $?]"'
        line = ["exec", "env", f"XDG_CONFIG_HOME={tmp}", "TERM=xterm-256color", "sh", "-c", shell, *command]
        self.tmux("respawn-pane", "-k", "-t", "main", shlex.join(line))

    def tmux(self, *args: str) -> str:
        run = subprocess.run(["tmux", "-L", self.socket, *args], cwd=REPO, capture_output=True, timeout=30)
        assert run.returncode == 0, run.stderr.decode()
        return run.stdout.decode()

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-100", "-t", "main")

    def wait_for(self, what: str, ready: Callable[[str], bool], seconds: float = 60) -> str:
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def loaded(screen: str) -> bool:
    """The demo is listed and counted (the footer's tally comes when loading is done)."""
    return "Captures 39/39" in screen and "39 captures: " in screen and "loading" not in screen


def test_python_m_jxray_opens_the_terminal_ui_in_tmux(tmp_path: Path) -> None:
    tmux = Tmux("tui", [sys.executable, "-m", "jxray", "assets/demo"], tmp_path)
    try:
        tmux.wait_for("the capture list", loaded)
        tmux.tmux("send-keys", "-t", "main", "j")
        tmux.tmux("send-keys", "-t", "main", "q")
        screen = tmux.wait_for("jxray to exit", lambda s: "[jxray exited " in s)
        assert "[jxray exited 0]" in screen, screen
        assert "jxray: 39 captures in assets/demo: " in screen, screen
    finally:
        tmux.close()


def test_sigterm_ends_the_terminal_ui_with_143(tmp_path: Path) -> None:
    tmux = Tmux("tui-term", [sys.executable, "-m", "jxray", "assets/demo"], tmp_path)
    try:
        tmux.wait_for("the capture list", loaded)
        # The pane runs the shell that waits for jxray: its one child is jxray.
        shell = tmux.tmux("display-message", "-p", "-t", "main", "#{pane_pid}").strip()
        child = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True)
        os.kill(int(child.stdout.split()[0]), signal.SIGTERM)
        screen = tmux.wait_for("jxray to exit", lambda s: "[jxray exited " in s)
        assert "[jxray exited 143]" in screen, screen
    finally:
        tmux.close()
