// The AVX2 build of the sweeps' kernels (soft_body_sweep.h): this file is compiled with
// -mavx2 (matter/CMakeLists.txt, x86-64 only) and runs only where the CPU has AVX2. The same
// operations as the baseline build lane by lane, so the same bits.
#if defined(FLOPTLE_MATTER_AVX2)
#include "soft_body_sweep.h"

namespace floptle::matter::sweep {

bool haveAvx2() {
  static const bool have = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return have;
}

void distancesAvx2(const Distances& s, bool measure) {
  if (measure)
    sweepDistances<true>(s);
  else
    sweepDistances<false>(s);
}

void volumesAvx2(const Volumes& s, bool measure) {
  if (measure)
    sweepVolumes<true>(s);
  else
    sweepVolumes<false>(s);
}

void pullAvx2(const ShapePull& s) {
  pullShape(s);
}

float volumeSumAvx2(const VolumeSum& s) {
  return sumVolumes(s);
}

}  // namespace floptle::matter::sweep
#endif
