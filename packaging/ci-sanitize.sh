#!/usr/bin/env bash
# packaging/ci-sanitize.sh [FUZZ_SECONDS]: the second half of CI (.ci/run calls it after
# ./test.sh). One clang-14 build, the `asan` preset of CMakePresets.json, into build-asan/:
# AddressSanitizer + UBSan, -O1, line tables only, warnings as errors, no benchmarks, and the
# libFuzzer harnesses of tests/fuzz in the same tree. Then:
#   1. the whole suite again, GUI tests under Xvfb as ./test.sh runs them, halting on the first
#      sanitizer report (ASAN_OPTIONS / UBSAN_OPTIONS below; leaks of Qt, Mesa and fontconfig
#      are suppressed by packaging/lsan-suppressions.txt, everything else is reported);
#      package.deb alone is left out: it packages the build's programs, and a sanitized
#      package tests nothing the ordinary suite has not.
#   2. every fuzz harness for FUZZ_SECONDS (default 120), two at a time (tests/fuzz/run.sh),
#      from the seed corpora with libFuzzer's seed fixed (FLOPTLE_FUZZ_SEED, default 1). The
#      seed narrows the draw but does not fix it: the count of inputs in 60 s follows the
#      machine's speed, and the brickmap build's worker threads vary the coverage counts a
#      little from run to run, so CI meets inputs no local run met. What guards against that is
#      longer runs with drawn seeds before a change lands (tests/fuzz/run.sh 3600, or at least
#      600 for each harness whose reader changed); their finds join the corpora.
# Prints the wall time of each part. FLOPTLE_JOBS (default 2) as in ./test.sh.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
FUZZ_SECONDS="${1:-120}"
ASAN_BUILD="$FLOPTLE_ROOT/build-asan"
# One compiler cache with ./test.sh's build (the sanitized objects have their own hashes).
export CCACHE_DIR="${CCACHE_DIR:-$FLOPTLE_BUILD/.ccache}"
floptle_install_packages

t0=$(date +%s)
if [ ! -f "$ASAN_BUILD/CMakeCache.txt" ]; then
  echo "==> Configuring $ASAN_BUILD (preset asan)"
  (cd "$FLOPTLE_ROOT" && cmake --preset asan)
fi
echo "==> Building $ASAN_BUILD (-j$FLOPTLE_JOBS)"
cmake --build "$ASAN_BUILD" -j "$FLOPTLE_JOBS"
t1=$(date +%s)

# halt_on_error: the first report ends the test (UBSan's checks are compiled not to recover
# either, -fno-sanitize-recover=all). detect_leaks: LeakSanitizer at each program's exit.
# intercept_tls_get_addr=0: clang-14's runtime (up to LLVM 16) takes a dynamic TLS block whose
# address is 16 past a 4 KiB boundary for one with a glibc-2.19 header and reads the two words
# before it as the block's start and size; since glibc 2.25 there is no such header, so now and
# then LeakSanitizer's tracer scans a garbage range at exit and dies ("Tracer caught signal 11",
# seen once at the exit of a passing play test). Not intercepting leaves the dynamic TLS of
# dlopen'd libraries (Mesa, Qt's plugins) out of the roots of the leak check.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$FLOPTLE_ROOT/packaging/lsan-suppressions.txt:print_suppressions=0"
FLOPTLE_BUILD="$ASAN_BUILD" floptle_runtime_env
echo "==> The suite under ASan + UBSan"
suite_rc=0
(cd "$ASAN_BUILD" && xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
  ctest --output-on-failure --timeout 600 -j "$FLOPTLE_JOBS" -E '^package\.deb$') || suite_rc=$?
t2=$(date +%s)

echo "==> Fuzzing, ${FUZZ_SECONDS} s a harness"
fuzz_rc=0
# The harnesses keep their own sanitizer options (tests/fuzz/run.sh).
env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u LSAN_OPTIONS FLOPTLE_FUZZ_BUILD="$ASAN_BUILD" \
  FLOPTLE_FUZZ_SEED="${FLOPTLE_FUZZ_SEED:-1}" \
  "$FLOPTLE_ROOT/tests/fuzz/run.sh" "$FUZZ_SECONDS" \
  scene_load query_line simulate_inputs vdb_read mesh_glb mesh_obj mesh_fbx || fuzz_rc=$?
t3=$(date +%s)

echo "==> Sanitizer build $((t1 - t0)) s, sanitized suite $((t2 - t1)) s, fuzzing $((t3 - t2)) s"
if [ "$suite_rc" -ne 0 ] || [ "$fuzz_rc" -ne 0 ]; then
  echo "==> Failed: suite exit $suite_rc, fuzzing exit $fuzz_rc" >&2
  exit 1
fi
