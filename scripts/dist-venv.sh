#!/usr/bin/env bash
# The tools that build the artifacts users install without a Rust toolchain, pinned: zig
# (from PyPI) links against an old glibc so the binaries and wheels run on any Linux from
# glibc 2.17 (CentOS 7, Ubuntu 14.04 and later); maturin builds the wheel with it;
# cargo-zigbuild builds the CLI with it; auditwheel reads a wheel's tag. Prints the
# environment's path.
#
# The environment is $DIST_VENV (default $CARGO_TARGET_DIR/dist-venv, or target/dist-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${DIST_VENV:-${CARGO_TARGET_DIR:-target}/dist-venv}"
# ziglang 0.17.1 is the version maturin 1.16.0 and cargo-zigbuild 0.24.1 were tried with;
# newer zig releases have broken cargo-zigbuild before.
scripts/pinned-venv.sh "$venv" maturin==1.16.0 ziglang==0.17.1 cargo-zigbuild==0.24.1 \
  auditwheel==6.8.2 >&2
echo "$venv"
