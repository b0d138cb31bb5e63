#pragma once
// SoftBodySurfaceMap: the matter's current field in one shared sparse brickmap (issue 19, "one
// shared field, two readers"): the union (min) of every soft body's skinned surface
// (soft_body_surface.h), re-sampled each step near the moving bodies on a budget.
//
// Grid: the region is `reach` (the caller's: the bodies' bounds and the static world's finite
// bounds, where matter can go) grown by the brickmap's band; the fine cell is half the smallest
// particle spacing h of the bodies (the skin is exact to rounding within about h of the surface,
// so half a cell of trilinear error stays under the cage's own resolution), doubled until the
// top grid has at most kMaxTopCells cells. The band is BrickMap's default (3 cells).
//
// Each update (once per simulation step): the bodies' skins are fitted, and
// BrickMap::rebakeNearest re-samples at most `budget` top cells within band + 2 h of the awake
// bodies' particles now and at the last update (so the cells a body left are cleared too), by
// its priority (staleness over distance). A sleeping body's cells are current and cost
// nothing. The re-baked top cells are recorded (each once) until takeChangedCells(): a viewer
// re-uploads only those.
//
// Only drawing reads this map (the cage collides with the world through its particles), so it
// is not part of the simulation's snapshots or state hash; after a restore it converges to the
// restored bodies on the budget.
#include <cstdint>
#include <string>
#include <vector>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/matter/soft_body_surface.h"

namespace floptle::matter {

class SoftBodySurfaceMap {
 public:
  static constexpr std::int64_t kMaxTopCells = std::int64_t(1) << 18;
  static constexpr int kDefaultBudget = 64;

  struct Counters {
    std::uint64_t bricksRebaked = 0;       ///< top cells re-sampled by the last update (-)
    std::uint64_t bricksRebakedTotal = 0;  ///< since the bake (-)
    std::uint64_t updates = 0;             ///< updates since the bake (-)
  };

  /// Bakes the current field of the bodies it draws over `reach` (m): `restFields[i]` is the
  /// rest field of the node called `names[i]`, and the map draws (and follows) exactly the
  /// bodies of those names (split pieces share their node's); other bodies are not its own.
  /// Errors (naming `pointer`): no names, a name no body has, an empty or non-finite reach.
  static Expected<SoftBodySurfaceMap> build(const std::vector<SoftBody>& bodies,
                                            std::vector<std::string> names,
                                            std::vector<RestField> restFields, Aabb reach,
                                            const std::string& pointer,
                                            int budget = kDefaultBudget);

  /// Re-samples near the moving bodies (at most budget() top cells) and records them.
  void update(const std::vector<SoftBody>& bodies);
  /// The bodies' current field (min over their skins), as the map samples it.
  DistanceBatchFn field(const std::vector<SoftBody>& bodies) const;

  const BrickMap& map() const { return map_; }
  /// The nodes whose bodies it draws.
  const std::vector<std::string>& names() const { return names_; }
  /// The top cells re-sampled since the last call, each once, in the order first re-sampled.
  std::vector<glm::ivec3> takeChangedCells();
  int budget() const { return budget_; }
  void setBudget(int budget) { budget_ = budget; }
  const Counters& counters() const { return counters_; }

 private:
  const RestField* restOf(const std::string& name) const;

  BrickMap map_;
  std::vector<std::string> names_;
  std::vector<RestField> rest_;
  int budget_ = kDefaultBudget;
  float searchRadius_ = 0.0f;  ///< m
  std::vector<Vec3> lastPoints_;
  std::vector<std::uint8_t> changedFlag_;  ///< per top cell
  std::vector<glm::ivec3> changed_;
  Counters counters_;
};

}  // namespace floptle::matter
