#!/usr/bin/env bash
# The Debian package: builds it with cpack from the build folder, unpacks it into a scratch
# root (dpkg -x, no installation), checks its metadata with the Debian tools, and runs the
# installed programs: `floptle validate` on the installed sample scene and the installed
# editor's --screenshot (the caller provides the X display: ./test.sh runs ctest under Xvfb).
#   deb_package_test.sh BUILD_DIR
set -euo pipefail
build="$1"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/out" >"$scratch/cpack.log" 2>&1 ||
  { cat "$scratch/cpack.log"; fail "cpack -G DEB"; }
version="$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")"
deb="$scratch/out/floptle-editor_${version}_amd64.deb"
[ -f "$deb" ] || { ls "$scratch/out"; fail "no floptle-editor_${version}_amd64.deb"; }

depends="$(dpkg-deb -f "$deb" Depends)"
for needed in libqt6widgets6 libqt63drender6 libassimp libopenvdb qt6-qpa-plugins; do
  [[ "$depends" == *"$needed"* ]] || fail "Depends lacks $needed: $depends"
done

root="$scratch/root"
dpkg -x "$deb" "$root"
for file in usr/bin/floptle usr/bin/floptle-editor usr/share/floptle/scenes/showcase.json \
    usr/share/applications/org.floptle.Editor.desktop \
    usr/share/metainfo/org.floptle.Editor.metainfo.xml usr/share/man/man1/floptle.1.gz; do
  [ -s "$root/$file" ] || fail "the package lacks /$file"
done
for size in 16 32 48 64 128 256; do
  icon="$root/usr/share/icons/hicolor/${size}x${size}/apps/org.floptle.Editor.png"
  [ -s "$icon" ] || fail "the package lacks the ${size}x${size} icon"
done
desktop-file-validate "$root/usr/share/applications/org.floptle.Editor.desktop"
appstreamcli validate --no-net "$root/usr/share/metainfo/org.floptle.Editor.metainfo.xml"
zcat "$root/usr/share/man/man1/floptle.1.gz" | grep -q "^.SH NAME" || fail "the man page has no NAME"

"$root/usr/bin/floptle" --version | grep -q "^floptle $version (commit " ||
  fail "floptle --version does not say $version and the commit"
"$root/usr/bin/floptle-editor" --version | grep -q "$version (commit " ||
  fail "floptle-editor --version does not say $version and the commit"
"$root/usr/bin/floptle" validate "$root/usr/share/floptle/scenes/showcase.json"
"$root/usr/bin/floptle-editor" "$root/usr/share/floptle/scenes/showcase.json" \
  --screenshot "$scratch/shot.png" --size 640x400
[ "$(head -c 8 "$scratch/shot.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "the installed editor wrote no PNG screenshot"
echo "PASS: $deb"
