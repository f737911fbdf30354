#!/usr/bin/env python3
"""Assert that `jxray check` runs in bounded memory at scale (issue 10; BENCHMARKS.md).

    scripts/check-memory.py [--jxray $CARGO_TARGET_DIR/release/jxray] [--records 1000000]

Makes, under target/check-memory/:
  log.jsonl    1,000,000 records of mixed outcomes (scripts/jsonl_log.py), ~100 MB;
  braces.jsonl 64 MiB less one byte of `{}` lines (just under the default --max-bytes),
and runs `jxray check` on each, as a file and piped through standard input, in the jsonl
and text formats, and the log as an HTML report (`--format html --by folder`), measuring each
run's peak resident memory with GNU time (`/usr/bin/time`). Fails when the log peaks over
150 MB or the `{}` file over 1 GB, or the HTML report over the log's jsonl peak plus the size
of the page. Prints a Markdown table.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "check-memory"
MB = 1_000_000


def make_braces(path, size):
    line = b"{}\n"
    with open(path, "wb") as out:
        out.write(line * (size // len(line)))


def measure(command, stdin_path=None):
    """Wall seconds, peak RSS in bytes and exit status of one run, output discarded.

    The peak comes from GNU time (`%M`), not from this script's own `wait4`: Linux keeps a
    process's peak across `exec`, so a child forked from this (large) Python process would
    report at least Python's size."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    with tempfile.NamedTemporaryFile("r") as report:
        started = time.monotonic()
        status = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", report.name, *command],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
        ).returncode
        seconds = time.monotonic() - started
        peak_kb = int(report.read().strip().splitlines()[-1])
    if stdin_path:
        stdin.close()
    return seconds, peak_kb * 1024, status


def measure_html(jxray, path):
    """Wall seconds, peak RSS and the report's size of `check --format html` on `path`."""
    with tempfile.NamedTemporaryFile("w+b", suffix=".html") as page, \
            tempfile.NamedTemporaryFile("r") as report:
        started = time.monotonic()
        status = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", report.name,
             jxray, "check", str(path), "--format", "html", "--by", "folder"],
            stdout=page,
        ).returncode
        seconds = time.monotonic() - started
        peak_kb = int(report.read().strip().splitlines()[-1])
        size = os.fstat(page.fileno()).st_size
    return seconds, peak_kb * 1024, status, size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    parser.add_argument("--jxray", default=str(target / "release" / "jxray"))
    parser.add_argument("--records", type=int, default=1_000_000)
    args = parser.parse_args()
    jxray = str(Path(args.jxray).resolve())
    sys.path.insert(0, str(ROOT / "scripts"))
    from jsonl_log import write_log

    WORK.mkdir(parents=True, exist_ok=True)
    log, braces = WORK / "log.jsonl", WORK / "braces.jsonl"
    write_log(log, args.records)
    make_braces(braces, 64 * 1024 * 1024 - 1)

    runs = [
        (log, "file", "jsonl", 150 * MB),
        (log, "file", "text", 150 * MB),
        (log, "stdin", "jsonl", 150 * MB),
        (braces, "file", "jsonl", 1000 * MB),
        (braces, "stdin", "text", 1000 * MB),
    ]
    failed = False
    print("| input | read from | format | wall | peak RSS | limit |")
    print("| --- | --- | --- | --- | --- | --- |")
    for path, via, format, limit in runs:
        if via == "file":
            command, stdin = [jxray, "check", str(path), "--format", format], None
        else:
            command, stdin = [jxray, "check", "-", "--format", format], path
        seconds, peak, status = measure(command + ["--color", "never"], stdin)
        size = f"{path.name} ({path.stat().st_size / MB:.0f} MB)"
        verdict = "ok" if peak <= limit and status in (0, 1) else "**over**"
        failed |= verdict != "ok"
        print(f"| {size} | {via} | {format} | {seconds:.2f} s | {peak / MB:.0f} MB "
              f"| {limit / MB:.0f} MB {verdict} |", flush=True)
        if (path, via, format) == (log, "file", "jsonl"):
            jsonl_peak = peak
    # The HTML report keeps a sample of rows: it may use what jsonl does plus the page.
    seconds, peak, status, size = measure_html(jxray, log)
    limit = jsonl_peak + size
    verdict = "ok" if peak <= limit and status in (0, 1) else "**over**"
    failed |= verdict != "ok"
    print(f"| {log.name} ({log.stat().st_size / MB:.0f} MB) | file | html ({size / MB:.1f} MB page) "
          f"| {seconds:.2f} s | {peak / MB:.0f} MB | {limit / MB:.0f} MB (jsonl + page) {verdict} |",
          flush=True)
    if failed:
        sys.exit("a run went over its memory limit or failed")


if __name__ == "__main__":
    main()
