// GravityField: the sum of the scene's gravity terms at a point (closed forms in the header).
#include "floptle/gravity/gravity_field.h"

#include <algorithm>
#include <cmath>

namespace floptle::gravity {

using scene::GravitySource;

GravityField::GravityField(scene::GravityFieldDesc desc) : desc_(std::move(desc)) {
  for (const scene::GravityBoxRegion& r : desc_.boxes)
    boxes_.push_back({glm::mat3_cast(glm::conjugate(r.rotation)), r.center, r.halfExtents,
                      r.direction * r.strength});
}

Vec3 GravityField::box(const Box& b, Vec3 p) {
  const Vec3 a = glm::abs(b.toLocal * (p - b.center));
  // Without branches: whether a body is inside is as good as random to the predictor.
  const bool inside =
      (a.x <= b.halfExtents.x) & (a.y <= b.halfExtents.y) & (a.z <= b.halfExtents.z);
  return b.g * float(inside);
}

Vec3 GravityField::sphereRegion(const scene::GravitySphereRegion& r, Vec3 p) {
  const Vec3 d = p - r.center;
  const float len = glm::length(d);
  if (!(len < r.radius) || !(len > 0.0f)) return Vec3(0.0f);
  return (r.outward ? r.strength : -r.strength) * (d / len);
}

Vec3 GravityField::source(const GravitySource& s, float G, Vec3 p) {
  Vec3 d;
  if (s.type == GravitySource::Type::Line) {
    const Vec3 ab = s.end - s.center;
    const float len2 = glm::dot(ab, ab);
    const float u = len2 > 0.0f ? std::clamp(glm::dot(p - s.center, ab) / len2, 0.0f, 1.0f) : 0.0f;
    d = p - (s.center + ab * u);
  } else {
    d = p - s.center;
  }
  // The cut-off on squared distances; the rod needs no root.
  const float r2 = glm::dot(d, d);
  if (!(r2 > 0.0f) || (s.rOuter > 0.0f && r2 >= s.rOuter * s.rOuter)) return Vec3(0.0f);
  if (s.type == GravitySource::Type::Line) return -2.0f * G * s.mass * d / r2;
  const float r = std::sqrt(r2);
  switch (s.type) {
    case GravitySource::Type::Point:
      return -G * s.mass * d / (r * r * r);
    case GravitySource::Type::Sphere:
      if (r < s.radius) return -G * s.mass * d / (s.radius * s.radius * s.radius);
      return -G * s.mass * d / (r * r * r);
    case GravitySource::Type::Planet:
      return -s.strength * (d / r);
    case GravitySource::Type::Line:
      break;
  }
  return Vec3(0.0f);
}

Vec3 GravityField::surfacePull(Vec3 p, double t) const {
  if (!desc_.sdf) return Vec3(0.0f);
  const scene::GravitySdfDesc& sdf = *desc_.sdf;
  if (baked_ && bakedBounds_.contains(p)) {
    const BrickMap& map = *baked_;
    const float f = map.distance(p);
    const float falloff = std::clamp(1.0f - f / sdf.range, 0.0f, 1.0f);
    if (!(falloff > 0.0f)) return Vec3(0.0f);
    // A central difference a cell wide: the trilinear grid's own gradient is one-sided at
    // cell faces, so near a rounded crease it leans towards whichever cell p falls in.
    const float h = map.cellSize();
    const Vec3 grad(map.distance(p + Vec3(h, 0, 0)) - map.distance(p - Vec3(h, 0, 0)),
                    map.distance(p + Vec3(0, h, 0)) - map.distance(p - Vec3(0, h, 0)),
                    map.distance(p + Vec3(0, 0, h)) - map.distance(p - Vec3(0, 0, h)));
    const float len = glm::length(grad);
    if (!(len > 1e-12f) || !std::isfinite(len)) return Vec3(0.0f);
    return -sdf.strength * falloff * (grad / len);
  }
  if (!surface_) return Vec3(0.0f);
  const float f = surface_->distance(p, t);
  const float falloff = std::clamp(1.0f - f / sdf.range, 0.0f, 1.0f);
  if (!(falloff > 0.0f)) return Vec3(0.0f);
  // The tetrahedron difference sum k f(p + e k) over a tetrahedron's corners k, and the same
  // over the opposite tetrahedron (-k): together the cube's 8 corners. One tetrahedron alone
  // leans sideways on a crease (a floor meeting a wall pulls partly along the crease); the
  // pair is symmetric, so a crease pulls along its bisector.
  const float e = sdf.epsilon;
  Vec3 grad(0.0f);
  for (const Vec3 k : {Vec3(1, -1, -1), Vec3(-1, -1, 1), Vec3(-1, 1, -1), Vec3(1, 1, 1)})
    grad += k * (surface_->distance(p + e * k, t) - surface_->distance(p - e * k, t));
  const float len = glm::length(grad);
  if (!(len > 1e-12f) || !std::isfinite(len)) return Vec3(0.0f);
  return -sdf.strength * falloff * (grad / len);
}

Vec3 GravityField::sample(Vec3 p, double t) const {
  Vec3 g = desc_.global.value_or(Vec3(0.0f));
  for (const Box& b : boxes_) g += box(b, p);
  for (const scene::GravitySphereRegion& r : desc_.spheres) g += sphereRegion(r, p);
  for (const GravitySource& s : desc_.sources) g += source(s, desc_.G, p);
  if (desc_.sdf) g += surfacePull(p, t);
  if (density_) g += density_->sample(p);
  return isFinite(g) ? g : Vec3(0.0f);
}

}  // namespace floptle::gravity
