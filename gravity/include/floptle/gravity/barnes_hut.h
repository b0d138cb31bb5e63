#pragma once
// BarnesHutTree: discrete masses' gravity through an octree (Barnes & Hut 1986). Each cell
// keeps its mass, centre of mass and traceless quadrupole Q = sum m (3 y y^T - |y|^2 I) about
// that centre (y = x - com); a cell of side s seen from p at distance d > s / theta from its
// centre of mass, p outside the cell, pulls as its expansion
//   g = G (-M x / r^3 + Q x / r^5 - 5/2 (x.Q x) x / r^7),  x = p - com;
// any other cell is opened, a leaf's masses summed directly, each pulling
//   g = -G m (p - x) / (|p - x|^2 + eps^2)^(3/2)
// (eps: the softening length (m); a mass at p itself pulls nothing). The build and the walk
// run in a fixed order (the masses' index order), so the answer is deterministic.
#include <cstdint>
#include <span>
#include <vector>

#include "floptle/core/math.h"

namespace floptle::gravity {

class BarnesHutTree {
 public:
  /// Masses of a leaf summed directly rather than split further.
  static constexpr int kLeafSize = 8;

  /// Builds over `masses` (kg) at `positions` (m); masses <= 0 are left out.
  void build(std::span<const Vec3> positions, std::span<const float> masses);
  bool empty() const { return cells_.empty(); }
  /// g at p (m/s^2). G (m^3/(kg s^2)), theta the opening angle (-) in (0, 1], softening (m).
  Vec3 accel(Vec3 p, float G, float theta, float softening) const;
  /// g at every mass built over (m/s^2), out[i] for positions[i] (0 for a mass left out):
  /// the same expansion, walked once per group of at most kGroupSize masses that share a
  /// cell, with the opening test taken from the group's box (its nearest point to each cell),
  /// so every mass of the group sees the same cells and no larger error than accel's.
  void accelAll(float G, float theta, float softening, std::span<Vec3> out) const;
  /// Masses that share one walk in accelAll.
  static constexpr int kGroupSize = 64;
  /// g at every one of `positions` from all of them by the direct sum, with the SIMD lanes
  /// accelAll uses (the fair reference for its speed), out[i] for positions[i].
  static void directSumAll(std::span<const Vec3> positions, std::span<const float> masses, float G,
                           float softening, std::span<Vec3> out);
  /// The same as the direct sum over every mass (the reference the tree approximates).
  static Vec3 directSum(Vec3 p, std::span<const Vec3> positions, std::span<const float> masses,
                        float G, float softening);
  /// Cells in the tree (for tests and benchmarks).
  std::size_t cellCount() const { return cells_.size(); }

 private:
  /// One octree cell (64 bytes): what the walk reads.
  struct Cell {
    Vec3 com{0.0f};     ///< centre of mass (m)
    float mass = 0.0f;  ///< (kg)
    Vec3 lo{0.0f};      ///< the cube's min corner (m)
    float side = 0.0f;  ///< the cube's side (m)
    /// Q's xx, yy, zz, xy, xz, yz (kg m^2)
    float q[6] = {};
    std::uint32_t firstChild = 0;  ///< children are cells [firstChild, firstChild + childCount)
    std::uint32_t childCount = 0;  ///< 0: a leaf of masses [begin, end)
    std::uint32_t begin = 0, end = 0;
  };
  static void farLanes(const Cell& c, float G, int lanes, const float* __restrict tx,
                       const float* __restrict ty, const float* __restrict tz, float* __restrict gx,
                       float* __restrict gy, float* __restrict gz);
  static void nearLanes(Vec3 s, float Gm, float eps2, int lanes, const float* __restrict tx,
                        const float* __restrict ty, const float* __restrict tz,
                        float* __restrict gx, float* __restrict gy, float* __restrict gz);
  /// One cell's expansion at p (m/s^2): p must lie outside it.
  static Vec3 expansion(const Cell& c, Vec3 p, float G);
  /// Fills cells_[self] (already allocated) over order_[begin, end), then its children.
  void buildCell(std::uint32_t self, Vec3 centre, float half, std::uint32_t begin,
                 std::uint32_t end, int depth);

  std::vector<Cell> cells_;
  std::vector<Vec3> position_;          ///< the masses in tree order (m)
  std::vector<float> mass_;             ///< (kg)
  std::vector<std::uint32_t> input_;    ///< each mass's index in the build's input
  std::vector<std::uint32_t> order_;    ///< build scratch: indices into position_ / mass_
  std::vector<std::uint32_t> scratch_;  ///< build scratch
};

}  // namespace floptle::gravity
