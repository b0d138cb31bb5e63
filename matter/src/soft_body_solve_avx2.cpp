// The AVX2 build of the sweeps' kernels (soft_body_sweep.h): this file is compiled with
// -mavx2 (matter/CMakeLists.txt, x86-64 only) and runs only where the CPU has AVX2. The same
// operations as the baseline build lane by lane, so the same bits.
#include "soft_body_sweep.h"

namespace floptle::matter::sweep {

#if defined(FLOPTLE_MATTER_AVX2)
const Kernels* avx2Kernels() {
  static const Kernels kernels{"AVX2 build", distancesKernel, volumesKernel, pullShape, sumVolumes};
  static const bool have = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return have ? &kernels : nullptr;
}
#else
const Kernels* avx2Kernels() {
  return nullptr;
}
#endif

}  // namespace floptle::matter::sweep
