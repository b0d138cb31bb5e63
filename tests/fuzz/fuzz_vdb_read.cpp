// .vdb reader harness: the bytes of a .vdb file -> readBrickMapVdb (which reads only from a
// path, so each input is written to a scratch file) -> a few distance samples of the result.
#include <cstddef>
#include <cstdint>

#include "floptle/core/brickmap/brick_map_vdb.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floptle;
  static fuzz::ScratchFile file(".vdb");
  auto map = readBrickMapVdb(file.write(data, size));
  if (!map) return 0;
  for (const Vec3 p : {Vec3(0.0f), Vec3(1.0f, -2.0f, 0.5f), Vec3(1e3f)}) (void)map->distance(p);
  return 0;
}
