#pragma once
// TriMeshCollider: a static triangle mesh behind CollisionShape (seed 000, "Triangle-mesh BVH
// colliders"). A BVH built once with the surface-area heuristic answers closest points, rays,
// sphere casts and capsule casts; one uint16 label per triangle maps to the mesh's material
// slot names and is read only on demand (faceLabel).
//
// Signed distance: |d| from the BVH closest point. The sign comes from the angle-weighted
// pseudo-normal of the closest feature (face, edge or vertex; exact for a closed, consistently
// wound mesh, Baerentzen & Aanaes 2005). Where that feature touches a boundary or non-manifold
// edge (a hole, a crack, an open sheet) the pseudo-normal means nothing, and the sign comes
// from the generalized winding number w (Jacobson et al. 2013, evaluated hierarchically with
// the first-order dipole far field of Barill et al. 2018, good to a few hundredths): a mesh whose
// area-weighted normals nearly cancel is a closed surface, possibly leaky, and p is inside where w
// > 1/2; an open sheet (a terrain, |sum of area normals| > 1/2 of its area) has w = +-1/2 on its
// two sides and p is inside where w > 0, i.e. behind its faces.
//
// The collider is built in world space (the node's transform applied to the vertices), is
// immutable, and every query is const and thread-safe. Its state (mesh, BVH, sign data) is
// never written after create(), so share() hands out more colliders over the same state at
// no cost (the mesh collider cache keeps one prototype per file and shares it with every world).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/core/expected.h"
#include "floptle/physics/collision_shape.h"

namespace floptle::physics {

class TriMeshCollider final : public CollisionShape {
 public:
  struct Settings {
    /// False for single-surface meshes (drawn terrain): faceLabel answers nullopt.
    bool labelled = true;
  };

  /// Builds from a world-space mesh. Errors: no triangles, non-finite vertices, an index out
  /// of range, labels and slots of different sizes.
  static Expected<std::unique_ptr<TriMeshCollider>> create(const asset::TriangleMesh& worldMesh,
                                                           Settings settings);
  static Expected<std::unique_ptr<TriMeshCollider>> create(const asset::TriangleMesh& worldMesh) {
    return create(worldMesh, Settings{});
  }
  ~TriMeshCollider() override;

  /// A second collider over the same (immutable) mesh and BVH: no copy, no rebuild.
  std::unique_ptr<TriMeshCollider> share() const;
  /// Bytes held by the mesh, the BVHs and the per-triangle data (an estimate: vector
  /// payloads, not allocator overhead) (bytes).
  std::size_t memoryBytes() const;

  // CollisionShape
  float distance(Vec3 p, double t) const override;
  Vec3 normal(Vec3 p, double t) const override;
  Aabb aabb(double t) const override;
  std::optional<std::uint16_t> faceLabel(Vec3 p) const override;
  std::string labelName(std::uint16_t label) const override;
  /// Exact swept-sphere (radius 0: a ray) against the triangles; always handled.
  CastResult castSphere(Vec3 origin, Vec3 unitDir, float radius, float maxDistance,
                        double t) const override;

  struct Closest {
    bool found = false;          ///< false when nothing lies within maxDistance
    float distance = 0.0f;       ///< signed (m), negative inside
    Vec3 point{0.0f};            ///< nearest surface point (m)
    Vec3 normal{0.0f};           ///< outward unit normal of the signed distance at the query
    std::uint32_t triangle = 0;  ///< index into the input mesh's triangles
  };
  /// Nearest surface point within maxDistance (m) of p.
  Closest closest(Vec3 p, float maxDistance = std::numeric_limits<float>::infinity()) const;

  struct Hit {
    bool hit = false;
    float distance = 0.0f;       ///< along the unit direction (m)
    Vec3 point{0.0f};            ///< contact point on the mesh (m)
    Vec3 normal{0.0f};           ///< unit normal facing the caster
    std::uint32_t triangle = 0;  ///< index into the input mesh's triangles
  };
  /// First triangle along origin + s * unitDir, s in [0, maxDistance]; both faces count.
  Hit raycast(Vec3 origin, Vec3 unitDir, float maxDistance) const;
  /// Sphere of `radius` (m) swept along unitDir. Starting in contact: hit at 0.
  Hit sphereCast(Vec3 origin, Vec3 unitDir, float radius, float maxDistance) const;
  /// Capsule (segment a-b, radius) swept along unitDir, by conservative advancement on the
  /// exact segment-to-mesh distance; contact within 1e-4 m.
  Hit capsuleCast(Vec3 a, Vec3 b, float radius, Vec3 unitDir, float maxDistance) const;
  /// Signed distance when the surface lies within maxDistance (m) of p, else +infinity (side
  /// not searched). `hint` (opaque; start with ~0u) carries the nearest triangle from call to
  /// call, so a run of nearby queries (a bake) prunes most of the tree at once.
  float boundedDistance(Vec3 p, float maxDistance, std::uint32_t& hint) const;
  /// Generalized winding number at p (-): 1 inside a closed outward-wound mesh, 0 outside.
  float windingNumber(Vec3 p) const;
  /// Distance from segment a-b to the nearest triangle (m, unsigned).
  float segmentDistance(Vec3 a, Vec3 b, Vec3* onSegment = nullptr, Vec3* onMesh = nullptr) const;

  std::size_t triangleCount() const;
  /// Label of an input triangle.
  std::uint16_t triangleLabel(std::uint32_t triangle) const;
  /// The mesh as built (world space), for drawing.
  const asset::TriangleMesh& mesh() const;

  struct Impl;

 private:
  explicit TriMeshCollider(std::shared_ptr<const Impl> impl);
  /// Shared by every collider share() made; const: nothing writes it after create().
  std::shared_ptr<const Impl> impl_;
};

}  // namespace floptle::physics
