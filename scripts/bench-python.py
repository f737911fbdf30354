#!/usr/bin/env python3
"""The Python package against the Python tools teams use instead, side by side in one
process on the same replies (BENCHMARKS.md, "From Python").

    scripts/bench-python.py [--data /tmp/jxray-bench] [--replies 5000] [--rounds 5] [--by-outcome]

Needs `jxray` (the package, built with `maturin build --release`), `json_repair` and
`fast_json_repair` importable by this Python, and the data from
`scripts/make-bench-data.py DATA`: the replies are the first `--replies` raw text captures
(`.txt` and `.md`, in path order) of DATA/small, read into memory first. Each round calls,
in turn and each over every reply, `jxray.extract(text).value`, `json_repair.loads(text)`
and `fast_json_repair.loads(text)`, in an order that rotates each round so load on the
machine hits them alike; a row is the best of its rounds. The import time of each package is
the best of five fresh interpreters (`python -c "import NAME"` less `python -c pass`).
Prints a Markdown table; `--by-outcome` adds one of the time per reply of each call over
the replies grouped by jxray's outcome (its layer, or its failure's kind), timed the same way.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List


def replies(data: Path, count: int) -> List[str]:
    files = sorted(p for p in (data / "small").rglob("*") if p.suffix in (".txt", ".md"))
    if len(files) < count:
        sys.exit(f"{data}/small holds {len(files)} raw replies; run scripts/make-bench-data.py {data}")
    return [path.read_text(encoding="utf-8") for path in files[:count]]


def import_seconds(module: str) -> float:
    """Best of five fresh interpreters importing `module`, less an empty start-up."""

    def best(code: str) -> float:
        times = []
        for _ in range(5):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.perf_counter() - started)
        return min(times)

    return max(best(f"import {module}") - best("pass"), 0.0)


def timed(parse: Callable[[str], object], texts: List[str]) -> float:
    started = time.perf_counter()
    for text in texts:
        try:
            parse(text)
        except Exception:  # a tool that raises on a reply without JSON: still one reply done
            pass
    return time.perf_counter() - started


def best_times(tools: Dict[str, Callable[[str], object]], texts: List[str], rounds: int) -> Dict[str, float]:
    """Each tool's best time over `texts`, in an order that rotates each round."""
    best = {name: float("inf") for name in tools}
    names = list(tools)
    for round_number in range(rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            best[name] = min(best[name], timed(tools[name], texts))
    return best


def by_outcome(tools: Dict[str, Callable[[str], object]], texts: List[str], rounds: int) -> None:
    """The time per reply of each tool over the replies of each jxray outcome."""
    import jxray

    groups: Dict[str, List[str]] = {}
    for text in texts:
        outcome = jxray.extract(text)
        kind = outcome.layer or outcome.failure.kind
        groups.setdefault(kind, []).append(text)
    names = list(tools)
    print("| outcome (replies) | " + " | ".join(f"`{name}`" for name in names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for kind, group in groups.items():
        best = best_times(tools, group, rounds)
        cells = " | ".join(f"{best[name] / len(group) * 1e6:.1f} µs" for name in names)
        print(f"| {kind} ({len(group)}) | {cells} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/jxray-bench"))
    parser.add_argument("--replies", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--by-outcome", action="store_true")
    args = parser.parse_args()

    import fast_json_repair
    import json_repair

    import jxray

    texts = replies(args.data, args.replies)
    tools: Dict[str, Callable[[str], object]] = {
        "jxray.extract": lambda text: jxray.extract(text).value,
        "json_repair.loads": json_repair.loads,
        "fast_json_repair.loads": fast_json_repair.loads,
    }
    names = list(tools)
    best = best_times(tools, texts, args.rounds)
    size = sum(len(text.encode()) for text in texts)
    print(f"{len(texts)} replies, {size / 1e6:.1f} MB, best of {args.rounds} rounds, one process")
    print()
    print("| call | time | per reply | jxray is faster by |")
    print("| --- | ---: | ---: | ---: |")
    mine = best["jxray.extract"]
    for name in names:
        ratio = "" if name == "jxray.extract" else f"{best[name] / mine:.1f}×"
        print(f"| `{name}` | {best[name]:.3f} s | {best[name] / len(texts) * 1e6:.0f} µs | {ratio} |")
    if args.by_outcome:
        print()
        by_outcome(tools, texts, args.rounds)
    print()
    print("| import | time |")
    print("| --- | ---: |")
    for module in ("jxray", "json_repair", "fast_json_repair"):
        print(f"| `import {module}` | {import_seconds(module) * 1e3:.0f} ms |")


if __name__ == "__main__":
    main()
