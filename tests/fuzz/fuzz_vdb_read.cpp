// .vdb reader harness: the bytes of a .vdb file -> readBrickMapVdb (which reads only from a
// path, so each input is written to a scratch file) -> a few distance samples of the result.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "floptle/core/brickmap/brick_map_vdb.h"
#include "fuzz_support.h"

// readBrickMapVdb checks every size, count and offset the file declares up to a grid's root
// table before OpenVDB reads it, and gives OpenVDB a stream on which a read past the end
// throws. Below the root OpenVDB still allocates what a compressed block declares before
// reading it (io::bloscFromStream, io::unzipFromStream). In a normal build an absurd size
// throws std::bad_alloc, which readBrickMapVdb turns into an error; under AddressSanitizer new
// never throws, it ends the process. So this harness runs as on a machine where a single
// allocation above 256 MiB fails (with std::bad_alloc): the reader must then answer with an
// error. Growth in many smaller allocations still meets libFuzzer's 2 GiB limit.
// Memory from these may be freed by AddressSanitizer's delete (libopenvdb binds to either),
// so this harness does not check new/delete pairing.
namespace {
void* allocateUpTo256MiB(std::size_t size) {
  if (size > (std::size_t(1) << 28)) throw std::bad_alloc();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace
void* operator new(std::size_t size) {
  return allocateUpTo256MiB(size);
}
void* operator new[](std::size_t size) {
  return allocateUpTo256MiB(size);
}
extern "C" const char* __asan_default_options() {
  return "alloc_dealloc_mismatch=0";
}
// OpenVDB 10 leaks the nodes of a tree whose reading throws half-way (RootNode::readTopology
// allocates a child before reading it): not ours to fix. Leaks of memory allocated outside
// OpenVDB's calls are still reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libopenvdb.so\n";
}
extern "C" const char* __lsan_default_options() {
  return "print_suppressions=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floptle;
  static fuzz::ScratchFile file(".vdb");
  auto map = readBrickMapVdb(file.write(data, size));
  if (!map) return 0;
  for (const Vec3 p : {Vec3(0.0f), Vec3(1.0f, -2.0f, 0.5f), Vec3(1e3f)}) (void)map->distance(p);
  return 0;
}
