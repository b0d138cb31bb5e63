// Shape JSON: round trip, drivers, transform/material keys, and refusal of invalid graphs with
// the JSON pointer of the offending value.
#include <gtest/gtest.h>

#include <cmath>

#include "field_test_util.h"
#include "floptle/core/field/field_glsl.h"
#include "floptle/core/field/field_json.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;
using Json = nlohmann::ordered_json;

namespace {

Expected<MaterialIndex> resolve(const Json& id) {
  if (id.is_number_unsigned()) return static_cast<MaterialIndex>(id.get<unsigned>());
  if (id == "stone") return MaterialIndex{3};
  if (id == "ice") return MaterialIndex{4};
  return Error{"", "unknown material " + id.dump()};
}
Json materialId(MaterialIndex m) {
  return m == 3 ? Json("stone") : m == 4 ? Json("ice") : Json(m);
}

Expected<FieldNode> parse(const std::string& text, const std::string& where = "/nodes/2/shape") {
  return parseShape(Json::parse(text), where, resolve);
}

TEST(FieldJson, ParsesEveryKeyDriverTransformAndMaterial) {
  auto n = parse(R"({"type": "smooth_union", "k": 0.25, "material": "stone", "children": [
      {"type": "sphere", "radius": {"base": 1, "sine": {"amplitude": 0.5, "frequency": 2, "phase": 0.1}}},
      {"type": "box", "half_extents": [1, {"keys": [[0, 1], [2, 3]], "interpolation": "smoothstep", "loop": true}, 0.5],
       "transform": {"position": [1, 2, 3], "rotation": [0, 0.7071068, 0, 0.7071068], "scale": 2}, "material": "ice"}]})");
  ASSERT_TRUE(n.ok()) << n.error().message();
  EXPECT_EQ(n->type, NodeType::SmoothUnion);
  EXPECT_FLOAT_EQ(n->params[0].base, 0.25f);
  EXPECT_EQ(n->material, 3);
  ASSERT_EQ(n->children.size(), 2u);
  const AnimatedScalar& r = n->children[0].params[0];
  EXPECT_EQ(r.driver, AnimatedScalar::Driver::Sine);
  EXPECT_FLOAT_EQ(r.amplitude, 0.5f);
  EXPECT_FLOAT_EQ(r.frequency, 2.0f);
  const FieldNode& t = n->children[1];
  EXPECT_EQ(t.type, NodeType::Transform);
  EXPECT_FALSE(t.hasOwnMaterial);
  EXPECT_FLOAT_EQ(t.params[1].base, 2.0f);
  EXPECT_FLOAT_EQ(t.params[7].base, 2.0f);
  ASSERT_EQ(t.children.size(), 1u);
  EXPECT_EQ(t.children[0].type, NodeType::Box);
  EXPECT_EQ(t.children[0].material, 4);
  EXPECT_EQ(t.children[0].params[1].driver, AnimatedScalar::Driver::Keys);
  EXPECT_TRUE(t.children[0].params[1].loop);
  EXPECT_EQ(t.children[0].params[1].interpolation, AnimatedScalar::Interpolation::Smoothstep);
  // Defaults fill missing keys.
  auto d = parse(R"({"type": "mandelbulb"})");
  ASSERT_TRUE(d.ok());
  EXPECT_FLOAT_EQ(d->params[0].base, 8.0f);
  EXPECT_FLOAT_EQ(d->params[1].base, 8.0f);
  EXPECT_FLOAT_EQ(d->params[2].base, 2.0f);
}

TEST(FieldJson, RoundTripOfEveryNodeTypeIsEqual) {
  FieldNode scene = everyNodeScene();
  scene.children[1].params[1].driver = AnimatedScalar::Driver::Keys;  // transform position y keyed
  scene.children[1].params[1].keys = {{0.0, -1.0f}, {0.5, -0.5f}, {3.0, -1.0f}};
  scene.children[1].params[1].loop = true;
  scene.params[0].driver = AnimatedScalar::Driver::Sine;
  scene.params[0].base = 0.05f;
  scene.params[0].amplitude = 0.01f;
  scene.params[0].phase = 1.25f;
  const Json j = shapeToJson(scene, materialId);
  auto back = parseShape(j, "", resolve);
  ASSERT_TRUE(back.ok()) << back.error().message() << "\n" << j.dump(2);
  EXPECT_TRUE(*back == scene) << j.dump(2);
  EXPECT_EQ(shapeToJson(*back, materialId), j);
  // Every node type appears in the written JSON.
  const std::string text = j.dump();
  for (const NodeSpec& s : allNodeSpecs())
    if (s.type != NodeType::Transform) {
      EXPECT_NE(text.find("\"" + std::string(s.name) + "\""), std::string::npos) << s.name;
    }
  // The short "transform" key form is what is written for a wrapped shape.
  EXPECT_NE(text.find("\"transform\":{"), std::string::npos);
}

TEST(FieldJson, ExplicitTransformNodeAndDefaultNodesRoundTrip) {
  for (const NodeSpec& s : allNodeSpecs()) {
    FieldNode n = makeDefaultNode(s.type);
    for (int i = 0; i < s.minChildren; ++i) n.children.push_back(sphere(0.5f));
    ASSERT_TRUE(FieldProgram::compile(n).ok()) << s.name;
    auto back = parseShape(shapeToJson(n, materialId), "", resolve);
    ASSERT_TRUE(back.ok()) << s.name << ": " << back.error().message();
    EXPECT_TRUE(*back == n) << s.name;
  }
}

struct Refusal {
  const char* json;
  const char* where;
  const char* whatContains;
};

TEST(FieldJson, InvalidGraphsAreRefusedWithThePointer) {
  const Refusal cases[] = {
      {R"({"type": "sphere", "radius": -1})", "/nodes/2/shape/radius", "negative"},
      {R"({"type": "union", "children": [{"type": "sphere", "radius": 1}, {"type": "capsule", "radius": -0.5}]})",
       "/nodes/2/shape/children/1/radius", "negative"},
      {R"({"type": "union", "children": []})", "/nodes/2/shape/children", "at least 1"},
      {R"({"type": "union"})", "/nodes/2/shape/children", "children"},
      {R"({"type": "transform", "children": [{"type": "sphere"}, {"type": "sphere"}]})",
       "/nodes/2/shape/children", "exactly 1"},
      {R"({"type": "blob"})", "/nodes/2/shape/type", "unknown"},
      {R"({"radius": 1})", "/nodes/2/shape/type", "type"},
      {R"({"type": "box", "half_extents": [1, -1, 1]})", "/nodes/2/shape/half_extents/1",
       "half_extents"},
      {R"({"type": "box", "half_extents": [1, 1]})", "/nodes/2/shape/half_extents", "3 numbers"},
      {R"({"type": "sphere", "radius": "big"})", "/nodes/2/shape/radius", "number"},
      {R"({"type": "mandelbulb", "power": 100})", "/nodes/2/shape/power", "[2, 16]"},
      {R"({"type": "menger", "iterations": 11})", "/nodes/2/shape/iterations", ""},
      {R"({"type": "sphere", "radius": {"base": 0.2, "sine": {"amplitude": 0.5, "frequency": 1}}})",
       "/nodes/2/shape/radius", "driver spans"},
      {R"({"type": "sphere", "radius": {"keys": [[0, 1], [1, -1]]}})", "/nodes/2/shape/radius",
       "negative"},
      {R"({"type": "sphere", "radius": {"keys": [[1, 1], [0, 2]]}})",
       "/nodes/2/shape/radius/keys/1", "decrease"},
      {R"({"type": "sphere", "radius": {"keys": []}})", "/nodes/2/shape/radius/keys", "non-empty"},
      {R"({"type": "sphere", "radius": {"keys": [[0, 1]], "interpolation": "cubic"}})",
       "/nodes/2/shape/radius/interpolation", "linear"},
      {R"({"type": "sphere", "transform": {"scale": 0}})", "/nodes/2/shape/transform/scale",
       "scale"},
      {R"({"type": "sphere", "transform": {"rotation": [0, 0, 0, 0]}})",
       "/nodes/2/shape/transform/rotation", "zero"},
      {R"({"type": "round_box", "half_extents": [1, 0.2, 1], "radius": 0.5})",
       "/nodes/2/shape/radius", "smallest half extent"},
      {R"({"type": "plane", "normal": [0, 0, 0]})", "/nodes/2/shape/normal", "zero"},
      {R"({"type": "mandelbox", "scale": 0.5})", "/nodes/2/shape/scale", "1.05"},
      {R"({"type": "mandelbox", "min_radius": 2, "fixed_radius": 1})", "/nodes/2/shape/min_radius",
       "fixed_radius"},
      {R"({"type": "stairs", "steps": 0})", "/nodes/2/shape/steps", ""},
      {R"({"type": "sphere", "material": "lava"})", "/nodes/2/shape/material", "lava"},
      {R"({"type": "smooth_subtraction", "k": -0.1, "children": [{"type": "sphere"}]})",
       "/nodes/2/shape/k", "negative"},
      {R"({"type": "repeat", "period": [1, 0, -1], "children": [{"type": "sphere"}]})",
       "/nodes/2/shape/period/2", ""},
      {R"({"type": "twist", "children": [{"type": "sphere", "transform": {"position": [0, {"base": 1, "sine": "x"}, 0]}}]})",
       "/nodes/2/shape/children/0/transform/position/1/sine", ""},
      {R"([1, 2])", "/nodes/2/shape", "object"},
  };
  for (const Refusal& c : cases) {
    auto r = parse(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_EQ(r.error().where, c.where) << c.json << " -> " << r.error().message();
    EXPECT_NE(r.error().what.find(c.whatContains), std::string::npos)
        << c.json << " -> " << r.error().message();
  }
}

TEST(FieldJson, CompileRefusesNonFiniteAndMalformedGraphs) {
  FieldNode s = sphere(1);
  s.params[0] = std::nanf("");
  auto r = FieldProgram::compile(csg(NodeType::Union, {sphere(1), s}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "/children/1/radius");
  EXPECT_NE(r.error().what.find("finite"), std::string::npos);
  s.params[0] = INFINITY;
  EXPECT_FALSE(FieldProgram::compile(s).ok());
  EXPECT_EQ(FieldProgram::compile(csg(NodeType::Union, {})).error().where, "/children");
  FieldNode wrongCount = sphere(1);
  wrongCount.params.push_back(1.0f);
  EXPECT_FALSE(FieldProgram::compile(wrongCount).ok());
  FieldNode sine = sphere(1);
  sine.params[0].driver = AnimatedScalar::Driver::Sine;
  sine.params[0].amplitude = NAN;
  EXPECT_EQ(FieldProgram::compile(sine).error().where, "/radius");
  FieldNode twoKids = node(NodeType::Repeat, {1, 1, 1}, {sphere(1), sphere(2)});
  EXPECT_EQ(FieldProgram::compile(twoKids).error().where, "/children");
  // Too deep to evaluate on the fixed stacks: refused, not overflowed.
  FieldNode deep = sphere(1);
  for (int i = 0; i < 60; ++i) deep = xform({0, 0, 0}, Quat(1, 0, 0, 0), 1, deep);
  EXPECT_FALSE(FieldProgram::compile(deep).ok());
}

TEST(FieldGlslText, ParameterEditsKeepTheStructureHash) {
  FieldNode scene = everyNodeScene();
  const FieldProgram a = compileOrDie(scene);
  scene.children[0].children[0].children[0].params[0] = 0.9f;  // sphere radius
  const FieldProgram b = compileOrDie(scene);
  EXPECT_EQ(structureHash(a), structureHash(b));
  EXPECT_EQ(emitGlsl(a), emitGlsl(b));
  EXPECT_NE(a.parameterValues(0), b.parameterValues(0));
  scene.children[0].children.pop_back();
  EXPECT_NE(structureHash(a), structureHash(compileOrDie(scene)));
  EXPECT_NE(emitGlsl(a).find("vec2 map(vec3 p, float t)"), std::string::npos);
  EXPECT_EQ(emitGlsl(a).find("#version"), std::string::npos);
  EXPECT_EQ(static_cast<int>(a.parameterValues(0).size()), a.parameterCount());
}

}  // namespace
