#!/usr/bin/env python3
"""Start-up time, load time, peak memory and idle CPU of the TUI on 10,000 captures.

usage: cargo build --release && python3 benches/tui_startup.py [target/release/jxray]

Writes 10,000 captures (fenced, direct, in prose, truncated, invalid, repaired,
no JSON; 1-4 KB each) into a temporary folder, starts jxray on it in a 200x60
tmux window, and polls the screen every 2 ms: the first frame is the first
screen showing the list, "loaded" is the first with no loading progress in the
footer. Peak memory is VmHWM from /proc; idle CPU is what the process used in
the 5 s after loading. Needs tmux and Linux's /proc.
"""
import json, os, subprocess, sys, tempfile, time

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

def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/jxray")
    with tempfile.TemporaryDirectory() as root:
        write_captures(root)
        sock = f"jxray-bench-{os.getpid()}"
        tmux = lambda *a: subprocess.run(["tmux", "-L", sock, *a], capture_output=True, text=True).stdout
        tmux("-f", "/dev/null", "new-session", "-d", "-s", "m", "-x", "200", "-y", "60")
        try:
            start = time.monotonic()
            tmux("respawn-pane", "-k", "-t", "m", f"exec env TERM=xterm-256color {binary} {root}")
            first = loaded = None
            while loaded is None and time.monotonic() - start < 120:
                screen = tmux("capture-pane", "-p", "-t", "m")
                now = time.monotonic() - start
                if first is None and "Captures" in screen:
                    first = now
                footer = [l for l in screen.splitlines() if l.strip()][-1:] or [""]
                if " captures: " in footer[0] and "loading" not in footer[0] and "finding" not in footer[0]:
                    loaded = now
                time.sleep(0.002)
            pid = tmux("display-message", "-p", "-t", "m", "#{pane_pid}").strip()
            hwm = next(l for l in open(f"/proc/{pid}/status") if l.startswith("VmHWM")).split()[1]
            ticks = lambda: sum(int(x) for x in open(f"/proc/{pid}/stat").read().split()[13:15])
            before = ticks(); time.sleep(5); idle = ticks() - before
            print(f"first frame: {first * 1000:.0f} ms (includes tmux's own start and 2 ms polling)")
            print(f"all 10,000 captures loaded and extracted: {loaded * 1000:.0f} ms")
            print(f"peak memory (VmHWM): {int(hwm) / 1024:.0f} MiB")
            print(f"idle CPU: {idle} clock ticks in 5 s (a tick is 10 ms)")
            tmux("send-keys", "-t", "m", "q")
        finally:
            time.sleep(0.5)
            tmux("kill-server")

if __name__ == "__main__":
    main()
