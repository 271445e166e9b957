#!/usr/bin/env bash
# Installs the built pathlab into a scratch prefix, then builds and runs a consumer against it.
set -euo pipefail
build_dir="$1"; src_dir="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" --component Unspecified >/dev/null
cmake -S "$src_dir" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
out="$("$work/build/consumer")"
# Around the wall at x = 4 (rows 0..6) through the gap in row 7: 11 straight and 5 diagonal steps.
test "$out" = "18.071068" || { echo "consumer printed '$out'"; exit 1; }
echo "consumer found the path: $out"
