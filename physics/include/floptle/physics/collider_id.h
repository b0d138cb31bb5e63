#pragma once
// ColliderId: how everything outside the collision world refers to one of its colliders.
#include <compare>
#include <cstdint>

namespace floptle::physics {

/// A collider of a world: its slot's index (from 0) and the slot's generation when it was
/// added (core's EntityRegistry hands both out). Generation 0 is the null id. Removing a
/// collider bumps its slot's generation, so an id kept past the removal is caught
/// (CollisionWorld::valid is false), never taken for whatever is added in the slot later.
/// Ordered by index, then generation.
/// Side tables of per-collider data are indexed by `index` (sized CollisionWorld::slotCount).
struct ColliderId {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;
  bool null() const { return generation == 0; }
  friend constexpr auto operator<=>(const ColliderId&, const ColliderId&) = default;
};

}  // namespace floptle::physics
