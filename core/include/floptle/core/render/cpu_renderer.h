#pragma once
// The CPU reference renderer: a multithreaded sphere trace of a UnionField (the scene's parts;
// a lone FieldProgram is a union of one) with the shading model of shading_model.h. It marches
// UnionField::renderSample, the estimate the viewport's shader evaluates. It is what `floptle
// render` writes and what the viewport's image is tested against.
#include <optional>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/math.h"
#include "floptle/core/render/camera.h"
#include "floptle/core/render/image.h"

namespace floptle::render {

class BrickAtlas;

/// Linear albedo (0..1) per material index; index 0 is "no material". Indices outside the
/// table (or >= shading::kMaxMaterials) shade with shading::kDefaultAlbedo.
using MaterialColors = std::vector<Vec3>;

struct RenderSettings {
  /// Image size (pixels), each in [1, 16384].
  int width = 640;
  int height = 360;
  /// Field time (s).
  double time = 0.0;
  /// Worker threads; 0 = std::thread::hardware_concurrency().
  int threads = 0;
  /// Brick maps drawn with the field (the viewport's u_brickAtlas / u_brickIndex), or null.
  /// Not owned; must outlive the call.
  const BrickAtlas* brickMaps = nullptr;
};

/// Where a primary ray meets the field.
struct MarchHit {
  /// Distance along the ray (m).
  float distance = 0.0f;
  Vec3 point{0.0f};
  field::MaterialIndex material = 0;
};

/// Sphere-traces one ray exactly as the renderer does (same steps, epsilon, step scale) up
/// to maxDistance (m); nullopt when it sees nothing. The editor picks with this too.
std::optional<MarchHit> marchRay(const field::UnionField& field, const Ray& ray, double time,
                                 float maxDistance = 250.0f);
std::optional<MarchHit> marchRay(const field::FieldProgram& program, const Ray& ray, double time,
                                 float maxDistance = 250.0f);

/// Linear colour (before fog and gamma) of the sky seen along unit direction rd.
Vec3 skyColor(Vec3 rd);

/// The shading model's ambient occlusion at surface point p with unit normal n, seen from
/// eyeDistance (m): 1 - kAoStrength * fade * sum_i (h_i - f(p + n h_i)) kAoDecay^i, clamped to
/// [0, 1], with taps h_i = kAoStart + kAoSpacing i and fade 1 up to kAoFadeStart, falling
/// linearly to 0 at kAoFadeEnd (no taps from there on).
float ambientOcclusion(const field::UnionField& field, Vec3 p, Vec3 n, double time,
                       float eyeDistance);

/// Final display colour (0..1, gamma applied) of the primary ray; `hitDistance` gets the
/// distance to the surface (m) or +infinity for sky.
Vec3 shadeRay(const field::UnionField& field, const Ray& ray, double time,
              const MaterialColors& materials, float& hitDistance);
Vec3 shadeRay(const field::FieldProgram& program, const Ray& ray, double time,
              const MaterialColors& materials, float& hitDistance);

/// Renders the whole image. Refuses bad sizes and degenerate cameras.
/// The field should be fitted at settings.time (UnionField::refit) for full speed.
Expected<Image> renderImage(const field::UnionField& field, const Camera& camera,
                            const MaterialColors& materials, const RenderSettings& settings);
Expected<Image> renderImage(const field::FieldProgram& program, const Camera& camera,
                            const MaterialColors& materials, const RenderSettings& settings);

}  // namespace floptle::render
