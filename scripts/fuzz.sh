#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, in build-fuzz) and runs them.
#
#   scripts/fuzz.sh                    every target for 10 minutes, two at a time
#   scripts/fuzz.sh --minutes 2        every target for 2 minutes
#   scripts/fuzz.sh --seconds 5        every target for 5 seconds (what scripts/test.sh does)
#   scripts/fuzz.sh --replay           only replay the seed corpus and every saved reproducer
#   scripts/fuzz.sh --jobs 1 T1 T2     only the named targets, one at a time
#
# Every run starts by replaying fuzz/corpus/<target> and fuzz/crashes/<target> (reproducers of
# fixed bugs: each must now pass). New corpus entries go to build-fuzz/corpus/<target>, crashes
# to build-fuzz/artifacts/<target>/; add a minimised reproducer to fuzz/crashes/<target>/ when
# you fix one. Logs (with libFuzzer's exec and cov/ft figures) are in build-fuzz/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=600
jobs=2
replay_only=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) seconds=$(( $2 * 60 )); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --replay) replay_only=1; shift ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
ALL=(fuzz_movingai_map fuzz_scenarios fuzz_scene_json fuzz_png_map fuzz_query_files fuzz_cli_args fuzz_grid_invariants fuzz_repro_file fuzz_lesson_file fuzz_scene_link)
if [ ${#targets[@]} -eq 0 ]; then targets=("${ALL[@]}"); fi

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DPATHLAB_FUZZ=ON -DPATHLAB_BUILD_TESTS=OFF -DPATHLAB_BUILD_BENCH=OFF -DPATHLAB_WERROR=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz_all

dict_of() {
  case "$1" in
    fuzz_scene_json|fuzz_repro_file|fuzz_lesson_file) echo fuzz/dict/json.dict ;;
    fuzz_movingai_map|fuzz_scenarios) echo fuzz/dict/movingai.dict ;;
    fuzz_png_map) echo fuzz/dict/png.dict ;;
    fuzz_cli_args) echo fuzz/dict/cli.dict ;;
    fuzz_scene_link) echo fuzz/dict/link.dict ;;
    *) echo "" ;;
  esac
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# 2 GiB of RSS and 1 GiB per allocation are "memory blow-ups"; 60 s of wall-clock time for one
# input is a hang (the targets run at nice 19 on a shared machine: 30 s gave a false alarm on a
# 58-byte scene that replays in 0.1 s).
LIMITS=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=60)
mkdir -p build-fuzz/logs

replay() {
  local t=$1 files=()
  for d in "fuzz/corpus/$t" "fuzz/crashes/$t"; do
    if [ -d "$d" ]; then while IFS= read -r f; do files+=("$f"); done < <(find "$d" -type f | sort); fi
  done
  [ ${#files[@]} -eq 0 ] && return 0
  "build-fuzz/fuzz/$t" "${LIMITS[@]}" "${files[@]}" >"build-fuzz/logs/$t.replay.log" 2>&1 ||
    { echo "REPLAY FAILED: $t (see build-fuzz/logs/$t.replay.log)"; tail -30 "build-fuzz/logs/$t.replay.log"; return 1; }
  echo "replayed $t: ${#files[@]} inputs"
}

run_one() {
  local t=$1 dict
  dict=$(dict_of "$t")
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/artifacts/$t"
  local args=("${LIMITS[@]}" -max_total_time="$seconds" -print_final_stats=1
              -artifact_prefix="build-fuzz/artifacts/$t/")
  if [ -n "$dict" ]; then args+=(-dict="$dict"); fi
  if nice -n 19 "build-fuzz/fuzz/$t" "${args[@]}" "build-fuzz/corpus/$t" "fuzz/corpus/$t" \
       >"build-fuzz/logs/$t.log" 2>&1; then
    echo "$t: $(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "build-fuzz/logs/$t.log" | tail -1 | cut -c1-100)"
  else
    echo "FUZZ FAILED: $t (log build-fuzz/logs/$t.log, reproducer in build-fuzz/artifacts/$t/)"
    grep -E 'ERROR|SUMMARY|invariant|error message' "build-fuzz/logs/$t.log" | head -5
    return 1
  fi
}

status=0
for t in "${targets[@]}"; do replay "$t" || status=1; done
if [ "$replay_only" -eq 0 ]; then
  pids=()
  names=()
  for t in "${targets[@]}"; do
    run_one "$t" & pids+=($!); names+=("$t")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || status=1; done
fi
exit $status
