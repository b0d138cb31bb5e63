#include "floptle/core/entity.h"

#include <algorithm>
#include <functional>

namespace floptle {

EntityId EntityRegistry::create() {
  std::uint32_t slot;
  if (!freeSlots_.empty()) {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(generations_.size());
    generations_.push_back(0);
  }
  ++generations_[slot];  // even (dead) -> odd (alive)
  ++alive_;
  return {slot + 1, generations_[slot]};
}

bool EntityRegistry::alive(EntityId id) const {
  if (id.isNull() || id.index > generations_.size()) return false;
  std::uint32_t g = generations_[id.index - 1];
  return (g & 1u) != 0 && g == id.generation;
}

bool EntityRegistry::destroy(EntityId id) {
  if (!alive(id)) return false;
  ++generations_[id.index - 1];  // odd -> even
  --alive_;
  auto pos = std::lower_bound(freeSlots_.begin(), freeSlots_.end(), id.index - 1,
                              std::greater<std::uint32_t>());
  freeSlots_.insert(pos, id.index - 1);
  return true;
}

}  // namespace floptle
