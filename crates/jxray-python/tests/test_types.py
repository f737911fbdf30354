"""The type stubs: mypy --strict accepts code that uses the package as documented, and
rejects a call the stubs rule out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

USES = '''
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, List, Optional

import jxray
from jxray.testing import assert_outcome

outcome: jxray.Outcome = jxray.extract("x {}", stop_reason="length", pick="last", schema={"type": "object"})
layer: Optional[str] = outcome.layer
value: Any = outcome.value_or_raise()
span: Optional[tuple[int, int]] = outcome.span
failure: Optional[jxray.Failure] = outcome.failure
line: int = failure.line if failure else 0
as_dict: Dict[str, Any] = outcome.to_dict()
responses: List[jxray.Outcome] = jxray.extract_response({"object": "chat.completion"})
for source, checked in jxray.check(Path("runs"), accept_lenient=True, decimals="decimal"):
    name: str = source
    ok: bool = checked.ok
try:
    outcome.value_or_raise()
except jxray.TruncatedError as error:
    cut: jxray.Outcome = error.outcome
assert_outcome("[1]", layer="direct")
repaired: jxray.RepairResult = jxray.repair(lambda prompt: "{}", "p", captures=Path("captures"))
chain: Optional[str] = repaired.chain
capture: Optional[str] = repaired.attempts[0].capture
model: Optional[str] = repaired.attempts[0].model
counting: bool = jxray.instrument(extract=True)

import pydantic

class Triage(pydantic.BaseModel):
    severity: str

triaged: Any = jxray.extract("{}", schema=Triage).value
many: Any = jxray.extract("[]", schema=pydantic.TypeAdapter(List[Triage])).value
'''


def mypy(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    file = tmp_path / "uses.py"
    file.write_text(code)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(file)],
        capture_output=True, text=True, cwd=tmp_path,
    )


def test_mypy_strict_accepts_the_documented_uses(tmp_path: Path) -> None:
    run = mypy(tmp_path, USES)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_rejects_a_wrong_option(tmp_path: Path) -> None:
    run = mypy(tmp_path, 'import jxray\njxray.extract("x", pick="middle")\n')
    assert run.returncode == 1 and "pick" in run.stdout, run.stdout
