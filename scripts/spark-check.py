#!/usr/bin/env python3
"""jxray on Apache Spark, a real distributed run in local mode, two ways.

    scripts/spark-check.py [--mode pipe|python] [--records 1000000] [--partitions 8]
                           [--jxray $CARGO_TARGET_DIR/release/jxray]

Generates a JSON Lines log (scripts/jsonl_log.py), reads it into at least `--partitions`
partitions, and asserts that Spark's outcomes equal one local
`jxray check LOG --format jsonl` of the same file, record by record (all but the source):

  --mode pipe    (default) pipes every partition through `jxray check - --format jsonl`
                 with `RDD.pipe` (a record's source is `-:LINE` of its partition);
  --mode python  runs the Python package inside `DataFrame.mapInPandas`: each Arrow batch
                 of lines is written to a `.jsonl` file on the worker and read back with
                 `jxray.check`, the CLI's own JSON Lines reader; `Outcome.to_json()` is the
                 line the local run prints.

What is missing is installed first: pyspark from PyPI into its own virtual environment
(target/spark-check/venv), with pandas and pyarrow and the jxray wheel (built here by
maturin, `--release`) for the python mode, and a Java 17 runtime from Debian (`apt-get
install -y openjdk-17-jre-headless`, as root) when there is no `java`. Not part of
`cargo test`: BENCHMARKS.md records its timing.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "spark-check"
VENV = WORK / "venv"


def ensure_java():
    if shutil.which("java"):
        return
    print("installing a Java 17 runtime (openjdk-17-jre-headless)", flush=True)
    subprocess.run(["apt-get", "update"], check=True)
    subprocess.run(["apt-get", "install", "-y", "openjdk-17-jre-headless"], check=True)


# What the python mode needs beside pyspark (versions this was written against).
PYTHON_MODE_PACKAGES = ["pandas==3.1.1", "pyarrow==26.0.1", "maturin==1.16.0"]


def ensure_pyspark(mode):
    """Re-run this script inside the virtual environment that has pyspark (and, for the
    python mode, pandas, pyarrow and the jxray package)."""
    needed = ["pyspark"] + (["pandas", "pyarrow", "jxray"] if mode == "python" else [])
    if all(importable(name) for name in needed):
        return
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if in_venv(python, "import pyspark") != 0:
        print("installing pyspark from PyPI", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "pyspark"], check=True)
    if mode == "python":
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PYTHON_MODE_PACKAGES], check=True)
        if in_venv(python, "import jxray") != 0:
            install_jxray_wheel(python)
    os.execv(str(python), [str(python), *sys.argv])


def importable(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def in_venv(python, code):
    return subprocess.run([str(python), "-c", code], capture_output=True).returncode


def install_jxray_wheel(python):
    """The wheel users get (`maturin build --release`), installed into the Spark job's venv."""
    print("building the jxray wheel (maturin build --release)", flush=True)
    wheels = WORK / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    maturin = [str(python), "-m", "maturin", "build", "--release", "--out", str(wheels)]
    subprocess.run(maturin, cwd=ROOT / "crates" / "jxray-python", check=True)
    (wheel,) = wheels.glob("jxray-*.whl")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--force-reinstall", str(wheel)], check=True)


def local_check(jxray, log, out):
    """`jxray check log.jsonl`, from the log's folder: its sources are `log.jsonl:LINE`."""
    with open(out, "wb") as sink:
        status = subprocess.run(
            [jxray, "check", log.name, "--format", "jsonl"], stdout=sink, cwd=log.parent
        )
    if status.returncode not in (0, 1):
        sys.exit(f"local jxray check failed with status {status.returncode}")


def spark_context(partitions):
    from pyspark import SparkConf, SparkContext

    conf = (
        SparkConf()
        .setMaster("local[*]")
        .setAppName("jxray-check")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.memory", "2g")
    )
    # The workers run this Python, the one with jxray installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    return sc


def read_log(sc, log, partitions):
    lines = sc.textFile(str(log), minPartitions=partitions)
    got = lines.getNumPartitions()
    if got < partitions:
        sys.exit(f"only {got} partitions, wanted at least {partitions}")
    return lines, got


def spark_check(jxray, log, out, partitions):
    sc = spark_context(partitions)
    try:
        lines, got = read_log(sc, log, partitions)
        # Exit status 1 only means some capture failed: that is data, not an error.
        outcomes = lines.pipe(f"{jxray} check - --format jsonl", checkCode=False)
        shutil.rmtree(out, ignore_errors=True)
        outcomes.saveAsTextFile(str(out))
        return got
    finally:
        sc.stop()


def check_batches(batches):
    """mapInPandas: each batch of `(line, record)` rows written as a `.jsonl` file on the
    worker and checked by `jxray.check`; yields `(line, outcome)` with the outcome's jsonl line."""
    import tempfile

    import pandas
    import jxray

    for batch in batches:
        with tempfile.TemporaryDirectory(prefix="jxray-batch-") as folder:
            path = Path(folder) / "batch.jsonl"
            path.write_text("".join(record + "\n" for record in batch["record"]), encoding="utf-8")
            outcomes = [outcome.to_json() for _, outcome in jxray.check(path)]
        if len(outcomes) != len(batch):
            raise RuntimeError(f"{len(batch)} records gave {len(outcomes)} outcomes")
        yield pandas.DataFrame({"line": batch["line"], "outcome": outcomes})


def spark_python_check(log, out, partitions):
    from pyspark.sql import SparkSession

    sc = spark_context(partitions)
    try:
        spark = SparkSession(sc)
        lines, got = read_log(sc, log, partitions)
        rows = lines.zipWithIndex().map(lambda pair: (pair[1] + 1, pair[0]))
        frame = spark.createDataFrame(rows, "line long, record string")
        outcomes = frame.mapInPandas(check_batches, "line long, outcome string")
        shutil.rmtree(out, ignore_errors=True)
        outcomes.write.json(str(out))
        return got
    finally:
        sc.stop()


def spark_lines(out):
    for part in sorted(Path(out).glob("part-*")):
        with open(part, encoding="utf-8") as lines:
            yield from lines


def pipe_outcome(line, number):
    """A `jxray check -` line: a partition is standard input to its jxray, so its source
    is `-:LINE`, a line of that partition."""
    actual = json.loads(line)
    if not actual.pop("source").startswith("-:"):
        sys.exit(f"Spark outcome {number} is not named -:LINE: {line}")
    return actual


def python_outcome(line, number):
    """A mapInPandas row: the log's line number and the Outcome's to_json()."""
    row = json.loads(line)
    if row["line"] != number:
        sys.exit(f"Spark outcome {number} is line {row['line']}: outcomes out of order")
    actual = json.loads(row["outcome"])
    actual.pop("source")  # names the worker's batch file
    return actual


def compare(local_out, spark_out, log_name, spark_outcome):
    """Partitions keep the file's order, so the part files in order are the log in order."""
    counts = {}
    records = 0
    with open(local_out, encoding="utf-8") as local:
        spark = spark_lines(spark_out)
        for number, expected_line in enumerate(local, start=1):
            expected = json.loads(expected_line)
            actual_line = next(spark, None)
            if actual_line is None:
                sys.exit(f"Spark wrote {number - 1} outcomes; the local run {number}+")
            if expected.pop("source") != f"{log_name}:{number}":
                sys.exit(f"local outcome {number} is out of order")
            actual = spark_outcome(actual_line, number)
            if actual != expected:
                sys.exit(f"outcome {number} differs:\n local {expected}\n spark {actual}")
            key = expected["layer"] or expected["failure"]["kind"]
            counts[key] = counts.get(key, 0) + 1
            records += 1
        extra = next(spark, None)
        if extra is not None:
            sys.exit(f"Spark wrote more outcomes than the local run: {extra}")
    return records, counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--mode", choices=["pipe", "python"], default="pipe")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=8)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    parser.add_argument("--jxray", default=str(target / "release" / "jxray"))
    args = parser.parse_args()
    jxray = str(Path(args.jxray).resolve())
    if not Path(jxray).is_file():
        sys.exit(f"{jxray}: no such binary; build it with `cargo build --release`")

    ensure_java()
    ensure_pyspark(args.mode)
    sys.path.insert(0, str(ROOT / "scripts"))
    from jsonl_log import write_log

    WORK.mkdir(parents=True, exist_ok=True)
    log = WORK / "log.jsonl"
    started = time.monotonic()
    write_log(log, args.records)
    print(f"log: {args.records:,} records, {log.stat().st_size / 1e6:.1f} MB "
          f"({time.monotonic() - started:.1f} s)", flush=True)

    started = time.monotonic()
    local_check(jxray, log, WORK / "local.jsonl")
    local_seconds = time.monotonic() - started

    started = time.monotonic()
    out = WORK / f"spark-{args.mode}-out"
    if args.mode == "pipe":
        partitions = spark_check(jxray, log, out, args.partitions)
        how, spark_outcome = "piped through `jxray check -`", pipe_outcome
    else:
        partitions = spark_python_check(log, out, args.partitions)
        how, spark_outcome = "jxray.check in mapInPandas", python_outcome
    spark_seconds = time.monotonic() - started

    records, counts = compare(WORK / "local.jsonl", out, log.name, spark_outcome)
    print(f"local jxray check: {local_seconds:.1f} s")
    print(f"Spark, {partitions} partitions, {how}: {spark_seconds:.1f} s (with Spark's start-up)")
    print(f"equal: {records:,} outcomes, record by record; mix {json.dumps(counts, sort_keys=True)}")


if __name__ == "__main__":
    main()
