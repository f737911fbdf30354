#!/usr/bin/env bash
# Build the Python package for PyPI into dist/: an abi3 wheel (CPython 3.9 and later) tagged
# manylinux2014, linked against glibc 2.17 through zig (maturin --zig, from
# scripts/dist-venv.sh) so pip installs it on any Linux since CentOS 7; and the sdist, which
# builds with a Rust toolchain. `auditwheel show` must confirm the tag.
#
# Usage: scripts/build-wheels.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

venv="$(scripts/dist-venv.sh)"
[[ "$venv" = /* ]] || venv="$root/$venv"
# cargo-zigbuild finds zig as `python3 -m ziglang`: the environment must be first on PATH.
export PATH="$venv/bin:$PATH"
mkdir -p dist
rm -f dist/jxray-*.whl dist/jxray-*.tar.gz
maturin build --quiet --release --zig --compatibility manylinux2014 --locked \
  --manifest-path crates/jxray-python/Cargo.toml --out dist
maturin sdist --manifest-path crates/jxray-python/Cargo.toml --out dist >/dev/null
wheel=$(ls dist/jxray-*.whl)
shown=$(auditwheel show "$wheel")
if ! grep -q 'manylinux_2_17' <<<"$shown"; then
  echo "build-wheels: $wheel is not manylinux2014 (manylinux_2_17):" >&2
  echo "$shown" >&2
  exit 1
fi
echo "build-wheels: $wheel and $(ls dist/jxray-*.tar.gz); auditwheel: manylinux_2_17 compatible"
