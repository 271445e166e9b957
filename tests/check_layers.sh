#!/usr/bin/env bash
# Two layering rules ctest checks (core_umbrella_header, io_below_plan); prints each offence and
# exits 1 when there is one.
#   umbrella: <pathlab/pathlab.hpp> includes every public header of core/include/pathlab/.
#   io:       nothing under app/io includes the planning layer (pathlab/plan/...): io sits below it.
# Usage: tests/check_layers.sh umbrella|io [REPO_ROOT]
set -euo pipefail
rule="$1"
root="${2:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
status=0
case "$rule" in
  umbrella)
    umbrella=core/include/pathlab/pathlab.hpp
    count=0
    for header in core/include/pathlab/*.hpp; do
      name="$(basename "$header")"
      [ "$name" = pathlab.hpp ] && continue
      count=$((count + 1))
      if ! grep -qE "^#include [<\"]pathlab/${name//./\\.}[>\"]" "$umbrella"; then
        echo "$umbrella: does not include pathlab/$name"
        status=1
      fi
    done
    [ "$status" -eq 0 ] && echo "core_umbrella_header: all $count public headers included"
    ;;
  io)
    if grep -rnE '#[[:space:]]*include[[:space:]]*[<"]([^>"]*/)?pathlab/plan/' app/io; then
      echo "io_below_plan: app/io includes the planning layer (lines above); pass what io needs down instead" >&2
      status=1
    else
      echo "io_below_plan: app/io includes nothing of pathlab/plan"
    fi
    ;;
  *)
    echo "usage: $0 umbrella|io [REPO_ROOT]" >&2
    exit 2
    ;;
esac
exit "$status"
