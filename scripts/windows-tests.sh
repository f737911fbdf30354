#!/usr/bin/env bash
# Test the Windows build under Wine (scripts/windows-env.sh has the toolchain and the Wine
# set-up; CI runs this after scripts/build-windows.sh):
#   1. the engine's, the core's (jxray-formats) and the recorder's (jxray-record) tests,
#      and the jxray crate's unit tests (Windows paths in fixture names and messages, the
#      watcher's file identity), built for x86_64-pc-windows-gnu and run under Wine;
#      release profile, so they reuse the dependencies build-windows.sh compiled;
#   2. the CLI golden tests' equivalents: jxray.exe `check` on the demo folder in every
#      format, `extract` on the fixtures' inputs, `test` on the fixtures folder, each
#      compared byte for byte (stdout, stderr, exit code) with the Linux binary;
#   3. a `jxray.exe record` round trip against a local upstream, then Ctrl-C with a stream
#      in flight: a clean stop that keeps what arrived (scripts/windows_record_roundtrip.py).
#
# Wine 8.0 (Debian 12's) cannot make a symlink or a junction (CreateSymbolicLinkW does
# nothing and `mklink /J` fails), so the writer's tests that plant one are skipped when a
# probe finds that Wine cannot make a junction; they run where links exist (natively on
# Windows). The other writer tests (a taken name gets a suffix, nothing is overwritten, the
# held folders cannot be renamed away) run under Wine.
#
# Usage: scripts/windows-tests.sh [LINUX_JXRAY]   (default: cargo build's target/debug/jxray)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
host_target="${CARGO_TARGET_DIR:-$root/target}"

# The Linux binary the Windows one is compared with.
linux="${1:-}"
if [[ -z "$linux" ]]; then
  cargo build --quiet --locked --bin jxray
  linux="$host_target/debug/jxray"
fi

source scripts/windows-env.sh
windows_toolchain
windows_wine

# 1. The crates' tests under Wine.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
skip=()
probe="$scratch/probe"
mkdir -p "$probe/target"
if ! wine cmd /C mklink /J "$(winepath -w "$probe/link")" "$(winepath -w "$probe/target")" >/dev/null 2>&1 ||
  [[ ! -e "$probe/link" ]]; then
  echo "windows-tests: this Wine cannot make a junction or a symlink: skipping the writer's planted-link tests (they run natively on Windows)"
  skip=(--skip write::tests::a_planted_junction --skip write::tests::a_planted_directory_symlink
    --skip write::tests::a_planted_file_link)
fi
# insta finds the snapshots from the workspace root, which it asks cargo for (not found
# from inside Wine); INSTA_UPDATE=no: a mismatch fails and writes nothing.
INSTA_WORKSPACE_ROOT="$root" INSTA_UPDATE=no \
  cargo test --quiet --release --locked --tests -p jxray-engine -p jxray-formats -p jxray-record \
  "${WINDOWS_BUILD_STD[@]}" -- "${skip[@]}"
INSTA_WORKSPACE_ROOT="$root" INSTA_UPDATE=no \
  cargo test --quiet --release --locked --lib -p jxray "${WINDOWS_BUILD_STD[@]}"

# 2. The CLI against the Linux binary's output.
exe=$(windows_exe)
# The zip build-windows.sh left holds this very executable, with right checksums.
zip="dist/jxray-$(windows_version)-$WINDOWS_TRIPLE.zip"
if [[ -e "$zip" ]]; then
  (cd dist && sha256sum --quiet -c "${zip#dist/}.sha256")
  unzip -p "$zip" jxray.exe | cmp - "$exe"
  (cd "$scratch" && unzip -q -o "$root/$zip" && sha256sum --quiet -c SHA256SUMS)
  echo "windows-tests: $zip holds the jxray.exe tested here"
fi
compared=0
same() {
  local input="$1"
  shift
  wine "$exe" "$@" <"$input" >"$scratch/win.out" 2>"$scratch/win.err" && win=0 || win=$?
  "$linux" "$@" <"$input" >"$scratch/linux.out" 2>"$scratch/linux.err" && lin=0 || lin=$?
  if [[ $win != "$lin" ]] || ! cmp -s "$scratch/win.out" "$scratch/linux.out" ||
    ! cmp -s "$scratch/win.err" "$scratch/linux.err"; then
    echo "windows-tests: jxray $* differs (exit $win on Windows, $lin on Linux)" >&2
    diff <(cat "$scratch/linux.out" "$scratch/linux.err") <(cat "$scratch/win.out" "$scratch/win.err") | head -20 >&2
    exit 1
  fi
  compared=$((compared + 1))
}
for format in text jsonl json; do
  same /dev/null check assets/demo --color never --format "$format"
done
same /dev/null check assets/demo --color never --schema assets/demo/schema.json
same /dev/null test fixtures --color never
# Every fixture's input through `extract` on standard input (leniently, so that the
# lenient layer's repairs are compared too; `test` above replays them as recorded).
for fixture in fixtures/*.json; do
  python3 -c 'import json, sys; sys.stdout.write(json.load(open(sys.argv[1]))["input"])' \
    "$fixture" >"$scratch/input"
  same "$scratch/input" extract - --accept-lenient --pretty
done
echo "windows-tests: $compared CLI runs byte for byte the same as Linux's"

# 3. The recorder, end to end.
python3 scripts/windows_record_roundtrip.py "$exe" "$linux"
