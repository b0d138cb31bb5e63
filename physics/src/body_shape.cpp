// BodyShape: closed forms for sphere / box / capsule, sampling for convex field shapes.
#include "floptle/physics/body_shape.h"

#include <cmath>

#include "floptle/core/field/field_program.h"

namespace floptle::physics {
namespace {

constexpr float kPi = 3.14159265358979f;

float boxDistance(Vec3 p, Vec3 h) {
  Vec3 q = glm::abs(p) - h;
  return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

Vec3 boxNormal(Vec3 p, Vec3 h) {
  Vec3 q = glm::abs(p) - h;
  Vec3 sign(p.x < 0 ? -1.0f : 1.0f, p.y < 0 ? -1.0f : 1.0f, p.z < 0 ? -1.0f : 1.0f);
  Vec3 outside = glm::max(q, Vec3(0.0f));
  float len = glm::length(outside);
  if (len > 1e-7f) return sign * outside / len;
  // Inside (or on a face): the face of the largest q is the nearest.
  if (q.x >= q.y && q.x >= q.z) return Vec3(sign.x, 0, 0);
  if (q.y >= q.z) return Vec3(0, sign.y, 0);
  return Vec3(0, 0, sign.z);
}

// Fibonacci sphere: n well-spread unit directions in a fixed order.
std::vector<Vec3> spreadDirections(int n) {
  std::vector<Vec3> dirs;
  dirs.reserve(static_cast<size_t>(n));
  const float golden = kPi * (3.0f - std::sqrt(5.0f));
  for (int i = 0; i < n; ++i) {
    float y = 1.0f - 2.0f * (static_cast<float>(i) + 0.5f) / static_cast<float>(n);
    float ring = std::sqrt(std::max(0.0f, 1.0f - y * y));
    float a = golden * static_cast<float>(i);
    dirs.emplace_back(std::cos(a) * ring, y, std::sin(a) * ring);
  }
  return dirs;
}

}  // namespace

BodyShape BodyShape::sphere(float radius) {
  BodyShape s;
  s.kind_ = BodyShapeKind::Sphere;
  s.radius_ = radius;
  s.volume_ = 4.0f / 3.0f * kPi * radius * radius * radius;
  s.unitInertia_ = Vec3(0.4f * radius * radius);
  s.boundingRadius_ = radius;
  s.boundsHalf_ = Vec3(radius);
  s.samples_ = {{Vec3(0.0f), radius}};
  return s;
}

BodyShape BodyShape::box(Vec3 h) {
  BodyShape s;
  s.kind_ = BodyShapeKind::Box;
  s.halfExtents_ = h;
  s.volume_ = 8.0f * h.x * h.y * h.z;
  Vec3 d = 2.0f * h;
  s.unitInertia_ =
      Vec3(d.y * d.y + d.z * d.z, d.x * d.x + d.z * d.z, d.x * d.x + d.y * d.y) / 12.0f;
  s.boundingRadius_ = glm::length(h);
  s.boundsHalf_ = h;
  // 8 corners, 12 edge midpoints, 6 face centres: every point with each coordinate in
  // {-h, 0, +h} except the centre, with at least one coordinate at +-h on each of ... all.
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z) {
        int onFaces = (x != 0) + (y != 0) + (z != 0);
        if (onFaces == 0) continue;
        s.samples_.push_back({Vec3(float(x) * h.x, float(y) * h.y, float(z) * h.z), 0.0f});
      }
  return s;
}

BodyShape BodyShape::capsule(float halfSegment, float radius) {
  BodyShape s;
  s.kind_ = BodyShapeKind::Capsule;
  s.radius_ = radius;
  s.halfSegment_ = halfSegment;
  const float r = radius, a = halfSegment;
  const float cylVolume = kPi * r * r * 2.0f * a;
  const float sphereVolume = 4.0f / 3.0f * kPi * r * r * r;
  s.volume_ = cylVolume + sphereVolume;
  // Cylinder + two hemispheres shifted by the parallel-axis theorem (hemisphere centroid at 3r/8).
  const float iyCyl = cylVolume * r * r / 2.0f;
  const float ixCyl = cylVolume * (3.0f * r * r + 4.0f * a * a) / 12.0f;
  const float iySph = sphereVolume * 0.4f * r * r;
  const float ixSph = sphereVolume * (0.4f * r * r + a * a + 0.75f * a * r);
  s.unitInertia_ = Vec3(ixCyl + ixSph, iyCyl + iySph, ixCyl + ixSph) / s.volume_;
  s.boundingRadius_ = a + r;
  s.boundsHalf_ = Vec3(r, a + r, r);
  s.samples_ = {{Vec3(0, -a, 0), r}, {Vec3(0, a, 0), r}, {Vec3(0.0f), r}};
  return s;
}

Expected<BodyShape> BodyShape::convexField(std::shared_ptr<const field::FieldProgram> field,
                                           Vec3& centreOfMass) {
  if (!field) return Error{"shape", "a convex field body needs a field"};
  Aabb bounds = field->bounds(0.0);
  if (bounds.empty() || !isFinite(bounds.min) || !isFinite(bounds.max) ||
      glm::length(bounds.max - bounds.min) > 1e4f)
    return Error{"shape", "a dynamic field body must be bounded (no plane or repeat)"};
  // Volume, centre of mass and inertia from a fixed grid of cell centres (deterministic).
  constexpr int kCells = 24;
  Vec3 cell = (bounds.max - bounds.min) / float(kCells);
  float cellVolume = cell.x * cell.y * cell.z;
  double count = 0.0;
  glm::dvec3 sum(0.0), sumSq(0.0);
  std::vector<Vec3> inside;
  for (int i = 0; i < kCells; ++i)
    for (int j = 0; j < kCells; ++j)
      for (int k = 0; k < kCells; ++k) {
        Vec3 p = bounds.min + cell * Vec3(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
        if (field->distance(p, 0.0) < 0.0f) {
          count += 1.0;
          sum += glm::dvec3(p);
          inside.push_back(p);
        }
      }
  if (count < 8.0) return Error{"shape", "the field has (almost) no interior to give it mass"};
  Vec3 com = Vec3(sum / count);
  for (Vec3 p : inside) {
    glm::dvec3 d(p - com);
    sumSq += d * d;
  }
  glm::dvec3 m2 = sumSq / count;  // per unit mass second moments along each axis (m^2)
  BodyShape s;
  s.kind_ = BodyShapeKind::ConvexField;
  s.field_ = std::move(field);
  s.fieldOffset_ = com;
  s.volume_ = float(count) * cellVolume;
  s.unitInertia_ = Vec3(float(m2.y + m2.z), float(m2.x + m2.z), float(m2.x + m2.y));
  // Surface samples: from the centre of mass along spread directions, bisect f = 0.
  const float reach = glm::length(bounds.max - bounds.min);
  float radiusMax = 0.0f;
  Vec3 half(0.0f);
  for (Vec3 dir : spreadDirections(42)) {
    float lo = 0.0f, hi = reach;
    for (int it = 0; it < 32; ++it) {
      float mid = 0.5f * (lo + hi);
      if (s.field_->distance(com + dir * mid, 0.0) < 0.0f)
        lo = mid;
      else
        hi = mid;
    }
    Vec3 local = dir * lo;
    s.samples_.push_back({local, 0.0f});
    radiusMax = std::max(radiusMax, lo);
    half = glm::max(half, glm::abs(local));
  }
  s.boundingRadius_ = radiusMax;
  s.boundsHalf_ = half;
  centreOfMass = com;
  return s;
}

Vec3 BodyShape::normalFacing(Vec3 p, Vec3 towards) const {
  if (kind_ != BodyShapeKind::Box) return normal(p);
  const Vec3 h = halfExtents_;
  const Vec3 q = glm::abs(p) - h;
  const float tolerance = 0.05f * std::min(h.x, std::min(h.y, h.z));  // (m)
  if (glm::length(glm::max(q, Vec3(0.0f))) > tolerance) return normal(p);
  const float nearest = std::max(q.x, std::max(q.y, q.z));
  int best = -1;
  float bestFacing = -2.0f;
  const Vec3 dir = glm::length(towards) > 1e-9f ? glm::normalize(towards) : Vec3(0.0f);
  for (int axis = 0; axis < 3; ++axis) {
    if (q[axis] < nearest - tolerance) continue;
    const float sign = p[axis] < 0.0f ? -1.0f : 1.0f;
    const float facing = sign * dir[axis];
    if (facing > bestFacing) {
      bestFacing = facing;
      best = axis;
    }
  }
  Vec3 n(0.0f);
  n[best] = p[best] < 0.0f ? -1.0f : 1.0f;
  return n;
}

float BodyShape::distance(Vec3 p) const {
  switch (kind_) {
    case BodyShapeKind::Sphere:
      return glm::length(p) - radius_;
    case BodyShapeKind::Box:
      return boxDistance(p, halfExtents_);
    case BodyShapeKind::Capsule: {
      Vec3 q = closestPointOnSegment(p, Vec3(0, -halfSegment_, 0), Vec3(0, halfSegment_, 0));
      return glm::length(p - q) - radius_;
    }
    case BodyShapeKind::ConvexField:
      return field_->distance(p + fieldOffset_, 0.0);
  }
  return 0.0f;
}

Vec3 BodyShape::normal(Vec3 p) const {
  switch (kind_) {
    case BodyShapeKind::Sphere: {
      float len = glm::length(p);
      return len > 1e-7f ? p / len : Vec3(0, 1, 0);
    }
    case BodyShapeKind::Box:
      return boxNormal(p, halfExtents_);
    case BodyShapeKind::Capsule: {
      Vec3 d = p - closestPointOnSegment(p, Vec3(0, -halfSegment_, 0), Vec3(0, halfSegment_, 0));
      float len = glm::length(d);
      return len > 1e-7f ? d / len : Vec3(1, 0, 0);
    }
    case BodyShapeKind::ConvexField:
      return field_->normal(p + fieldOffset_, 0.0);
  }
  return Vec3(0, 1, 0);
}

}  // namespace floptle::physics
