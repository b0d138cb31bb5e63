#pragma once
// BodyShape: the shape of a dynamic rigid body in its own frame, centre of mass at the origin
// (seed 000, "Optional rigid-body dynamics"). Sphere, box and capsule are closed forms; a
// convex field shape is any field graph, sampled once for its surface points, volume and
// inertia. A shape answers two things to the solver:
//  - its own signed distance and normal in body space (so other bodies' sample points can be
//    tested against it, the same SDF contact path as the world);
//  - a fixed list of sample spheres (point + radius) that stand for its surface when it is
//    tested against the world or another body.
#include <cstdint>
#include <memory>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::field {
class FieldProgram;
}

namespace floptle::physics {

enum class BodyShapeKind : std::uint8_t { Sphere, Box, Capsule, ConvexField };

/// One sample of a shape's surface: a sphere of `radius` (m) at `point` (body frame, m).
/// Boxes and convex fields use radius 0 (points on the surface), spheres and capsules their radius.
struct ShapeSample {
  Vec3 point{0.0f};
  float radius = 0.0f;
};

class BodyShape {
 public:
  /// Sphere of radius r (m), r > 0.
  static BodyShape sphere(float radius);
  /// Box of half extents h (m), each > 0.
  static BodyShape box(Vec3 halfExtents);
  /// Capsule along the body's Y axis: segment half length (m) >= 0 and radius (m) > 0.
  static BodyShape capsule(float halfSegment, float radius);
  /// Convex field shape: `field` in body coordinates. Its centre of mass is found by sampling
  /// and returned in `centreOfMass` (m, field frame); the shape is re-centred on it.
  /// Refuses fields without a finite bounded interior.
  static Expected<BodyShape> convexField(std::shared_ptr<const field::FieldProgram> field,
                                         Vec3& centreOfMass);

  BodyShapeKind kind() const { return kind_; }
  float radius() const { return radius_; }
  Vec3 halfExtents() const { return halfExtents_; }
  float halfSegment() const { return halfSegment_; }

  /// Signed distance (m) at a body-frame point, negative inside.
  float distance(Vec3 local) const;
  /// Outward unit normal at a body-frame point.
  Vec3 normal(Vec3 local) const;
  /// Outward normal at a point on or just inside the surface, where edges and corners make
  /// the gradient ambiguous (boxes): among the faces within a tolerance of the nearest, the
  /// one facing `towards` (a body-frame direction, e.g. to the other body's centre) wins.
  /// Keeps two stacked boxes' corner contacts pointing up rather than sideways.
  Vec3 normalFacing(Vec3 local, Vec3 towards) const;
  /// Volume (m^3).
  float volume() const { return volume_; }
  /// Principal moments of inertia per unit mass about the centre of mass (m^2), body axes.
  Vec3 unitInertia() const { return unitInertia_; }
  /// Radius of the smallest origin-centred sphere holding the shape (m).
  float boundingRadius() const { return boundingRadius_; }
  /// Body-frame AABB (m).
  Aabb localBounds() const { return Aabb::fromCenterHalf(Vec3(0.0f), boundsHalf_); }
  /// Surface samples used for contacts (fixed order: contacts and warm starting key on it).
  const std::vector<ShapeSample>& samples() const { return samples_; }

 private:
  BodyShapeKind kind_ = BodyShapeKind::Sphere;
  float radius_ = 0.5f;       // sphere, capsule (m)
  Vec3 halfExtents_{0.5f};    // box (m)
  float halfSegment_ = 0.0f;  // capsule (m)
  Vec3 fieldOffset_{0.0f};    // convex field: field-frame position of the body origin (m)
  std::shared_ptr<const field::FieldProgram> field_;
  float volume_ = 0.0f;
  Vec3 unitInertia_{0.0f};
  float boundingRadius_ = 0.0f;
  Vec3 boundsHalf_{0.0f};
  std::vector<ShapeSample> samples_;
};

}  // namespace floptle::physics
