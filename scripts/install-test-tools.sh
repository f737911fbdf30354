#!/usr/bin/env bash
# Install the real tools that `cargo test` drives (README: "Development"), pinned:
#   - llm 0.36 and its llm-echo 0.5 plugin (PyPI), in a virtual environment: the tests
#     write a logs.db in WAL mode with llm's own code while a writer still holds the rows.
#
#     scripts/install-test-tools.sh [TOOLS_DIR]
#
# TOOLS_DIR defaults to $JXRAY_TEST_TOOLS, else target/test-tools. Installs only what is
# missing, so running it again is quick. Needs python3 (3.10+) with venv.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools=${1:-${JXRAY_TEST_TOOLS:-$root/target/test-tools}}
mkdir -p "$tools"

# The marker is written last, so a failed install is never taken for a finished one.
if [ ! -e "$tools/llm/installed" ]; then
    rm -rf "$tools/llm"
    python3 -m venv "$tools/llm"
    "$tools/llm/bin/pip" install --quiet --disable-pip-version-check \
        'llm==0.36' 'llm-echo==0.5'
    touch "$tools/llm/installed"
fi
