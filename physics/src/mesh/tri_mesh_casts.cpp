// TriMeshCollider casts: rays, swept spheres, capsules (conservative advancement) and the
// segment-to-mesh distance they rest on.
#include <cmath>

#include "floptle/physics/tri_mesh_collider.h"
#include "mesh/tri_mesh_impl.h"

namespace floptle::physics {
namespace {

constexpr int kStack = 128;

Vec3 safeInverse(Vec3 d) {
  // 1/0 = inf is what the slab test wants; -0 keeps its sign.
  return Vec3(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
}

/// Front-to-back traversal calling leafTest(firstLeaf, count, best) for every leaf whose box
/// (grown by margin) the ray enters before `best`; leafTest may shrink best.
template <class LeafTest>
void traverseRay(const mesh::TriBvh& bvh, Vec3 origin, Vec3 dir, float margin, float& best,
                 LeafTest leafTest) {
  const auto& nodes = bvh.nodes();
  if (nodes.empty()) return;
  const Vec3 invDir = safeInverse(dir);
  std::int32_t stack[kStack];
  float stackT[kStack];
  int sp = 0;
  std::int32_t current = 0;
  for (;;) {
    const mesh::BvhNode& node = nodes[current];
    float t[2];
    for (int s = 0; s < 2; ++s)
      t[s] = node.child[s].index < 0 ? INFINITY
                                     : mesh::childBoxEntry(node, s, origin, invDir, best, margin);
    const int nearSlot = t[1] < t[0] ? 1 : 0;
    std::int32_t next[2];
    float nextT[2];
    int count = 0;
    for (int k = 0; k < 2; ++k) {
      const int s = k == 0 ? nearSlot : 1 - nearSlot;
      if (!(t[s] <= best)) continue;
      const mesh::BvhChild c = node.child[s];
      if (c.count > 0)
        leafTest(static_cast<std::uint32_t>(c.index), c.count, best);
      else
        next[count] = c.index, nextT[count] = t[s], ++count;
    }
    if (count >= 1 && nextT[0] <= best) {
      if (count == 2 && sp < kStack) stack[sp] = next[1], stackT[sp] = nextT[1], ++sp;
      current = next[0];
      continue;
    }
    if (count == 2 && nextT[1] <= best) {
      current = next[1];
      continue;
    }
    bool popped = false;
    while (sp > 0) {
      --sp;
      if (stackT[sp] <= best) {
        current = stack[sp];
        popped = true;
        break;
      }
    }
    if (!popped) return;
  }
}

Vec3 facing(Vec3 n, Vec3 dir) {
  const float len = glm::length(n);
  if (len <= 0.0f) return -dir;
  n /= len;
  return glm::dot(n, dir) > 0.0f ? -n : n;
}

/// Swept sphere (centre origin + s * dir, radius r) against one triangle; entry s or +inf,
/// with the contact point on the triangle.
float sweepSphereTriangle(Vec3 o, Vec3 d, float r, const mesh::LeafTriangle& t, Vec3& contact) {
  const Vec3 a = t.a, b = t.a + t.e1, c = t.a + t.e2;
  Vec3 n = glm::cross(t.e1, t.e2);
  const float len = glm::length(n);
  if (len > 0.0f) {
    n /= len;
    const float h0 = glm::dot(o - a, n);
    const float side = h0 >= 0.0f ? 1.0f : -1.0f;
    const float height = h0 * side, approach = glm::dot(d, n) * side;
    if (approach < 0.0f && height > r) {
      const float s = (height - r) / -approach;
      const Vec3 q = o + d * s - side * r * n;
      // Inside test by barycentric signs on the plane.
      const Vec3 c0 = glm::cross(b - a, q - a), c1 = glm::cross(c - b, q - b),
                 c2 = glm::cross(a - c, q - c);
      if (glm::dot(c0, n) >= 0.0f && glm::dot(c1, n) >= 0.0f && glm::dot(c2, n) >= 0.0f) {
        contact = q;
        return s;
      }
    }
  }
  float best = INFINITY;
  const Vec3 corners[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) {
    const Vec3 p = corners[k], q = corners[(k + 1) % 3];
    const float s = mesh::intersectRayCapsule(o, d, p, q, r);
    if (s >= 0.0f && s < best) {
      best = s;
      contact = closestPointOnSegment(o + d * s, p, q);
    }
  }
  return best;
}

}  // namespace

TriMeshCollider::Hit TriMeshCollider::raycast(Vec3 origin, Vec3 dir, float maxDistance) const {
  Hit hit;
  if (!isFinite(origin) || !isFinite(dir) || !(maxDistance >= 0.0f)) return hit;
  if (impl_->rayBvh.depth() <= mesh::RayBvhWide::kMaxDepth) {
    // The answer comes from the hit leaf block (in cache), not the full-size arrays.
    mesh::RayBvhHit h;
    if (!impl_->rayBvh.raycast(origin, dir, maxDistance, h)) return hit;
    hit.hit = true;
    hit.distance = h.distance;
    hit.point = origin + dir * h.distance;
    hit.normal = facing(glm::cross(h.e1, h.e2), dir);
    hit.triangle = h.triangle;
    return hit;
  }
  // A tree too deep for the four-wide traversal's fixed stack: the binary one. Ties go to the
  // lower input triangle index either way.
  const auto& tris = impl_->bvh.triangles();
  const auto& order = impl_->bvh.order();
  float best = maxDistance;
  std::uint32_t bestLeaf = 0;
  bool found = false;
  traverseRay(impl_->bvh, origin, dir, 0.0f, best,
              [&](std::uint32_t first, std::uint32_t count, float& b) {
                for (std::uint32_t i = first; i < first + count; ++i) {
                  const mesh::LeafTriangle& t = tris[i];
                  const float s = mesh::intersectRayTriangle(origin, dir, t.a, t.e1, t.e2);
                  if (!(s >= 0.0f) || s > b) continue;
                  if (s < b || !found || order[i] < order[bestLeaf])
                    b = s, bestLeaf = i, found = true;
                }
              });
  if (!found) return hit;
  const mesh::LeafTriangle& t = tris[bestLeaf];
  hit.hit = true;
  hit.distance = best;
  hit.point = origin + dir * best;
  hit.normal = facing(glm::cross(t.e1, t.e2), dir);
  hit.triangle = impl_->bvh.order()[bestLeaf];
  return hit;
}

TriMeshCollider::Hit TriMeshCollider::sphereCast(Vec3 origin, Vec3 dir, float radius,
                                                 float maxDistance) const {
  if (!(radius > 0.0f)) return raycast(origin, dir, maxDistance);
  Hit hit;
  if (!isFinite(origin) || !isFinite(dir) || !(maxDistance >= 0.0f)) return hit;
  // Already touching: contact at 0.
  const LeafClosest start = impl_->closestLeaf(origin, radius);
  if (start.found) {
    hit.hit = true;
    hit.point = start.point;
    hit.triangle = impl_->bvh.order()[start.leaf];
    const Vec3 away = origin - start.point;
    hit.normal = glm::length(away) > 1e-7f ? glm::normalize(away)
                                           : facing(impl_->leafSign[start.leaf].faceNormal, dir);
    return hit;
  }
  const auto& tris = impl_->bvh.triangles();
  float best = maxDistance;
  std::uint32_t bestLeaf = 0;
  Vec3 bestContact(0.0f);
  bool found = false;
  traverseRay(
      impl_->bvh, origin, dir, radius, best,
      [&](std::uint32_t first, std::uint32_t count, float& b) {
        for (std::uint32_t i = first; i < first + count; ++i) {
          Vec3 contact(0.0f);
          // Start the sweep near the triangle (no contact can come before the ray reaches its
          // bounding ball grown by r): keeps the quadratics' cancellation small far from origin.
          const mesh::LeafTriangle& t = tris[i];
          const Vec3 centroid = t.a + (t.e1 + t.e2) / 3.0f;
          const float ball = std::max(
              glm::length(t.a - centroid),
              std::max(glm::length(t.a + t.e1 - centroid), glm::length(t.a + t.e2 - centroid)));
          const float skip = std::max(0.0f, glm::length(origin - centroid) - ball - radius - 1e-3f);
          float s = sweepSphereTriangle(origin + dir * skip, dir, radius, t, contact);
          s += skip;
          if (s <= b) b = s, bestLeaf = i, bestContact = contact, found = true;
        }
      });
  if (!found) return hit;
  hit.hit = true;
  hit.distance = best;
  hit.point = bestContact;
  const Vec3 centre = origin + dir * best;
  const Vec3 away = centre - bestContact;
  hit.normal = glm::length(away) > 1e-7f
                   ? glm::normalize(away)
                   : facing(glm::cross(tris[bestLeaf].e1, tris[bestLeaf].e2), dir);
  hit.triangle = impl_->bvh.order()[bestLeaf];
  return hit;
}

float TriMeshCollider::segmentDistance(Vec3 a, Vec3 b, Vec3* onSegment, Vec3* onMesh) const {
  const auto& nodes = impl_->bvh.nodes();
  const auto& tris = impl_->bvh.triangles();
  const Vec3 mid = 0.5f * (a + b);
  const float halfLength = 0.5f * glm::length(b - a);
  const Vec3 dir = halfLength > 0.0f ? (b - a) / (2.0f * halfLength) : Vec3(0.0f, 1.0f, 0.0f);
  float best = INFINITY;
  Vec3 bestS = a, bestM = a;
  auto test = [&](const mesh::LeafTriangle& t) {
    const Vec3 p0 = t.a, p1 = t.a + t.e1, p2 = t.a + t.e2;
    if (halfLength > 0.0f) {
      const float s = mesh::intersectRayTriangle(a, dir, t.a, t.e1, t.e2);
      if (s >= 0.0f && s <= 2.0f * halfLength) {
        best = 0.0f, bestS = bestM = a + dir * s;
        return;
      }
    }
    mesh::Feature f;
    for (const Vec3& end : {a, b}) {
      const Vec3 q = mesh::closestPointOnTriangle(end, p0, p1, p2, f);
      const float d = glm::length(q - end);
      if (d < best) best = d, bestS = end, bestM = q;
    }
    const Vec3 corners[3] = {p0, p1, p2};
    for (int k = 0; k < 3; ++k) {
      Vec3 c1, c2;
      const float d =
          std::sqrt(mesh::closestSegmentSegment(a, b, corners[k], corners[(k + 1) % 3], c1, c2));
      if (d < best) best = d, bestS = c1, bestM = c2;
    }
  };
  if (!nodes.empty()) {
    std::int32_t stack[kStack];
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0 && best > 0.0f) {
      const mesh::BvhNode& node = nodes[stack[--sp]];
      for (int s = 0; s < 2; ++s) {
        const mesh::BvhChild c = node.child[s];
        if (c.index < 0) continue;
        // Lower bound: every segment point is within halfLength of mid.
        const float bound = std::sqrt(mesh::childBoxDistance2(node, s, mid)) - halfLength;
        if (bound >= best) continue;
        if (c.count > 0) {
          for (std::uint32_t i = 0; i < c.count; ++i)
            test(tris[static_cast<std::uint32_t>(c.index) + i]);
        } else if (sp < kStack) {
          stack[sp++] = c.index;
        }
      }
    }
  }
  if (onSegment) *onSegment = bestS;
  if (onMesh) *onMesh = bestM;
  return best;
}

TriMeshCollider::Hit TriMeshCollider::capsuleCast(Vec3 a, Vec3 b, float radius, Vec3 dir,
                                                  float maxDistance) const {
  Hit hit;
  if (!isFinite(a) || !isFinite(b) || !isFinite(dir) || !(radius >= 0.0f) || !(maxDistance >= 0.0f))
    return hit;
  constexpr float kContact = 1e-4f;  // gap that counts as touching (m)
  float s = 0.0f;
  for (int iteration = 0; iteration < 512; ++iteration) {
    Vec3 onSegment, onMesh;
    const float gap = segmentDistance(a + dir * s, b + dir * s, &onSegment, &onMesh) - radius;
    if (gap <= kContact) {
      hit.hit = true;
      hit.distance = s;
      hit.point = onMesh;
      const Vec3 away = onSegment - onMesh;
      hit.normal = glm::length(away) > 1e-7f ? glm::normalize(away) : -dir;
      const LeafClosest c = impl_->closestLeaf(onMesh, 1e-3f);
      if (c.found) hit.triangle = impl_->bvh.order()[c.leaf];
      return hit;
    }
    // Every point of the capsule moves by exactly the travelled distance, so a step of the
    // gap cannot pass through anything.
    s += gap;
    if (s > maxDistance) return hit;
  }
  return hit;
}

TriMeshCollider::CastResult TriMeshCollider::castSphere(Vec3 origin, Vec3 dir, float radius,
                                                        float maxDistance, double) const {
  CastResult out;
  out.handled = true;
  const Hit h = radius > 0.0f ? sphereCast(origin, dir, radius, maxDistance)
                              : raycast(origin, dir, maxDistance);
  out.hit = h.hit;
  out.distance = h.distance;
  out.point = h.point;
  out.normal = h.normal;
  return out;
}

}  // namespace floptle::physics
