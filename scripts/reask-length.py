#!/usr/bin/env python3
"""The repair request's length against instructor's correction on the same outputs (issue
40 item 6; docs/repair.md, "The repair request"): for every conformance case whose outcome is
worth a repair request (`invalid`, `no-json` without a cause), jxray's request
(`jxray.repair_prompt`) beside what instructor's JSON modes send for it — the reply echoed as
the assistant's turn, then "Correct your JSON ONLY RESPONSE, based on the following
errors:\\n{exception}" with pydantic's own ValidationError (instructor 1.11's
`reask_md_json`). The original prompt, which both send again, is left out of both.

    target/python-tests-venv/bin/python scripts/reask-length.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pydantic

import jxray

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "crates/jxray-engine/tests/data/spec/cases"
INSTRUCTOR = "Correct your JSON ONLY RESPONSE, based on the following errors:\n"


class Answer(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")


def instructor_correction(text: str) -> int:
    try:
        Answer.model_validate_json(text)
        return 0
    except pydantic.ValidationError as error:
        return len(text) + len(INSTRUCTOR) + len(str(error))


def main() -> int:
    rows = []
    for path in sorted(CASES.glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        outcome = jxray.extract(text)
        if outcome.ok or outcome.failure.kind not in ("invalid", "no-json") or outcome.failure.cause:
            continue
        ours = len(jxray.repair_prompt(outcome) or "")
        theirs = instructor_correction(text)
        if theirs:
            rows.append((path.stem, len(text), ours, theirs, ours / theirs))
    print("| case | output chars | jxray's request | instructor's correction | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for name, size, ours, theirs, ratio in rows:
        print(f"| {name} | {size} | {ours} | {theirs} | {ratio:.2f} |")
    ratios = [row[4] for row in rows]
    print(f"\n{len(rows)} cases: median ratio {statistics.median(ratios):.2f}, largest {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
