#!/usr/bin/env bash
# instructor (a re-asking structured-output loop, from PyPI) with the openai SDK it resolves
# with, at pinned versions, in a virtual environment made once and reused; prints its path.
# It is not in scripts/sdk-venv.sh's environment because instructor 1.17 pins jiter below
# 0.15 and the openai SDK there needs a later one. scripts/record-e2e.sh runs instructor's
# loops through `jxray record` with it (scripts/record_loops.py).
#
# The environment is $INSTRUCTOR_VENV (default $CARGO_TARGET_DIR/instructor-venv, or
# target/instructor-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${INSTRUCTOR_VENV:-${CARGO_TARGET_DIR:-target}/instructor-venv}"
# The versions this was written against; a change here rebuilds the environment.
scripts/pinned-venv.sh "$venv" instructor==1.17.0 openai==3.3.0 jiter==0.14.0 >&2
echo "$venv"
