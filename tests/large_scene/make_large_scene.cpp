// make_large_scene OUT.json [SPHERES [SEED [DYNAMIC_BALLS]]]: writes the generated large level
// of large_scene.h (defaults: 10,000 spheres, seed 25, no dynamic balls), to time the CLI on
// it by hand: `/usr/bin/time -v floptle simulate OUT.json --ticks 10`.
#include <charconv>
#include <cstdio>
#include <string_view>

#include "large_scene.h"

namespace {

bool parseWhole(std::string_view text, long long& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 5) {
    std::fputs("usage: make_large_scene OUT.json [SPHERES [SEED [DYNAMIC_BALLS]]]\n", stderr);
    return 2;
  }
  floptle::test::LargeSceneSpec spec;
  const char* names[] = {"SPHERES", "SEED", "DYNAMIC_BALLS"};
  for (int i = 2; i < argc; ++i) {
    long long value = 0;
    if (!parseWhole(argv[i], value) || value > 10'000'000) {
      std::fprintf(stderr,
                   "make_large_scene: %s must be a whole number in [0, 10000000], got '%s'\n",
                   names[i - 2], argv[i]);
      return 2;
    }
    if (i == 2) spec.spheres = static_cast<int>(value);
    if (i == 3) spec.seed = static_cast<std::uint64_t>(value);
    if (i == 4) spec.dynamicBalls = static_cast<int>(value);
  }
  if (!floptle::test::writeLargeScene(argv[1], spec)) {
    std::fprintf(stderr, "make_large_scene: %s: cannot write the file\n", argv[1]);
    return 1;
  }
  return 0;
}
