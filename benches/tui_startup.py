#!/usr/bin/env python3
"""Start-up time, load time, peak memory, key latency and idle CPU of the TUI.

usage: cargo build --release && python3 benches/tui_startup.py [BINARY] [--jsonl-log N | --empty-lines N | --big-capture MB]

By default writes 10,000 captures (fenced, direct, in prose, truncated, invalid,
repaired, no JSON; 1-4 KB each) into a temporary folder. `--jsonl-log N` writes
one log of N records with scripts/jsonl_log.py (1,000,000 is ~100 MB);
`--empty-lines N` one file of N lines of `{}`. `--big-capture MB` writes a
capture of MB megabytes (a fenced array of records with one raw newline) between
ten small ones, and once loaded holds `j` across it: each key is timed until
the cursor moves, then `k` goes back and the time until its panes are built
is taken.

Starts jxray on it in a 200x60 tmux window and polls the screen every 2 ms:
the first frame is the first screen showing the list, "loaded" is the first
with no loading progress in the footer. Right after the first frame it presses
j, G, /, Escape, f, Escape and times each until the screen shows its effect
(tmux's round trip included), saying whether the list was still loading then.
Peak memory is VmHWM from /proc; idle CPU is what the process used in the 5 s
after loading. Needs tmux and Linux's /proc.
"""
import argparse, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))

def write_captures(root, count=10_000):
    for i in range(count):
        items = [{"id": i * 10 + k, "name": f"item {i * 10 + k}", "price": round(i * 1.37, 2),
                  "notes": "lorem ipsum dolor sit amet " * (1 + (i + k) % 20)} for k in range(3)]
        body = json.dumps({"ticket": f"T-{i}", "items": items, "ok": True}, indent=2)
        kind = i % 20
        if kind < 8: text = f"Here you go:\n```json\n{body}\n```\nAnything else?"
        elif kind < 12: text = body
        elif kind < 14: text = f"The result is {json.dumps(json.loads(body))} as requested."
        elif kind < 16: text = "```json\n" + body[: len(body) // 2]
        elif kind < 18: text = body.replace('"ok": true', "'ok': True,")
        elif kind < 19: text = body.replace("amet", "amet\nnext line", 1)
        else: text = "I am sorry, I cannot produce that."
        folder = os.path.join(root, f"{i // 500:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"run-{i:05d}.txt"), "w") as f:
            f.write(text)

def write_big(root, megabytes):
    body = "the quick brown fox jumps over the lazy dog " * 3
    parts, size, i = ["```json\n[\n"], 0, 0
    while size < megabytes * 1024 * 1024:
        part = f'  {{"id": {i}, "name": "record {i}", "body": "{body}"}},\n'
        parts.append(part); size += len(part); i += 1
    parts.append('  {"id": -1, "body": "raw\nnewline"}\n]\n```\n')
    with open(os.path.join(root, "m-big.txt"), "w") as f:
        f.write("".join(parts))
    for name in "abcdefghij":
        with open(os.path.join(root, f"{name if name < 'f' else 'z' + name}.txt"), "w") as f:
            f.write(f'```json\n{{"{name}": 1}}\n```')

def selected_row(screen):
    """The list row with the cursor, and whether it is the last row of the list."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("│▶"):
            after = lines[i + 1] if i + 1 < len(lines) else "└"
            end = after.find("│", 1)
            last = after.startswith("└") or (end > 0 and not after[1:end].strip())
            return line[:40], last
    return None, False

def loading(screen):
    footer = [l for l in screen.splitlines() if l.strip()][-1:] or [""]
    return not (" captures: " in footer[0] and "loading" not in footer[0] and "finding" not in footer[0])

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default="target/release/jxray")
    parser.add_argument("--jsonl-log", type=int, metavar="N")
    parser.add_argument("--empty-lines", type=int, metavar="N")
    parser.add_argument("--big-capture", type=int, metavar="MB")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    with tempfile.TemporaryDirectory() as root:
        if args.jsonl_log:
            subprocess.run([sys.executable, os.path.join(HERE, "..", "scripts", "jsonl_log.py"),
                            os.path.join(root, "log.jsonl"), "--records", str(args.jsonl_log)], check=True)
            what = f"{args.jsonl_log:,} log records"
        elif args.empty_lines:
            with open(os.path.join(root, "empty.jsonl"), "w") as f:
                f.write("{}\n" * args.empty_lines)
            what = f"{args.empty_lines:,} lines of {{}}"
        elif args.big_capture:
            write_big(root, args.big_capture)
            what = f"a {args.big_capture} MB capture among 10 small ones"
        else:
            write_captures(root)
            what = "10,000 captures"
        sock = f"jxray-bench-{os.getpid()}"
        tmux = lambda *a: subprocess.run(["tmux", "-L", sock, *a], capture_output=True, text=True).stdout
        tmux("-f", "/dev/null", "new-session", "-d", "-s", "m", "-x", "200", "-y", "60")
        try:
            start = time.monotonic()
            tmux("respawn-pane", "-k", "-t", "m", f"exec env TERM=xterm-256color {binary} {root}")
            first = loaded = None
            keys = []
            # Each key, and how to tell from the screen that it was answered.
            probes = [
                ("j", lambda before, s: selected_row(s)[0] not in (None, selected_row(before)[0])),
                ("G", lambda before, s: selected_row(s)[1]),
                ("/", lambda before, s: any(l.startswith("/") for l in s.splitlines()[-2:])),
                ("Escape", lambda before, s: not any(l.startswith("/") for l in s.splitlines()[-2:])),
                ("f", lambda before, s: "┌ Filter " in s),
                ("Escape", lambda before, s: "┌ Filter " not in s),
            ]
            while (loaded is None or probes) and time.monotonic() - start < 600:
                screen = tmux("capture-pane", "-p", "-t", "m")
                now = time.monotonic() - start
                if first is None and "Captures" in screen:
                    first = now
                if first is not None and probes and "▶" in screen:
                    key, answered = probes.pop(0)
                    still_loading = loading(screen)
                    sent = time.monotonic()
                    tmux("send-keys", "-t", "m", key)
                    while True:
                        after = tmux("capture-pane", "-p", "-t", "m")
                        if loaded is None and not loading(after):
                            loaded = time.monotonic() - start
                        if answered(screen, after) or time.monotonic() - sent > 30:
                            break
                        time.sleep(0.002)
                    keys.append((key, (time.monotonic() - sent) * 1000, still_loading))
                    continue
                if loaded is None and not loading(screen):
                    loaded = now
                time.sleep(0.002)
            if args.big_capture:
                # Hold j from the top to the bottom, across the big capture, then back onto it.
                tmux("send-keys", "-t", "m", "g")
                time.sleep(0.5)
                for _ in range(10):
                    before = tmux("capture-pane", "-p", "-t", "m")
                    sent = time.monotonic()
                    tmux("send-keys", "-t", "m", "j")
                    while selected_row(tmux("capture-pane", "-p", "-t", "m"))[0] == selected_row(before)[0]:
                        time.sleep(0.002)
                    keys.append(("j", (time.monotonic() - sent) * 1000, False))
                for _ in range(5):
                    tmux("send-keys", "-t", "m", "k")
                sent = time.monotonic()
                while "Decoded · array" not in tmux("capture-pane", "-p", "-t", "m"):
                    time.sleep(0.002)
                built = (time.monotonic() - sent) * 1000
            pid = tmux("display-message", "-p", "-t", "m", "#{pane_pid}").strip()
            hwm = next(l for l in open(f"/proc/{pid}/status") if l.startswith("VmHWM")).split()[1]
            ticks = lambda: sum(int(x) for x in open(f"/proc/{pid}/stat").read().split()[13:15])
            before = ticks(); time.sleep(5); idle = ticks() - before
            print(f"{what}")
            print(f"first frame: {first * 1000:.0f} ms (includes tmux's own start and 2 ms polling)")
            print(f"all loaded and extracted: {loaded * 1000:.0f} ms")
            print(f"peak memory (VmHWM): {int(hwm) / 1024:.0f} MiB")
            for key, ms, during in keys:
                print(f"key {key}: answered in {ms:.0f} ms ({'while loading' if during else 'after loading'})")
            if args.big_capture:
                print(f"back on the big capture: its panes shown {built:.0f} ms after the keys")
            print(f"idle CPU: {idle} clock ticks in 5 s (a tick is 10 ms)")
            tmux("send-keys", "-t", "m", "q")
        finally:
            time.sleep(0.5)
            tmux("kill-server")

if __name__ == "__main__":
    main()
