#!/usr/bin/env bash
# Build the npm package `jxray` (npm/): the engine compiled to WebAssembly
# (crates/jxray-wasm), the package's JavaScript and its CommonJS entry, then `npm pack`,
# leaving the tarball in dist/npm/.
#
# The module is built like the pure core (scripts/build-wasm-core.sh): Debian's rustc-web
# with its std sources (`-Zbuild-std`), driven by the usual cargo, linked by rustup's own
# rust-lld, with WebAssembly's 128-bit SIMD (every runtime the package supports has it: Node
# 16.4+, Bun, Deno, workerd, Chrome 91+, Firefox 89+, Safari 16.4+; the byte searches and the
# grammar's word-at-a-time scans run a fifth faster with it). The CommonJS entry is bundled
# by esbuild, from the npm registry. Nothing else is needed: no wasm-bindgen, no wasm-pack
# (the boundary is written by hand).
#
# Usage: scripts/build-npm.sh            (build, pack)
#        JXRAY_NPM_SKIP_PACK=1 scripts/build-npm.sh   (build in place only)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

rustc_web=/usr/bin/rustc
sources=/usr/lib/rustlib/src/rust/library
if [[ ! -x "$rustc_web" || ! -d "$sources" ]]; then
  echo "build-npm: needs Debian's rustc-web and rust-web-src (apt-get install rustc-web rust-web-src)" >&2
  exit 2
fi
lld="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
if [[ ! -x "$lld" ]]; then
  echo "build-npm: rustup's rust-lld is missing at $lld; reinstall the toolchain with rustup" >&2
  exit 2
fi
# The same target dir as the pure core's build: std is built once for both.
target="${CARGO_TARGET_DIR:-$root/target}/wasm-core"
CARGO_TARGET_DIR="$target" RUSTC="$rustc_web" RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$lld" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
  cargo build --locked -p jxray-wasm --lib --target wasm32-unknown-unknown --profile wasm \
  -Zbuild-std=std,panic_abort
mkdir -p npm/dist
cp "$target/wasm32-unknown-unknown/wasm/jxray_wasm.wasm" npm/dist/jxray.wasm

cd npm
# esbuild (and the test dependencies) at the versions package-lock.json pins; again when
# the lock file changed since they were installed.
if [[ ! -d node_modules/esbuild || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
# Binaryen's optimiser over what rustc and LLD wrote (the package's pinned `binaryen`):
# about a tenth smaller, gzipped, with the features every runtime the package supports
# has (the module already needs SIMD). `--converge` repeats the passes while they still
# shrink it: 1.3 KB less gzipped for 11 s more, no slower (BENCHMARKS.md, Module size).
node_modules/.bin/wasm-opt -Oz --converge --enable-simd --enable-bulk-memory --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-mutable-globals --enable-reference-types \
  --enable-multivalue --strip-debug dist/jxray.wasm -o dist/jxray.wasm
node scripts/bundle.mjs
raw=$(wc -c < dist/jxray.wasm)
packed=$(gzip -9c dist/jxray.wasm | wc -c)
echo "build-npm: dist/jxray.wasm is $raw bytes ($packed gzipped)"
# The module's budget: 300 KB gzipped (read as KiB), what every page and worker downloads.
# Said loudly, not failed on: Debian's rustc-web may move a few hundred bytes between builds.
if (( packed > 300 * 1024 )); then
  echo "build-npm: WARNING: the module is over its 300 KB gzipped budget ($packed bytes); make room" >&2
fi
if [[ -z "${JXRAY_NPM_SKIP_PACK:-}" ]]; then
  # Packed from a staging copy whose package.json lists the platform packages.
  stage="${CARGO_TARGET_DIR:-$root/target}/npm-stage"
  node scripts/stage.mjs "$stage"
  mkdir -p "$root/dist/npm"
  (cd "$stage" && npm pack --silent --pack-destination "$root/dist/npm" >/dev/null)
  echo "build-npm: $(ls "$root"/dist/npm/jxray-*.tgz)"
fi
