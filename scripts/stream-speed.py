"""What streaming costs in Python, side by side in one process: an answer fed 8 characters at a
time to `jxray.Extractor`, against the way apps stream today — jiter's partial mode
(`jiter.from_json(prefix, partial_mode="trailing-strings")`, as the SDKs' helpers use it) on
every accumulated prefix — and against one `jxray.extract` of the whole text. The answer is
an array of records at two sizes (n and 2n) to show which of them grows linearly.

    maturin build --release --out /tmp/w --manifest-path crates/jxray-python/Cargo.toml
    python3 -m venv /tmp/v && /tmp/v/bin/pip install /tmp/w/*.whl jiter==0.19.0
    /tmp/v/bin/python scripts/stream-speed.py

(a release wheel: the test environment's is a debug build, several times slower).

Prints a Markdown table: the median of 5 runs of each, and the machine.
"""

import json
import statistics
import time

import jiter
import jxray
from script_support import machine

CHUNK = 8


def answer(records):
    items = [{"id": n, "name": f"Item number {n} with a longer name", "price": n * 3 + 0.25,
              "tags": ["a", "b\n"], "active": n % 2 == 0} for n in range(records)]
    return "```json\n" + json.dumps({"items": items}, indent=2) + "\n```"


def jxray_fed(text):
    extractor = jxray.Extractor()
    for at in range(0, len(text), CHUNK):
        extractor.feed(text[at:at + CHUNK])
    return extractor.end()


def jiter_per_prefix(text):
    # The body of the fence, as a caller that already stripped it would give jiter.
    body = text[len("```json\n"):]
    last = None
    for at in range(CHUNK, len(body) + CHUNK, CHUNK):
        try:
            last = jiter.from_json(body[:at].encode(), partial_mode="trailing-strings")
        except ValueError:
            pass
    return last


def median_ms(run, text, times=5):
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run(text)
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def main():
    print(f"{machine()}, jiter {jiter.__version__}")
    print("| answer | extract once | Extractor, 8-character chunks | jiter partial on every prefix | jiter ÷ Extractor |")
    print("| --- | --- | --- | --- | --- |")
    rows = []
    for records in (150, 300):
        text = answer(records)
        once = median_ms(lambda t: jxray.extract(t), text)
        fed = median_ms(jxray_fed, text)
        peer = median_ms(jiter_per_prefix, text, times=3)
        rows.append((len(text), fed))
        print(f"| {len(text) / 1024:.0f} KB | {once:.2f} ms | {fed:.2f} ms | {peer:.1f} ms | {peer / fed:.0f}× |")
    (small, small_ms), (big, big_ms) = rows
    print(f"twice the text ({small} → {big} characters) costs the Extractor {big_ms / small_ms:.2f}× the time")


if __name__ == "__main__":
    main()
