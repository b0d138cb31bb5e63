// TriMeshCollider: build (BVH, welded adjacency, pseudo-normals), closest point, sign, labels.
#include "floptle/physics/tri_mesh_collider.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "mesh/tri_mesh_impl.h"

namespace floptle::physics {
namespace {

using mesh::Feature;

/// Welded vertex ids: equal positions share an id (exact comparison), so adjacency is found
/// across the seams Assimp leaves where normals or UVs differ.
std::vector<std::uint32_t> weldPositions(const std::vector<Vec3>& positions) {
  std::vector<std::uint32_t> order(positions.size());
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](std::uint32_t a, std::uint32_t b) {
    const Vec3 &p = positions[a], &q = positions[b];
    if (p.x != q.x) return p.x < q.x;
    if (p.y != q.y) return p.y < q.y;
    if (p.z != q.z) return p.z < q.z;
    return a < b;
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<std::uint32_t> id(positions.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    id[order[i]] =
        (i > 0 && positions[order[i]] == positions[order[i - 1]]) ? id[order[i - 1]] : order[i];
  return id;
}

float cornerAngle(Vec3 at, Vec3 a, Vec3 b) {
  const Vec3 u = a - at, v = b - at;
  const float lu = glm::length(u), lv = glm::length(v);
  if (lu <= 0.0f || lv <= 0.0f) return 0.0f;
  return std::acos(std::clamp(glm::dot(u, v) / (lu * lv), -1.0f, 1.0f));
}

Vec3 safeNormalize(Vec3 v) {
  const float len = glm::length(v);
  return len > 0.0f ? v / len : Vec3(0.0f);
}

}  // namespace

TriMeshCollider::TriMeshCollider(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
TriMeshCollider::~TriMeshCollider() = default;

std::unique_ptr<TriMeshCollider> TriMeshCollider::share() const {
  return std::unique_ptr<TriMeshCollider>(new TriMeshCollider(impl_));
}

std::size_t TriMeshCollider::memoryBytes() const {
  const Impl& i = *impl_;
  std::size_t bytes = sizeof(Impl);
  bytes += i.mesh.positions.size() * sizeof(Vec3) +
           i.mesh.triangles.size() * sizeof(i.mesh.triangles[0]) +
           i.mesh.triangleSlots.size() * sizeof(std::uint16_t);
  for (const asset::MaterialSlot& slot : i.mesh.materialSlots)
    bytes += sizeof(slot) + slot.name.size();
  bytes += i.bvh.nodes().size() * sizeof(mesh::BvhNode) +
           i.bvh.moments().size() * sizeof(mesh::BvhMoments) +
           i.bvh.triangles().size() * sizeof(mesh::LeafTriangle) +
           i.bvh.order().size() * sizeof(std::uint32_t);
  bytes += i.rayBvh.memoryBytes();
  bytes +=
      i.leafLabels.size() * sizeof(std::uint16_t) + i.leafSign.size() * sizeof(TriangleSignData);
  return bytes;
}

Expected<std::unique_ptr<TriMeshCollider>> TriMeshCollider::create(
    const asset::TriangleMesh& source, Settings settings) {
  if (source.triangles.empty()) return Error{"mesh", "has no triangles"};
  if (source.triangleSlots.size() != source.triangles.size())
    return Error{"mesh", "needs one material slot per triangle"};
  for (std::size_t i = 0; i < source.positions.size(); ++i)
    if (!isFinite(source.positions[i]))
      return Error{"mesh/positions/" + std::to_string(i), "non-finite coordinate"};
  for (std::size_t i = 0; i < source.triangles.size(); ++i) {
    for (std::uint32_t v : source.triangles[i])
      if (v >= source.positions.size())
        return Error{"mesh/triangles/" + std::to_string(i), "vertex index out of range"};
    const std::uint16_t slot = source.triangleSlots[i];
    if (slot != asset::kNoMaterialSlot &&
        slot >= std::max<std::size_t>(source.materialSlots.size(), 1) &&
        !source.materialSlots.empty())
      return Error{"mesh/triangles/" + std::to_string(i), "material slot out of range"};
  }
  auto impl = std::make_shared<Impl>();  // written here only, then frozen behind const
  impl->mesh = source;
  impl->labelled = settings.labelled;
  const asset::TriangleMesh& m = impl->mesh;
  const std::size_t n = m.triangles.size();

  std::vector<std::array<Vec3, 3>> corners(n);
  for (std::size_t i = 0; i < n; ++i) corners[i] = m.corners(i);
  impl->bvh.build(corners);
  impl->rayBvh.build(impl->bvh);

  // Adjacency on welded vertices: an edge is trusted when exactly two triangles share it and
  // run it in opposite directions (consistent winding).
  const std::vector<std::uint32_t> weld = weldPositions(m.positions);
  struct EdgeUse {
    std::uint64_t key;
    std::uint32_t triangle;
    std::uint8_t edge;
    bool forward;
  };
  std::vector<EdgeUse> uses;
  uses.reserve(3 * n);
  std::vector<Vec3> faceNormal(n);
  for (std::size_t i = 0; i < n; ++i) {
    faceNormal[i] =
        safeNormalize(glm::cross(corners[i][1] - corners[i][0], corners[i][2] - corners[i][0]));
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = weld[m.triangles[i][k]], b = weld[m.triangles[i][(k + 1) % 3]];
      const std::uint64_t key = (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
      uses.push_back({key, static_cast<std::uint32_t>(i), static_cast<std::uint8_t>(k), a < b});
    }
  }
  std::sort(uses.begin(), uses.end(), [](const EdgeUse& x, const EdgeUse& y) {
    return x.key != y.key ? x.key < y.key : x.triangle < y.triangle;
  });
  std::vector<TriangleSignData> sign(n);
  std::vector<bool> vertexTrusted(m.positions.size(), true);
  std::vector<Vec3> vertexNormal(m.positions.size(), Vec3(0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    sign[i].faceNormal = faceNormal[i];
    for (int k = 0; k < 3; ++k) {
      const Vec3 at = corners[i][k], next = corners[i][(k + 1) % 3], prev = corners[i][(k + 2) % 3];
      vertexNormal[weld[m.triangles[i][k]]] += cornerAngle(at, next, prev) * faceNormal[i];
    }
  }
  Vec3 areaNormalSum(0.0f);
  double areaSum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 an = 0.5f * glm::cross(corners[i][1] - corners[i][0], corners[i][2] - corners[i][0]);
    areaNormalSum += an;
    areaSum += glm::length(an);
  }
  impl->openSheet = glm::length(areaNormalSum) > 0.5 * areaSum;
  for (std::size_t g = 0; g < uses.size();) {
    std::size_t e = g;
    while (e < uses.size() && uses[e].key == uses[g].key) ++e;
    const bool trusted = (e - g == 2) && uses[g].forward != uses[g + 1].forward;
    Vec3 sum(0.0f);
    for (std::size_t u = g; u < e; ++u) sum += faceNormal[uses[u].triangle];
    for (std::size_t u = g; u < e; ++u) {
      TriangleSignData& s = sign[uses[u].triangle];
      s.edgeNormal[uses[u].edge] = safeNormalize(sum);
      if (trusted) s.reliable |= std::uint8_t(1u << uses[u].edge);
    }
    if (!trusted) {
      vertexTrusted[static_cast<std::uint32_t>(uses[g].key >> 32)] = false;
      vertexTrusted[static_cast<std::uint32_t>(uses[g].key & 0xffffffffu)] = false;
    }
    g = e;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t w = weld[m.triangles[i][k]];
      sign[i].vertexNormal[k] = safeNormalize(vertexNormal[w]);
      if (vertexTrusted[w]) sign[i].reliable |= std::uint8_t(1u << (3 + k));
    }
  // Into leaf order.
  const auto& order = impl->bvh.order();
  impl->leafSign.resize(n);
  impl->leafLabels.resize(n);
  for (std::size_t leaf = 0; leaf < n; ++leaf) {
    impl->leafSign[leaf] = sign[order[leaf]];
    impl->leafLabels[leaf] = m.triangleSlots[order[leaf]];
  }
  return std::unique_ptr<TriMeshCollider>(new TriMeshCollider(std::move(impl)));
}

LeafClosest TriMeshCollider::Impl::closestLeaf(Vec3 p, float maxDistance,
                                               std::uint32_t hintLeaf) const {
  LeafClosest best;
  float best2 = maxDistance * maxDistance;
  const auto& tris = bvh.triangles();
  auto testLeaf = [&](std::uint32_t leaf) {
    const mesh::LeafTriangle& t = tris[leaf];
    Feature feature;
    const Vec3 q = mesh::closestPointOnTriangle(p, t.a, t.a + t.e1, t.a + t.e2, feature);
    const float d2 = glm::dot(q - p, q - p);
    if (d2 < best2 || (!best.found && d2 <= best2)) {
      best2 = d2;
      best = {true, d2, q, leaf, feature};
    }
  };
  if (hintLeaf < tris.size()) testLeaf(hintLeaf);
  const auto& nodes = bvh.nodes();
  if (nodes.empty()) return best;
  std::int32_t stack[128];
  float stackDistance[128];
  int sp = 0;
  std::int32_t current = 0;
  for (;;) {
    const mesh::BvhNode& node = nodes[current];
    const float d0 = mesh::childBoxDistance2(node, 0, p), d1 = mesh::childBoxDistance2(node, 1, p);
    std::int32_t next[2];
    float nextD[2];
    int count = 0;
    for (int slot = 0; slot < 2; ++slot) {
      const float d = slot == 0 ? d0 : d1;
      const mesh::BvhChild c = node.child[slot];
      if (c.index < 0 || !(d <= best2)) continue;
      if (c.count > 0) {
        for (std::uint32_t i = 0; i < c.count; ++i)
          testLeaf(static_cast<std::uint32_t>(c.index) + i);
      } else {
        next[count] = c.index, nextD[count] = d, ++count;
      }
    }
    if (count == 2) {
      if (nextD[1] < nextD[0]) std::swap(next[0], next[1]), std::swap(nextD[0], nextD[1]);
      if (sp < 128) stack[sp] = next[1], stackDistance[sp] = nextD[1], ++sp;
      current = next[0];
      continue;
    }
    if (count == 1 && nextD[0] <= best2) {
      current = next[0];
      continue;
    }
    bool popped = false;
    while (sp > 0) {
      --sp;
      if (stackDistance[sp] <= best2) {
        current = stack[sp];
        popped = true;
        break;
      }
    }
    if (!popped) break;
  }
  return best;
}

float TriMeshCollider::Impl::signAt(Vec3 p, const LeafClosest& c) const {
  const TriangleSignData& s = leafSign[c.leaf];
  Vec3 pseudoNormal(0.0f);
  bool trusted = true;
  switch (c.feature) {
    case Feature::Face:
      pseudoNormal = s.faceNormal;
      break;
    case Feature::EdgeAB:
      pseudoNormal = s.edgeNormal[0], trusted = s.reliable & 1u;
      break;
    case Feature::EdgeBC:
      pseudoNormal = s.edgeNormal[1], trusted = s.reliable & 2u;
      break;
    case Feature::EdgeCA:
      pseudoNormal = s.edgeNormal[2], trusted = s.reliable & 4u;
      break;
    case Feature::VertexA:
      pseudoNormal = s.vertexNormal[0], trusted = s.reliable & 8u;
      break;
    case Feature::VertexB:
      pseudoNormal = s.vertexNormal[1], trusted = s.reliable & 16u;
      break;
    case Feature::VertexC:
      pseudoNormal = s.vertexNormal[2], trusted = s.reliable & 32u;
      break;
  }
  const float side = glm::dot(p - c.point, pseudoNormal);
  if (trusted && pseudoNormal != Vec3(0.0f) && side != 0.0f) return side < 0.0f ? -1.0f : 1.0f;
  if (c.distance2 == 0.0f) return 1.0f;  // on the surface: +0
  const float w = windingNumber(p);
  return w > (openSheet ? 0.0f : 0.5f) ? -1.0f : 1.0f;
}

float TriMeshCollider::Impl::windingNumber(Vec3 p) const {
  // Sum of solid angles (Van Oosterom & Strackee) / 4 pi; a child far from p (farther than
  // 3x the radius of its ball) counts as its area-weighted normal, a dipole at its centroid:
  // first order, so w is off by up to a few hundredths near large clusters -- plenty for a
  // sign test against 1/2 or 0, which is all it is used for.
  constexpr float kFar = 3.0f;
  const auto& nodes = bvh.nodes();
  const auto& moments = bvh.moments();
  const auto& tris = bvh.triangles();
  if (nodes.empty()) return 0.0f;
  double omega = 0.0;
  std::int32_t stack[128];
  int sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const std::int32_t index = stack[--sp];
    const mesh::BvhNode& node = nodes[index];
    const mesh::BvhMoments& m = moments[index];
    for (int slot = 0; slot < 2; ++slot) {
      const mesh::BvhChild c = node.child[slot];
      if (c.index < 0) continue;
      const Vec3 toCentre = m.centre[slot] - p;
      const float dist = glm::length(toCentre);
      if (dist > kFar * m.radius[slot]) {
        omega += glm::dot(m.areaNormal[slot], toCentre) / (dist * dist * dist);
      } else if (c.count > 0) {
        for (std::uint32_t i = 0; i < c.count; ++i) {
          const mesh::LeafTriangle& t = tris[static_cast<std::uint32_t>(c.index) + i];
          const Vec3 a = t.a - p, b = a + t.e1, cc = a + t.e2;
          const float la = glm::length(a), lb = glm::length(b), lc = glm::length(cc);
          const float det = glm::dot(a, glm::cross(b, cc));
          const float den =
              la * lb * lc + glm::dot(a, b) * lc + glm::dot(a, cc) * lb + glm::dot(b, cc) * la;
          omega += 2.0 * std::atan2(det, den);
        }
      } else if (sp < 128) {
        stack[sp++] = c.index;
      }
    }
  }
  return static_cast<float>(omega / (4.0 * 3.14159265358979323846));
}

LeafClosest TriMeshCollider::Impl::signedClosest(Vec3 p, float maxDistance, float& signedDistance,
                                                 std::uint32_t hintLeaf) const {
  const LeafClosest c = closestLeaf(p, maxDistance, hintLeaf);
  signedDistance = c.found ? signAt(p, c) * std::sqrt(c.distance2) : maxDistance;
  return c;
}

TriMeshCollider::Closest TriMeshCollider::closest(Vec3 p, float maxDistance) const {
  Closest out;
  if (!isFinite(p)) return out;
  float d = 0.0f;
  const LeafClosest c = impl_->signedClosest(p, maxDistance, d);
  if (!c.found) return out;
  out.found = true;
  out.distance = d;
  out.point = c.point;
  out.triangle = impl_->bvh.order()[c.leaf];
  const Vec3 away = p - c.point;
  const float len = glm::length(away);
  const Vec3 face = impl_->leafSign[c.leaf].faceNormal;
  if (len > 1e-7f)
    out.normal = (d < 0.0f ? -1.0f : 1.0f) * away / len;
  else
    out.normal = face != Vec3(0.0f) ? face : kUp;
  return out;
}

float TriMeshCollider::distance(Vec3 p, double) const {
  const Closest c = closest(p);
  return c.found ? c.distance : std::numeric_limits<float>::max();
}

Vec3 TriMeshCollider::normal(Vec3 p, double) const {
  const Closest c = closest(p);
  return c.found ? c.normal : kUp;
}

Aabb TriMeshCollider::aabb(double) const {
  return impl_->bvh.bounds();
}

std::optional<std::uint16_t> TriMeshCollider::faceLabel(Vec3 p) const {
  if (!impl_->labelled || !isFinite(p)) return std::nullopt;
  const LeafClosest c = impl_->closestLeaf(p, std::numeric_limits<float>::infinity());
  if (!c.found) return std::nullopt;
  return impl_->leafLabels[c.leaf];
}

std::string TriMeshCollider::labelName(std::uint16_t label) const {
  if (!impl_->labelled || label >= impl_->mesh.materialSlots.size()) return {};
  return impl_->mesh.materialSlots[label].name;
}

float TriMeshCollider::boundedDistance(Vec3 p, float maxDistance, std::uint32_t& hint) const {
  const LeafClosest c = impl_->closestLeaf(p, maxDistance, hint);
  if (!c.found) return std::numeric_limits<float>::infinity();
  hint = c.leaf;
  return impl_->signAt(p, c) * std::sqrt(c.distance2);
}

float TriMeshCollider::windingNumber(Vec3 p) const {
  return impl_->windingNumber(p);
}
std::size_t TriMeshCollider::triangleCount() const {
  return impl_->mesh.triangles.size();
}
std::uint16_t TriMeshCollider::triangleLabel(std::uint32_t triangle) const {
  return impl_->mesh.triangleSlots.at(triangle);
}
const asset::TriangleMesh& TriMeshCollider::mesh() const {
  return impl_->mesh;
}

}  // namespace floptle::physics
