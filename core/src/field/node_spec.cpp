// The node table: one row per NodeType, in enum order. JSON I/O, validation, the inspector
// and the GLSL uniform layout all read these rows, so a parameter is described once.
#include "floptle/core/field/node_spec.h"

#include <array>

namespace floptle::field {
namespace {

constexpr float kBig = 1e6f;

// Primitives. Lengths (m) are non-negative; the upper limits only keep float math sane.
constexpr ParamSpec kSphere[] = {{"radius", 1, 0.5f, 0.0f, kBig, "m", false, "Sphere radius"}};
constexpr ParamSpec kBox[] = {
    {"half_extents", 3, 0.5f, 0.0f, kBig, "m", false, "Half size along x, y, z"}};
constexpr ParamSpec kRoundBox[] = {{"half_extents", 3, 0.5f, 0.0f, kBig, "m", false,
                                    "Half size along x, y, z (rounding included)"},
                                   {"radius", 1, 0.1f, 0.0f, kBig, "m", false,
                                    "Edge rounding radius, at most the smallest half extent"}};
constexpr ParamSpec kCapsule[] = {
    {"a", 3, 0.0f, -kBig, kBig, "m", false, "First end of the axis segment (default 0,-0.5,0)"},
    {"b", 3, 0.0f, -kBig, kBig, "m", false, "Second end of the axis segment (default 0,0.5,0)"},
    {"radius", 1, 0.25f, 0.0f, kBig, "m", false, "Capsule radius"}};
constexpr ParamSpec kCylinder[] = {
    {"radius", 1, 0.5f, 0.0f, kBig, "m", false, "Radius around the Y axis"},
    {"half_height", 1, 0.5f, 0.0f, kBig, "m", false, "Half height along Y"}};
constexpr ParamSpec kTorus[] = {
    {"major_radius", 1, 1.0f, 0.0f, kBig, "m", false, "Ring radius in the XZ plane"},
    {"minor_radius", 1, 0.25f, 0.0f, kBig, "m", false, "Tube radius"}};
constexpr ParamSpec kPlane[] = {{"normal", 3, 0.0f, -kBig, kBig, "-", false,
                                 "Outward normal (normalized on use; default 0,1,0)"},
                                {"offset", 1, 0.0f, -kBig, kBig, "m", false,
                                 "Signed offset along the normal: dot(p,n) - offset"}};
constexpr ParamSpec kWedge[] = {
    {"half_extents", 3, 0.5f, 0.0f, kBig, "m", false, "Half size of the box the ramp is cut from"}};
constexpr ParamSpec kStairs[] = {
    {"steps", 1, 4.0f, 1.0f, 4096.0f, "-", true, "Number of steps"},
    {"rise", 1, 0.2f, 0.0f, kBig, "m", false, "Height of one step"},
    {"run", 1, 0.3f, 0.0f, kBig, "m", false, "Depth of one step along +x"},
    {"half_width", 1, 0.5f, 0.0f, kBig, "m", false, "Half width along z"}};

constexpr ParamSpec kTransform[] = {{"position", 3, 0.0f, -kBig, kBig, "m", false, "Translation"},
                                    {"rotation", 4, 0.0f, -1.0f, 1.0f, "-", false,
                                     "Rotation quaternion [x, y, z, w] (normalized on use)"},
                                    {"scale", 1, 1.0f, 1e-4f, 1e4f, "-", false, "Uniform scale"}};
constexpr ParamSpec kSmooth[] = {{"k", 1, 0.1f, 0.0f, kBig, "m", false, "Blend width (0 = hard)"}};
constexpr ParamSpec kRepeat[] = {
    {"period", 3, 0.0f, 0.0f, kBig, "m", false, "Cell size per axis (0 = no repetition)"}};
constexpr ParamSpec kTwist[] = {
    {"rate", 1, 1.0f, -1e3f, 1e3f, "rad/m", false, "Rotation about +Y per metre of height"}};
constexpr ParamSpec kDisplaceSine[] = {
    {"amplitude", 3, 0.0f, -kBig, kBig, "m", false,
     "d += amplitude sin(wave . p + speed t + phase)"},
    {"wave", 3, 0.0f, -kBig, kBig, "rad/m", false, "Wave vector in the child's space"},
    {"speed", 1, 0.0f, -kBig, kBig, "rad/s", false, "Angular speed w of the wave"},
    {"phase", 1, 0.0f, -kBig, kBig, "rad", false, "Phase at t = 0"}};
constexpr ParamSpec kDisplaceNoise[] = {
    {"magnitude", 1, 0.1f, 0.0f, kBig, "m", false, "d += magnitude noise(frequency p), per axis"},
    {"frequency", 1, 1.0f, 0.0f, kBig, "1/m", false, "Noise cells per metre"},
    {"speed", 1, 0.0f, -kBig, kBig, "m/s", false, "Speed of the pattern along +y"},
    {"seed", 1, 0.0f, 0.0f, 1e6f, "-", true, "Which noise pattern"}};

constexpr ParamSpec kMandelbulb[] = {
    {"power", 1, 8.0f, 2.0f, 16.0f, "-", false, "Exponent of the triplex power"},
    {"iterations", 1, 8.0f, 1.0f, 64.0f, "-", true, "Iteration count"},
    {"bailout", 1, 2.0f, 1.0f, 1e3f, "m", false, "Escape radius"}};
constexpr ParamSpec kMenger[] = {
    {"iterations", 1, 4.0f, 0.0f, 10.0f, "-", true, "Subdivision levels"},
    {"half_extent", 1, 1.0f, 0.0f, kBig, "m", false, "Half size of the outer cube"}};
constexpr ParamSpec kMandelbox[] = {
    {"scale", 1, -1.5f, -4.0f, 4.0f, "-", false, "Box scale; |scale| >= 1.05"},
    {"iterations", 1, 10.0f, 1.0f, 64.0f, "-", true, "Iteration count"},
    {"min_radius", 1, 0.5f, 0.01f, 100.0f, "m", false, "Inner sphere-fold radius (< fixed_radius)"},
    {"fixed_radius", 1, 1.0f, 0.01f, 100.0f, "m", false, "Outer sphere-fold radius"}};

template <std::size_t N>
constexpr std::span<const ParamSpec> S(const ParamSpec (&a)[N]) {
  return {a, N};
}

constexpr std::array<NodeSpec, kNodeTypeCount> kSpecs = {{
    {NodeType::Sphere, "sphere", S(kSphere), 0, 0},
    {NodeType::Box, "box", S(kBox), 0, 0},
    {NodeType::RoundBox, "round_box", S(kRoundBox), 0, 0},
    {NodeType::Capsule, "capsule", S(kCapsule), 0, 0},
    {NodeType::Cylinder, "cylinder", S(kCylinder), 0, 0},
    {NodeType::Torus, "torus", S(kTorus), 0, 0},
    {NodeType::Plane, "plane", S(kPlane), 0, 0},
    {NodeType::Wedge, "wedge", S(kWedge), 0, 0},
    {NodeType::Stairs, "stairs", S(kStairs), 0, 0},
    {NodeType::Transform, "transform", S(kTransform), 1, 1},
    {NodeType::Union, "union", {}, 1, -1},
    {NodeType::Intersection, "intersection", {}, 1, -1},
    {NodeType::Subtraction, "subtraction", {}, 1, -1},
    {NodeType::SmoothUnion, "smooth_union", S(kSmooth), 1, -1},
    {NodeType::SmoothIntersection, "smooth_intersection", S(kSmooth), 1, -1},
    {NodeType::SmoothSubtraction, "smooth_subtraction", S(kSmooth), 1, -1},
    {NodeType::Repeat, "repeat", S(kRepeat), 1, 1},
    {NodeType::Twist, "twist", S(kTwist), 1, 1},
    {NodeType::DisplaceSine, "displace_sine", S(kDisplaceSine), 1, 1},
    {NodeType::DisplaceNoise, "displace_noise", S(kDisplaceNoise), 1, 1},
    {NodeType::Mandelbulb, "mandelbulb", S(kMandelbulb), 0, 0},
    {NodeType::Menger, "menger", S(kMenger), 0, 0},
    {NodeType::Mandelbox, "mandelbox", S(kMandelbox), 0, 0},
}};

constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < kSpecs.size(); ++i)
    if (static_cast<std::size_t>(kSpecs[i].type) != i || kSpecs[i].name.empty()) return false;
  return true;
}
static_assert(rowsInEnumOrder(), "kSpecs needs one row per NodeType, in enum order");

}  // namespace

int NodeSpec::scalarCount() const {
  int n = 0;
  for (const ParamSpec& p : params) n += p.components;
  return n;
}

const NodeSpec& nodeSpec(NodeType type) {
  return kSpecs[static_cast<std::size_t>(type)];
}

std::optional<NodeType> nodeTypeFromName(std::string_view name) {
  for (const NodeSpec& s : kSpecs)
    if (s.name == name) return s.type;
  return std::nullopt;
}

std::span<const NodeSpec> allNodeSpecs() {
  return kSpecs;
}

int paramSlotOffset(NodeType type, std::string_view key) {
  int slot = 0;
  for (const ParamSpec& p : nodeSpec(type).params) {
    if (p.key == key) return slot;
    slot += p.components;
  }
  return -1;
}

FieldNode makeDefaultNode(NodeType type) {
  FieldNode node;
  node.type = type;
  for (const ParamSpec& p : nodeSpec(type).params)
    for (int c = 0; c < p.components; ++c) node.params.emplace_back(p.defaultValue);
  switch (type) {
    case NodeType::Capsule:  // a vertical capsule 1 m between the end centres
      node.params[1] = -0.5f;
      node.params[4] = 0.5f;
      break;
    case NodeType::Plane:  // ground plane facing up
      node.params[1] = 1.0f;
      break;
    case NodeType::Transform:  // identity quaternion [0, 0, 0, 1]
      node.params[6] = 1.0f;
      break;
    default:
      break;
  }
  return node;
}

}  // namespace floptle::field
