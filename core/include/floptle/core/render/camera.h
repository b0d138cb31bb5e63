#pragma once
// The pinhole camera shared by the CPU reference renderer, the viewport's raymarch shader and
// its rasterized overlays, so that all three put a world point on the same pixel.
// Conventions: vertical field of view in degrees (60 by default), +Y up on screen, pixel (0, 0)
// is the top-left corner of the image and pixel centres sit at half-integers.
#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::render {

/// Orthonormal view basis derived from a Camera: forward points from the eye at the target.
struct CameraBasis {
  Vec3 right{1.0f, 0.0f, 0.0f};
  Vec3 up{0.0f, 1.0f, 0.0f};
  Vec3 forward{0.0f, 0.0f, -1.0f};
};

struct Camera {
  /// Eye position (m).
  Vec3 position{0.0f, 2.0f, 6.0f};
  /// The point the centre of the image looks at (m); must differ from position.
  Vec3 lookAt{0.0f, 0.0f, 0.0f};
  /// Vertical field of view (degrees), in (0, 180).
  float fovYDegrees = 60.0f;
  /// The world direction shown as up on screen (-): world +Y by default; a follow camera on a
  /// curved gravity field tilts it. Need not be unit or perpendicular to the view; only its
  /// component across the view direction counts.
  Vec3 up{0.0f, 1.0f, 0.0f};

  /// Refuses a degenerate camera (eye on the target, non-finite values, fov out of range).
  Expected<void> validate() const;

  /// right = forward x up, up' = right x forward. When looking along `up` a direction across
  /// it stands in (world -Z for the default up), so the basis is always defined.
  CameraBasis basis() const;
  /// tan(fovY / 2) (-).
  float tanHalfFovY() const;

  /// Ray through normalized device coordinates ndc in [-1, 1]^2 (+y up) of an image of the
  /// given aspect ratio (width / height).
  Ray rayThroughNdc(Vec2 ndc, float aspect) const;
  /// Ray through the pixel coordinate (x right, y down, pixel centres at i + 0.5) of a
  /// width x height image.
  Ray rayThroughPixel(Vec2 pixel, int width, int height) const;
  /// Pixel coordinate (x right, y down) of a world point; false when it is behind the eye.
  bool project(Vec3 world, int width, int height, Vec2& pixel) const;

  /// World -> eye matrix (glm::lookAt with the basis above).
  Mat4 viewMatrix() const;
  /// OpenGL projection (clip z in [-w, w]) with the given planes (m).
  Mat4 projectionMatrix(float aspect, float nearPlane, float farPlane) const;
};

/// A camera that sees all of `bounds` (finite part; infinite axes are clamped to +-50 m) from
/// a three-quarter view above, at the given vertical fov (degrees).
Camera framingCamera(const Aabb& bounds, float fovYDegrees = 60.0f);

}  // namespace floptle::render
