#!/usr/bin/env python3
"""jxray's streaming extractor beside the streaming parsers apps use, on the same prefix
sequences (issue 42; BENCHMARKS.md, "Streaming"): every document of a corpus — the
JSONTestSuite documents every parser must read (`y_`) and generated values with escapes,
unicode, exact numbers and nesting — fed one character more at a time. Per parser, in
documents: answers that hold what the final value does not (invented), answers that do not
grow into the next (not monotone, flicker included), and a proper prefix called a whole
value before the value's last character (complete early). An object that repeats a key is
a change every parser must make (the final value keeps the later one), so two documents of
JSONTestSuite count against everyone. jxray and jiter run here; the AI SDK's `parsePartialJson`,
`partial-json`, the Anthropic SDK's `partialParse` and `jsonriver` in Node
(npm/bench/stream-peers.mjs), on the same corpus.

    python3 scripts/stream-peers.py   # in the Python test environment (jxray, jiter), with npm/ installed
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple

import jiter

import jxray
from jxray._stream import grows_into

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "crates/jxray-engine/tests/data/suites/JSONTestSuite/test_parsing"
NONE = object()


def generated(count: int, seed: int = 42) -> List[str]:
    rng = random.Random(seed)
    words = ["alpha", "é", "naïve café", "line\nbreak", 'quote "x"', "tab\there", "😀", "back\\slash", "<b>"]

    def value(depth: int) -> Any:
        kind = rng.randrange(8 if depth < 4 else 5)
        if kind == 0:
            return rng.choice([True, False, None])
        if kind == 1:
            return rng.randrange(-10**6, 10**12)
        if kind == 2:
            return rng.choice([0.5, -1.25, 125.0, 3.14159, 1e-7, 12345.678])
        if kind in (3, 4):
            return " ".join(rng.choice(words) for _ in range(rng.randrange(1, 4)))
        if kind in (5, 6):
            return {f"k{n}_{rng.choice(words)[:3]}": value(depth + 1) for n in range(rng.randrange(0, 5))}
        return [value(depth + 1) for _ in range(rng.randrange(0, 5))]

    docs = []
    while len(docs) < count:
        root = {"id": rng.randrange(1000), "data": value(1)} if rng.random() < 0.7 else [value(1) for _ in range(3)]
        docs.append(json.dumps(root, ensure_ascii=False, indent=rng.choice([None, 2])))
    return docs


def corpus() -> List[str]:
    docs = []
    for path in sorted(SUITE.glob("y_*.json")):
        try:
            text = path.read_bytes().decode("utf-8")
            json.loads(text)
        except (UnicodeDecodeError, ValueError):
            continue
        docs.append(text)
    return docs + generated(300)


def score(run: Callable[[str], Tuple[List[Any], List[bool]]], docs: List[str]) -> dict:
    counts = {"documents": 0, "invented": 0, "notMonotone": 0, "completeEarly": 0}
    for text in docs:
        final = json.loads(text)
        counts["documents"] += 1
        answers, complete = run(text)
        partial = answers[:-1]
        if any(a is not NONE and not grows_into(a, final) for a in partial):
            counts["invented"] += 1
        if any(a is not NONE and (answers[i + 1] is NONE or not grows_into(a, answers[i + 1])) for i, a in enumerate(partial)):
            counts["notMonotone"] += 1
        # White space after the value is no part of it: complete there is on time.
        value_end = len(text.rstrip())
        if any(complete[: value_end - 1]):
            counts["completeEarly"] += 1
    return counts


def jxray_run(text: str) -> Tuple[List[Any], List[bool]]:
    extractor = jxray.Extractor()
    answers: List[Any] = []
    complete: List[bool] = []
    for char in text:
        snapshot = extractor.feed(char)
        value = snapshot.value
        answers.append(NONE if value is None else json.loads(json.dumps(value)))
        complete.append("" in snapshot.final_paths)
    return answers, complete


def jiter_run(mode: str) -> Callable[[str], Tuple[List[Any], List[bool]]]:
    def run(text: str) -> Tuple[List[Any], List[bool]]:
        answers: List[Any] = []
        complete: List[bool] = []
        for end in range(1, len(text) + 1):
            prefix = text[:end].encode()
            answers.append(attempt(lambda: jiter.from_json(prefix, partial_mode=mode)))
            complete.append(attempt(lambda: jiter.from_json(prefix, partial_mode="off")) is not NONE)
        return answers, complete

    return run


def attempt(parse: Callable[[], Any]) -> Any:
    try:
        return parse()
    except ValueError:
        return NONE


def main() -> int:
    docs = corpus()
    rows = {
        "jxray (Extractor)": score(jxray_run, docs),
        "jiter (partial_mode='trailing-strings')": score(jiter_run("trailing-strings"), docs),
        "jiter (partial_mode='on')": score(jiter_run("on"), docs),
    }
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        for text in docs:
            file.write(json.dumps(text) + "\n")
    node = subprocess.run(
        ["node", str(ROOT / "npm/bench/stream-peers.mjs"), file.name], cwd=ROOT / "npm", capture_output=True, text=True, check=True
    )
    rows.update(json.loads(node.stdout))
    print("| parser | documents | invented a value | not monotone | called a prefix complete |")
    print("| --- | --- | --- | --- | --- |")
    for name, c in rows.items():
        print(f"| {name} | {c['documents']} | {c['invented']} | {c['notMonotone']} | {c['completeEarly']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
