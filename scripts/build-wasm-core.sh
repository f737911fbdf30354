#!/usr/bin/env bash
# Build the pure core (crates/jxray-formats, with the engine) for wasm32-unknown-unknown, so
# it stays free of I/O and native dependencies: every front end, the WebAssembly one
# included, compiles it. CI runs this (.ci/run).
#
# rustup cannot fetch the wasm32 standard library here, so the build uses Debian's
# `rustc-web` (a newer rustc, /usr/bin/rustc) with its `rust-web-src` sources, building std
# itself (`-Zbuild-std`, which needs RUSTC_BOOTSTRAP=1), driven by the usual cargo. The main
# build keeps rustup's toolchain. Install them with:
#   apt-get install rustc-web rust-web-src
# A library needs no linker, so nothing else is required.
#
# Usage: scripts/build-wasm-core.sh [--release]
set -euo pipefail
cd "$(dirname "$0")/.."

rustc_web=/usr/bin/rustc
sources=/usr/lib/rustlib/src/rust/library
if [[ ! -x "$rustc_web" || ! -d "$sources" ]]; then
  echo "build-wasm-core: needs Debian's rustc-web and rust-web-src (apt-get install rustc-web rust-web-src)" >&2
  exit 2
fi
# Its own target dir: a different rustc would rebuild the host's artifacts in the main one.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/wasm-core"
RUSTC="$rustc_web" RUSTC_BOOTSTRAP=1 cargo build --locked -p jxray-formats \
  --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort "$@"
echo "build-wasm-core: jxray-formats builds for wasm32-unknown-unknown with $("$rustc_web" --version)"
