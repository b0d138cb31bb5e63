// FieldProgram: compile (validate, flatten, assign stack positions and slots), the derived
// constants, and the public per-point entry points.
#include "floptle/core/field/field_program.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "displace_math.h"
#include "floptle/core/field/node_spec.h"
#include "program_impl.h"

namespace floptle::field {
namespace {

Op primitiveOp(NodeType t) {
  switch (t) {
    case NodeType::Sphere:
      return Op::Sphere;
    case NodeType::Box:
      return Op::Box;
    case NodeType::RoundBox:
      return Op::RoundBox;
    case NodeType::Capsule:
      return Op::Capsule;
    case NodeType::Cylinder:
      return Op::Cylinder;
    case NodeType::Torus:
      return Op::Torus;
    case NodeType::Plane:
      return Op::Plane;
    case NodeType::Wedge:
      return Op::Wedge;
    case NodeType::Stairs:
      return Op::Stairs;
    case NodeType::Mandelbulb:
      return Op::Mandelbulb;
    case NodeType::Menger:
      return Op::Menger;
    default:
      return Op::Mandelbox;
  }
}

/// A length that says how big the graph is (m), for the gradient epsilon.
float characteristicSize(const FieldNode& n) {
  auto v = [&](int i) { return std::abs(n.params[i].maxValue()); };
  float childMax = 0.0f;
  for (const FieldNode& c : n.children) childMax = std::max(childMax, characteristicSize(c));
  switch (n.type) {
    case NodeType::Sphere:
      return v(0);
    case NodeType::Box:
    case NodeType::RoundBox:
    case NodeType::Wedge:
      return std::max({v(0), v(1), v(2)});
    case NodeType::Capsule:
      return std::max({v(0), v(1), v(2), v(3), v(4), v(5), v(6)});
    case NodeType::Cylinder:
    case NodeType::Torus:
      return std::max(v(0), v(1));
    case NodeType::Plane:
      return 1.0f;
    case NodeType::Stairs:
      return std::max({v(0) * v(1), v(0) * v(2), v(3)});
    case NodeType::Transform:
      return childMax * v(7);
    case NodeType::Mandelbulb:
      return 1.2f;
    case NodeType::Menger:
      return v(1);
    case NodeType::Mandelbox:
      return 4.0f;
    default:
      return childMax;
  }
}

struct Compiler {
  FieldProgram::Impl& impl;
  int derivedCursor = 0;

  Instr& add(Op op, MaterialIndex mat, int slot, int vi, int pi, int data = -1) {
    Instr in;
    in.op = op;
    in.material = mat;
    in.slot = slot;
    if (data >= 0) {
      in.data = data;
    } else {
      in.data = derivedCursor;
      derivedCursor += derivedSize(op);
    }
    in.valueIndex = vi;
    in.pointIndex = pi;
    impl.valueDepth = std::max(impl.valueDepth, vi + 1);
    impl.pointDepth = std::max(impl.pointDepth, pi + 1);
    impl.code.push_back(in);
    return impl.code.back();
  }

  /// A chain of displacement nodes (each the only child of the one before) as one
  /// PushDisplace, one term each, the first non-displacement child and one PopDisplace. `head`'s
  /// parameters are already in impl.params; the chain's others are added here in order.
  Expected<void> emitDisplacement(const FieldNode& head, MaterialIndex mat, int vi, int pi,
                                  std::string where) {
    const int data = add(Op::PushDisplace, mat, -1, vi, pi + 1).data;
    const FieldNode* n = &head;
    MaterialIndex m = mat;
    int slot = static_cast<int>(impl.params.size()) - static_cast<int>(head.params.size());
    for (;;) {
      const bool sine = n->type == NodeType::DisplaceSine;
      add(sine ? Op::DisplaceSine : Op::DisplaceNoise, m, slot, vi, pi + 1);
      const AnimatedScalar& speed = n->params[sine ? 6 : 2];
      if (speed.animated() || speed.base != 0.0f) impl.timeDependent = true;
      const FieldNode& next = n->children[0];
      where += "/children/0";
      if (next.type != NodeType::DisplaceSine && next.type != NodeType::DisplaceNoise) break;
      n = &next;
      if (n->hasOwnMaterial) m = n->material;
      slot = static_cast<int>(impl.params.size());
      for (const AnimatedScalar& a : n->params) {
        if (a.animated()) impl.animatedSlots.push_back(static_cast<int>(impl.params.size()));
        impl.params.push_back(a);
      }
    }
    if (auto r = emit(n->children[0], m, vi, pi + 1, where); !r) return r;
    add(Op::PopDisplace, mat, -1, vi, pi + 1, data);
    return {};
  }

  Expected<void> emit(const FieldNode& n, MaterialIndex inherited, int vi, int pi,
                      const std::string& where) {
    if (vi + 2 >= kMaxStack || pi + 1 >= kMaxStack)
      return Error{where, "graph is nested too deeply (at most " + std::to_string(kMaxStack - 2) +
                              " levels)"};
    const MaterialIndex mat = n.hasOwnMaterial ? n.material : inherited;
    const int slot = static_cast<int>(impl.params.size());
    for (const AnimatedScalar& a : n.params) {
      if (a.animated()) impl.animatedSlots.push_back(static_cast<int>(impl.params.size()));
      impl.params.push_back(a);
    }
    const int pslot = n.params.empty() ? -1 : slot;
    auto child = [&](std::size_t i, int cvi, int cpi) {
      return emit(n.children[i], mat, cvi, cpi, where + "/children/" + std::to_string(i));
    };
    switch (n.type) {
      case NodeType::Transform:
      case NodeType::Repeat:
      case NodeType::Twist: {
        const Op push = n.type == NodeType::Transform ? Op::PushTransform
                        : n.type == NodeType::Repeat  ? Op::PushRepeat
                                                      : Op::PushTwist;
        const int data = add(push, mat, pslot, vi, pi + 1).data;
        if (auto r = child(0, vi, pi + 1); !r) return r;
        if (push == Op::PushTransform) add(Op::PopTransform, mat, pslot, vi, pi + 1, data);
        if (push == Op::PushTwist) add(Op::PopTwist, mat, pslot, vi, pi + 1, data);
        return {};
      }
      case NodeType::DisplaceSine:
      case NodeType::DisplaceNoise:
        return emitDisplacement(n, mat, vi, pi, where);
      case NodeType::Union:
      case NodeType::Intersection:
      case NodeType::SmoothUnion:
      case NodeType::SmoothIntersection: {
        const Op op = n.type == NodeType::Union          ? Op::Union
                      : n.type == NodeType::Intersection ? Op::Intersection
                      : n.type == NodeType::SmoothUnion  ? Op::SmoothUnion
                                                         : Op::SmoothIntersection;
        if (auto r = child(0, vi, pi); !r) return r;
        for (std::size_t i = 1; i < n.children.size(); ++i) {
          if (auto r = child(i, vi + 1, pi); !r) return r;
          add(op, mat, pslot, vi, pi);
        }
        return {};
      }
      case NodeType::Subtraction:
      case NodeType::SmoothSubtraction: {
        // first minus the (smooth) union of the rest, so the blend acts on the cutter as one.
        const bool smooth = n.type == NodeType::SmoothSubtraction;
        if (auto r = child(0, vi, pi); !r) return r;
        if (n.children.size() == 1) return {};
        if (auto r = child(1, vi + 1, pi); !r) return r;
        for (std::size_t i = 2; i < n.children.size(); ++i) {
          if (auto r = child(i, vi + 2, pi); !r) return r;
          add(smooth ? Op::SmoothUnion : Op::Union, mat, pslot, vi + 1, pi);
        }
        add(smooth ? Op::SmoothSubtract : Op::Subtract, mat, pslot, vi, pi);
        return {};
      }
      default:
        add(primitiveOp(n.type), mat, pslot, vi, pi);
        return {};
    }
  }
};

}  // namespace

int derivedSize(Op op) {
  switch (op) {
    case Op::Sphere:
      return 1;
    case Op::Box:
    case Op::Wedge:
    case Op::Mandelbulb:
    case Op::PushRepeat:
      return 3;
    case Op::RoundBox:
    case Op::Plane:
    case Op::Stairs:
    case Op::Mandelbox:
      return 4;
    case Op::Capsule:
      return 8;
    case Op::Cylinder:
    case Op::Torus:
    case Op::Menger:
      return 2;
    case Op::PushTransform:
      return 14;
    case Op::PushTwist:
    case Op::PushDisplace:
    case Op::SmoothUnion:
    case Op::SmoothIntersection:
    case Op::SmoothSubtract:
      return 1;
    case Op::DisplaceSine:
      return 8;
    case Op::DisplaceNoise:
      return 5;
    default:
      return 0;
  }
}

void deriveInstr(const Instr& in, const float* Pall, float* Dall, double t) {
  const float* P = Pall + std::max(in.slot, 0);
  float* D = Dall + in.data;
  switch (in.op) {
    case Op::Sphere:
      D[0] = P[0];
      break;
    case Op::Box:
    case Op::Wedge:
      D[0] = P[0], D[1] = P[1], D[2] = P[2];
      break;
    case Op::RoundBox: {
      const float r = std::clamp(P[3], 0.0f, std::min({P[0], P[1], P[2]}));
      D[0] = P[0] - r, D[1] = P[1] - r, D[2] = P[2] - r, D[3] = r;
      break;
    }
    case Op::Capsule: {
      const Vec3 a(P[0], P[1], P[2]), ba = Vec3(P[3], P[4], P[5]) - a;
      const float l2 = glm::dot(ba, ba);
      D[0] = a.x, D[1] = a.y, D[2] = a.z, D[3] = ba.x, D[4] = ba.y, D[5] = ba.z;
      D[6] = l2 > 0.0f ? 1.0f / l2 : 0.0f;
      D[7] = P[6];
      break;
    }
    case Op::Cylinder:
    case Op::Torus:
      D[0] = P[0], D[1] = P[1];
      break;
    case Op::Plane: {
      Vec3 nrm(P[0], P[1], P[2]);
      const float l = glm::length(nrm);
      nrm = l > 1e-20f ? nrm / l
                       : kUp;  // a driver passing through zero keeps the last sane normal: up
      D[0] = nrm.x, D[1] = nrm.y, D[2] = nrm.z, D[3] = P[3];
      break;
    }
    case Op::Stairs:
      D[0] = std::max(1.0f, std::floor(P[0])), D[1] = P[1], D[2] = P[2], D[3] = P[3];
      break;
    case Op::Mandelbulb:
      D[0] = P[0], D[1] = std::max(1.0f, std::floor(P[1])), D[2] = P[2];
      break;
    case Op::Menger:
      D[0] = std::max(0.0f, std::floor(P[0])), D[1] = P[1];
      break;
    case Op::Mandelbox:
      D[0] = P[0], D[1] = std::max(1.0f, std::floor(P[1]));
      D[2] = P[2] * P[2], D[3] = P[3] * P[3];
      break;
    case Op::PushTransform: {
      Quat q(P[6], P[3], P[4], P[5]);  // glm order w, x, y, z
      const float l = glm::length(q);
      q = l > 1e-20f ? q / l : Quat(1, 0, 0, 0);
      const Mat3 inv = glm::transpose(glm::mat3_cast(q));  // world -> local rotation
      const float s = std::max(P[7], 1e-6f);
      // Row-major world -> local matrix with the 1/scale folded in: p_local = M (p - pos).
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) D[r * 3 + c] = inv[c][r] / s;
      D[9] = P[0], D[10] = P[1], D[11] = P[2];
      D[12] = 1.0f / s, D[13] = s;
      break;
    }
    case Op::PushRepeat:
      D[0] = P[0], D[1] = P[1], D[2] = P[2];
      break;
    case Op::PushTwist:
    case Op::SmoothUnion:
    case Op::SmoothIntersection:
    case Op::SmoothSubtract:
      D[0] = P[0];
      break;
    case Op::DisplaceSine: {
      for (int i = 0; i < 6; ++i) D[i] = P[i];
      D[6] = P[6] * static_cast<float>(t) + P[7];
      D[7] = glm::length(Vec3(P[0], P[1], P[2])) * glm::length(Vec3(P[3], P[4], P[5]));
      break;
    }
    case Op::DisplaceNoise:
      D[0] = P[0], D[1] = P[1];
      D[2] = P[1] * P[2] * static_cast<float>(t);
      D[3] = std::floor(P[3]);
      D[4] = displace::kNoiseLipschitz * P[0] * P[1];
      break;
    default:
      break;
  }
}

void finishDisplacements(const std::vector<Instr>& code, float* D) {
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i].op != Op::PushDisplace) continue;
    float bound = 1.0f;
    for (std::size_t j = i + 1; j < code.size(); ++j) {
      if (code[j].op == Op::DisplaceSine)
        bound += D[code[j].data + 7];
      else if (code[j].op == Op::DisplaceNoise)
        bound += D[code[j].data + 4];
      else
        break;
    }
    D[code[i].data] = 1.0f / bound;
  }
}

void buildFastCode(FieldProgram::Impl& impl) {
  const auto& code = impl.code;
  auto isBinary = [](Op op) { return op >= Op::Union; };
  impl.fast.clear();
  impl.packCopies.clear();
  for (std::size_t i = 0; i < code.size(); ++i) {
    FastInstr f;
    const Instr& in = code[i];
    f.op = in.op, f.material = in.material, f.data = in.data, f.valueIndex = in.valueIndex,
    f.pointIndex = in.pointIndex;
    std::size_t prim = i;
    if (in.op == Op::PushTransform && i + 2 < code.size() && isPrimitive(code[i + 1].op) &&
        code[i + 2].op == Op::PopTransform) {
      prim = i + 1;
      const Instr& p = code[prim];
      f.op = p.op, f.material = p.material, f.data = p.data, f.pointIndex = in.pointIndex - 1;
      f.xformData = in.data;
      // Translation only when rotation and scale are static and identity (a w of either sign).
      const AnimatedScalar* T = impl.params.data() + in.slot;
      bool rigidStatic = true;
      for (int k = 3; k < 8; ++k) rigidStatic = rigidStatic && !T[k].animated();
      const bool identity = rigidStatic && T[3].base == 0.0f && T[4].base == 0.0f &&
                            T[5].base == 0.0f && T[6].base != 0.0f && T[7].base == 1.0f;
      f.xform = identity ? 1 : 2;
      i += 2;
    }
    if (isPrimitive(code[prim].op) && i + 1 < code.size() && isBinary(code[i + 1].op) &&
        code[i + 1].valueIndex == f.valueIndex - 1) {
      f.hasCombine = true;
      f.combine = code[i + 1].op;
      f.combineData = code[i + 1].data;
      i += 1;
    }
    impl.fast.push_back(f);
  }
  assignSteps(impl);
  packGroups(impl);
  impl.single = impl.fast.size() == 1 && isPrimitive(impl.fast[0].op) && !impl.fast[0].hasCombine &&
                impl.fast[0].pointIndex == 0;
}

void FieldProgram::Impl::deriveAt(double t, float* out) const {
  std::copy(derived.begin(), derived.end(), out);
  if (!isAnimated()) return;
  // Parameter values at t (constants copied, drivers evaluated), then every instruction with
  // an animated slot is re-derived. Small graphs: a plain loop over all is cheap and simple.
  constexpr std::size_t kLocal = 256;
  float localP[kLocal];
  std::vector<float> heapP;
  float* P = localP;
  if (params.size() > kLocal) {
    heapP.resize(params.size());
    P = heapP.data();
  }
  for (std::size_t i = 0; i < params.size(); ++i) P[i] = params[i].at(t);
  for (const Instr& in : code)
    if (in.slot >= 0) deriveInstr(in, P, out, t);
  finishDisplacements(code, out);
  for (const PackCopy& c : packCopies) out[c.to] = out[c.from];
}

Expected<FieldProgram> FieldProgram::compile(const FieldNode& root) {
  if (auto r = validateNode(root, ""); !r) return r.error();
  FieldProgram prog;
  Impl& impl = *prog.impl_;
  impl.root = root;
  Compiler c{impl};
  if (auto r = c.emit(root, 0, 0, 0, ""); !r) return r.error();
  impl.derived.assign(c.derivedCursor, 0.0f);
  std::vector<float> P(impl.params.size());
  for (std::size_t i = 0; i < P.size(); ++i) P[i] = impl.params[i].at(0.0);
  for (const Instr& in : impl.code)
    if (in.slot >= 0) deriveInstr(in, P.data(), impl.derived.data(), 0.0);
  finishDisplacements(impl.code, impl.derived.data());
  impl.epsilon = std::max(1e-3f * std::clamp(characteristicSize(root), 1e-3f, 1e4f), 1e-5f);
  buildFastCode(impl);
  // Analytic normal: transforms around a single primitive with a closed-form gradient.
  std::size_t i = 0;
  while (i < impl.code.size() && impl.code[i].op == Op::PushTransform) ++i;
  const std::size_t pushes = i;
  if (i < impl.code.size() && impl.code.size() == 2 * pushes + 1) {
    const Op op = impl.code[i].op;
    impl.analyticNormal = op == Op::Sphere || op == Op::Box || op == Op::RoundBox ||
                          op == Op::Capsule || op == Op::Cylinder || op == Op::Torus ||
                          op == Op::Plane;
  }
  prog.staticDistance_ = chooseStaticDistance(impl);
  return prog;
}

FieldProgram::FieldProgram() : impl_(new Impl) {}
FieldProgram::FieldProgram(const FieldProgram& o)
    : impl_(o.impl_ ? new Impl(*o.impl_) : nullptr), staticDistance_(o.staticDistance_) {}
FieldProgram::FieldProgram(FieldProgram&& o) noexcept
    : impl_(std::exchange(o.impl_, nullptr)),
      staticDistance_(std::exchange(o.staticDistance_, nullptr)) {}
FieldProgram& FieldProgram::operator=(const FieldProgram& o) {
  if (this == &o) return *this;
  if (!o.impl_) {
    delete impl_;
    impl_ = nullptr;
  } else if (impl_) {
    *impl_ = *o.impl_;
  } else {
    impl_ = new Impl(*o.impl_);
  }
  staticDistance_ = o.staticDistance_;
  return *this;
}
FieldProgram& FieldProgram::operator=(FieldProgram&& o) noexcept {
  std::swap(impl_, o.impl_);
  std::swap(staticDistance_, o.staticDistance_);
  return *this;
}
FieldProgram::~FieldProgram() {
  delete impl_;
}

void FieldProgram::distanceBatch(std::span<const Vec3> points, double t,
                                 std::span<float> out) const {
  const std::size_t n = std::min(points.size(), out.size());
  withDerived(*impl_, t, [&](const float* D) {
    float xs[kBlock], ys[kBlock], zs[kBlock];
    for (std::size_t start = 0; start < n; start += kBlock) {
      const int count = static_cast<int>(std::min<std::size_t>(kBlock, n - start));
      for (int i = 0; i < count; ++i) {
        const Vec3& p = points[start + i];
        xs[i] = p.x, ys[i] = p.y, zs[i] = p.z;
      }
      evalBlock(*impl_, D, xs, ys, zs, count, out.data() + start);
    }
    return 0;
  });
}

bool FieldProgram::animated() const {
  return impl_->isAnimated();
}
float FieldProgram::gradientEpsilon() const {
  return impl_->epsilon;
}
int FieldProgram::parameterCount() const {
  return static_cast<int>(impl_->params.size());
}

std::vector<float> FieldProgram::parameterValues(double t) const {
  std::vector<float> v(impl_->params.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = impl_->params[i].at(t);
  return v;
}

}  // namespace floptle::field
