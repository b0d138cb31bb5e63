#pragma once
// Stable entity ids and a component store with deterministic iteration (id order).
// Ids carry a generation so that a stale id (its entity destroyed, the slot reused) is caught,
// never dereferenced. The zero id is null.
#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace floptle {

struct EntityId {
  std::uint32_t index = 0;       ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< bumped each time the slot is reused

  bool isNull() const { return index == 0; }
  friend bool operator==(EntityId, EntityId) = default;
  friend bool operator<(EntityId a, EntityId b) {
    return a.index != b.index ? a.index < b.index : a.generation < b.generation;
  }
};

/// Hands out ids; destroyed slots are reused with a new generation (lowest slot first, so the
/// sequence of ids depends only on the sequence of create/destroy calls).
class EntityRegistry {
 public:
  EntityId create();
  /// Returns false for a null or stale id.
  bool destroy(EntityId id);
  bool alive(EntityId id) const;
  std::size_t aliveCount() const { return alive_; }
  /// Slots ever handed out (live or free): one past the largest slot index.
  std::size_t slotCount() const { return generations_.size(); }
  /// The live id of slot `slot` (its index is slot + 1); null when the slot is free.
  EntityId idOfSlot(std::uint32_t slot) const {
    if (slot >= generations_.size() || (generations_[slot] & 1u) == 0) return {};
    return {slot + 1, generations_[slot]};
  }

 private:
  std::vector<std::uint32_t> generations_;  // per slot; odd = alive
  std::vector<std::uint32_t> freeSlots_;    // kept sorted descending; back() is the lowest
  std::size_t alive_ = 0;
};

/// Components of type T keyed by entity, stored densely and iterated in id order
/// (never hash or pointer order). Insert/erase are O(n) in the worst case; iteration and
/// lookup (binary search) are what the simulation does every step.
template <class T>
class ComponentStore {
 public:
  using Entry = std::pair<EntityId, T>;

  T& set(EntityId id, T value) {
    auto it = lowerBound(id);
    if (it != entries_.end() && it->first == id) {
      it->second = std::move(value);
      return it->second;
    }
    return entries_.insert(it, Entry{id, std::move(value)})->second;
  }
  bool erase(EntityId id) {
    auto it = lowerBound(id);
    if (it == entries_.end() || !(it->first == id)) return false;
    entries_.erase(it);
    return true;
  }
  T* get(EntityId id) {
    auto it = lowerBound(id);
    return (it != entries_.end() && it->first == id) ? &it->second : nullptr;
  }
  const T* get(EntityId id) const { return const_cast<ComponentStore*>(this)->get(id); }
  bool contains(EntityId id) const { return get(id) != nullptr; }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  typename std::vector<Entry>::iterator lowerBound(EntityId id) {
    auto lo = entries_.begin(), hi = entries_.end();
    while (lo < hi) {
      auto mid = lo + (hi - lo) / 2;
      if (mid->first < id)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
  std::vector<Entry> entries_;
};

}  // namespace floptle
