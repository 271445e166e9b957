#!/usr/bin/env bash
# Lists the functions longer than LIMIT lines (default 120: the norm's hard limit, ARCHITECTURE.md
# "Small pieces"; 80 finds the ones due to become named steps), longest first, with where they
# start. Lengths run from the line of the opening to that of the closing brace, as Universal
# Ctags reports them (a lambda counts in the function it is in). Exit status 1 when any is found.
# Usage: scripts/long_functions.sh [LIMIT] [DIR...]   (default: 120 app core)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
shift || true
[ $# -gt 0 ] || set -- app core
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "long_functions.sh needs Universal Ctags (apt-get install universal-ctags)" >&2
  exit 2
fi
ctags -R -x --languages=C++ --kinds-C++=f --fields=+ne --_xformat='%{end} %{line} %{input} %{scope} %{name}' "$@" |
  awk -v limit="$limit" '{ n = $1 - $2 + 1; if (n > limit) { name = ($4 == "-" ? "" : $4 "::") $5; print n, $3 ":" $2, name } }' |
  sort -k1,1nr -k2,2 | awk 'BEGIN { found = 0 } { print; found = 1 } END { exit found }'
