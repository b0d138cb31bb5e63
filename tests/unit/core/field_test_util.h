#pragma once
// Builders for field graphs in tests: small functions that read like the JSON.
#include <initializer_list>
#include <utility>

#include "floptle/core/field/field_node.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/field/node_spec.h"

namespace floptle::field::test {

inline FieldNode node(NodeType t, std::initializer_list<float> params,
                      std::vector<FieldNode> children = {}) {
  FieldNode n = makeDefaultNode(t);
  int i = 0;
  for (float v : params) n.params[i++] = v;
  n.children = std::move(children);
  return n;
}
inline FieldNode sphere(float r) {
  return node(NodeType::Sphere, {r});
}
inline FieldNode box(Vec3 b) {
  return node(NodeType::Box, {b.x, b.y, b.z});
}
inline FieldNode roundBox(Vec3 b, float r) {
  return node(NodeType::RoundBox, {b.x, b.y, b.z, r});
}
inline FieldNode capsule(Vec3 a, Vec3 b, float r) {
  return node(NodeType::Capsule, {a.x, a.y, a.z, b.x, b.y, b.z, r});
}
inline FieldNode cylinder(float r, float h) {
  return node(NodeType::Cylinder, {r, h});
}
inline FieldNode torus(float R, float r) {
  return node(NodeType::Torus, {R, r});
}
inline FieldNode plane(Vec3 n, float offset) {
  return node(NodeType::Plane, {n.x, n.y, n.z, offset});
}
inline FieldNode wedge(Vec3 b) {
  return node(NodeType::Wedge, {b.x, b.y, b.z});
}
inline FieldNode stairs(int steps, float rise, float run, float hw) {
  return node(NodeType::Stairs, {float(steps), rise, run, hw});
}
/// Rotation quaternion q (glm order w,x,y,z in the constructor; stored [x,y,z,w]).
inline FieldNode xform(Vec3 pos, Quat q, float s, FieldNode child) {
  return node(NodeType::Transform, {pos.x, pos.y, pos.z, q.x, q.y, q.z, q.w, s},
              {std::move(child)});
}
inline FieldNode csg(NodeType t, std::vector<FieldNode> children) {
  return node(t, {}, std::move(children));
}
inline FieldNode smooth(NodeType t, float k, std::vector<FieldNode> children) {
  return node(t, {k}, std::move(children));
}
inline FieldNode withMaterial(FieldNode n, MaterialIndex m) {
  n.material = m;
  n.hasOwnMaterial = true;
  return n;
}

inline FieldProgram compileOrDie(const FieldNode& n) {
  auto p = FieldProgram::compile(n);
  if (!p) throw std::runtime_error(p.error().message());
  return std::move(*p);
}

/// One node of every type, nested, with materials: the scene used by the batch, JSON and GLSL
/// tests.
inline FieldNode everyNodeScene() {
  auto q = glm::angleAxis(0.7f, glm::normalize(Vec3(1, 2, 3)));
  std::vector<FieldNode> parts;
  parts.push_back(withMaterial(xform({-3, 0, 0}, q, 1.3f, sphere(0.6f)), 1));
  parts.push_back(xform({-1.5f, 0, 0}, q, 1.0f, box({0.4f, 0.3f, 0.5f})));
  parts.push_back(withMaterial(xform({0, 0, 0}, q, 0.8f, roundBox({0.5f, 0.4f, 0.3f}, 0.1f)), 2));
  parts.push_back(capsule({1.2f, -0.4f, 0}, {1.6f, 0.5f, 0.2f}, 0.25f));
  parts.push_back(xform({2.5f, 0, 0}, q, 1.0f, cylinder(0.3f, 0.5f)));
  parts.push_back(withMaterial(xform({3.8f, 0, 0}, q, 1.0f, torus(0.5f, 0.15f)), 3));
  parts.push_back(xform({0, 0, 2}, q, 1.0f, wedge({0.5f, 0.3f, 0.4f})));
  parts.push_back(xform({1.5f, -0.5f, 2}, q, 1.0f, stairs(4, 0.2f, 0.25f, 0.3f)));
  parts.push_back(plane({0.1f, 1.0f, 0.05f}, -2.5f));
  parts.push_back(withMaterial(
      smooth(NodeType::SmoothSubtraction, 0.2f,
             {box({0.5f, 0.5f, 0.5f}), xform({0.5f, 0.5f, 0}, Quat(1, 0, 0, 0), 1, sphere(0.4f)),
              sphere(0.2f)}),
      4));
  parts.back() = xform({-3, 0, 2}, Quat(1, 0, 0, 0), 1, parts.back());
  parts.push_back(
      xform({-1.5f, 0, -2}, Quat(1, 0, 0, 0), 1,
            smooth(NodeType::SmoothIntersection, 0.1f, {sphere(0.6f), box({0.5f, 0.5f, 0.5f})})));
  parts.push_back(xform({0, 0, -2}, Quat(1, 0, 0, 0), 1,
                        csg(NodeType::Intersection, {sphere(0.6f), box({0.5f, 0.5f, 0.5f})})));
  parts.push_back(xform(
      {1.5f, 0, -2}, Quat(1, 0, 0, 0), 1,
      csg(NodeType::Subtraction, {box({0.5f, 0.5f, 0.5f}), sphere(0.6f), cylinder(0.2f, 1.0f)})));
  parts.push_back(xform({3, 0, -2}, Quat(1, 0, 0, 0), 1,
                        node(NodeType::Twist, {1.5f}, {box({0.3f, 0.6f, 0.2f})})));
  parts.push_back(xform({0, 3, 0}, Quat(1, 0, 0, 0), 1,
                        node(NodeType::Repeat, {1.0f, 0.0f, 1.0f}, {sphere(0.2f)})));
  parts.push_back(withMaterial(
      xform({-3, 0, -4}, Quat(1, 0, 0, 0), 1, node(NodeType::Mandelbulb, {8, 6, 2})), 5));
  parts.push_back(xform({0, 0, -4}, Quat(1, 0, 0, 0), 1, node(NodeType::Menger, {3, 0.8f})));
  parts.push_back(xform({3.5f, 0, -4}, Quat(1, 0, 0, 0), 0.3f,
                        node(NodeType::Mandelbox, {-1.5f, 8, 0.5f, 1.0f})));
  // A Morph chain: a moving sine term and a drifting noise term summed into one displacement.
  parts.push_back(withMaterial(
      xform({-3, 3, 0}, Quat(1, 0, 0, 0), 1,
            node(NodeType::DisplaceSine, {0.05f, 0.1f, 0.0f, 3.0f, 0.0f, 2.0f, 1.5f, 0.3f},
                 {node(NodeType::DisplaceNoise, {0.08f, 2.0f, 0.5f, 7.0f}, {sphere(0.5f)})})),
      6));
  return smooth(NodeType::SmoothUnion, 0.05f,
                {csg(NodeType::Union, std::move(parts)),
                 xform({0, -1, 0}, Quat(1, 0, 0, 0), 1, sphere(0.1f))});
}

}  // namespace floptle::field::test
