#!/usr/bin/env bash
# ./run.sh [scene.json]: install what is missing, build, open the editor (default: scenes/showcase.json).
source "$(dirname "${BASH_SOURCE[0]}")/packaging/setup.sh"
floptle_install_packages
floptle_build
floptle_runtime_env
scene="${1:-$FLOPTLE_ROOT/scenes/showcase.json}"
editor="$FLOPTLE_BUILD/app/floptle-editor"
if [ ! -x "$editor" ]; then
  echo "The editor is not built yet (no $editor). The CLI is: $FLOPTLE_BUILD/app/floptle --help" >&2
  exit 1
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "==> No display found: starting the editor under Xvfb (xvfb-run)"
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$editor" "$scene"
fi
exec "$editor" "$scene"
