#!/usr/bin/env bash
# Builds the sandbox for the browser into build-web/ (page: build-web/index.html) and serves it
# on 127.0.0.1, printing the address. Everything comes from Debian bookworm: emscripten, and
# the sources of SDL 2.26 and Dear ImGui 1.86 (`apt-get source`, unpacked under build-web/src).
# Installs what it needs first (as root, or through sudo).
# Usage: scripts/web.sh [--build-only] [--port N]
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
port=8029
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    --port) port="${2:?--port needs a number}"; shift ;;
    *) echo "usage: scripts/web.sh [--build-only] [--port N]" >&2; exit 2 ;;
  esac
  shift
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
need=()
for p in emscripten chromium nodejs npm dpkg-dev ccache libglm-dev nlohmann-json3-dev libstb-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
# npm: Debian's, unless a nodejs from elsewhere already brings its own.
if [[ " ${need[*]} " == *" npm "* ]] && command -v npm >/dev/null; then
  need=("${need[@]/npm}")
fi
need=($(printf '%s\n' "${need[@]}" | grep -v '^$' || true))
# apt-get source needs a deb-src entry for bookworm main.
src_list=/etc/apt/sources.list.d/pathlab-bookworm-src.sources
have_src=0
grep -rqs '^\(Types:.*deb-src\|deb-src \)' /etc/apt/sources.list /etc/apt/sources.list.d/ && have_src=1
if [ "$have_src" -eq 0 ]; then
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    | $SUDO tee "$src_list" >/dev/null
fi
if [ "${#need[@]}" -gt 0 ] || [ "$have_src" -eq 0 ]; then
  $SUDO apt-get update -qq
fi
if [ "${#need[@]}" -gt 0 ]; then
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

mkdir -p build-web/src
if ! compgen -G "build-web/src/libsdl2-2*/include/SDL.h" >/dev/null || ! compgen -G "build-web/src/imgui-1*/imgui.h" >/dev/null; then
  (cd build-web/src && apt-get source -qq libsdl2 imgui)
fi

# Emscripten's cache under /usr/share is read-only: a writable copy (the prebuilt libraries
# included) lives under build-web/.
export EM_CACHE="$PWD/build-web/em-cache"
if [ ! -d "$EM_CACHE/sysroot" ]; then
  mkdir -p "$EM_CACHE"
  cp -r /usr/share/emscripten/cache/. "$EM_CACHE/"
fi
# Debian's emscripten needs Debian's python and node modules (acorn, terser) whatever PATH says.
export NODE_PATH=/usr/share/nodejs
export EMSDK_PYTHON=/usr/bin/python3
export PATH="/usr/bin:$PATH"
export CCACHE_BASEDIR="$PWD"

emcmake cmake -S . -B build-web/cmake -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DPATHLAB_BUILD_TESTS=OFF -DPATHLAB_BUILD_BENCH=OFF -DPATHLAB_WEB_SOURCES="$PWD/build-web/src" >/dev/null
cmake --build build-web/cmake -j "$(nproc)" --target pathlab_web
for f in index.html index.js index.wasm index.data; do cp build-web/cmake/web/$f build-web/; done
echo "built build-web/index.html"
[ "$build_only" -eq 1 ] && exit 0

echo "pathlab in the browser: http://127.0.0.1:$port/index.html (Ctrl+C stops the server)"
exec node web/serve.mjs build-web "$port"
