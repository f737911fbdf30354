#!/usr/bin/env bash
# Build the Python package for PyPI into dist/: an abi3 wheel (CPython 3.10 and later) tagged
# manylinux2014, linked against glibc 2.17 through zig (maturin --zig, from
# scripts/dist-venv.sh) so pip installs it on any Linux since CentOS 7; the same for 64-bit
# Windows (cp310-abi3-win_amd64), cross-built with scripts/windows-env.sh's toolchain; and the
# sdist, which builds with a Rust toolchain. `auditwheel show` must confirm the Linux tag,
# and the Windows extension module must import only Windows' own DLLs and python3.dll (the
# stable ABI's, which maturin makes the import library of: no Windows Python is needed to
# build).
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
wheel=$(ls dist/jxray-*-manylinux*.whl)
shown=$(auditwheel show "$wheel")
if ! grep -q 'manylinux_2_17' <<<"$shown"; then
  echo "build-wheels: $wheel is not manylinux2014 (manylinux_2_17):" >&2
  echo "$shown" >&2
  exit 1
fi
echo "build-wheels: $wheel and $(ls dist/jxray-*.tar.gz); auditwheel: manylinux_2_17 compatible"

(
  source scripts/windows-env.sh
  windows_toolchain
  maturin build --quiet --release --locked "${WINDOWS_BUILD_STD[@]}" \
    --manifest-path crates/jxray-python/Cargo.toml --out dist
  windows_wheel=$(ls dist/jxray-*-cp310-abi3-win_amd64.whl)
  unpacked=$(mktemp -d)
  trap 'rm -rf "$unpacked"' EXIT
  unzip -q "$windows_wheel" 'jxray/_jxray*.pyd' -d "$unpacked"
  dlls=$(windows_imports "$unpacked"/jxray/_jxray*.pyd python3)
  echo "build-wheels: $windows_wheel; its extension module imports $(tr '\n' ' ' <<<"$dlls")"
)
