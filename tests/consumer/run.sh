#!/usr/bin/env bash
# Installs the built pathlab into a scratch prefix, builds the consumer (main.cpp) against the
# installed package (pathlab::core, pathlab::io, pathlab::plan), and for each scene below checks
# that the consumer's plan equals `pathlab-cli plan --map SCENE --json` on the same file: found,
# the length at full precision and every point (headings included), compared exactly. The unit
# the consumer drives along the plan must arrive.
# Usage: run.sh BUILD_DIR REPO_ROOT
set -euo pipefail
build_dir="$1"; repo="$2"; src_dir="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" --component Unspecified >/dev/null
cmake -S "$src_dir" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
consumer="$work/build/consumer"
cli="$work/prefix/bin/pathlab-cli"

# A grid planner with a smoother, the navmesh with edge shifting, and a heading-aware planner.
scenes=(demo.json articles/tower22-quad-corridor.json pinter_tank_turn.json)

# compare CLI_JSON CONSUMER_TEXT: exit 0 when the plans are the same, else 1 saying where.
compare() {
  python3 - "$1" "$2" <<'PY'
import json, sys
cli = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
fields = dict(l.split(": ", 1) for l in lines if not l.startswith("point: ") and not l.startswith("unit: "))
points = [[float(v) for v in l[len("point: "):].split()] for l in lines if l.startswith("point: ")]
def differ(what, a, b):
    print(f"plans differ: {what}: pathlab-cli {a!r}, consumer {b!r}")
    sys.exit(1)
if cli["found"] != (fields["found"] == "yes"): differ("found", cli["found"], fields["found"])
if not cli["found"]: sys.exit(0)
if cli["length"] != float(fields["length"]): differ("length", cli["length"], fields["length"])
if len(cli["points"]) != len(points) or int(fields["points"]) != len(points):
    differ("point count", len(cli["points"]), len(points))
for i, (a, b) in enumerate(zip(cli["points"], points)):
    if [float(v) for v in a] != b: differ(f"point {i}", a, b)
PY
}

for scene in "${scenes[@]}"; do
  file="$repo/assets/scenes/$scene"
  "$cli" plan --map "$file" --json >"$work/cli.json"
  "$consumer" "$file" >"$work/consumer.txt"
  compare "$work/cli.json" "$work/consumer.txt"
  grep -q '^unit: person arrived: yes time_to_goal: ' "$work/consumer.txt" ||
    { echo "$scene: the unit did not arrive: $(grep '^unit: ' "$work/consumer.txt")"; exit 1; }
  echo "$scene: $(grep -c '^point: ' "$work/consumer.txt") points, length $(sed -n 's/^length: //p' "$work/consumer.txt"), as pathlab-cli; $(grep '^unit: ' "$work/consumer.txt")"
done

# The comparison itself must see a difference: the last point moved by 1e-9 cells.
python3 - "$work/consumer.txt" "$work/changed.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
last = max(i for i, l in enumerate(lines) if l.startswith("point: "))
v = lines[last].split()
v[1] = repr(float(v[1]) + 1e-9)
lines[last] = " ".join(v)
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
if compare "$work/cli.json" "$work/changed.txt" >/dev/null; then
  echo "the comparison did not notice a moved point"; exit 1
fi
echo "install_consumer: ${#scenes[@]} scenes planned as pathlab-cli plans them"
