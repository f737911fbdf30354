#!/usr/bin/env bash
# The official openai, anthropic, google-genai and ollama Python SDKs, ai-mock (a mock
# server from PyPI) and PydanticAI (its OpenAI model only: pydantic-ai-slim[openai]), at pinned versions, in a
# virtual environment made once and reused; prints its path. The `jxray record` end-to-end
# tests (scripts/record-e2e.sh, the workbench's tmux test of `jxray record --tui`) share it.
#
# The environment is $RECORD_E2E_VENV (default $CARGO_TARGET_DIR/record-e2e-venv, or
# target/record-e2e-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${RECORD_E2E_VENV:-${CARGO_TARGET_DIR:-target}/record-e2e-venv}"
# The versions this was written against; a change here rebuilds the environment.
scripts/pinned-venv.sh "$venv" openai==3.57.0 anthropic==2.15.0 ai-mock==0.3.1 \
  "pydantic-ai-slim[openai]==2.78.0" google-genai==3.6.1 ollama==0.6.3 >&2
echo "$venv"
