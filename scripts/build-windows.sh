#!/usr/bin/env bash
# Build the jxray command for x86_64 Windows (x86_64-pc-windows-gnu) on this Linux machine
# and leave dist/jxray-VERSION-x86_64-pc-windows-gnu.zip: jxray.exe and SHA256SUMS (the
# executable's SHA-256), with the zip's own SHA-256 beside it (….zip.sha256).
#
# The toolchain (scripts/windows-env.sh): Debian's rustc-web builds std from rust-web-src
# (-Zbuild-std, RUSTC_BOOTSTRAP=1); the executable is optimised as one program at link
# time and linked by LLD with Debian's MinGW-w64 start-up objects and libraries
# (windows_exe); all are installed with apt-get when missing. The build has its own target
# dir (WINDOWS_TARGET_DIR, default target/windows). The executable imports system DLLs
# only (no MinGW runtime DLL: libgcc and winpthreads are linked in), which this script
# checks. Nothing Wine-related is built or shipped here: the Wine shim for tests is
# scripts/windows-tests.sh's.
#
# Usage: scripts/build-windows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/windows-env.sh
windows_toolchain

version=$(windows_version)
exe=$(windows_exe)

dlls=$(windows_imports "$exe")

name="jxray-$version-$WINDOWS_TRIPLE"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$exe" "$stage/jxray.exe"
(cd "$stage" && sha256sum jxray.exe >SHA256SUMS)
mkdir -p dist
rm -f "dist/$name.zip"
(cd "$stage" && zip -q -X "$OLDPWD/dist/$name.zip" jxray.exe SHA256SUMS)
(cd dist && sha256sum "$name.zip" >"$name.zip.sha256")
echo "build-windows: dist/$name.zip ($(stat -c %s "$exe") bytes jxray.exe; imports $(tr '\n' ' ' <<<"$dlls"))"
