#pragma once
// What the renderers need from a typed scene: the material colour table and the cameras.
#include <string_view>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/render/camera.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/scene/scene.h"

namespace floptle::render {

/// Albedo per MaterialIndex: [0] = shading::kDefaultAlbedo, [i] = scene.materials[i - 1].color.
MaterialColors materialColors(const scene::Scene& scene);

/// The scene camera called `name`; the error lists the cameras there are.
Expected<Camera> namedCamera(const scene::Scene& scene, std::string_view name);

/// The scene's first camera, or else a three-quarter view framing the finite part of the
/// scene: the union of the bounds (at time t (s)) of every node whose bounds are finite, so
/// an infinite ground plane does not push the camera away.
Camera defaultCamera(const scene::Scene& scene, double time);

}  // namespace floptle::render
