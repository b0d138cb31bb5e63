// Contact generation from SDF queries: each body's surface samples against the collision
// world (closest) and against other bodies' own signed distance, then friction patches.
#include <algorithm>
#include <cmath>

#include "floptle/physics/rigid_body_system.h"

namespace floptle::physics {
namespace {

/// Speculative reach of a body this step: what its motion can close, plus the margin (m).
float reachOf(const BodyState& s, float boundingRadius, float dt, float margin) {
  return margin +
         (glm::length(s.linearVelocity) + glm::length(s.angularVelocity) * boundingRadius) * dt;
}

}  // namespace

void RigidBodySystem::addContact(Contact c) {
  if (!isFinite(c.point) || !isFinite(c.normal) || !std::isfinite(c.separation)) return;
  contacts_.push_back(c);
}

void RigidBodySystem::findWorldContacts(const CollisionWorld& world, double t, float dt) {
  for (std::uint32_t i = 0; i < descs_.size(); ++i) {
    if (!isDynamicAwake(static_cast<std::int32_t>(i))) continue;
    const RigidBodyDesc& d = descs_[i];
    const BodyState& s = states_[i];
    const float reach = reachOf(s, d.shape.boundingRadius(), dt, settings_.contactMargin);
    // One query rules out bodies far from everything.
    auto centre = world.closest(s.position, t);
    if (!centre.ok() || !centre.value() ||
        centre.value()->distance > d.shape.boundingRadius() + reach)
      continue;
    const auto& samples = d.shape.samples();
    for (std::uint32_t k = 0; k < samples.size(); ++k) {
      const Vec3 p = s.position + s.rotation * samples[k].point;
      auto hit = world.closest(p, t);
      if (!hit.ok() || !hit.value()) continue;
      const Hit& h = *hit.value();
      if (h.collider == d.worldCollider) continue;
      const float gap = h.distance - samples[k].radius;
      if (gap >= reach) continue;
      const SurfaceMaterial surface = h.collider.index < worldMaterials_.size()
                                          ? worldMaterials_[h.collider.index]
                                          : SurfaceMaterial{};
      Contact c;
      c.bodyA = i;
      c.bodyB = -1;
      c.worldCollider = static_cast<std::int32_t>(h.collider.index);
      c.feature = k;
      c.normal = h.normal;
      c.point = p - h.normal * samples[k].radius;
      c.separation = gap;
      c.restitution = combineRestitution(d.restitution, surface.restitution);
      if (surface.morphs) c.surfaceVelocity = world.surfaceVelocity(h.collider, h.point, t);
      addContact(c);
      ++counters_.worldContacts;
    }
  }
}

void RigidBodySystem::findBodyContacts(float dt) {
  const std::size_t n = descs_.size();
  if (n < 2) return;
  // Sort-and-sweep on x over bounding spheres grown by their reach; ties by index.
  struct Span {
    float minX, maxX;
    std::uint32_t body;
  };
  std::vector<Span> spans;
  spans.reserve(n);
  std::vector<float> reach(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const BodyState& s = states_[i];
    const float r = descs_[i].shape.boundingRadius();
    reach[i] = reachOf(s, r, dt, settings_.contactMargin);
    spans.push_back({s.position.x - r - reach[i], s.position.x + r + reach[i], i});
  }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return a.minX < b.minX || (a.minX == b.minX && a.body < b.body);
  });
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t a = 0; a < spans.size(); ++a) {
    for (std::size_t b = a + 1; b < spans.size() && spans[b].minX <= spans[a].maxX; ++b) {
      std::uint32_t i = std::min(spans[a].body, spans[b].body);
      std::uint32_t j = std::max(spans[a].body, spans[b].body);
      if (!isDynamicAwake(std::int32_t(i)) && !isDynamicAwake(std::int32_t(j))) continue;
      const BodyState& si = states_[i];
      const BodyState& sj = states_[j];
      const float limit =
          descs_[i].shape.boundingRadius() + descs_[j].shape.boundingRadius() + reach[i] + reach[j];
      const Vec3 d = si.position - sj.position;
      if (glm::dot(d, d) > limit * limit) continue;
      pairs.emplace_back(i, j);
    }
  }
  std::sort(pairs.begin(), pairs.end());

  for (auto [i, j] : pairs) {
    // A is the awake dynamic body; a sleeping or kinematic partner acts as fixed this step
    // and is woken for the next one.
    std::uint32_t a = i, b = j;
    if (!isDynamicAwake(std::int32_t(a))) std::swap(a, b);
    const std::int32_t bi = std::int32_t(b);
    const RigidBodyDesc& da = descs_[a];
    const RigidBodyDesc& db = descs_[b];
    const BodyState& sa = states_[a];
    const BodyState& sb = states_[b];
    const float margin = reach[a] + reach[b] - settings_.contactMargin;
    const float restitution = combineRestitution(da.restitution, db.restitution);
    bool touching = false;
    // Samples of `from` tested against the signed distance of `into`.
    auto test = [&](const RigidBodyDesc& from, const BodyState& sf, const RigidBodyDesc& into,
                    const BodyState& si, bool fromIsA) {
      const Quat inv = glm::conjugate(si.rotation);
      const auto& samples = from.shape.samples();
      for (std::uint32_t k = 0; k < samples.size(); ++k) {
        const Vec3 p = sf.position + sf.rotation * samples[k].point;
        const Vec3 local = inv * (p - si.position);
        const float gap = into.shape.distance(local) - samples[k].radius;
        if (!(gap < margin)) continue;
        // Out of `into`; at an edge or corner, the face turned towards `from`.
        const Vec3 nInto =
            si.rotation * into.shape.normalFacing(local, inv * (sf.position - si.position));
        Contact c;
        c.bodyA = a;
        c.bodyB = bi;
        c.feature = fromIsA ? k : (k | (1u << 19));
        c.normal = fromIsA ? nInto : -nInto;
        c.point = p - nInto * samples[k].radius;
        c.separation = gap;
        c.restitution = restitution;
        addContact(c);
        ++counters_.bodyContacts;
        touching = true;
      }
    };
    const bool aSphere = da.shape.kind() == BodyShapeKind::Sphere;
    const bool bSphere = db.shape.kind() == BodyShapeKind::Sphere;
    if (aSphere) {
      test(da, sa, db, sb, true);
    } else if (bSphere) {
      test(db, sb, da, sa, false);
    } else {
      test(da, sa, db, sb, true);
      test(db, sb, da, sa, false);
    }
    if (touching && db.motion == BodyMotion::Dynamic && sb.asleep &&
        glm::length(sa.linearVelocity) +
                glm::length(sa.angularVelocity) * da.shape.boundingRadius() >
            settings_.sleepLinearSpeed)
      wakeNextStep_.push_back(b);
  }
}

void RigidBodySystem::buildPatches() {
  // Contacts of one touching pair next to each other, in a total order.
  std::stable_sort(contacts_.begin(), contacts_.end(), [](const Contact& x, const Contact& y) {
    if (x.bodyA != y.bodyA) return x.bodyA < y.bodyA;
    if (x.bodyB != y.bodyB) return x.bodyB < y.bodyB;
    return x.worldCollider < y.worldCollider;
  });
  const float cosLimit = std::cos(settings_.slopeLimit);
  for (std::uint32_t first = 0; first < contacts_.size();) {
    const Contact& c0 = contacts_[first];
    std::uint32_t last = first + 1;
    while (last < contacts_.size() && contacts_[last].bodyA == c0.bodyA &&
           contacts_[last].bodyB == c0.bodyB && contacts_[last].worldCollider == c0.worldCollider)
      ++last;
    FrictionPatch p;
    p.bodyA = c0.bodyA;
    p.bodyB = c0.bodyB;
    p.worldCollider = c0.worldCollider;
    p.firstContact = first;
    p.contactCount = last - first;
    Vec3 normalSum(0.0f), pointSum(0.0f), surfaceSum(0.0f);
    for (std::uint32_t k = first; k < last; ++k) {
      normalSum += contacts_[k].normal;
      pointSum += contacts_[k].point;
      surfaceSum += contacts_[k].surfaceVelocity;
    }
    const float count = float(last - first);
    const float len = glm::length(normalSum);
    p.normal = len > 1e-6f ? normalSum / len : c0.normal;
    const Vec3 anchor = pointSum / count;
    p.surfaceVelocity = surfaceSum / count;
    p.rA = anchor - states_[p.bodyA].position;
    p.rB = p.bodyB >= 0 ? anchor - states_[std::size_t(p.bodyB)].position : Vec3(0.0f);
    const float otherFriction = p.bodyB >= 0
                                    ? descs_[std::size_t(p.bodyB)].friction
                                    : (std::size_t(p.worldCollider) < worldMaterials_.size()
                                           ? worldMaterials_[std::size_t(p.worldCollider)].friction
                                           : SurfaceMaterial{}.friction);
    p.friction = combineFriction(descs_[p.bodyA].friction, otherFriction);
    // Up is body A's own: -g / |g| of what it obeys this step (none without gravity).
    const Vec3 gravityA = gravity_[p.bodyA];
    const float g = glm::length(gravityA);
    if (g > 0.0f) {
      const Vec3 up = -gravityA / g;
      // Between two bodies either may rest on the other; on the world only a floor carries.
      const float along = glm::dot(p.normal, up);
      p.carriesWeight = (p.bodyB >= 0 ? std::fabs(along) : along) >= cosLimit - 1e-6f;
    }
    // A fixed tangent basis from the normal.
    const Vec3 helper = std::fabs(p.normal.x) < 0.57f ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
    p.tangent1 = glm::normalize(glm::cross(helper, p.normal));
    p.tangent2 = glm::cross(p.normal, p.tangent1);
    p.mass1 = effectiveMass(p.bodyA, p.bodyB, p.rA, p.rB, p.tangent1);
    p.mass2 = effectiveMass(p.bodyA, p.bodyB, p.rA, p.rB, p.tangent2);
    float lever = 0.0f;
    for (std::uint32_t k = first; k < last; ++k) {
      const Vec3 d = contacts_[k].point - anchor;
      lever += glm::length(d - p.normal * glm::dot(d, p.normal));
    }
    p.twistRadius = lever / count;
    p.twistMass = twistMass(p.bodyA, p.bodyB, p.normal);
    patches_.push_back(p);
    first = last;
  }
  counters_.patches = static_cast<std::uint32_t>(patches_.size());
}

}  // namespace floptle::physics
