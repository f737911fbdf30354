#!/usr/bin/env python3
"""`jxray check` against a bare serde_json parse of the same JSON, side by side (issue 10 item 4).

    scripts/bench-check.py [--data /tmp/jxray-bench] [--rounds 3]

Needs `cargo build --release --example serde_baseline` and `target/release/jxray`, and the
data from `scripts/make-bench-data.py DATA`. For each of DATA/large and DATA/small, in the
same run and alternating so that load on the machine hits both alike, it takes the best of
`--rounds`:

  - baseline: `serde_baseline FOLDER`, which finds the JSON with jxray (untimed), then times
    only `serde_json::from_str::<Value>` over it (best of five, in process, one thread), and
    again with reading every capture file first (`std::fs::read_to_string`), the floor for a
    folder of many small files;
  - `jxray check FOLDER --format text` and `--format jsonl` (output to /dev/null), wall and
    CPU (user + sys) of the whole process: start-up, reading files, extraction, writing.

With `--against OTHER_JXRAY`, another build's `jxray check` runs in the same rounds, each
binary first in every other round, for a side-by-side comparison of two builds.

Prints a Markdown table with each run's ratio to the baseline.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where cargo put the release build: $CARGO_TARGET_DIR when set, as cargo itself reads it.
RELEASE = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release"


def baseline(folder):
    """serde_json alone, and reading the capture files first, in seconds."""
    out = subprocess.run(
        [RELEASE / "examples" / "serde_baseline", folder], capture_output=True, text=True, check=True
    ).stdout
    alone, with_reading = re.findall(r"best of 5: ([0-9.]+) s", out)
    return float(alone), float(with_reading)


def check(binary, folder, format):
    """Wall and CPU seconds and peak RSS (KB) of one `jxray check` run."""
    with tempfile.NamedTemporaryFile("r") as report:
        subprocess.run(
            ["/usr/bin/time", "-f", "%e %U %S %M", "-o", report.name,
             binary, "check", folder, "--format", format, "--color", "never"],
            stdout=subprocess.DEVNULL,
        )
        wall, user, system, peak = report.read().split()[-4:]
    return float(wall), float(user) + float(system), int(peak)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/jxray-bench"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another build's jxray, run alongside")
    args = parser.parse_args()
    binaries = {"": RELEASE / "jxray"}
    if args.against:
        binaries = {" (this build)": RELEASE / "jxray", f" ({args.against})": args.against}
    for name in ("large", "small"):
        if not (args.data / name).is_dir():
            sys.exit(f"{args.data / name}: missing; run scripts/make-bench-data.py {args.data}")
    print("| data | run | wall | CPU | peak RSS | ÷ serde_json | ÷ reading + serde_json |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name in ("large", "small"):
        folder = args.data / name
        best = {"baseline": (float("inf"), float("inf"))}
        runs = [(label, format) for label in binaries for format in ("text", "jsonl")]
        for round in range(args.rounds):
            best["baseline"] = tuple(map(min, best["baseline"], baseline(folder)))
            # The baseline ends holding hundreds of MB; the run right after it paid for the
            # kernel reclaiming them (0.2-0.5 s of system time), whichever format it was.
            time.sleep(1)
            # Each run goes first in every other round, so none always follows another.
            for label, format in runs if round % 2 == 0 else reversed(runs):
                run = check(binaries[label], folder, format)
                if (label, format) not in best or run[0] < best[label, format][0]:
                    best[label, format] = run
        alone, with_reading = best["baseline"]
        print(f"| {name} | serde_json baseline | {alone:.3f} s | | | 1.00 | |")
        print(f"| {name} | reading the files + serde_json | {with_reading:.3f} s | | | | 1.00 |")
        for label, format in runs:
            wall, cpu, peak = best[label, format]
            print(f"| {name} | `check --format {format}`{label} | {wall:.3f} s | {cpu:.2f} s "
                  f"| {peak / 1000:.0f} MB | {wall / alone:.2f} | {wall / with_reading:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
