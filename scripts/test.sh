#!/usr/bin/env bash
# Builds pathlab and runs every test: once optimised, once under AddressSanitizer and
# UndefinedBehaviorSanitizer. Installs what it needs first. Usage: scripts/test.sh [--no-sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
JOBS=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$JOBS"
ctest --test-dir build --output-on-failure -j "$JOBS"

if [ "${1:-}" != "--no-sanitize" ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPATHLAB_SANITIZE=ON -DPATHLAB_BUILD_BENCH=OFF
  cmake --build build-asan -j "$JOBS"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    PATHLAB_SANITIZED=1 ctest --test-dir build-asan --output-on-failure -j "$JOBS"
fi
