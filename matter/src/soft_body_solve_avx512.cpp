// The AVX-512 build of the sweeps' kernels (soft_body_sweep.h): the AVX2 build's 8-wide code
// compiled for AVX-512F/VL, whose 32 vector registers hold what the AVX2 build spills to the
// stack (the volume sweep keeps about 30 vectors live). GCC's target pragma builds only what
// follows it so: every header soft_body_sweep.h includes is read before it, for the baseline
// (see soft_body_sweep.h on other headers' inline functions). It runs only where the CPU has
// AVX-512F and VL. The same operations lane by lane, so the same bits. Other compilers: none.
#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "floptle/matter/soft_body.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
namespace floptle::matter::sweep {
namespace {
bool cpuHasAvx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512vl") != 0;
}
}  // namespace
}  // namespace floptle::matter::sweep

#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512vl")
// GCC 12's AVX-512 intrinsics pass a deliberately undefined vector as an unused merge source,
// which -W(maybe-)uninitialized reports inside its header where they inline.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define FLOPTLE_SWEEP_AVX512VL 1
#include "soft_body_sweep.h"
#pragma GCC diagnostic pop
#pragma GCC pop_options

namespace floptle::matter::sweep {
// Baseline code (it runs on every CPU), handing out the AVX-512 kernels above.
const Kernels* avx512Kernels() {
  static const Kernels kernels{"AVX-512 build", distancesKernel, volumesKernel, pullShape,
                               sumVolumes};
  static const bool have = cpuHasAvx512();
  return have ? &kernels : nullptr;
}
}  // namespace floptle::matter::sweep
#else
#include "soft_body_sweep.h"

namespace floptle::matter::sweep {
const Kernels* avx512Kernels() {
  return nullptr;
}
}  // namespace floptle::matter::sweep
#endif
