#!/usr/bin/env bash
# The npm package's tests: build it (scripts/build-npm.sh), then run its node:test suite
# against this build's jxray binary, with a real mock server (ai-mock, as in the record
# end-to-end test) for the official SDKs, and load the packed tarball in the other runtimes
# (Bun, Deno, headless Chromium, workerd: npm/test/runtimes/).
#
# Usage: scripts/npm-tests.sh [JXRAY_BINARY]   (default: builds target/debug/jxray)
# `cargo test` runs this (tests/npm_package.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
jxray="${1:-}"
if [[ -z "$jxray" ]]; then
  cargo build --quiet --bin jxray
  jxray="$target/debug/jxray"
fi
export JXRAY_BIN="$(cd "$(dirname "$jxray")" && pwd)/$(basename "$jxray")"

rm -f dist/npm/jxray-[0-9]*.tgz
scripts/build-npm.sh >&2
venv="$(scripts/sdk-venv.sh)"
# ai-mock starts its server through the venv's uvicorn.
[[ "$venv" = /* ]] || venv="$PWD/$venv"
export PATH="$venv/bin:$PATH"

work="$(mktemp -d)"
mock_pid=""
cleanup() {
  [[ -n "$mock_pid" ]] && kill "$mock_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 scripts/own_group.py ai-mock server scripts/record-e2e-responses.json -p "$port" >"$work/mock.log" 2>&1 &
mock_pid=$!
for _ in $(seq 1 100); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
  sleep 0.1
done
export AI_MOCK_URL="http://127.0.0.1:$port"
export JXRAY_NPM_TARBALL="$(ls "$PWD"/dist/npm/jxray-[0-9]*.tgz)"

cd npm
node --test --test-reporter=spec test/*.test.mjs test/*.test.cjs test/runtimes/*.test.mjs
