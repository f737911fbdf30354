#!/usr/bin/env bash
# Build the npm platform package of the jxray command for this machine's platform
# (@jxray/cli-linux-x64-gnu here): the release binary linked against glibc 2.17 through zig
# (cargo-zigbuild from PyPI, scripts/dist-venv.sh), so it runs on any Linux since CentOS 7,
# checked with objdump; then `npm pack` into dist/npm/. The `jxray` package's bin
# (npm/bin/jxray.cjs) runs it. Other platforms are built by the release workflow on their
# own runners.
#
# Usage: scripts/build-npm-cli.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

venv="$(scripts/dist-venv.sh)"
[[ "$venv" = /* ]] || venv="$root/$venv"
export PATH="$venv/bin:$PATH"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
cargo zigbuild --quiet --release --locked --bin jxray --target x86_64-unknown-linux-gnu.2.17
binary="$target_dir/x86_64-unknown-linux-gnu/release/jxray"

newest=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
if [[ "$(printf '%s\nGLIBC_2.17\n' "$newest" | sort -V | tail -1)" != "GLIBC_2.17" ]]; then
  echo "build-npm-cli: $binary needs $newest, newer than GLIBC_2.17" >&2
  exit 1
fi

version=$(node -p 'require("./npm/package.json").version')
package="$target_dir/npm-cli/linux-x64-gnu"
rm -rf "$package"
mkdir -p "$package"
cp "$binary" "$package/jxray"
cat >"$package/package.json" <<JSON
{
  "name": "@jxray/cli-linux-x64-gnu",
  "version": "$version",
  "description": "The jxray command for Linux x64 (glibc 2.17 or newer); installed by the jxray package",
  "license": "MIT",
  "os": ["linux"],
  "cpu": ["x64"],
  "libc": ["glibc"],
  "files": ["jxray"],
  "preferUnplugged": true
}
JSON
printf '# @jxray/cli-linux-x64-gnu\n\nThe `jxray` command for Linux x64 with glibc 2.17 or newer. Install `jxray`, which\ninstalls this package on this platform and runs it as `npx jxray`.\n' >"$package/README.md"
mkdir -p dist/npm
(cd "$package" && npm pack --silent --pack-destination "$root/dist/npm" >/dev/null)
echo "build-npm-cli: dist/npm/jxray-cli-linux-x64-gnu-$version.tgz (the binary needs at most $newest)"
