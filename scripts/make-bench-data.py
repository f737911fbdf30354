#!/usr/bin/env python3
"""Generate the benchmark captures for `jxray check` (see BENCHMARKS.md).

    scripts/make-bench-data.py OUT_DIR [--seed N]

writes, deterministically for a given seed:

  OUT_DIR/small/  10,000 small captures (about 15 MB) of mixed shapes: plain text (bare,
                  fenced, in prose, invalid, cut off), provider envelopes (OpenAI chat and
                  Responses, Anthropic, Gemini, Ollama), SSE streams, and .jsonl logs of
                  50 lines each, spread over 100 folders;
  OUT_DIR/large/  20 files of 1-8 MB: big JSON outputs, bare, fenced, in prose, raw `.json`,
                  and inside an OpenAI envelope.

Existing files in OUT_DIR/small and OUT_DIR/large are replaced.
"""

import argparse
import json
import random
import shutil
from pathlib import Path

WORDS = (
    "invoice customer order refund shipment warehouse pallet carrier delay billing account "
    "subscription renewal discount vendor supplier catalog product variant color size stock "
    "priority ticket escalation outage latency checkout payment gateway region tax receipt "
    "quarterly forecast budget approval contract renewal onboarding workspace permission"
).split()
CURRENCIES = ["EUR", "USD", "GBP", "CHF", "SEK"]
CATEGORIES = ["billing", "bug", "account", "refund", "shipping", "outage", "feature-request"]


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def record(rng, i):
    kind = i % 3
    if kind == 0:
        return {
            "ticket_id": f"SUP-{10000 + i}",
            "category": rng.choice(CATEGORIES),
            "priority": rng.choice(["low", "medium", "high", "urgent"]),
            "summary": sentence(rng, rng.randint(10, 30)),
            "notes": [sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(3, 10))],
            "needs_engineering": rng.random() < 0.3,
        }
    if kind == 1:
        items = [
            {
                "description": sentence(rng, rng.randint(6, 12)),
                "quantity": rng.randint(1, 40),
                "unit_price": round(rng.uniform(1, 500), 2),
            }
            for _ in range(rng.randint(2, 11))
        ]
        return {
            "invoice_number": f"INV-2024-{i:05d}",
            "vendor": sentence(rng, 2)[:-1],
            "line_items": items,
            "total": round(sum(x["quantity"] * x["unit_price"] for x in items), 2),
            "currency": rng.choice(CURRENCIES),
        }
    return {
        "name": sentence(rng, 3)[:-1],
        "sku": f"SKU-{i:06d}",
        "price": round(rng.uniform(3, 900), 2),
        "currency": rng.choice(CURRENCIES),
        "in_stock": rng.random() < 0.8,
        "description": sentence(rng, rng.randint(35, 95)),
        "features": [sentence(rng, rng.randint(4, 10)) for _ in range(rng.randint(3, 9))],
    }


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def plain_text(rng, value):
    """A raw output: bare, fenced, in prose, invalid, or cut off."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    shape = rng.randrange(6)
    if shape == 0:
        return text
    if shape == 1:
        return f"Here is the result:\n\n```json\n{text}\n```\n\n{sentence(rng, 12)}\n"
    if shape == 2:
        return f"{sentence(rng, 10)} {compact(value)} {sentence(rng, 8)}\n"
    if shape == 3:
        return text.replace("\n}", ",\n}", 1)  # trailing comma
    if shape == 4:
        return text[: rng.randint(len(text) // 3, len(text) - 2)]  # cut off
    return sentence(rng, 25) + "\n"  # no JSON


def envelope(rng, text, cut):
    provider = rng.randrange(5)
    if provider == 0:
        return {
            "id": f"chatcmpl-{rng.getrandbits(40):x}",
            "object": "chat.completion",
            "model": "gpt-4o-mini",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "length" if cut else "stop",
                }
            ],
            "usage": {"prompt_tokens": 200, "completion_tokens": 90, "total_tokens": 290},
        }
    if provider == 1:
        return {
            "id": f"resp_{rng.getrandbits(40):x}",
            "object": "response",
            "status": "incomplete" if cut else "completed",
            "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
            "output": [
                {"type": "message", "content": [{"type": "output_text", "text": text}]}
            ],
        }
    if provider == 2:
        return {
            "id": f"msg_{rng.getrandbits(40):x}",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "max_tokens" if cut else "end_turn",
        }
    if provider == 3:
        return {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": text}]},
                    "finishReason": "MAX_TOKENS" if cut else "STOP",
                }
            ],
            "modelVersion": "gemini-2.5-flash",
        }
    return {
        "model": "llama3.1:8b",
        "created_at": "2025-11-29T10:00:00Z",
        "response": text,
        "done": True,
        "done_reason": "length" if cut else "stop",
    }


def sse_stream(rng, text):
    pieces = [text[i : i + 24] for i in range(0, len(text), 24)]
    events = []
    for piece in pieces:
        chunk = {
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
        }
        events.append("data: " + compact(chunk))
    last = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    events.append("data: " + compact(last))
    events.append("data: [DONE]")
    return "\n\n".join(events) + "\n\n"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def make_small(root, rng):
    total = 0
    captures = 0
    index = 0
    folder = lambda: root / f"batch-{index % 100:03d}"
    # 20 .jsonl logs of 50 lines: 1,000 captures.
    for log in range(20):
        lines = []
        for _ in range(50):
            value = record(rng, index)
            index += 1
            lines.append(compact({"output": plain_text(rng, value), "stop_reason": "stop"}))
        total += write(folder() / f"eval-{log:02d}.jsonl", "\n".join(lines) + "\n")
        captures += 50
    # 9,000 single-capture files.
    while captures < 10_000:
        value = record(rng, index)
        text = plain_text(rng, value)
        shape = rng.randrange(10)
        name = f"run-{index:05d}"
        if shape < 5:
            total += write(folder() / f"{name}.txt", text)
        elif shape < 6:
            total += write(folder() / f"{name}.md", text)
        elif shape < 9:
            body = envelope(rng, text, cut=rng.random() < 0.15)
            total += write(folder() / f"{name}.json", json.dumps(body, indent=1, ensure_ascii=False))
        else:
            total += write(folder() / f"{name}.sse", sse_stream(rng, text))
        index += 1
        captures += 1
    return captures, total


def render_large(rng, n, records):
    """One large capture of `records` in the shape chosen by `n`, and its file name."""
    document = {"export": f"nightly-{n:02d}", "count": len(records), "records": records}
    text = json.dumps(document, indent=1, ensure_ascii=False)
    shape = n % 5
    if shape == 0:
        return f"export-{n:02d}.txt", text
    if shape == 1:
        return f"export-{n:02d}.md", f"Here is the export:\n\n```json\n{text}\n```\n"
    if shape == 2:
        return f"export-{n:02d}.txt", f"{sentence(rng, 12)}\n{text}\n{sentence(rng, 8)}\n"
    if shape == 3:
        return f"export-{n:02d}.json", text
    return f"export-{n:02d}.json", compact(envelope(rng, text, cut=False))


def make_large(root, rng):
    total = 0
    for n in range(20):
        target = int(rng.uniform(1.0, 8.0) * 1024 * 1024)
        records = []
        size = 0
        while size < target:
            value = record(rng, n * 1_000_000 + len(records))
            records.append(value)
            size += len(compact(value))
        # Shrink to the target: indentation and escaping make the file larger than the records.
        while True:
            name, text = render_large(random.Random(n), n, records)
            length = len(text.encode("utf-8"))
            if length <= target:
                break
            records = records[: int(len(records) * target / length * 0.99)]
        total += write(root / name, text)
    return 20, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=20241129)
    args = parser.parse_args()
    for name, make in (("small", make_small), ("large", make_large)):
        root = args.out_dir / name
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        count, size = make(root, random.Random(f"{args.seed}-{name}"))
        print(f"{root}: {count} captures, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
