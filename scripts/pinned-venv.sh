#!/usr/bin/env bash
# A Python virtual environment holding exactly the pinned requirements, made once and reused
# while the list is the same (a different list rebuilds it):
#
#     scripts/pinned-venv.sh VENV REQUIREMENT...
#
# The list is written into VENV last, so an install that failed half-way is done again.
set -euo pipefail
venv=$1
shift
wanted="$*"
if [[ "$(cat "$venv/.requirements" 2>/dev/null)" != "$wanted" ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
  echo "$wanted" >"$venv/.requirements"
fi
