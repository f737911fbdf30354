#!/usr/bin/env bash
# Install what scripts/build-wheels.sh and scripts/build-npm.sh + scripts/build-npm-cli.sh
# left in dist/ the way a user would, each into a fresh environment with nothing else (no
# network: --no-index, --offline), and run `jxray check` on the demo folder through it; say
# how long each install took. .ci/run runs it after building them.
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

wheel=$(ls dist/jxray-*.whl)
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
