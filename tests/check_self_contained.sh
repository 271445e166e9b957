#!/usr/bin/env bash
# A clone alone must build and pass: no file of the build, the tests, the benchmarks, the fuzz
# targets or the scripts may refer to a path outside the repository. Run by ctest
# (self_contained); prints each offending line as FILE:LINE: TEXT and exits 1 when there is one.
# Usage: tests/check_self_contained.sh [REPO_ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

# The files that decide what a build, a test run or a script reads.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- CMakeLists.txt cmake core app tests bench fuzz scripts third_party .ci \
    | grep -E '(CMakeLists\.txt|\.cmake(\.in)?|\.sh|\.cpp|\.hpp|\.py|/run)$' | grep -v '^tests/check_self_contained\.sh$')
else
  mapfile -t files < <(find CMakeLists.txt cmake core app tests bench fuzz scripts third_party .ci -type f \
    \( -name CMakeLists.txt -o -name '*.cmake' -o -name '*.cmake.in' -o -name '*.sh' -o -name '*.cpp' \
       -o -name '*.hpp' -o -name '*.py' -o -name run \) ! -path tests/check_self_contained.sh)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "self_contained: no files found under $root" >&2
  exit 1
fi

# What leaves the tree: the team's shared folder, this machine's work folders, a home
# directory, or a step up from the project's root in CMake or in a script's own location.
patterns=(
  '\.\./shared'
  '/work/'
  '\$\{(PROJECT|CMAKE|CMAKE_CURRENT)_SOURCE_DIR\}/\.\.(/|")'
  '\$\(dirname "?\$0"?\)/\.\./\.\.'
)
status=0
for p in "${patterns[@]}"; do
  if grep -nE "$p" "${files[@]}"; then status=1; fi
done
# A home directory, in the build and the scripts only: C++ may expand a "~" the user typed, and
# tests point HOME at their own scratch folders.
scripts=()
for f in "${files[@]}"; do
  case "$f" in *.sh|*CMakeLists.txt|*.cmake|*.cmake.in|*/run) scripts+=("$f") ;; esac
done
if grep -nE '(\$HOME|\$\{HOME\}|~/)' "${scripts[@]}"; then status=1; fi
if [ "$status" -ne 0 ]; then
  echo "self_contained: the lines above refer to paths outside the repository" >&2
else
  echo "self_contained: ${#files[@]} files checked, none refers outside the repository"
fi
exit "$status"
