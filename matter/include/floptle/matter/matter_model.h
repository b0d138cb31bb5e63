#pragma once
// The MatterModel node component (seed 002): {"tier": "rigid" | "soft_body", ...
// that tier's knobs}, read through the component table's "matter" and "matter_soft_body"
// tables. A node without one is rigid. The tiers "morph", "field_blend" and "visco" are named
// by the format but not built yet: reading one is an error naming its pointer.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::matter {

enum class MatterTier : std::uint8_t { Rigid, SoftBody };

/// The SoftBody tier's knobs (seed 002's XpbdCage); mapping to the solver in
/// resources/scene-format.md ("matter").
struct SoftBodyKnobs {
  /// Particles the cage aims for (about; the lattice inside the shape decides) (-).
  std::int64_t particles = 512;
  /// Edge stiffness in (0, 1]: distance compliance alpha = (1/s - 1) * dt_sub^2 / m_particle.
  float stiffness = 0.5f;
  /// Tetrahedral volume stiffness in [0, 1] (0: no volume constraint), mapped as stiffness.
  float volumePreserve = 0.9f;
  /// Shape-matching pull in [0, 1]: the fraction of the way to the goal per step (-).
  float shapeMatch = 0.5f;
  /// Solver substeps per fixed step (-), one constraint sweep each.
  std::int64_t substeps = 10;
  /// Damping of the particles' velocity relative to the body's mean velocity (1/s).
  float damping = 1.0f;
};

struct MatterModel {
  MatterTier tier = MatterTier::Rigid;
  SoftBodyKnobs softBody;
};

/// The node's "matter" component at JSON pointer `pointer` (rigid when `component` is null).
Expected<MatterModel> readMatterModel(const nlohmann::ordered_json& component,
                                      const std::string& pointer);

}  // namespace floptle::matter
