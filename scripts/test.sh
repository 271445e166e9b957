#!/usr/bin/env bash
# Builds pathlab and runs every test: once optimised, once under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the libFuzzer targets briefly (5 s each) after replaying their
# seed corpora and every saved crash reproducer. After the native tests, the browser build
# (scripts/web.sh) and its test in headless Chromium (web/test/browser_test.mjs).
# Installs what it needs first.
# Usage: scripts/test.sh [--no-sanitize] [--no-fuzz] [--no-web]
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=1
fuzz=1
web=1
for a in "$@"; do
  case "$a" in
    --no-sanitize) sanitize=0 ;;
    --no-fuzz) fuzz=0 ;;
    --no-web) web=0 ;;
    *) echo "usage: scripts/test.sh [--no-sanitize] [--no-fuzz] [--no-web]" >&2; exit 2 ;;
  esac
done

scripts/install-deps.sh
JOBS=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$JOBS"
ctest --test-dir build --output-on-failure -j "$JOBS"

if [ "$web" -eq 1 ]; then
  # The page's first plan must give pathlab-cli's length (build/app/pathlab-cli, just built).
  scripts/web.sh --build-only
  (cd web/test && npm ci --no-audit --no-fund --silent)
  node web/test/browser_test.mjs --cli build/app/pathlab-cli
fi

if [ "$sanitize" -eq 1 ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPATHLAB_SANITIZE=ON -DPATHLAB_BUILD_BENCH=OFF
  cmake --build build-asan -j "$JOBS"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    PATHLAB_SANITIZED=1 ctest --test-dir build-asan --output-on-failure -j "$JOBS"
fi

if [ "$fuzz" -eq 1 ]; then
  # 8 targets x 5 s, two at a time: about 20 s of fuzzing plus the replays (scripts/fuzz.sh).
  scripts/fuzz.sh --seconds 5
fi
