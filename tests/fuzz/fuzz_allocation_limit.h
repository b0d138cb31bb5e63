#pragma once
// Included by one harness source only (it replaces the global operator new): the harness runs
// as on a machine where a single allocation above 256 MiB fails with std::bad_alloc.
//
// Libraries we feed files to (OpenVDB's compressed blocks, Assimp's glTF buffers) allocate
// whatever size a file declares before reading it. In a normal build an absurd size throws
// std::bad_alloc, which our readers turn into an error naming the file; under AddressSanitizer
// new never throws, it ends the process, and libFuzzer reports any single allocation past its
// limit as out-of-memory. With this limit the reader must answer such a file with an error.
// Growth in many smaller allocations still meets libFuzzer's 2 GiB limit.
// Memory from these may be freed by AddressSanitizer's delete (the libraries bind to either),
// so these harnesses do not check new/delete pairing.
#include <cstddef>
#include <cstdlib>
#include <new>

namespace floptle::fuzz {
inline void* allocateUpTo256MiB(std::size_t size) {
  if (size > (std::size_t(1) << 28)) throw std::bad_alloc();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace floptle::fuzz

void* operator new(std::size_t size) {
  return floptle::fuzz::allocateUpTo256MiB(size);
}
void* operator new[](std::size_t size) {
  return floptle::fuzz::allocateUpTo256MiB(size);
}
extern "C" const char* __asan_default_options() {
  return "alloc_dealloc_mismatch=0";
}
