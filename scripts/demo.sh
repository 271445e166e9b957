#!/usr/bin/env bash
# Builds pathlab and shows its demo: plans the demo map with A*, then with Theta*, and draws both.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
for planner in astar theta; do
  echo "== pathlab-cli plan --planner $planner"
  build/app/pathlab-cli plan --map assets/maps/demo.map --from 2,2 --to 37,17 --planner "$planner" --ascii
done
