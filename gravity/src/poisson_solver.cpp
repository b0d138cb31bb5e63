// IsolatedPoissonSolver: Hockney's zero-padded FFT convolution with the free-space Green's
// function (FFTW3 single precision, real-to-complex).
#include "floptle/gravity/poisson_solver.h"

#include <fftw3.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <mutex>

namespace floptle::gravity {
namespace {

/// FFTW's planner is not thread-safe: plans are made and destroyed one at a time.
std::mutex& plannerMutex() {
  static std::mutex m;
  return m;
}

/// The smallest size >= n whose only prime factors are 2, 3, 5 and 7 (FFTW's fast sizes).
int smoothSize(int n) {
  for (int m = std::max(n, 1);; ++m) {
    int r = m;
    for (int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

/// The integral of 1/|x| over the unit cube centred on the origin (-).
constexpr double kCubeSelfPotential = 2.3800772619834;

}  // namespace

struct IsolatedPoissonSolver::Plans {
  glm::ivec3 n{0};
  glm::ivec3 m{0};      ///< padded sizes
  std::size_t mhx = 0;  ///< m.x / 2 + 1: complex values along x
  std::size_t stagingCount = 0;
  std::size_t spectrumCount = 0;
  float* staging = nullptr;           ///< n.z n.y rows of m.x reals (x fastest)
  fftwf_complex* spectrum = nullptr;  ///< m.z m.y rows of mhx complex values (kx fastest)
  float* green = nullptr;  ///< the Green's function's transform (real: K is even), normalized
  // The 3-d transform as three passes of 1-d ones that skip what the zero padding makes zero:
  // x over the n.z n.y rows that hold rho, y over the n.z planes that hold them, z over all;
  // back: z over all, y over the n.z planes, x over the n.z n.y rows that are read.
  fftwf_plan xForward = nullptr, yForward = nullptr, zForward = nullptr;
  fftwf_plan zBackward = nullptr, yBackward = nullptr, xBackward = nullptr;

  ~Plans() {
    std::lock_guard lock(plannerMutex());
    for (fftwf_plan plan : {xForward, yForward, zForward, zBackward, yBackward, xBackward})
      if (plan) fftwf_destroy_plan(plan);
    fftwf_free(staging);
    fftwf_free(spectrum);
    fftwf_free(green);
  }
};

IsolatedPoissonSolver::IsolatedPoissonSolver(glm::ivec3 n, float h, float G)
    : plans_(std::make_unique<Plans>()) {
  assert(n.x >= 2 && n.y >= 2 && n.z >= 2 && h > 0.0f);
  Plans& p = *plans_;
  p.n = n;
  p.m = glm::ivec3(smoothSize(2 * n.x - 1), smoothSize(2 * n.y - 1), smoothSize(2 * n.z - 1));
  p.mhx = std::size_t(p.m.x / 2 + 1);
  const std::size_t my = std::size_t(p.m.y), mz = std::size_t(p.m.z);
  const std::size_t realCount = std::size_t(p.m.x) * my * mz;
  p.stagingCount = std::size_t(n.z) * std::size_t(n.y) * std::size_t(p.m.x);
  p.spectrumCount = p.mhx * my * mz;
  p.staging = fftwf_alloc_real(std::max(p.stagingCount, realCount));
  p.spectrum = fftwf_alloc_complex(p.spectrumCount);
  p.green = fftwf_alloc_real(p.spectrumCount);
  const int mx = p.m.x, rowC = int(p.mhx), planeC = int(p.mhx * my);
  {
    std::lock_guard lock(plannerMutex());
    const unsigned flags = FFTW_ESTIMATE;
    // x: rows (z < n.z, y < n.y), real <-> complex.
    const fftwf_iodim xr{mx, 1, 1};
    const fftwf_iodim xRowsF[2] = {{n.z, n.y * mx, planeC}, {n.y, mx, rowC}};
    const fftwf_iodim xRowsB[2] = {{n.z, planeC, n.y * mx}, {n.y, rowC, mx}};
    p.xForward = fftwf_plan_guru_dft_r2c(1, &xr, 2, xRowsF, p.staging, p.spectrum, flags);
    p.xBackward = fftwf_plan_guru_dft_c2r(1, &xr, 2, xRowsB, p.spectrum, p.staging, flags);
    // y: columns of the planes z < n.z, in place.
    const fftwf_iodim yd{p.m.y, rowC, rowC};
    const fftwf_iodim yCols[2] = {{n.z, planeC, planeC}, {rowC, 1, 1}};
    p.yForward = fftwf_plan_guru_dft(1, &yd, 2, yCols, p.spectrum, p.spectrum, FFTW_FORWARD, flags);
    p.yBackward =
        fftwf_plan_guru_dft(1, &yd, 2, yCols, p.spectrum, p.spectrum, FFTW_BACKWARD, flags);
    // z: every column, in place.
    const fftwf_iodim zd{p.m.z, planeC, planeC};
    const fftwf_iodim zCols[2] = {{p.m.y, rowC, rowC}, {rowC, 1, 1}};
    p.zForward = fftwf_plan_guru_dft(1, &zd, 2, zCols, p.spectrum, p.spectrum, FFTW_FORWARD, flags);
    p.zBackward =
        fftwf_plan_guru_dft(1, &zd, 2, zCols, p.spectrum, p.spectrum, FFTW_BACKWARD, flags);
  }
  // K at the padded grid's wrapped offsets, transformed whole once; the transforms'
  // 1 / (m.x m.y m.z) folded in.
  const double scale = 1.0 / double(realCount);
  const double hd = h;
  float* kernel = p.staging;
  for (int k = 0; k < p.m.z; ++k)
    for (int j = 0; j < p.m.y; ++j)
      for (int i = 0; i < p.m.x; ++i) {
        const double dx = std::min(i, p.m.x - i), dy = std::min(j, p.m.y - j),
                     dz = std::min(k, p.m.z - k);
        const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double K =
            r > 0.0 ? -double(G) * hd * hd / r : -double(G) * hd * hd * kCubeSelfPotential;
        kernel[(std::size_t(k) * my + std::size_t(j)) * std::size_t(p.m.x) + std::size_t(i)] =
            float(K * scale);
      }
  fftwf_plan whole;
  {
    std::lock_guard lock(plannerMutex());
    whole = fftwf_plan_dft_r2c_3d(p.m.z, p.m.y, p.m.x, kernel, p.spectrum, FFTW_ESTIMATE);
  }
  fftwf_execute(whole);
  {
    std::lock_guard lock(plannerMutex());
    fftwf_destroy_plan(whole);
  }
  for (std::size_t c = 0; c < p.spectrumCount; ++c) p.green[c] = p.spectrum[c][0];
}

IsolatedPoissonSolver::~IsolatedPoissonSolver() = default;
IsolatedPoissonSolver::IsolatedPoissonSolver(IsolatedPoissonSolver&&) noexcept = default;
IsolatedPoissonSolver& IsolatedPoissonSolver::operator=(IsolatedPoissonSolver&&) noexcept = default;

glm::ivec3 IsolatedPoissonSolver::nodes() const {
  return plans_->n;
}
glm::ivec3 IsolatedPoissonSolver::padded() const {
  return plans_->m;
}

void IsolatedPoissonSolver::solve(std::span<const float> rho, std::span<float> phi) {
  Plans& p = *plans_;
  const std::size_t nx = std::size_t(p.n.x), ny = std::size_t(p.n.y), nz = std::size_t(p.n.z);
  const std::size_t mx = std::size_t(p.m.x), my = std::size_t(p.m.y), mz = std::size_t(p.m.z);
  const std::size_t row = p.mhx, plane = p.mhx * my;
  assert(rho.size() == nx * ny * nz && phi.size() == rho.size());
  // rho into the first n.x reals of each staging row, zero after.
  for (std::size_t r = 0; r < nz * ny; ++r) {
    std::memcpy(p.staging + r * mx, rho.data() + r * nx, nx * sizeof(float));
    std::memset(p.staging + r * mx + nx, 0, (mx - nx) * sizeof(float));
  }
  fftwf_execute(p.xForward);
  // What the x pass did not write is the padding: zero.
  for (std::size_t z = 0; z < nz; ++z)
    std::memset(p.spectrum + z * plane + ny * row, 0, (my - ny) * row * sizeof(fftwf_complex));
  fftwf_execute(p.yForward);
  std::memset(p.spectrum + nz * plane, 0, (mz - nz) * plane * sizeof(fftwf_complex));
  fftwf_execute(p.zForward);
  for (std::size_t c = 0; c < p.spectrumCount; ++c) {
    p.spectrum[c][0] *= p.green[c];
    p.spectrum[c][1] *= p.green[c];
  }
  fftwf_execute(p.zBackward);
  fftwf_execute(p.yBackward);
  fftwf_execute(p.xBackward);
  for (std::size_t r = 0; r < nz * ny; ++r)
    std::memcpy(phi.data() + r * nx, p.staging + r * mx, nx * sizeof(float));
}

}  // namespace floptle::gravity
