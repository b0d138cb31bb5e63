// .vdb reader harness: the bytes of a .vdb file -> readBrickMapVdb (which reads only from a
// path, so each input is written to a scratch file) -> a few distance samples of the result.
#include <cstddef>
#include <cstdint>

#include "floptle/core/brickmap/brick_map_vdb.h"
#include "fuzz_allocation_limit.h"
#include "fuzz_support.h"

// readBrickMapVdb checks every size, count, offset and root origin the file declares, down to
// each block of a node's values, before OpenVDB reads it, and gives OpenVDB a stream on which a
// read past the end throws. OpenVDB still allocates what a compressed block declares before
// reading it (io::bloscFromStream, io::unzipFromStream), at most the file's size:
// fuzz_allocation_limit.h. What the checks cannot see is a compressed block whose contents
// decompress to another size than it declares; OpenVDB 10 throws there and leaks the root child
// it was reading (RootNode::readTopology allocates a child before reading it): not ours to fix,
// so leaks inside libopenvdb are not reported. Leaks of memory allocated outside OpenVDB's calls
// are.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libopenvdb.so\n";
}
extern "C" const char* __lsan_default_options() {
  return "print_suppressions=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floptle;
  static fuzz::ScratchFile file(".vdb");
  // A few hundred bytes can place two voxels far apart, and the BrickMap is dense at the top
  // level: up to 2^26 bricks costs ~25 s a read under the sanitizers, all in loops over that
  // grid whose bounds are checked (and tested) at any size. 2^18 keeps every input fast.
  VdbReadOptions options;
  options.maxBricks = std::uint64_t(1) << 18;
  auto map = readBrickMapVdb(file.write(data, size), options);
  if (!map) return 0;
  for (const Vec3 p : {Vec3(0.0f), Vec3(1.0f, -2.0f, 0.5f), Vec3(1e3f)}) (void)map->distance(p);
  return 0;
}
