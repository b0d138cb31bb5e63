#pragma once
// Fnv1a64: FNV-1a 64 over bit patterns, fed field by field (never struct padding), for the
// state hashes that pin determinism (Simulation::stateHash, BrickMap::contentHash).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "floptle/core/math.h"

namespace floptle {

class Fnv1a64 {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      hash_ ^= p[i];
      hash_ *= 0x100000001b3ull;
    }
  }
  void u64(std::uint64_t v) { bytes(&v, sizeof v); }
  void f32(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bytes(&bits, sizeof bits);
  }
  void vec(Vec3 v) { f32(v.x), f32(v.y), f32(v.z); }
  void quat(Quat q) { f32(q.x), f32(q.y), f32(q.z), f32(q.w); }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace floptle
