#!/usr/bin/env bash
# Build an npm platform package of the jxray command (@jxray/cli-<os>-<arch>[-<libc>]), which
# the `jxray` package's bin (npm/bin/jxray.cjs) runs; `npm pack` leaves it in dist/npm/.
# Linux binaries are linked through zig (cargo-zigbuild from PyPI, scripts/dist-venv.sh):
# the glibc ones against glibc 2.17, so they run on any Linux since CentOS 7 (checked with
# objdump), the musl ones statically. macOS builds with the normal toolchain on a Mac.
# Windows (@jxray/cli-win32-x64, holding jxray.exe) is cross-built here with
# scripts/windows-env.sh's toolchain, the executable scripts/build-windows.sh zips, and
# checked to import only Windows' own DLLs.
#
# Usage: scripts/build-npm-cli.sh [RUST_TARGET]   (default x86_64-unknown-linux-gnu.2.17;
#   also aarch64-unknown-linux-gnu.2.17, x86_64-unknown-linux-musl,
#   aarch64-unknown-linux-musl, x86_64-apple-darwin, aarch64-apple-darwin,
#   x86_64-pc-windows-gnu)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

target="${1:-x86_64-unknown-linux-gnu.2.17}"
case "$target" in
  x86_64-unknown-linux-gnu.2.17) platform=linux-x64-gnu os=linux cpu=x64 libc=glibc ;;
  aarch64-unknown-linux-gnu.2.17) platform=linux-arm64-gnu os=linux cpu=arm64 libc=glibc ;;
  x86_64-unknown-linux-musl) platform=linux-x64-musl os=linux cpu=x64 libc=musl ;;
  aarch64-unknown-linux-musl) platform=linux-arm64-musl os=linux cpu=arm64 libc=musl ;;
  x86_64-apple-darwin) platform=darwin-x64 os=darwin cpu=x64 libc= ;;
  aarch64-apple-darwin) platform=darwin-arm64 os=darwin cpu=arm64 libc= ;;
  x86_64-pc-windows-gnu) platform=win32-x64 os=win32 cpu=x64 libc= ;;
  *) echo "build-npm-cli: no npm platform package for $target" >&2; exit 2 ;;
esac
target_dir="${CARGO_TARGET_DIR:-$root/target}"
triple="${target%.2.17}"
command=jxray
if [[ "$os" = linux ]]; then
  venv="$(scripts/dist-venv.sh)"
  [[ "$venv" = /* ]] || venv="$root/$venv"
  export PATH="$venv/bin:$PATH"
  cargo zigbuild --quiet --release --locked --bin jxray --target "$target"
elif [[ "$os" = win32 ]]; then
  # The npm staging folder stays under the usual target dir; the build goes to Windows'.
  source scripts/windows-env.sh
  windows_toolchain
  binary=$(windows_exe)
  command=jxray.exe
  windows_imports "$binary" >/dev/null
else
  cargo build --quiet --release --locked --bin jxray --target "$target"
fi
binary="${binary:-$target_dir/$triple/release/jxray}"

newest=none
if [[ "$libc" = glibc ]]; then
  newest=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  if [[ "$(printf '%s\nGLIBC_2.17\n' "$newest" | sort -V | tail -1)" != "GLIBC_2.17" ]]; then
    echo "build-npm-cli: $binary needs $newest, newer than GLIBC_2.17" >&2
    exit 1
  fi
fi

version=$(node -p 'require("./npm/package.json").version')
package="$target_dir/npm-cli/$platform"
rm -rf "$package"
mkdir -p "$package"
cp "$binary" "$package/$command"
libc_line=""
[[ -n "$libc" ]] && libc_line="\"libc\": [\"$libc\"],"
cat >"$package/package.json" <<JSON
{
  "name": "@jxray/cli-$platform",
  "version": "$version",
  "description": "The jxray command for $platform; installed by the jxray package",
  "license": "MIT",
  "os": ["$os"],
  "cpu": ["$cpu"],
  $libc_line
  "files": ["$command"],
  "preferUnplugged": true
}
JSON
printf '# @jxray/cli-%s\n\nThe `jxray` command for %s. Install `jxray`, which installs this package on this\nplatform and runs it as `npx jxray`.\n' "$platform" "$platform" >"$package/README.md"
mkdir -p dist/npm
(cd "$package" && npm pack --silent --pack-destination "$root/dist/npm" >/dev/null)
echo "build-npm-cli: dist/npm/jxray-cli-$platform-$version.tgz (newest glibc symbol: $newest)"
