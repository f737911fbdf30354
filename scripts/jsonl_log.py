#!/usr/bin/env python3
"""A large JSON Lines log of model outputs, for `check` at scale (see BENCHMARKS.md).

    scripts/jsonl_log.py OUT.jsonl [--records N] [--seed S]

Line N (1-based) is a capture whose id is `rec-N` (zero-padded to 7 digits), in the shapes
logs hold: `{"custom_id", "output", "stop_reason"}` records and OpenAI chat completions.
Outcomes are mixed: plain JSON, fenced, in prose, cut off at the length limit, invalid,
refusals. About 90 bytes a record on average. Deterministic for a given seed.
"""

import argparse
import json
import random

SHAPES = 20


def record_id(number):
    return f"rec-{number:07d}"


def output(rng, number):
    shape = number % SHAPES
    n = rng.randint(0, 10**6)
    if shape < 11:
        return f'{{"n": {n}, "ok": true}}', "stop"
    if shape < 14:
        return f'```json\n{{"n": {n}}}\n```', "stop"
    if shape < 15:
        return f'Sure! {{"n": {n}}} Anything else?', "stop"
    if shape < 17:
        return f'{{"n": {n}, "items": [1, 2,', "length"
    if shape < 18:
        return f"{{'n': {n},}}", "stop"
    return "I'm sorry, but I can't help with that.", "stop"


def line(rng, number):
    text, stop = output(rng, number)
    if number % 7 == 0:
        body = {
            "id": record_id(number),
            "object": "chat.completion",
            "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": stop}],
        }
    else:
        body = {"custom_id": record_id(number), "output": text, "stop_reason": stop}
    return json.dumps(body, separators=(",", ":"))


def write_log(path, records, seed=7):
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for number in range(1, records + 1):
            out.write(line(rng, number))
            out.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    write_log(args.out, args.records, args.seed)


if __name__ == "__main__":
    main()
