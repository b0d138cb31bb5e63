#pragma once
// DensityGrid: tier 3's grid (seed 001, "Calculated density-field gravity"). Nodes spaced h
// (m) from `origin`, n per axis, x fastest; each node stands for the cube of side h about it.
//   rho   (kg/m^3): what addMatter writes, the densest matter at each node (overlapping
//                   shapes count once) times its occupancy of the node's cell: 1 or 0 where
//                   |f| >= h, else the mean over kSub^3 sub-cells of clamp(1/2 - f/s, 0, 1)
//                   (s = h / kSub: the signed distance ramps a sub-cell from empty to full)
//   Phi   (m^2/s^2): the isolated solve of del^2 Phi = 4 pi G rho (IsolatedPoissonSolver)
//   g     (m/s^2):  -grad Phi at each node by central differences (second-order one-sided
//                   ones at the faces)
// sample(p) is g trilinear inside the grid; beyond it, the multipole expansion of the grid's
// mass about its centre of mass: the monopole (the dipole about the centre of mass vanishes)
// and the quadrupole, never zero or clamped. Invariant after solve(): mass() and the
// expansion describe the rho that g was solved from.
#include <functional>
#include <optional>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/gravity/poisson_solver.h"

namespace floptle::gravity {

class DensityGrid {
 public:
  /// Sub-cells per axis of a node's cell near a surface.
  static constexpr int kSub = 4;
  /// The most nodes a grid may have (128^3).
  static constexpr std::size_t kMaxNodes = std::size_t(128) * 128 * 128;

  /// The grid over `bounds` (m) with spacing `cell` (m); its max corner is rounded up to a
  /// whole number of cells. Errors (at `where`, the density object's JSON pointer) for a
  /// spacing that is not positive, empty bounds or more than kMaxNodes nodes.
  static Expected<DensityGrid> create(const Aabb& bounds, float cell, float G,
                                      const std::string& where);

  Vec3 origin() const { return origin_; }
  float cell() const { return h_; }
  glm::ivec3 nodes() const { return n_; }
  /// The box the grid's nodes span (m).
  Aabb bounds() const { return {origin_, origin_ + h_ * Vec3(n_ - 1)}; }

  /// Empties rho.
  void clear();
  /// Writes a shape of uniform density (kg/m^3) into rho at the nodes within `box` (m, the
  /// shape's bounds; clipped to the grid): rho = max(rho, density x occupancy).
  void addMatter(const Aabb& box, float density, const std::function<float(Vec3)>& distance);
  /// rho at node (i, j, k) (kg/m^3).
  float& density(int i, int j, int k) { return rho_[index(i, j, k)]; }

  /// Solves Phi and g from rho, and the mass moments for the expansion beyond the grid.
  void solve();

  /// g at p (m/s^2): trilinear inside the grid, the multipole expansion beyond it.
  Vec3 sample(Vec3 p) const;
  /// The multipole expansion alone at p (m/s^2).
  Vec3 farField(Vec3 p) const;
  /// Phi at node (i, j, k) (m^2/s^2).
  float potential(int i, int j, int k) const { return phi_[index(i, j, k)]; }
  /// The grid's mass (kg) and its centre (m), as of the last solve.
  float mass() const { return mass_; }
  Vec3 centreOfMass() const { return com_; }

 private:
  DensityGrid(Vec3 origin, float h, glm::ivec3 n, float G);
  std::size_t index(int i, int j, int k) const {
    return (std::size_t(k) * std::size_t(n_.y) + std::size_t(j)) * std::size_t(n_.x) +
           std::size_t(i);
  }

  Vec3 origin_{0.0f};
  float h_ = 1.0f;
  float invH_ = 1.0f;
  glm::ivec3 n_{2};
  float G_ = 1.0f;
  Vec3 upper_{0.0f};  ///< n - 1 in grid units: the last node
  std::vector<float> rho_;
  std::vector<float> phi_;
  std::vector<Vec3> g_;
  IsolatedPoissonSolver solver_;
  float mass_ = 0.0f;           ///< (kg)
  Vec3 com_{0.0f};              ///< (m)
  glm::mat3 quadrupole_{0.0f};  ///< traceless sum m (3 x x^T - |x|^2 I) about com (kg m^2)
};

}  // namespace floptle::gravity
