#!/usr/bin/env python3
"""`jxray check -` as a filter on Apache Spark: a real distributed run, in local mode.

    scripts/spark-check.py [--records 1000000] [--partitions 8] [--jxray $CARGO_TARGET_DIR/release/jxray]

Generates a JSON Lines log (scripts/jsonl_log.py), reads it into an RDD of at least
`--partitions` partitions, pipes every partition through `jxray check - --format jsonl`
with `RDD.pipe`, and asserts that the merged outcomes equal one local
`jxray check LOG --format jsonl` of the same file, record by record (a record's source is
`-:LINE` of its partition on standard input, `LOG:LINE` locally; everything else must match).

What is missing is installed first: pyspark from PyPI into its own virtual environment
(target/spark-check/venv), and a Java 17 runtime from Debian (`apt-get install -y
openjdk-17-jre-headless`, as root) when there is no `java`. Not part of `cargo test`:
BENCHMARKS.md records its timing.
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


def ensure_pyspark():
    """Re-run this script inside the virtual environment that has pyspark."""
    try:
        import pyspark  # noqa: F401

        return
    except ImportError:
        pass
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    check = subprocess.run([str(python), "-c", "import pyspark"], capture_output=True)
    if check.returncode != 0:
        print("installing pyspark from PyPI", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "pyspark"], check=True)
    os.execv(str(python), [str(python), *sys.argv])


def local_check(jxray, log, out):
    """`jxray check log.jsonl`, from the log's folder: its sources are `log.jsonl:LINE`."""
    with open(out, "wb") as sink:
        status = subprocess.run(
            [jxray, "check", log.name, "--format", "jsonl"], stdout=sink, cwd=log.parent
        )
    if status.returncode not in (0, 1):
        sys.exit(f"local jxray check failed with status {status.returncode}")


def spark_check(jxray, log, out, partitions):
    from pyspark import SparkConf, SparkContext

    conf = (
        SparkConf()
        .setMaster("local[*]")
        .setAppName("jxray-check")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.memory", "2g")
    )
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        lines = sc.textFile(str(log), minPartitions=partitions)
        got = lines.getNumPartitions()
        if got < partitions:
            sys.exit(f"only {got} partitions, wanted at least {partitions}")
        # Exit status 1 only means some capture failed: that is data, not an error.
        outcomes = lines.pipe(f"{jxray} check - --format jsonl", checkCode=False)
        shutil.rmtree(out, ignore_errors=True)
        outcomes.saveAsTextFile(str(out))
        return got
    finally:
        sc.stop()


def spark_lines(out):
    for part in sorted(Path(out).glob("part-*")):
        with open(part, encoding="utf-8") as lines:
            yield from lines


def compare(local_out, spark_out, log_name):
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
            actual = json.loads(actual_line)
            if expected.pop("source") != f"{log_name}:{number}":
                sys.exit(f"local outcome {number} is out of order")
            # A partition is standard input to its jxray: `-:LINE`, lines of that partition.
            if not actual.pop("source").startswith("-:"):
                sys.exit(f"Spark outcome {number} is not named -:LINE: {actual_line}")
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=8)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    parser.add_argument("--jxray", default=str(target / "release" / "jxray"))
    args = parser.parse_args()
    jxray = str(Path(args.jxray).resolve())
    if not Path(jxray).is_file():
        sys.exit(f"{jxray}: no such binary; build it with `cargo build --release`")

    ensure_java()
    ensure_pyspark()
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
    partitions = spark_check(jxray, log, WORK / "spark-out", args.partitions)
    spark_seconds = time.monotonic() - started

    records, counts = compare(WORK / "local.jsonl", WORK / "spark-out", log.name)
    print(f"local jxray check: {local_seconds:.1f} s")
    print(f"Spark, {partitions} partitions piped through `jxray check -`: {spark_seconds:.1f} s "
          f"(with Spark's start-up)")
    print(f"equal: {records:,} outcomes, record by record; mix {json.dumps(counts, sort_keys=True)}")


if __name__ == "__main__":
    main()
