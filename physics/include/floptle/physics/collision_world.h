#pragma once
// CollisionWorld: one per scene. Holds colliders in slots (ColliderId = slot index and
// generation), a dynamic AABB tree over their boxes (colliders come and go by insert and
// remove; a step only refits), and answers the queries every controller and the solver
// build on (seed 000, "The collision world"): closest, sphereOverlap, capsuleOverlap,
// raycast, spherecast and sweep.
//
// Conventions (all queries):
//  - Positions (m), time t (s). Bad arguments (NaN or infinite numbers, a zero direction or
//    motion, a negative radius or max distance) give an Error naming the argument; no query
//    ever returns a NaN.
//  - A miss is std::nullopt. Every hit is built by one function (makeHit) and names its
//    collider; nodeName(hit) is the node, material(hit) the face label resolved on read.
//  - Among several colliders the best hit wins (nearest / deepest); ties go to the lower
//    ColliderId (by index, then generation), so results never depend on traversal order,
//    nor on the history of adds and removes that shaped the tree: a query with the
//    broadphase gives the same bits as the scan of setUseBroadphase(false).
//  - Queries use the AABBs of the last refit(t): call refit(t) once per step (or before
//    querying at a new time when colliders morph or move).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floptle/core/entity.h"
#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/core/vec_divide.h"
#include "floptle/physics/collider_bvh.h"
#include "floptle/physics/collider_id.h"
#include "floptle/physics/collision_shape.h"

namespace floptle::physics {

/// How a node's body moves: never (static), by script/animation (kinematic), by the solver.
enum class BodyKind : std::uint8_t { Static, Kinematic, Dynamic };
std::optional<BodyKind> bodyKindFromName(std::string_view name);  ///< "static" ...
std::string_view bodyKindName(BodyKind kind);

/// One hit on a collider's surface. What `distance` means depends on the query:
///   raycast / spherecast / sweep: distance travelled along the unit direction (m);
///   closest: signed distance from the query point (m), negative inside;
///   sphereOverlap / capsuleOverlap: penetration depth (m), > 0.
struct Hit {
  ColliderId collider;
  /// Surface point for rays and closest; the deepest point of the swept or overlapping
  /// sphere (centre - radius * normal) for sphere and capsule queries (m).
  Vec3 point{0.0f};
  /// Outward unit normal of the collider at the hit.
  Vec3 normal{0.0f, 1.0f, 0.0f};
  float distance = 0.0f;
  /// sweep only: fraction of the motion travelled before contact, in [0, 1] (-).
  float toi = 0.0f;
  /// The query started inside (ray) or overlapping (sphere/capsule cast): distance 0.
  bool inside = false;
};

/// A convex shape to sweep: a sphere (centre a) or a capsule (axis a..b), radius (m).
struct SweepShape {
  enum class Kind : std::uint8_t { Sphere, Capsule };
  Kind kind = Kind::Sphere;
  Vec3 a{0.0f};
  Vec3 b{0.0f};
  float radius = 0.0f;
  static SweepShape sphere(Vec3 centre, float radius) {
    return {Kind::Sphere, centre, centre, radius};
  }
  static SweepShape capsule(Vec3 a, Vec3 b, float radius) { return {Kind::Capsule, a, b, radius}; }
};

class CollisionWorld {
 public:
  // ---- documented tuning (why these values: see collision_world.cpp) -------------------
  /// Relative hit epsilon (-): a march stops when f < kHitEpsilon * max(1 m, |p|_inf), i.e.
  /// a few float ulps of the point's coordinates, so accuracy holds at any world offset.
  static constexpr float kHitEpsilon = 1e-6f;
  /// Most sphere-marching steps per collider per cast; a ray that has not converged by then
  /// (a near-tangent graze) is reported as a miss: it passed within the last f of the surface.
  static constexpr int kMaxMarchSteps = 512;
  /// Capsule axis search: coarse samples and golden-section refinements (seed 000).
  static constexpr int kCapsuleCoarseSamples = 3;
  static constexpr int kCapsuleGoldenSteps = 5;
  /// Default dt of surfaceVelocity (s).
  static constexpr double kSurfaceVelocityDt = 1.0 / 240.0;

  CollisionWorld() = default;
  CollisionWorld(CollisionWorld&&) noexcept = default;
  CollisionWorld& operator=(CollisionWorld&&) noexcept = default;

  /// Adds a collider for `node`, inserted into the broadphase in O(log n) (no rebuild).
  /// The world owns the shape (not null). Its box is read at refitTime().
  ColliderId add(std::unique_ptr<CollisionShape> shape, std::string node,
                 BodyKind body = BodyKind::Static, bool collidable = true);
  /// One collider of addMany.
  struct NewCollider {
    std::unique_ptr<CollisionShape> shape;
    std::string node;
    BodyKind body = BodyKind::Static;
    bool collidable = true;
  };
  /// Adds many colliders at once (a scene being loaded): the broadphase is rebuilt over all
  /// colliders by a binned SAH build, O(n log n), a better tree than as many add()s. Ids in
  /// the order given.
  std::vector<ColliderId> addMany(std::vector<NewCollider> colliders);
  /// Removes a collider (O(log n)); its id and every copy of it become invalid. Error for a
  /// null or stale id.
  Expected<void> remove(ColliderId id);
  /// Whether `id` names a collider of this world now (not null, not removed).
  bool valid(ColliderId id) const {
    return id.generation != 0 && id.index < colliders_.size() &&
           slots_.alive(EntityId{id.index + 1, id.generation});
  }

  /// Re-reads every collider's aabb(t) and refits the BVH bottom-up (topology unchanged).
  void refit(double t);
  double refitTime() const { return refitTime_; }
  /// Re-reads only the listed colliders' aabb(t) (the others keep theirs) and refits their
  /// paths to the root: for a few moving colliders in a large static world.
  void refitColliders(const std::vector<ColliderId>& ids, double t);

  /// Number of colliders.
  std::size_t size() const { return slots_.aliveCount(); }
  /// One past the largest slot index in use: the size of side tables indexed by id.index.
  std::size_t slotCount() const { return colliders_.size(); }
  class IdRange;
  /// The live ids in index order: `for (ColliderId id : world.ids())`.
  IdRange ids() const;

  // Accessors: `id` must be valid (asserted in debug builds).
  const std::string& nodeName(ColliderId id) const { return at(id).node; }
  /// The node a hit names: its collider's node, or for a collider composed of several
  /// nodes (CollisionShape::memberAt) the member whose field decides the surface at the hit
  /// point, read at refitTime() (the query protocol refits to each query's t).
  const std::string& nodeName(const Hit& hit) const;
  BodyKind body(ColliderId id) const { return at(id).body; }
  bool collidable(ColliderId id) const { return at(id).collidable; }
  /// Non-collidable colliders are skipped by every query.
  void setCollidable(ColliderId id, bool collidable) { at(id).collidable = collidable; }
  const CollisionShape& shape(ColliderId id) const { return *at(id).shape; }
  /// Mutable access (moving kinematic bodies); refit afterwards.
  CollisionShape& shape(ColliderId id) { return *at(id).shape; }
  /// The collider's box as of the last refit (m).
  const Aabb& colliderAabb(ColliderId id) const {
    assert(valid(id));
    return boxes_[id.index];
  }
  /// The collider whose node is `name`, if any (first by index).
  std::optional<ColliderId> find(std::string_view node) const;

  /// false: every query visits every collider in index order (brute force), for tests
  /// that hold the BVH to it. Results are identical either way.
  void setUseBroadphase(bool use) { useBroadphase_ = use; }

  // ---- queries -------------------------------------------------------------------------
  /// Nearest surface of the union of colliders: signed distance, surface point p - f*n and
  /// normal. nullopt only when the world has no collidable collider.
  Expected<std::optional<Hit>> closest(Vec3 p, double t) const;
  /// The signed distance alone (m) of closest's surface: no normal, no checks. +infinity when
  /// the world has no collidable collider; p and t must be finite.
  float distance(Vec3 p, double t) const;
  /// Deepest collider a sphere overlaps (f(c) < r): penetration r - f(c), normal n(c),
  /// point c - r*n.
  Expected<std::optional<Hit>> sphereOverlap(Vec3 centre, float radius, double t) const;
  /// Capsule a..b of radius r: its end spheres, and the axis point nearest each collider
  /// (three coarse samples, five golden-section refinements) when strictly between the ends
  /// and nearer than either. Reports the deepest.
  Expected<std::optional<Hit>> capsuleOverlap(Vec3 a, Vec3 b, float radius, double t) const;
  /// Sphere-marched ray. ray.direction need not be unit (it is normalized; distances are
  /// along the unit direction). A ray starting inside a collider hits at distance 0 with
  /// `inside` set and the normal at the origin.
  Expected<std::optional<Hit>> raycast(const Ray& ray, float maxDistance, double t) const;
  /// Moves a sphere of radius r from origin along dir up to maxDistance: hit when f < r,
  /// steps by f - r, so it cannot tunnel whatever the distance. Starting overlapping gives
  /// distance 0 with `inside` set.
  Expected<std::optional<Hit>> spherecast(Vec3 origin, Vec3 dir, float radius, float maxDistance,
                                          double t) const;
  /// Sweeps a sphere or capsule by `motion` (m); toi in [0, 1] is the fraction travelled.
  Expected<std::optional<Hit>> sweep(const SweepShape& shape, Vec3 motion, double t) const;

  /// Material at the hit, resolved now: the material slot name (CollisionShape::faceLabel +
  /// labelName) of a mesh, the member node's material id of a composed collider (read at
  /// refitTime()); nullopt for other single-surface shapes. Never called on the query path.
  std::optional<std::string> material(const Hit& hit) const;
  /// Velocity of the surface at p along its normal from dF/dt (m/s):
  /// v = -(f(p, t+dt) - f(p, t)) / dt * n.
  Vec3 surfaceVelocity(ColliderId id, Vec3 p, double t, double dt = kSurfaceVelocityDt) const;
  Vec3 surfaceVelocity(const Hit& hit, double t, double dt = kSurfaceVelocityDt) const {
    return surfaceVelocity(hit.collider, hit.point, t, dt);
  }

  /// The one builder of hits: guards the normal (a degenerate gradient falls back to
  /// `fallbackNormal`) and every number, so no NaN leaves a query.
  static Hit makeHit(ColliderId collider, Vec3 point, Vec3 normal, float distance, bool inside,
                     Vec3 fallbackNormal, float toi = 0.0f);

 private:
  /// The nearest collidable collider's signed distance at p and its slot; NaN when none.
  float nearest(Vec3 p, double t, std::uint32_t& bestIndex) const;
  /// One slot. A free slot has no shape, is not collidable and has an empty box.
  struct Collider {
    std::unique_ptr<CollisionShape> shape;
    std::string node;
    BodyKind body = BodyKind::Static;
    bool collidable = true;
    ColliderBvh::Leaf leaf = ColliderBvh::kNoLeaf;
  };
  Collider& at(ColliderId id) {
    assert(valid(id));
    return colliders_[id.index];
  }
  const Collider& at(ColliderId id) const {
    assert(valid(id));
    return colliders_[id.index];
  }
  /// The live collider in slot `index`.
  ColliderId idAt(std::uint32_t index) const { return {index, slots_.idOfSlot(index).generation}; }
  /// A slot for a new collider (the lowest free one first); the broadphase is not touched.
  ColliderId place(NewCollider collider);

  template <class Visit>
  void forEachOverlapping(const Aabb& box, Visit&& visit) const;
  std::optional<Hit> castAlong(Vec3 origin, Vec3 dir, float radius, float maxDistance,
                               double t) const;
  std::optional<Hit> sweepCapsule(const SweepShape& shape, Vec3 motion, double t) const;

  /// Slot s holds collider index s; its EntityId (index s + 1) carries the generation.
  EntityRegistry slots_;
  std::vector<Collider> colliders_;  ///< by slot index
  /// boxes_[i] = colliders_[i].shape->aabb(refitTime_); empty for a free slot.
  std::vector<Aabb> boxes_;
  ColliderBvh bvh_;
  double refitTime_ = 0.0;
  bool useBroadphase_ = true;
};

/// The live ids of a world in index order (the world must outlive it, unchanged).
class CollisionWorld::IdRange {
 public:
  class iterator {
   public:
    using value_type = ColliderId;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const CollisionWorld* world, std::uint32_t index) : world_(world), index_(index) {
      skipFree();
    }
    ColliderId operator*() const { return world_->idAt(index_); }
    iterator& operator++() {
      ++index_;
      skipFree();
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const iterator& o) const { return index_ == o.index_; }

   private:
    void skipFree() {
      while (index_ < world_->colliders_.size() && !world_->colliders_[index_].shape) ++index_;
    }
    const CollisionWorld* world_ = nullptr;
    std::uint32_t index_ = 0;
  };
  explicit IdRange(const CollisionWorld& world) : world_(&world) {}
  iterator begin() const { return {world_, 0}; }
  iterator end() const { return {world_, static_cast<std::uint32_t>(world_->colliders_.size())}; }

 private:
  const CollisionWorld* world_;
};

inline CollisionWorld::IdRange CollisionWorld::ids() const {
  return IdRange(*this);
}

// In the header so the casts inline it: it runs once per hit of every query.
inline Hit CollisionWorld::makeHit(ColliderId collider, Vec3 point, Vec3 normal, float distance,
                                   bool inside, Vec3 fallbackNormal, float toi) {
  Hit hit;
  hit.collider = collider;
  const float len = glm::length(normal);
  // A degenerate gradient (a crease, the centre of a sphere) has no direction: use the
  // caller's fallback rather than let a NaN out.
  hit.normal = (std::isfinite(len) && len > 1e-6f) ? dividedBy(normal, len) : fallbackNormal;
  hit.point = isFinite(point) ? point : Vec3(0.0f);
  hit.distance = std::isfinite(distance) ? distance : 0.0f;
  hit.toi = std::isfinite(toi) ? std::clamp(toi, 0.0f, 1.0f) : 0.0f;
  hit.inside = inside;
  return hit;
}

template <class Visit>
void CollisionWorld::forEachOverlapping(const Aabb& box, Visit&& visit) const {
  auto guarded = [&](std::uint32_t index) {
    if (colliders_[index].collidable && boxes_[index].overlaps(box)) visit(idAt(index));
  };
  if (useBroadphase_) {
    bvh_.forEachOverlapping(box, guarded);
  } else {
    for (std::uint32_t index = 0; index < colliders_.size(); ++index) guarded(index);
  }
}

}  // namespace floptle::physics
