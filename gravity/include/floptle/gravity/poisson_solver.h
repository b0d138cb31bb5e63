#pragma once
// IsolatedPoissonSolver: the free-space solution of del^2 Phi = 4 pi G rho on a grid of
// n.x x n.y x n.z nodes spaced h (m), nothing assumed about the world outside the grid:
//   Phi_i = sum_j K(x_i - x_j) rho_j,  K(r) = -G h^3 / |r|,  K(0) = -G h^2 c_cube
// (c_cube = 2.3800773, the integral of 1/r over a unit cube about its centre: the potential a
// node's own cell of uniform density gives it). The discrete convolution runs as Hockney's
// zero-padded FFT: the grid padded to at least 2n - 1 per axis (sizes of factors 2, 3, 5, 7),
// the 3-d real-to-complex transform as three passes of 1-d ones that skip what the padding
// makes zero (FFTW3, single precision), the Green's function transformed once at
// construction. Plans are FFTW_ESTIMATE, made once and single-threaded: the same plan on the
// same machine and build gives the same bits. One solver solves one grid at a time.
#include <memory>
#include <span>

#include "floptle/core/math.h"

namespace floptle::gravity {

class IsolatedPoissonSolver {
 public:
  /// n: nodes per axis (each >= 2); h: spacing (m), > 0; G: (m^3/(kg s^2)).
  IsolatedPoissonSolver(glm::ivec3 n, float h, float G);
  ~IsolatedPoissonSolver();
  IsolatedPoissonSolver(IsolatedPoissonSolver&&) noexcept;
  IsolatedPoissonSolver& operator=(IsolatedPoissonSolver&&) noexcept;

  glm::ivec3 nodes() const;
  /// The padded transform size per axis.
  glm::ivec3 padded() const;
  /// rho (kg/m^3) -> phi (m^2/s^2), both n.x n.y n.z values, x fastest then y then z.
  void solve(std::span<const float> rho, std::span<float> phi);

 private:
  struct Plans;
  std::unique_ptr<Plans> plans_;
};

}  // namespace floptle::gravity
