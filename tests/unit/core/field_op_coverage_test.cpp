// Every field node type reaches every consumer: the per-point and batch evaluators, the
// normal, the bounds, the GLSL emitter, JSON I/O and the scene schema. The tests iterate
// over kNodeTypeCount, so a new NodeType fails here until each consumer handles it.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "field_test_util.h"
#include "floptle/core/field/field_glsl.h"
#include "floptle/core/field/field_json.h"
#include "scene_test_util.h"

namespace floptle::field {
namespace {

using test::compileOrDie;

/// Every parameter moved off its default by a quarter (integers by one), within its range:
/// identity transforms, zero periods and the like then change the field.
FieldNode perturbed(FieldNode n) {
  int slot = 0;
  for (const ParamSpec& p : nodeSpec(n.type).params) {
    for (int c = 0; c < p.components; ++c, ++slot) {
      const float v = n.params[slot].at(0.0);
      n.params[slot] = std::min(v + (p.integer ? 1.0f : 0.25f), p.max);
    }
  }
  return n;
}

/// A node of `type` with `params` and the children its spec asks for: a sphere at the origin,
/// and for CSG a box beside it, so each op's result differs from its first child alone.
FieldNode withChildren(FieldNode n) {
  const NodeSpec& spec = nodeSpec(n.type);
  if (spec.maxChildren == 0) return n;
  n.children.push_back(test::sphere(0.5f));
  if (spec.maxChildren != 1)
    n.children.push_back(
        test::xform({0.6f, 0.1f, 0.0f}, Quat(1, 0, 0, 0), 1.0f, test::box({0.3f, 0.3f, 0.3f})));
  return n;
}

FieldNode defaultGraph(NodeType type) {
  return withChildren(makeDefaultNode(type));
}
FieldNode perturbedGraph(NodeType type) {
  return withChildren(perturbed(makeDefaultNode(type)));
}

std::vector<Vec3> probePoints() {
  std::vector<Vec3> points;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 6; ++k)
        points.emplace_back(-1.37f + 0.53f * i, -1.41f + 0.55f * j, -1.33f + 0.51f * k);
  return points;
}

std::vector<NodeType> allTypes() {
  std::vector<NodeType> types;
  for (std::size_t i = 0; i < kNodeTypeCount; ++i) types.push_back(static_cast<NodeType>(i));
  return types;
}

std::string typeName(NodeType type) {
  return std::string(nodeSpec(type).name);
}

TEST(FieldOpCoverage, TableHasOneRowPerTypeInEnumOrder) {
  ASSERT_EQ(allNodeSpecs().size(), kNodeTypeCount);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kNodeTypeCount; ++i) {
    const NodeSpec& spec = allNodeSpecs()[i];
    EXPECT_EQ(static_cast<std::size_t>(spec.type), i);
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    EXPECT_EQ(nodeTypeFromName(spec.name), spec.type);
  }
}

TEST(FieldOpCoverage, PointAndBatchEvaluatorsAgreeAndSeeTheOp) {
  const std::vector<Vec3> points = probePoints();
  for (NodeType type : allTypes()) {
    for (const FieldNode& graph : {defaultGraph(type), perturbedGraph(type)}) {
      SCOPED_TRACE(typeName(type));
      const FieldProgram program = compileOrDie(graph);
      std::vector<float> batch(points.size());
      program.distanceBatch(points, 0.0, batch);
      float lo = 1e30f, hi = -1e30f;
      for (std::size_t i = 0; i < points.size(); ++i) {
        const float one = program.distance(points[i], 0.0);
        ASSERT_TRUE(std::isfinite(one)) << "point " << i;
        ASSERT_EQ(batch[i], one) << "point " << i;
        lo = std::min(lo, one), hi = std::max(hi, one);
      }
      EXPECT_GT(hi - lo, 1e-3f) << "the field is (nearly) constant: the op is not evaluated";
    }
    if (nodeSpec(type).maxChildren == 0) continue;
    // An op that falls through to "do nothing" leaves its first child's field.
    const FieldNode graph = perturbedGraph(type);
    const FieldProgram program = compileOrDie(graph), child = compileOrDie(graph.children[0]);
    float largest = 0.0f;
    for (Vec3 p : points)
      largest = std::max(largest, std::abs(program.distance(p, 0.0) - child.distance(p, 0.0)));
    EXPECT_GT(largest, 1e-3f) << typeName(type) << " evaluates to its first child alone";
  }
}

TEST(FieldOpCoverage, NormalFollowsTheDistance) {
  for (NodeType type : allTypes()) {
    int compared = 0, agreeing = 0;
    for (const FieldNode& graph : {defaultGraph(type), perturbedGraph(type)}) {
      const FieldProgram program = compileOrDie(graph);
      // The normal's own step: finer steps see a fractal's detail that the normal smooths over.
      const float h = program.gradientEpsilon();
      auto d = [&](Vec3 q) { return program.distance(q, 0.0); };
      // The probes and, for the fractals that fill them, the probes four times as far out.
      std::vector<Vec3> points = probePoints();
      for (Vec3 p : probePoints()) points.push_back(4.0f * p);
      for (Vec3 p : points) {
        const Vec3 n = program.normal(p, 0.0);
        ASSERT_TRUE(isFinite(n)) << typeName(type);
        ASSERT_NEAR(glm::length(n), 1.0f, 1e-3f) << typeName(type);
        const Vec3 g{d(p + Vec3(h, 0, 0)) - d(p - Vec3(h, 0, 0)),
                     d(p + Vec3(0, h, 0)) - d(p - Vec3(0, h, 0)),
                     d(p + Vec3(0, 0, h)) - d(p - Vec3(0, 0, h))};
        const float len = glm::length(g) / (2.0f * h);
        // At a kink the differences cancel; inside a fractal its distance estimate is no field.
        if (len < 0.1f || len > 1.5f || d(p) <= 0.0f) continue;
        ++compared;
        agreeing += glm::dot(n, glm::normalize(g)) > 0.95f;
      }
    }
    ASSERT_GT(compared, 20) << typeName(type);
    EXPECT_GE(agreeing, compared * 9 / 10) << typeName(type);
  }
}

TEST(FieldOpCoverage, BoundsHoldTheInsideAndAreFiniteForBoundedShapes) {
  for (NodeType type : allTypes()) {
    for (const FieldNode& graph : {defaultGraph(type), perturbedGraph(type)}) {
      SCOPED_TRACE(typeName(type));
      const FieldProgram program = compileOrDie(graph);
      const Aabb box = program.bounds(0.0);
      for (Vec3 p : probePoints()) {
        if (program.distance(p, 0.0) >= -1e-4f) continue;
        EXPECT_TRUE(glm::all(glm::greaterThanEqual(p, box.min)) &&
                    glm::all(glm::lessThanEqual(p, box.max)));
      }
      // Outside everywhere far away: a bounded shape, whose bounds must then be finite.
      bool bounded = true;
      for (float x : {-1e3f, 0.0f, 1e3f})
        for (float y : {-1e3f, 0.0f, 1e3f})
          for (float z : {-1e3f, 0.0f, 1e3f})
            if (x != 0.0f || y != 0.0f || z != 0.0f)
              bounded = bounded && program.distance({x, y, z}, 0.0) > 0.0f;
      if (bounded) {
        EXPECT_TRUE(isFinite(box.min) && isFinite(box.max)) << "bounds fell back to infinite";
      }
    }
  }
}

/// True when some statement of the GLSL reads `name` on the right of an assignment
/// (declarations such as "float v1 = 0.0" and the writes "v1 = ..." do not count).
bool reads(const std::string& glsl, const std::string& name) {
  const std::regex word("\\b" + name + "\\b");
  std::size_t begin = 0;
  while (begin < glsl.size()) {
    const std::size_t end = std::min(glsl.find_first_of(";\n{", begin), glsl.size());
    const std::string statement = glsl.substr(begin, end - begin);
    begin = end + 1;
    const std::size_t eq = statement.find("= ");
    if (eq == std::string::npos || statement.find("float ") != std::string::npos) continue;
    if (std::regex_search(statement.substr(eq + 1), word)) return true;
  }
  return false;
}

TEST(FieldOpCoverage, GlslUsesEveryParameterAndChild) {
  for (NodeType type : allTypes()) {
    const FieldNode graph = perturbedGraph(type);
    const std::string glsl = emitGlsl(compileOrDie(graph));
    // The root's parameters are slots 0..n-1.
    for (int slot = 0; slot < nodeSpec(type).scalarCount(); ++slot) {
      EXPECT_NE(glsl.find("FP(" + std::to_string(slot) + ")"), std::string::npos)
          << typeName(type) << " does not read its parameter slot " << slot;
    }
    if (graph.children.size() > 1) {
      EXPECT_TRUE(reads(glsl, "v1")) << typeName(type) << " never combines its second child";
    }
  }
}

TEST(FieldOpCoverage, JsonRoundTripsEveryType) {
  const MaterialResolver noMaterials =
      [](const nlohmann::ordered_json&) -> Expected<MaterialIndex> {
    return Error{"", "no materials here"};
  };
  const auto noIds = [](MaterialIndex) { return nlohmann::ordered_json(); };
  for (NodeType type : allTypes()) {
    for (const FieldNode& graph : {defaultGraph(type), perturbedGraph(type)}) {
      const nlohmann::ordered_json json = shapeToJson(graph, noIds);
      auto back = parseShape(json, "/shape", noMaterials);
      ASSERT_TRUE(back.ok()) << typeName(type) << ": " << back.error().message();
      EXPECT_EQ(*back, graph) << typeName(type) << ": " << json.dump();
    }
  }
}

TEST(FieldOpCoverage, SchemaListsEveryTypeAndParameter) {
  const auto schema = nlohmann::json::parse(scene::test::readBytes(
      std::filesystem::path(FLOPTLE_SOURCE_DIR) / "resources/scene.schema.json"));
  const auto& shape = schema["definitions"]["shape"]["properties"];
  std::vector<std::string> tableNames,
      schemaNames = shape["type"]["enum"].get<std::vector<std::string>>();
  for (const NodeSpec& spec : allNodeSpecs()) tableNames.emplace_back(spec.name);
  EXPECT_EQ(schemaNames, tableNames);
  const std::string description = shape["type"]["description"];
  for (const std::string& name : tableNames)
    EXPECT_NE(description.find(name), std::string::npos) << name;

  // The schema's shape is one flat object: each parameter key once, a scalar or a vector.
  const double numberMin = schema["definitions"]["number"]["minimum"],
               numberMax = schema["definitions"]["number"]["maximum"];
  std::set<std::string> tableKeys = {"type", "transform", "material", "children"};
  for (const NodeSpec& spec : allNodeSpecs()) {
    for (const ParamSpec& p : spec.params) {
      const std::string key(p.key);
      tableKeys.insert(key);
      ASSERT_TRUE(shape.contains(key)) << spec.name << "." << key << " is not in the schema";
      EXPECT_EQ(shape[key]["$ref"],
                p.components == 1 ? "#/definitions/scalar" : "#/definitions/vector")
          << spec.name << "." << key;
      EXPECT_GE(p.min, numberMin) << spec.name << "." << key;
      EXPECT_LE(p.max, numberMax) << spec.name << "." << key;
    }
  }
  for (const auto& [key, value] : shape.items())
    EXPECT_TRUE(tableKeys.count(key)) << key << " is in no NodeSpec";
}

}  // namespace
}  // namespace floptle::field
