#pragma once
// The MatterModel node component (seed 002): {"tier": "rigid" | "morph" | "soft_body" | "visco",
// ... that tier's knobs}, read through the component table's "matter" and "matter_soft_body"
// tables, and for morph through field::readMorph (field/morph.h: its displacement terms are
// field nodes, so the one composition draws and bakes them). A node without one is rigid. The
// tier "field_blend" is named by the format but not built yet: reading it is an error naming
// its pointer. Visco reads the SoftBody knobs and its own from the "matter_visco" table.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/field/morph.h"

namespace floptle::matter {

enum class MatterTier : std::uint8_t { Rigid, Morph, SoftBody, Visco };

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

/// The Visco tier's own knobs (on top of the SoftBody ones); their use in soft_body.h.
struct ViscoKnobs {
  /// Stiffness of a bond formed in the contact band, in [0, 1] (0: none form), mapped to a
  /// compliance as the edge stiffness is (-).
  float stickiness = 0.5f;
  /// Strain (|x_i - x_j| - l0) / l0 past which a bond snaps (-).
  float breakStrain = 1.0f;
  /// Strain past which a bond's rest length grows to keep the strain at yield (plastic) (-).
  float yieldStrain = 0.3f;
  /// Gap between a particle's sphere and other geometry within which it bonds to it (m).
  float contactBand = 0.02f;
};

struct MatterModel {
  MatterTier tier = MatterTier::Rigid;
  SoftBodyKnobs softBody;
  field::MorphDesc morph;
  ViscoKnobs visco;
};

/// The node's "matter" component at JSON pointer `pointer` (rigid when `component` is null).
Expected<MatterModel> readMatterModel(const nlohmann::ordered_json& component,
                                      const std::string& pointer);

}  // namespace floptle::matter
