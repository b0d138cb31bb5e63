#!/usr/bin/env bash
# ./test.sh [ctest args]: install what is missing, build, run every test through CTest.
# GUI tests need a GL context: they run under Xvfb (Qt's offscreen platform cannot do GL here).
source "$(dirname "${BASH_SOURCE[0]}")/packaging/setup.sh"
floptle_install_packages
floptle_build
floptle_runtime_env
cd "$FLOPTLE_BUILD"
# -noreset: by default Xvfb resets itself whenever its last client leaves, and a GUI test that
# connects during that reset dies with "could not connect to display" (seen once in CI).
exec xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
  ctest --output-on-failure --timeout 600 -j "$FLOPTLE_JOBS" "$@"
