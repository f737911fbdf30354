"""The interpreter lock is released while jxray works: other Python threads run meanwhile,
and threads calling extract at once get what one thread gets."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import jxray

# Large enough that extracting it takes a while even in a release build.
BIG = "Here you go:\n```json\n[" + ",".join(f'{{"n": {i}, "s": "{"x" * 40}"}}' for i in range(200_000)) + "]\n```"


def ticks_during(work) -> int:  # type: ignore[no-untyped-def]
    """How often another Python thread got to count while the native call `work` ran."""
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        # Read by this thread right before and after the call: a native call that kept
        # the lock would leave the counter no moment to run in between.
        before = ticks
        work()
        after = ticks
    finally:
        stop.set()
        counter.join()
    return after - before


def test_other_threads_run_while_the_engine_works() -> None:
    text = BIG.replace("```", "``` ")  # the fence as prose: the scanned layer works too
    ticks = ticks_during(lambda: jxray.extract(text, stop_reason="stop"))
    assert ticks > 10_000, ticks


def test_threads_extracting_at_once_get_the_sequential_outcomes() -> None:
    texts = [f'reply {i}: {{"i": {i}, "xs": [{i}, 2,' if i % 3 == 0 else f'```json\n{{"i": {i}}}\n```' for i in range(3000)]
    sequential = [jxray.extract(text).to_json() for text in texts]
    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(lambda text: jxray.extract(text).to_json(), texts))
    assert parallel == sequential


def test_check_runs_from_several_threads_at_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    for i in range(50):
        (tmp_path / f"{i:02}.txt").write_text(f'{{"i": {i}}}')
    def run(_: int) -> list:  # type: ignore[type-arg]
        return [(source, outcome.value) for source, outcome in jxray.check(tmp_path)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, range(4)))
    assert all(result == results[0] for result in results) and len(results[0]) == 50


def test_threads_reading_one_failure_at_once_get_one_explanation() -> None:
    outcomes = [jxray.extract(f'{{"i": {i}, "xs": [1, 2,],}}') for i in range(200)]
    def explain(outcome: jxray.Outcome) -> tuple:  # type: ignore[type-arg]
        return (id(outcome.failure), outcome.failure.defect, outcome.to_json())
    with ThreadPoolExecutor(max_workers=8) as pool:
        first = list(pool.map(explain, outcomes))
        again = list(pool.map(explain, outcomes))
    assert first == again
    assert all(defect == "trailing-comma" for _, defect, _ in first)
