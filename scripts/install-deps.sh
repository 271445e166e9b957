#!/usr/bin/env bash
# Installs the Debian (bookworm) packages pathlab builds and tests with. Run as root.
# Skips apt entirely when everything is already there, so repeated runs are fast.
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libglm-dev doctest-dev nlohmann-json3-dev libstb-dev libbenchmark-dev
  libsdl2-dev libimgui-dev
  libompl-dev libeigen3-dev librecast-dev
  clang libclang-rt-14-dev  # the libFuzzer targets (scripts/fuzz.sh)
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
