#!/usr/bin/env bash
# Install what scripts/build-wheels.sh and scripts/build-npm.sh + scripts/build-npm-cli.sh
# left in dist/ the way a user would, each into a fresh environment with nothing else (no
# network: --no-index, --offline), and run `jxray check` on the demo folder through it; say
# how long each install took. .ci/run runs it after building them. When
# `scripts/build-npm-cli.sh x86_64-pc-windows-gnu` left the Windows platform package, npm
# must refuse it here (its "os" field), and it is then installed for win32 (--os=win32
# --cpu=x64, forced past that check) and run through the jxray package's bin by a Node
# that takes itself for Node on Windows (scripts/node-as-windows.cjs): the bin must pick
# the package's jxray.exe, which runs under Wine (scripts/windows-env.sh).
#
# Usage: scripts/dist-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

seconds() { python3 -c 'import time; print(f"{time.time():.3f}")'; }

# The demo folder holds failures on purpose: check exits 1 and prints a line per capture.
checks_demo() {
  local status=0
  "$@" check "$root/assets/demo" --format jsonl >"$work/out.jsonl" || status=$?
  if [[ $status -ne 1 ]] || [[ $(wc -l <"$work/out.jsonl") -lt 10 ]]; then
    echo "dist-smoke: \`$* check assets/demo\` exited $status with $(wc -l <"$work/out.jsonl") lines" >&2
    exit 1
  fi
}

wheel=$(ls dist/jxray-*-manylinux*.whl)
python3 -m venv "$work/venv"
start=$(seconds)
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
end=$(seconds)
"$work/venv/bin/python" -c 'import jxray; assert jxray.extract("{\"a\": 1}").ok'
checks_demo "$work/venv/bin/jxray"
echo "dist-smoke: pip install $(basename "$wheel"): $(python3 -c "print(f'{$end - $start:.1f}')") s; jxray check works"

mkdir "$work/project"
cd "$work/project"
echo '{"name": "smoke", "private": true}' >package.json
start=$(seconds)
npm install --offline --no-audit --no-fund --loglevel=error "$root"/dist/npm/jxray-[0-9]*.tgz "$root"/dist/npm/jxray-cli-linux-x64-gnu-*.tgz >/dev/null
end=$(seconds)
node -e 'const { extract } = require("jxray"); if (!extract("{\"a\": 1}").ok) process.exit(1)'
checks_demo npx --no-install jxray
echo "dist-smoke: npm install of jxray and @jxray/cli-linux-x64-gnu: $(python3 -c "print(f'{$end - $start:.1f}')") s; npx jxray check works"

windows_package=$(ls "$root"/dist/npm/jxray-cli-win32-x64-*.tgz 2>/dev/null || true)
if [[ -n "$windows_package" ]]; then
  mkdir "$work/windows"
  cd "$work/windows"
  echo '{"name": "smoke-windows", "private": true}' >package.json
  # Its "os" field makes npm refuse it on Linux unless forced: --os and --cpu pick the
  # optional dependencies, but npm still checks a named tarball against this machine.
  if npm install --offline --no-audit --no-fund --loglevel=silent --os=win32 --cpu=x64 \
    "$windows_package" >/dev/null 2>&1; then
    echo "dist-smoke: npm installed $windows_package on Linux" >&2
    exit 1
  fi
  npm install --offline --no-audit --no-fund --loglevel=error --force --os=win32 --cpu=x64 \
    "$root"/dist/npm/jxray-[0-9]*.tgz "$windows_package" >/dev/null 2>&1
  source "$root/scripts/windows-env.sh"
  windows_wine
  as_windows=(node --require "$root/scripts/node-as-windows.cjs" node_modules/jxray/bin/jxray.cjs)
  version=$("${as_windows[@]}" --version)
  if [[ "$version" != "jxray $(node -p 'require("jxray/package.json").version')" ]]; then
    echo "dist-smoke: npx jxray --version on win32 printed \`$version\`" >&2
    exit 1
  fi
  checks_demo "${as_windows[@]}"
  echo "dist-smoke: @jxray/cli-win32-x64 installs for win32 only; there npx jxray runs its jxray.exe ($version), and check works"
fi
