#!/usr/bin/env bash
# Builds pathlab and opens the sandbox on its demo scene. Without a display (no DISPLAY or
# WAYLAND_DISPLAY) it renders the demo headless to demo.png instead and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/app/pathlab assets/scenes/demo.json
fi
echo "no display: rendering the demo scene headless to demo.png"
SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software build/app/pathlab assets/scenes/demo.json --screenshot demo.png
build/app/pathlab-cli plan --map assets/maps/demo.map --from 2,2 --to 37,17 --planner theta --ascii
