#!/usr/bin/env bash
# Fails when a tracked C++ file differs from .clang-format, naming each one. Fix with:
#   git ls-files '*.cpp' '*.h' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
format="$(command -v clang-format-14 || command -v clang-format)"
if ! git ls-files -z '*.cpp' '*.h' | xargs -0 "$format" --dry-run --Werror 2>/tmp/floptle-format.$$; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/floptle-format.$$ | cut -d: -f1 | sort -u |
    sed 's/^/not formatted: /' >&2
  rm -f /tmp/floptle-format.$$
  echo "Format them with: git ls-files '*.cpp' '*.h' | xargs clang-format -i" >&2
  exit 1
fi
rm -f /tmp/floptle-format.$$
echo "formatting: every C++ file matches .clang-format"
