#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS] [HARNESS...]: builds the libFuzzer harnesses (the `asan` preset
# of CMakePresets.json: clang-14, ASan + UBSan, the same tree as CI's sanitized suite,
# build-asan/) and runs each for SECONDS (default 60) on a copy of its seed corpus
# tests/fuzz/corpus/<name>/, FLOPTLE_JOBS (default 2) harnesses at a time, one process each.
# The copy, the logs and any reproducer live under build-asan/fuzz/; nothing is written into
# the repository. Exits non-zero when any harness crashed, leaked, timed out (-timeout, s per
# input) or ran out of memory (-rss_limit_mb), naming each such harness and its reproducer.
#   tests/fuzz/run.sh             # the bounded CI run: every harness for 60 s
#   tests/fuzz/run.sh 3600        # a longer run: every harness for an hour
#   tests/fuzz/run.sh 600 scene_load query_line
# FLOPTLE_FUZZ_SEED=N fixes libFuzzer's seed, as CI's run does (packaging/ci-sanitize.sh says
# why that narrows the draw without fixing it); unset, each run draws.
# Replay one reproducer:  build-asan/tests/fuzz/fuzz_<name> path/to/crash-...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${FLOPTLE_FUZZ_BUILD:-$ROOT/build-asan}"
JOBS="${FLOPTLE_JOBS:-2}"
SECONDS_EACH="${1:-60}"
shift || true
HARNESSES=("$@")
if [ ${#HARNESSES[@]} -eq 0 ]; then
  HARNESSES=(scene_load query_line simulate_inputs vdb_read mesh_glb mesh_obj mesh_fbx)
fi

export CCACHE_DIR="${CCACHE_DIR:-$ROOT/build/.ccache}"  # the one cache of ./test.sh's build
start=$(date +%s)
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  echo "==> Configuring $BUILD (preset asan)"
  (cd "$ROOT" && cmake --preset asan -B "$BUILD" >/dev/null)
fi
echo "==> Building the harnesses (-j$JOBS)"
cmake --build "$BUILD" --target fuzzers -j "$JOBS"
echo "==> Build: $(( $(date +%s) - start )) s"

WORK="$BUILD/fuzz"
# intercept_tls_get_addr=0: as packaging/ci-sanitize.sh says why.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# One harness: its log, and its line of the summary in $WORK/results/NAME (ok or FAILED).
fuzz_one() {
  local name="$1"
  local binary="$BUILD/tests/fuzz/fuzz_$name"
  local seeds="$ROOT/tests/fuzz/corpus/$name"
  local result="$WORK/results/$name"
  if [ ! -x "$binary" ] || [ ! -d "$seeds" ]; then
    echo "FAILED $name: no harness $binary or no seed corpus $seeds" >"$result"
    return
  fi
  # The working corpus keeps what earlier local runs found; the seeds are copied in each time.
  local corpus="$WORK/corpus/$name" artifacts="$WORK/artifacts/$name" log="$WORK/logs/$name.log"
  mkdir -p "$corpus" "$artifacts"
  cp -n "$seeds"/* "$corpus"/
  local t0
  t0=$(date +%s)
  local seed=()
  if [ -n "${FLOPTLE_FUZZ_SEED:-}" ]; then seed=(-seed="$FLOPTLE_FUZZ_SEED"); fi
  if "$binary" "$corpus" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
       "${seed[@]}" -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1; then
    echo "ok $name: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" |
      grep -o '[0-9]*$') runs, $(( $(date +%s) - t0 )) s, corpus $(ls "$corpus" | wc -l) files" \
      >"$result"
  else
    local reproducer
    reproducer=$(grep -o "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //')
    {
      echo "FAILED $name: $(grep -m1 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' "$log" ||
        echo 'see the log')"
      echo "    reproducer: ${reproducer:-none written} (log $log)"
    } >"$result"
  fi
}

rm -rf "$WORK/results"
mkdir -p "$WORK/results" "$WORK/logs"
echo "==> ${#HARNESSES[@]} harnesses, ${SECONDS_EACH} s each, $JOBS at a time (logs $WORK/logs)"
running=0
for name in "${HARNESSES[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$name" &
  running=$((running + 1))
done
wait
failed=()
for name in "${HARNESSES[@]}"; do
  cat "$WORK/results/$name"
  if ! grep -q '^ok ' "$WORK/results/$name"; then failed+=("$name"); fi
done

echo "==> Total: $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "==> Fuzzing found problems in ${#failed[@]} harness(es):" >&2
  printf '    %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "==> Every harness ran clean"
