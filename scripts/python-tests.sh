#!/usr/bin/env bash
# The Python package's tests (crates/jxray-python/tests), as `cargo test` runs them
# (tests/python_package.rs): a virtual environment with pinned maturin, pytest, hypothesis,
# mypy and the official SDKs (scripts/pinned-venv.sh); the package built by maturin as a
# wheel in the dev profile, in the workspace's target dir so it reuses what cargo built;
# the wheel installed into that environment; then pytest over it, compared against the
# jxray binary.
#
# Usage: scripts/python-tests.sh [JXRAY_BINARY [PYTEST_ARGUMENT...]]
#   (default binary: builds target/debug/jxray)
# The environment is kept in $PYTHON_TESTS_VENV (default target/python-tests-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
jxray="${1:-}"
shift || true
if [[ -z "$jxray" ]]; then
  cargo build --quiet --bin jxray
  jxray="$CARGO_TARGET_DIR/debug/jxray"
fi
venv="${PYTHON_TESTS_VENV:-$CARGO_TARGET_DIR/python-tests-venv}"
# The versions this was written against; a change here rebuilds the environment.
scripts/pinned-venv.sh "$venv" maturin==1.16.0 pytest==9.2.0 hypothesis==6.170.17 \
  mypy==2.4.1 openai==3.57.0 anthropic==2.15.0 google-genai==3.6.1 ollama==0.6.3 \
  opentelemetry-api==1.45.2 opentelemetry-sdk==1.45.2

wheels="$CARGO_TARGET_DIR/python-wheels"
rm -rf "$wheels"
"$venv/bin/maturin" build --quiet --profile dev --out "$wheels" \
  --manifest-path crates/jxray-python/Cargo.toml --interpreter "$venv/bin/python"
wheel=$(echo "$wheels"/jxray-*.whl)
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --force-reinstall "$wheel"

# ai-mock (a mock server from PyPI) for the repair loop's end-to-end test through
# `jxray record`, from the record end-to-end test's environment.
sdk_venv="$(scripts/sdk-venv.sh)"
[[ "$sdk_venv" = /* ]] || sdk_venv="$root/$sdk_venv"

cd crates/jxray-python
JXRAY_BIN="$jxray" JXRAY_WHEEL="$wheel" AI_MOCK="$sdk_venv/bin/ai-mock" \
  "$venv/bin/python" -m pytest -p no:cacheprovider -q tests "$@"
