#!/usr/bin/env bash
# GPU timing of the viewport's raymarch shader beside the hand-written reference.frag, in one
# run so that the ratio travels between machines (issue: a live viewport at full speed). The
# scene shaders read their scene texture as the viewport does (gpu_scene_bench.c binds it);
# reference.frag (gpu-shader-bench's hand-written shader, kept here so that the image test
# tests/unit/editor/reference_shader_image_test.cpp reads the same file) is timed by the same
# host.
#
#   tests/bench/gpu/run.sh write [OUT]   # floptle render --shader-out for the reference scene
#                                        # and the sample scenes (no GPU needed)
#   tests/bench/gpu/run.sh time [OUT]    # builds gpu-shader-bench and times every shader in OUT,
#                                        # each emitted one also with the coarse pass (--coarse),
#                                        # and each emitted one's compute twin (X.comp), which is
#                                        # how the viewport draws where GL 4.3 is there
#   tests/bench/gpu/run.sh [all] [OUT]   # both
#
# OUT defaults to build/gpu-bench. FLOPTLE (default build/app/floptle) and GPU_SHADER_BENCH
# (a folder holding reference.frag; default this folder) locate the inputs; SIZES
# (default "1920x1080 3840x2160") and SECONDS_PER_RUN (default 3) set the runs. Without an NVIDIA GPU
# EGL falls back to Mesa's llvmpipe (slow: use SIZES=640x360).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
mode="${1:-all}"
out="${2:-$root/build/gpu-bench}"
floptle="${FLOPTLE:-$root/build/app/floptle}"
bench="${GPU_SHADER_BENCH:-$here}"
sizes="${SIZES:-1920x1080 3840x2160}"
seconds="${SECONDS_PER_RUN:-3}"

write_shaders() {
  mkdir -p "$out"
  cp "$bench/reference.frag" "$out/reference.frag"
  # name, scene, camera (empty: the scene's first)
  while read -r name scene camera; do
    args=()
    [ "$camera" != "-" ] && args=(--camera "$camera")
    for stage in frag comp; do
      "$floptle" render "$scene" "${args[@]}" --width 32 --height 18 --out "$out/$name.png" \
        --shader-out "$out/$name.$stage" --shader-data "$out/$name.bin" >/dev/null
    done
    echo "wrote $out/$name.frag, $out/$name.comp and $out/$name.bin"
  done <<LIST
reference_scene $here/reference_scene.json reference
showcase $root/scenes/showcase.json overview
primitives $root/scenes/primitives.json -
gravity $root/scenes/gravity.json -
drift $root/scenes/drift.json -
LIST
  # The large level (the generator of tests/large_scene): 10,000 spheres over 400 x 400 m.
  if [ -x "$root/build/tests/make_large_scene" ]; then
    "$root/build/tests/make_large_scene" "$out/level10k.json" 10000 >/dev/null
    for stage in frag comp; do
      "$floptle" render "$out/level10k.json" --look-from -30,8,25 --look-at 0,0,0 --width 32 \
        --height 18 --out "$out/level10k.png" --shader-out "$out/level10k.$stage" \
        --shader-data "$out/level10k.bin" >/dev/null
    done
    echo "wrote $out/level10k.frag, $out/level10k.comp and $out/level10k.bin"
  fi
}

time_shaders() {
  # A machine without a compiler (the GPU machine) may bring the program built elsewhere.
  [ -x "$out/gpu_scene_bench" ] ||
    gcc -O2 -o "$out/gpu_scene_bench" "$here/gpu_scene_bench.c" -lEGL -lOpenGL
  printf "| shader | size | ms / frame | fps | x reference |\n|---|---|---|---|---|\n"
  for size in $sizes; do
    ref=""
    for shader in reference reference_scene showcase primitives gravity drift level10k \
      reference_scene.comp showcase.comp primitives.comp gravity.comp drift.comp level10k.comp; do
      frag="${shader%.comp}"
      file="$out/$frag.frag"
      [ "$shader" != "$frag" ] && file="$out/$shader"
      [ -f "$file" ] || continue
      data=()
      [ -f "$out/$frag.bin" ] && data=(--data "$out/$frag.bin")
      # The emitted shaders also with the coarse pass (gpu_scene_bench --coarse).
      modes=("")
      [ "$frag" != reference ] && modes+=(--coarse)
      for mode in "${modes[@]}"; do
        line="$("$out/gpu_scene_bench" "$file" "${data[@]}" --size "$size" \
          --seconds "$seconds" $mode | grep -E "^[0-9]+x[0-9]+ " | tail -1)"
        ms="$(echo "$line" | awk '{print $2}')"
        [ "$frag" = reference ] && ref="$ms"
        ratio="$(awk -v a="$ms" -v b="$ref" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
        fps="$(awk -v a="$ms" 'BEGIN { printf "%.1f", 1000 / a }')"
        printf "| %s | %s | %s | %s | %s |\n" "$shader${mode:+ (coarse pass)}" "$size" "$ms" "$fps" "$ratio"
      done
    done
  done
}

case "$mode" in
  write) write_shaders ;;
  time) time_shaders ;;
  all) write_shaders && time_shaders ;;
  *) echo "usage: $0 [write|time|all] [OUT]" >&2; exit 2 ;;
esac
