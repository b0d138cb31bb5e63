# Shared set-up for ./run.sh and ./test.sh (sourced, not run).
# Installs the missing Debian packages of packaging/debian-packages.txt (nothing when all are
# present), then configures and builds incrementally into build/ with ccache, two jobs.
set -euo pipefail
FLOPTLE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLOPTLE_BUILD="${FLOPTLE_BUILD:-$FLOPTLE_ROOT/build}"
FLOPTLE_JOBS="${FLOPTLE_JOBS:-2}"

floptle_install_packages() {
  local wanted missing=()
  wanted=$(grep -vE '^\s*(#|$)' "$FLOPTLE_ROOT/packaging/debian-packages.txt")
  for p in $wanted; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "==> Installing missing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

floptle_build() {
  export CCACHE_DIR="${CCACHE_DIR:-$FLOPTLE_BUILD/.ccache}"
  export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$FLOPTLE_BUILD/.cache}"
  if [ ! -f "$FLOPTLE_BUILD/CMakeCache.txt" ]; then
    echo "==> Configuring into $FLOPTLE_BUILD"
    # FLOPTLE_CMAKE_ARGS: extra configure options (CI passes -DFLOPTLE_WERROR=ON).
    # shellcheck disable=SC2086
    cmake -S "$FLOPTLE_ROOT" -B "$FLOPTLE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      ${FLOPTLE_CMAKE_ARGS:-}
  fi
  echo "==> Building (-j$FLOPTLE_JOBS)"
  cmake --build "$FLOPTLE_BUILD" -j "$FLOPTLE_JOBS"
}

floptle_runtime_env() {
  export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$FLOPTLE_BUILD/.runtime}"
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 0700 "$XDG_RUNTIME_DIR"
  export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$FLOPTLE_BUILD/.cache}"
}
