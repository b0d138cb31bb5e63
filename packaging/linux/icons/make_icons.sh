#!/usr/bin/env bash
# Renders the application icon (icon.json) at the hicolor sizes the package installs, with the
# project's own CPU renderer. Run from anywhere after a build; commit the PNGs it writes.
#   packaging/linux/icons/make_icons.sh [path/to/floptle]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
floptle="${1:-$here/../../../build/app/floptle}"
for size in 16 32 48 64 128 256; do
  "$floptle" render "$here/icon.json" --camera icon --width "$size" --height "$size" \
    --out "$here/$size.png"
done
