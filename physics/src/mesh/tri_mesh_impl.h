#pragma once
// Private state of TriMeshCollider: the BVH, per-leaf-triangle labels and sign data.
#include <cstdint>
#include <limits>
#include <vector>

#include "floptle/physics/tri_mesh_collider.h"
#include "mesh/tri_bvh.h"
#include "mesh/tri_ray_bvh_wide.h"
#include "mesh/triangle_geometry.h"

namespace floptle::physics {

/// Pseudo-normals of one triangle's features, and which of them can be trusted for the sign.
struct TriangleSignData {
  Vec3 faceNormal{0.0f};
  Vec3 edgeNormal[3];         // AB, BC, CA: sum of the two faces' normals
  Vec3 vertexNormal[3];       // A, B, C: angle-weighted sum of the incident faces' normals
  std::uint8_t reliable = 0;  // bit k: edge k (0..2), bit 3 + k: vertex k; two-faced, consistent
};

struct LeafClosest {
  bool found = false;
  float distance2 = 0.0f;  // squared (m^2)
  Vec3 point{0.0f};
  std::uint32_t leaf = 0;
  mesh::Feature feature = mesh::Feature::Face;
};

struct TriMeshCollider::Impl {
  asset::TriangleMesh mesh;
  mesh::TriBvh bvh;
  /// Four-wide copy of the boxes of bvh for rays (the triangles stay in bvh).
  mesh::RayBvhWide rayBvh;
  std::vector<std::uint16_t> leafLabels;
  std::vector<TriangleSignData> leafSign;
  bool labelled = true;
  /// Open sheet (terrain-like): winding number +-1/2 on its sides, inside threshold 0.
  bool openSheet = false;

  /// Nearest triangle within maxDistance; `hintLeaf` (if valid) seeds the search bound.
  LeafClosest closestLeaf(Vec3 p, float maxDistance,
                          std::uint32_t hintLeaf = std::numeric_limits<std::uint32_t>::max()) const;
  /// -1 inside, +1 outside, for p whose nearest surface point is `c`.
  float signAt(Vec3 p, const LeafClosest& c) const;
  float windingNumber(Vec3 p) const;
  /// Signed distance and the leaf used; maxDistance bounds the search (beyond: !found).
  LeafClosest signedClosest(
      Vec3 p, float maxDistance, float& signedDistance,
      std::uint32_t hintLeaf = std::numeric_limits<std::uint32_t>::max()) const;
};

}  // namespace floptle::physics
