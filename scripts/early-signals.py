#!/usr/bin/env python3
"""Where the streaming extractor's signals fire on the fixtures that end in a runaway, a
refusal or a tool call written as text: the byte at which each became certain against the
output's length, i.e. what a caller that stops on it does not pay for (BENCHMARKS.md,
"Streaming").

    python3 scripts/early-signals.py [JXRAY_BINARY] [FIXTURES_DIR]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WATCHED = {"runaway": "runaway", "refusal": "refusal", "tool-call-text": "tool-call-text"}


def first_signals(binary: str, text: str, stop_reason: str | None) -> "tuple[dict, dict]":
    args = [binary, "extract", "--follow"]
    if stop_reason:
        args += ["--stop-reason", stop_reason]
    run = subprocess.run(args, input=text.encode(), capture_output=True, check=False)
    lines = [json.loads(line) for line in run.stdout.decode().splitlines()]
    outcome = lines[-1]
    signals: dict = {}
    for line in lines[:-1]:
        for signal in line.get("signals", []):
            signals.setdefault(signal["kind"], signal)
    return outcome, signals


def main() -> int:
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "debug" / "jxray")
    fixtures = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "fixtures"
    rows = []
    for path in sorted(fixtures.glob("*.json")):
        fixture = json.loads(path.read_text())
        text = fixture.get("input")
        if not isinstance(text, str):
            continue
        outcome, signals = first_signals(binary, text, fixture.get("stop_reason"))
        failure = outcome.get("failure") or {}
        cause = failure.get("cause")
        warned = "tool-call-text" in outcome.get("warnings", [])
        kind = cause if cause in WATCHED else ("tool-call-text" if warned else None)
        if kind is None:
            continue
        signal = signals.get(WATCHED[kind])
        total = len(text.encode())
        if signal is None:
            rows.append((path.stem, kind, total, None))
        else:
            rows.append((path.stem, kind, total, signal["byte"] + 1))
    print("| fixture | outcome's cause | output bytes | signal certain at byte | bytes after it |")
    print("| --- | --- | --- | --- | --- |")
    for name, kind, total, at in rows:
        if at is None:
            print(f"| {name} | {kind} | {total} | no signal | — |")
        else:
            print(f"| {name} | {kind} | {total} | {at} | {total - at} ({100 * (total - at) / total:.0f}%) |")
    fired = [r for r in rows if r[3] is not None]
    saved = sum(total - at for _, _, total, at in fired)
    whole = sum(total for _, _, total, _ in fired)
    print(f"\n{len(fired)} of {len(rows)} signalled; {saved} of {whole} bytes came after the signal.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
