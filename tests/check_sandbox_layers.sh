#!/usr/bin/env bash
# The sandbox's areas depend one way (issue 23). Run by ctest (sandbox_layers); prints each
# offending include as FILE:LINE: TEXT (why) and exits 1 when there is one.
# Usage: tests/check_sandbox_layers.sh [REPO_ROOT]
#
# The areas of app/sandbox/, highest first; an area includes headers of its own folder and of
# lower tiers only, and the areas of one tier do not include each other. "sandbox" is the root,
# sandbox.{hpp,cpp}. Below every tier: the planning service, io and the core ("pathlab/...").
tiers=(
  "host"
  "sandbox"
  "panels"
  "inspect"
  "canvas"
  "units planning document"
)
# The one arrow back up the rule accepts: a source (never a header) of these areas may include
# sandbox.hpp, because the Sandbox is the context their parts are handed (Panel::draw(Sandbox&),
# the inspector's and the crowd tools' Sandbox&). Their headers only forward-declare it.
context_areas="panels inspect canvas"
# Known arrows back up that are not cheap to remove, each with why. The check fails when one
# goes away, so the list only shrinks.
known_exceptions=(
  # Sandbox's own members (the map view: draw_canvas, its input, the composed texture) live in
  # the canvas folder; they draw the inspector the Sandbox owns.
  "canvas/canvas.cpp -> inspect/inspector.hpp"
  # Sandbox's own members (open, save, autosave, the dialogs) live in the document folder.
  "document/sandbox_files.cpp -> sandbox.hpp"
  "document/sandbox_files.cpp -> inspect/inspector.hpp"
)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root/app/sandbox"

declare -A tier_of
for i in "${!tiers[@]}"; do
  for area in ${tiers[$i]}; do tier_of[$area]=$i; done
done
declare -A seen_exception

area_of_file() {  # app/sandbox-relative path -> its area ("sandbox" for the root files)
  case "$1" in
    */*) echo "${1%%/*}" ;;
    *) echo sandbox ;;
  esac
}

mapfile -t files < <(find . -type f \( -name '*.hpp' -o -name '*.cpp' \) | sed 's|^\./||' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "sandbox_layers: no files under $root/app/sandbox" >&2
  exit 1
fi
status=0
edges=0
complain() {  # file line text why
  echo "app/sandbox/$1:$2: $3  ($4)"
  status=1
}
for f in "${files[@]}"; do
  from=$(area_of_file "$f")
  if [ -z "${tier_of[$from]+x}" ]; then
    complain "$f" 1 "" "area '$from' is not in the order of tests/check_sandbox_layers.sh"
    continue
  fi
  while IFS=: read -r line text; do
    header=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/' <<<"$text")
    case "$header" in
      pathlab/*) continue ;;  # the core, io and the planning service: below every area
      ../* | */../* | ./*) complain "$f" "$line" "$text" "include sandbox headers as \"area/file.hpp\""; continue ;;
      */*) to="${header%%/*}" ;;
      sandbox.hpp) to=sandbox ;;
      *) complain "$f" "$line" "$text" "include sandbox headers as \"area/file.hpp\""; continue ;;
    esac
    edges=$((edges + 1))
    [ "$to" = "$from" ] && continue
    if [ -z "${tier_of[$to]+x}" ]; then
      complain "$f" "$line" "$text" "'$to' is not an area of the sandbox"
      continue
    fi
    if [ "${tier_of[$to]}" -gt "${tier_of[$from]}" ]; then continue; fi  # a lower tier
    edge="$f -> $header"
    for known in "${known_exceptions[@]}"; do
      if [ "$known" = "$edge" ]; then seen_exception[$known]=1; continue 2; fi
    done
    if [ "$to" = sandbox ] && [[ "$f" == *.cpp ]] && [[ " $context_areas " == *" $from "* ]]; then continue; fi
    if [ "${tier_of[$to]}" -eq "${tier_of[$from]}" ]; then
      complain "$f" "$line" "$text" "$from and $to are one tier and do not include each other"
    else
      complain "$f" "$line" "$text" "$from is below $to"
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" || true)
done
for known in "${known_exceptions[@]}"; do
  if [ -z "${seen_exception[$known]+x}" ]; then
    echo "sandbox_layers: the known exception '$known' is gone: remove it from tests/check_sandbox_layers.sh"
    status=1
  fi
done
order=$(printf ' > %s' "${tiers[@]}" | sed 's/^ > //; s/\([a-z]\) \([a-z]\)/\1 \/ \2/g')
if [ "$status" -ne 0 ]; then
  echo "sandbox_layers: the includes above run against the areas' order: $order" >&2
else
  echo "sandbox_layers: ${#files[@]} files, $edges sandbox includes, all one way (${#known_exceptions[@]} known exceptions)"
fi
exit "$status"
