#!/usr/bin/env bash
# End to end: `jxray record --stop-on runaway` with the official openai, anthropic,
# google-genai and ollama Python SDKs against a local upstream that streams a white-space
# runaway and a good answer (scripts/stop_on_e2e.py says what is checked). The openai npm package's side is
# in npm/test/stop-on.test.mjs.
#
# Usage: scripts/stop-on-e2e.sh [JXRAY_BINARY]   (default: builds target/debug/jxray)
# `cargo test` runs this (tests/record_e2e.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
jxray="${1:-}"
if [[ -z "$jxray" ]]; then
  cargo build --quiet --bin jxray
  jxray="$target/debug/jxray"
fi
venv="$(scripts/sdk-venv.sh)"
"$venv/bin/python" -W ignore scripts/stop_on_e2e.py "$jxray"
