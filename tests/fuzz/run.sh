#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS] [HARNESS...]: builds the libFuzzer harnesses into build-fuzz/
# (clang-14, ASan + UBSan, see tests/fuzz/CMakeLists.txt) and runs each for SECONDS (default
# 60) on a copy of its seed corpus tests/fuzz/corpus/<name>/. The copy, the logs and any
# reproducer live under build-fuzz/fuzz/; nothing is written into the repository. Exits
# non-zero when any harness crashed, leaked, timed out (-timeout, s per input) or ran out of
# memory (-rss_limit_mb), naming each such harness and its reproducer.
#   tests/fuzz/run.sh             # the bounded CI run: every harness for 60 s
#   tests/fuzz/run.sh 3600        # a longer run: every harness for an hour
#   tests/fuzz/run.sh 600 scene_load query_line
# Replay one reproducer:  build-fuzz/tests/fuzz/fuzz_<name> path/to/crash-...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${FLOPTLE_FUZZ_BUILD:-$ROOT/build-fuzz}"
SECONDS_EACH="${1:-60}"
shift || true
HARNESSES=("$@")
if [ ${#HARNESSES[@]} -eq 0 ]; then
  HARNESSES=(scene_load query_line simulate_inputs vdb_read mesh_glb mesh_obj mesh_fbx)
fi

export CCACHE_DIR="${CCACHE_DIR:-$BUILD/.ccache}"
start=$(date +%s)
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  echo "==> Configuring $BUILD (clang-14, FLOPTLE_FUZZ)"
  CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOPTLE_FUZZ=ON -DFLOPTLE_BUILD_TESTS=OFF \
    -DFLOPTLE_BUILD_EDITOR=OFF -DFLOPTLE_BUILD_BENCHMARKS=OFF >/dev/null
fi
echo "==> Building the harnesses (-j${FLOPTLE_JOBS:-2})"
cmake --build "$BUILD" --target fuzzers -j "${FLOPTLE_JOBS:-2}"
echo "==> Build: $(( $(date +%s) - start )) s"

WORK="$BUILD/fuzz"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
for name in "${HARNESSES[@]}"; do
  binary="$BUILD/tests/fuzz/fuzz_$name"
  seeds="$ROOT/tests/fuzz/corpus/$name"
  if [ ! -x "$binary" ] || [ ! -d "$seeds" ]; then
    echo "==> $name: no harness $binary or no seed corpus $seeds" >&2
    failed+=("$name (unknown harness)")
    continue
  fi
  # The working corpus keeps what earlier local runs found; the seeds are copied in each time.
  corpus="$WORK/corpus/$name"
  artifacts="$WORK/artifacts/$name"
  log="$WORK/logs/$name.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  cp -n "$seeds"/* "$corpus"/
  echo "==> $name: ${SECONDS_EACH} s (log $log)"
  t0=$(date +%s)
  if "$binary" "$corpus" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1; then
    echo "    ok: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') runs," \
         "$(( $(date +%s) - t0 )) s, corpus $(ls "$corpus" | wc -l) files"
  else
    reproducer=$(grep -o "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //')
    echo "    FAILED: $(grep -m1 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' "$log" || echo 'see the log')"
    echo "    reproducer: ${reproducer:-none written (see $log)}"
    failed+=("$name: ${reproducer:-$log}")
  fi
done

echo "==> Total: $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "==> Fuzzing found problems in ${#failed[@]} harness(es):" >&2
  printf '    %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "==> Every harness ran clean"
