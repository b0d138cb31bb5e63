#pragma once
// The gravity field of a scene, composed once for the simulation and `floptle query`: the
// settings' "gravity" (the vector form as the global tier) plus each node's "gravity_source"
// emitter ("planet": a planet source at the node's world position).
#include "floptle/core/expected.h"
#include "floptle/core/scene/gravity_desc.h"

namespace floptle::scene {
struct Scene;
}

namespace floptle::gravity {

/// Errors name the emitter's JSON pointer; a "newtonian" emitter is refused by name (its
/// mass from density x volume is not built yet).
Expected<scene::GravityFieldDesc> sceneGravityField(const scene::Scene& scene);

/// Whether the scene's gravity is one constant vector (no field needed: settings.gravity).
bool isUniform(const scene::Scene& scene);

}  // namespace floptle::gravity
