// FieldProgram::normal (analytic through transforms to one primitive, else the seed's 4-tap
// tetrahedron gradient) and FieldProgram::bounds (conservative, from the authoring tree).
#include <algorithm>
#include <cmath>
#include <limits>

#include "displace_math.h"
#include "program_impl.h"
#include "sdf_math.h"

namespace floptle::field {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

Vec3 safeNormalize(Vec3 g, Vec3 fallback) {
  const float l = glm::length(g);
  return (l > 1e-30f && std::isfinite(l)) ? g / l : fallback;
}

Vec3 radialXZ(Vec3 p) {
  const float l = std::sqrt(p.x * p.x + p.z * p.z);
  return l > 1e-30f ? Vec3(p.x / l, 0.0f, p.z / l) : Vec3(1.0f, 0.0f, 0.0f);
}

/// Outward gradient direction of a box of half extents b at local point p.
Vec3 boxGradient(Vec3 p, Vec3 b) {
  const Vec3 q = glm::abs(p) - b;
  const Vec3 sgn(p.x < 0.0f ? -1.0f : 1.0f, p.y < 0.0f ? -1.0f : 1.0f, p.z < 0.0f ? -1.0f : 1.0f);
  if (q.x > 0.0f || q.y > 0.0f || q.z > 0.0f) return glm::max(q, Vec3(0.0f)) * sgn;
  if (q.x >= q.y && q.x >= q.z) return {sgn.x, 0.0f, 0.0f};
  if (q.y >= q.z) return {0.0f, sgn.y, 0.0f};
  return {0.0f, 0.0f, sgn.z};
}

Vec3 primitiveGradient(Op op, const float* D, Vec3 p) {
  switch (op) {
    case Op::Sphere:
      return p;
    case Op::Box:
      return boxGradient(p, {D[0], D[1], D[2]});
    case Op::RoundBox:
      return boxGradient(p, {D[0], D[1], D[2]});
    case Op::Capsule: {
      const Vec3 a(D[0], D[1], D[2]), ba(D[3], D[4], D[5]);
      const float h = std::clamp(glm::dot(p - a, ba) * D[6], 0.0f, 1.0f);
      return p - (a + ba * h);
    }
    case Op::Cylinder: {
      const float dx = std::sqrt(p.x * p.x + p.z * p.z) - D[0], dy = std::abs(p.y) - D[1];
      const Vec3 radial = radialXZ(p), vertical(0.0f, p.y < 0.0f ? -1.0f : 1.0f, 0.0f);
      if (dx > 0.0f && dy > 0.0f) return radial * dx + vertical * dy;
      return dx > dy ? radial : vertical;
    }
    case Op::Torus: {
      const float qx = std::sqrt(p.x * p.x + p.z * p.z) - D[0];
      return radialXZ(p) * qx + Vec3(0.0f, p.y, 0.0f);
    }
    case Op::Plane:
      return {D[0], D[1], D[2]};
    default:
      return {0.0f, 0.0f, 0.0f};
  }
}

Aabb infiniteBox() {
  return {Vec3(-kInf), Vec3(kInf)};
}
bool isInfinite(const Aabb& b) {
  return !isFinite(b.min) || !isFinite(b.max);
}

Aabb nodeBounds(const FieldNode& n, double t) {
  auto v = [&](int i) { return n.params[i].at(t); };
  auto v3 = [&](int i) { return Vec3(v(i), v(i + 1), v(i + 2)); };
  switch (n.type) {
    case NodeType::Sphere:
      return Aabb::fromCenterHalf(Vec3(0), Vec3(v(0)));
    case NodeType::Box:
    case NodeType::RoundBox:
    case NodeType::Wedge:
      return Aabb::fromCenterHalf(Vec3(0), v3(0));
    case NodeType::Capsule: {
      Aabb b;
      b.expand(v3(0));
      b.expand(v3(3));
      return b.inflated(v(6));
    }
    case NodeType::Cylinder:
      return Aabb::fromCenterHalf(Vec3(0), {v(0), v(1), v(0)});
    case NodeType::Torus: {
      const float r = v(0) + v(1);
      return Aabb::fromCenterHalf(Vec3(0), {r, v(1), r});
    }
    case NodeType::Plane:
      return infiniteBox();
    case NodeType::Stairs: {
      const float steps = std::max(1.0f, std::floor(v(0)));
      return {Vec3(0.0f, 0.0f, -v(3)), Vec3(steps * v(2), steps * v(1), v(3))};
    }
    case NodeType::Mandelbulb:
      return Aabb::fromCenterHalf(Vec3(0), Vec3(v(2)));
    case NodeType::Menger:
      return Aabb::fromCenterHalf(Vec3(0), Vec3(v(1)));
    case NodeType::Mandelbox: {
      const float s = std::abs(v(0));
      return Aabb::fromCenterHalf(Vec3(0), Vec3(2.0f * (s + 1.0f) / (s - 1.0f)));
    }
    case NodeType::Transform: {
      const Aabb c = nodeBounds(n.children[0], t);
      if (isInfinite(c)) return infiniteBox();
      Quat q(v(6), v(3), v(4), v(5));
      const float l = glm::length(q);
      Transform tr{v3(0), l > 1e-20f ? q / l : Quat(1, 0, 0, 0), std::max(v(7), 1e-6f)};
      return tr.applyToAabb(c);
    }
    case NodeType::Union:
    case NodeType::SmoothUnion: {
      Aabb b;
      for (const FieldNode& c : n.children) b.expand(nodeBounds(c, t));
      // smin lies at most k/4 below min, so the blended surface bulges by at most k/4.
      return n.type == NodeType::SmoothUnion ? b.inflated(0.25f * v(0)) : b;
    }
    case NodeType::Intersection:
    case NodeType::SmoothIntersection: {
      Aabb b = nodeBounds(n.children[0], t);
      for (std::size_t i = 1; i < n.children.size(); ++i) {
        const Aabb c = nodeBounds(n.children[i], t);
        b.min = glm::max(b.min, c.min);
        b.max = glm::min(b.max, c.max);
      }
      return b;
    }
    case NodeType::Subtraction:
    case NodeType::SmoothSubtraction:
      return nodeBounds(n.children[0], t);
    case NodeType::Repeat: {
      Aabb b = nodeBounds(n.children[0], t);
      for (int a = 0; a < 3; ++a)
        if (v(a) > 0.0f) b.min[a] = -kInf, b.max[a] = kInf;
      return b;
    }
    case NodeType::Twist: {
      const Aabb c = nodeBounds(n.children[0], t);
      if (isInfinite(c)) return infiniteBox();
      float r = 0.0f;
      for (float x : {c.min.x, c.max.x})
        for (float z : {c.min.z, c.max.z}) r = std::max(r, std::sqrt(x * x + z * z));
      return {Vec3(-r, c.min.y, -r), Vec3(r, c.max.y, r)};
    }
    case NodeType::DisplaceSine:
    case NodeType::DisplaceNoise: {
      // child(p + d) < 0 puts p within |d| per axis of the child's box (a chain of terms sums).
      const Aabb c = nodeBounds(n.children[0], t);
      if (isInfinite(c)) return infiniteBox();
      const Vec3 reach = n.type == NodeType::DisplaceSine
                             ? glm::abs(v3(0))
                             : Vec3(displace::kNoiseBound * std::abs(v(0)));
      return {c.min - reach, c.max + reach};
    }
    case NodeType::Count:
      break;
  }
  return infiniteBox();
}

}  // namespace

Vec3 FieldProgram::normal(Vec3 p, double t) const {
  const Impl& impl = *impl_;
  return withDerived(impl, t, [&](const float* D) -> Vec3 {
    if (impl.analyticNormal) {
      // p_local = M_k(...M_1(p - pos_1)...); grad_world = M_1^T ... M_k^T grad_local.
      const std::size_t pushes = (impl.code.size() - 1) / 2;
      Vec3 q = p;
      for (std::size_t i = 0; i < pushes; ++i) {
        const float* M = D + impl.code[i].data;
        const Vec3 d = q - Vec3(M[9], M[10], M[11]);
        q = {M[0] * d.x + M[1] * d.y + M[2] * d.z, M[3] * d.x + M[4] * d.y + M[5] * d.z,
             M[6] * d.x + M[7] * d.y + M[8] * d.z};
      }
      const Instr& prim = impl.code[pushes];
      Vec3 g = primitiveGradient(prim.op, D + prim.data, q);
      if (glm::length(g) > 1e-30f) {
        for (std::size_t i = pushes; i-- > 0;) {
          const float* M = D + impl.code[i].data;
          g = {M[0] * g.x + M[3] * g.y + M[6] * g.z, M[1] * g.x + M[4] * g.y + M[7] * g.z,
               M[2] * g.x + M[5] * g.y + M[8] * g.z};
        }
        const Vec3 n = safeNormalize(g, Vec3(0.0f));
        if (n != Vec3(0.0f)) return n;
      }
    }
    // The seed's tetrahedron gradient: 4 evaluations at p + eps * k_i.
    const float e = impl.epsilon;
    const Vec3 k1(1, -1, -1), k2(-1, -1, 1), k3(-1, 1, -1), k4(1, 1, 1);
    const Vec3 g = k1 * evalDistance(impl, D, p + e * k1) + k2 * evalDistance(impl, D, p + e * k2) +
                   k3 * evalDistance(impl, D, p + e * k3) + k4 * evalDistance(impl, D, p + e * k4);
    return safeNormalize(g, kUp);
  });
}

Aabb FieldProgram::bounds(double t) const {
  return nodeBounds(impl_->root, t);
}

}  // namespace floptle::field
