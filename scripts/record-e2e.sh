#!/usr/bin/env bash
# End to end: the official openai and anthropic Python SDKs call a real mock server
# (ai-mock, from PyPI) straight and through `jxray record`; what each SDK received must be
# the same either way, and `jxray check` on the recorded folder must give each case's
# outcome (fenced, cut off mid-value, trailing comma, tool call, refusal; streamed and not).
# Then other loops' re-asks: the real instructor (TOOLS, JSON, MD_JSON) and PydanticAI
# (tool output, NativeOutput) through the proxy, whose chains `jxray check` must link and count as the
# loops count them (scripts/record_loops.py).
#
# Usage: scripts/record-e2e.sh [JXRAY_BINARY]   (default: builds target/debug/jxray)
# The virtual environment (scripts/sdk-venv.sh: $RECORD_E2E_VENV, default
# target/record-e2e-venv) is reused while it holds the pinned versions. `cargo test` runs this (tests/record_e2e.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
jxray="${1:-}"
if [[ -z "$jxray" ]]; then
  cargo build --quiet --bin jxray
  jxray="$target/debug/jxray"
fi
venv="$(scripts/sdk-venv.sh)"
export PATH="$venv/bin:$PATH"

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for_port() {
  for _ in $(seq 1 100); do
    if python3 -c "import socket; socket.create_connection(('127.0.0.1', $1), 0.2)" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  echo "record-e2e: nothing listens on port $1; see $2" >&2
  cat "$2" >&2
  exit 1
}

mock_port="$(free_port)"
python3 scripts/own_group.py ai-mock server scripts/record-e2e-responses.json -p "$mock_port" >"$work/mock.log" 2>&1 &
pids+=($!)
wait_for_port "$mock_port" "$work/mock.log"

proxy_port="$(free_port)"
"$jxray" record --port "$proxy_port" --to "$work/captures" \
  --upstream "openai=http://127.0.0.1:$mock_port/openai" \
  --upstream "anthropic=http://127.0.0.1:$mock_port/anthropic" \
  >"$work/record.out" 2>"$work/record.err" &
pids+=($!)
wait_for_port "$proxy_port" "$work/record.err"

# The SDKs are pointed at the proxy by the very lines it printed.
eval "$(grep -E '^  export (OPENAI|ANTHROPIC)_BASE_URL=' "$work/record.out" | sed 's/#.*//')"
export OPENAI_BASE_URL ANTHROPIC_BASE_URL
export E2E_API_KEY="sk-e2e-$RANDOM$RANDOM-never-on-disk"

status=0
python3 -W ignore scripts/record_e2e.py calls "http://127.0.0.1:$mock_port" || status=1

# Every exchange is written when its response ends; give the last one a moment.
for _ in $(seq 1 50); do
  [[ "$(grep -c '^jxray record: recorded ' "$work/record.err")" -ge 20 ]] && break
  sleep 0.1
done
"$jxray" check "$work/captures" --format jsonl >"$work/check.jsonl" || true
python3 scripts/record_e2e.py check "$work/captures" "$work/check.jsonl" || status=1
if grep -rq "$E2E_API_KEY" "$work/captures"; then
  echo "record-e2e: the API key was written under the capture folder" >&2
  status=1
fi
if [[ $status -ne 0 ]]; then
  echo "record-e2e: failed; the proxy said:" >&2
  cat "$work/record.err" >&2
fi

# Other loops' re-asks (scripts/record_loops.py): instructor and PydanticAI through a proxy
# of their own, each counting the chains it repaired; `jxray check` must link as many.
instructor_venv="$(scripts/instructor-venv.sh)"
loops_port="$(free_port)"
"$jxray" record --port "$loops_port" --to "$work/loops" \
  --upstream "openai=http://127.0.0.1:$mock_port/openai" \
  >"$work/loops.out" 2>"$work/loops.err" &
pids+=($!)
wait_for_port "$loops_port" "$work/loops.err"
eval "$(grep -E '^  export OPENAI_BASE_URL=' "$work/loops.out" | sed 's/#.*//')"
export OPENAI_BASE_URL
loops=0
"$instructor_venv/bin/python" -W ignore scripts/record_loops.py instructor | tee -a "$work/loops.log" || loops=1
python3 -W ignore scripts/record_loops.py pydantic-ai | tee -a "$work/loops.log" || loops=1
repaired="$(awk '/^record-loops: .* re-asked/ { n += $(NF - 2) } END { print n + 0 }' "$work/loops.log")"
calls="$(grep -c '^record-loops: .* re-asked' "$work/loops.log" || true)"
for _ in $(seq 1 50); do
  [[ "$(grep -c '^jxray record: recorded ' "$work/loops.err")" -ge $((2 * calls)) ]] && break
  sleep 0.1
done
"$jxray" check "$work/loops" --format jsonl >"$work/loops.jsonl" || true
python3 scripts/record_loops.py check "$work/loops.jsonl" "${repaired:-0}" || loops=1
if [[ $loops -ne 0 ]]; then
  echo "record-e2e: the loops failed; the proxy said:" >&2
  cat "$work/loops.err" >&2
  status=1
fi
exit $status
