#pragma once
// BarnesHutTree: discrete masses' gravity through an octree (Barnes & Hut 1986). Each cell
// keeps its mass and centre of mass; a cell whose size s, seen from p at distance d from its
// centre of mass, satisfies d > s / theta + delta (delta: how far the centre of mass sits from
// the cell's centre, so a cell that holds p is always opened) pulls as one point mass; any
// other cell is opened, a leaf's masses summed directly. Every mass pulls
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
  /// The same as the direct sum over every mass (the reference the tree approximates).
  static Vec3 directSum(Vec3 p, std::span<const Vec3> positions, std::span<const float> masses,
                        float G, float softening);
  /// Cells in the tree (for tests and benchmarks).
  std::size_t cellCount() const { return cells_.size(); }

 private:
  /// One octree cell (52 bytes): what the walk reads.
  struct Cell {
    Vec3 com{0.0f};      ///< centre of mass (m)
    float mass = 0.0f;   ///< (kg)
    Vec3 centre{0.0f};   ///< the cube's centre (m)
    float half = 0.0f;   ///< the cube's half size (m)
    float delta = 0.0f;  ///< |com - centre| (m)
    std::uint32_t firstChild = 0;  ///< children are cells [firstChild, firstChild + childCount)
    std::uint32_t childCount = 0;  ///< 0: a leaf of masses [begin, end)
    std::uint32_t begin = 0, end = 0;
  };
  /// Fills cells_[self] (already allocated) over order_[begin, end), then its children.
  void buildCell(std::uint32_t self, Vec3 centre, float half, std::uint32_t begin,
                 std::uint32_t end, int depth);

  std::vector<Cell> cells_;
  std::vector<Vec3> position_;  ///< the masses in tree order (m)
  std::vector<float> mass_;     ///< (kg)
  std::vector<std::uint32_t> order_;    ///< build scratch: indices into position_ / mass_
  std::vector<std::uint32_t> scratch_;  ///< build scratch
};

}  // namespace floptle::gravity
