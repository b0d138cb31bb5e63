#include "floptle/core/field/program_cache.h"

#include <bit>
#include <cstdint>

namespace floptle::field {
namespace {

/// boost::hash_combine's mixing step.
void combine(std::size_t& seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2);
}

/// Equal floats hash alike: +0 and -0 compare equal, so both hash as +0.
std::size_t bitsOf(float value) {
  return value == 0.0f ? 0u : std::bit_cast<std::uint32_t>(value);
}
std::size_t bitsOf(double value) {
  return value == 0.0 ? 0u : static_cast<std::size_t>(std::bit_cast<std::uint64_t>(value));
}

void hashInto(std::size_t& seed, const AnimatedScalar& scalar) {
  combine(seed, static_cast<std::size_t>(scalar.driver));
  combine(seed, bitsOf(scalar.base));
  combine(seed, bitsOf(scalar.amplitude));
  combine(seed, bitsOf(scalar.frequency));
  combine(seed, bitsOf(scalar.phase));
  combine(seed, scalar.keys.size());
  for (const Key& key : scalar.keys) {
    combine(seed, bitsOf(key.time));
    combine(seed, bitsOf(key.value));
  }
  combine(seed, static_cast<std::size_t>(scalar.interpolation));
  combine(seed, scalar.loop ? 1u : 0u);
}

void hashInto(std::size_t& seed, const FieldNode& node) {
  combine(seed, static_cast<std::size_t>(node.type));
  combine(seed, node.material);
  combine(seed, node.hasOwnMaterial ? 1u : 0u);
  combine(seed, node.params.size());
  for (const AnimatedScalar& param : node.params) hashInto(seed, param);
  combine(seed, node.children.size());
  for (const FieldNode& child : node.children) hashInto(seed, child);
}

}  // namespace

std::size_t FieldNodeHash::operator()(const FieldNode& node) const {
  std::size_t seed = 0;
  hashInto(seed, node);
  return seed;
}

Expected<std::shared_ptr<const FieldProgram>> ProgramCache::compile(const FieldNode& root) {
  if (const auto found = programs_.find(root); found != programs_.end()) return found->second;
  auto program = FieldProgram::compile(root);
  if (!program) return program.error();
  auto shared = std::make_shared<const FieldProgram>(std::move(program.value()));
  programs_.emplace(root, shared);
  return shared;
}

}  // namespace floptle::field
