// The one composition of a scene's field against closed forms: two unit spheres under each
// interaction rule, a material's own rule, three materials folded as scene_composition.h
// documents, a k driver over t, the surface material of a blend, and the driver in the
// document (schema and range).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "floptle/core/field/field_glsl.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/core/scene/scene_io.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;

// The seed's polynomial smooth minimum and its smooth maximum, in double.
double smin(double a, double b, double k) {
  if (k <= 0.0) return std::min(a, b);
  const double h = std::max(k - std::abs(a - b), 0.0) / k;
  return std::min(a, b) - h * h * k * 0.25;
}
double smax(double a, double b, double k) {
  return -smin(-a, -b, k);
}

/// Signed distance of a unit sphere centred at c (m).
double sphere(Vec3 p, Vec3 c, double r = 1.0) {
  const Vec3 d = p - c;
  return std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z) - r;
}

Json material(const std::string& id) {
  return Json{
      {"id", id},           {"color", {0.5, 0.5, 0.5}}, {"density", 1000},      {"friction", 0.5},
      {"restitution", 0.1}, {"bulk_modulus", 1e9},      {"yield_strength", 1e6}};
}

Json sphereNode(const std::string& name, Vec3 at, const std::string& materialId, double r = 1.0) {
  return Json{{"name", name},
              {"transform", {{"position", {at.x, at.y, at.z}}}},
              {"shape", {{"type", "sphere"}, {"radius", r}}},
              {"material", materialId}};
}

/// Two unit spheres centred 1.2 m apart, "a" of material ma at (-0.6, 0, 0) and "b" of mb at
/// (0.6, 0, 0), with the given interactions.
Json twoSpheres(const std::string& ma, const std::string& mb, Json interactions) {
  Json doc{{"format", "floptle.scene"},
           {"version", 1},
           {"materials",
            Json::array({material("goo"), material("rock"), material("metal"), material("glass")})},
           {"interactions", std::move(interactions)},
           {"nodes", Json::array({sphereNode("a", Vec3(-0.6f, 0, 0), ma),
                                  sphereNode("b", Vec3(0.6f, 0, 0), mb)})}};
  return doc;
}

Json rule(const std::string& a, const std::string& b, const std::string& name, Json k = 0.0) {
  return Json{{"a", a}, {"b", b}, {"rule", name}, {"k", std::move(k)}};
}

Scene build(const Json& doc) {
  auto scene = buildScene(doc);
  EXPECT_TRUE(scene.ok()) << scene.error().message();
  return scene.ok() ? *scene : Scene{};
}

field::FieldProgram compiled(const Scene& scene) {
  auto program = field::FieldProgram::compile(sceneField(scene));
  EXPECT_TRUE(program.ok()) << program.error().message();
  return program.ok() ? std::move(program.value()) : field::FieldProgram{};
}

const Vec3 kA(-0.6f, 0, 0), kB(0.6f, 0, 0);

/// Points around and between the spheres: the seam, both bodies, outside, off axis.
std::vector<Vec3> samplePoints() {
  std::vector<Vec3> points;
  for (float x = -2.0f; x <= 2.0f; x += 0.25f)
    for (float y : {0.0f, 0.3f, 0.9f, 1.1f})
      for (float z : {0.0f, 0.45f}) points.emplace_back(x, y, z);
  return points;
}

template <class Closed>
void expectField(const field::FieldProgram& program, double t, Closed&& closed) {
  for (Vec3 p : samplePoints()) {
    const double expected = closed(sphere(p, kA), sphere(p, kB));
    EXPECT_NEAR(program.distance(p, t), expected, 2e-6) << p.x << ", " << p.y << ", " << p.z;
  }
}

TEST(SceneComposition, MergeIsTheSeedsPolynomialSmin) {
  const Scene scene =
      build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "merge", 0.5)})));
  expectField(compiled(scene), 0.0, [](double a, double b) { return smin(a, b, 0.5); });
}

TEST(SceneComposition, CarveLetsBBiteADentIntoAAndKeepItsShape) {
  const Scene scene =
      build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "carve", 0.3)})));
  expectField(compiled(scene), 0.0,
              [](double a, double b) { return std::min(smax(a, -b, 0.3), b); });
  // The pair is ordered: (rock, goo) carve bites a into b instead.
  const Scene reversed =
      build(twoSpheres("goo", "rock", Json::array({rule("rock", "goo", "carve", 0.3)})));
  expectField(compiled(reversed), 0.0,
              [](double a, double b) { return std::min(smax(b, -a, 0.3), a); });
}

TEST(SceneComposition, HardIgnoreAndNoRuleAreTheUnion) {
  for (const char* name : {"hard", "ignore"}) {
    const Scene scene =
        build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", name, 0.7)})));
    expectField(compiled(scene), 0.0, [](double a, double b) { return std::min(a, b); });
  }
  const Scene none = build(twoSpheres("goo", "rock", Json::array()));
  expectField(compiled(none), 0.0, [](double a, double b) { return std::min(a, b); });
  // One material with no rule of its own: hard union.
  const Scene same =
      build(twoSpheres("goo", "goo", Json::array({rule("goo", "rock", "merge", 0.5)})));
  expectField(compiled(same), 0.0, [](double a, double b) { return std::min(a, b); });
}

TEST(SceneComposition, AMaterialsOwnRuleCombinesItsNodes) {
  const Scene scene =
      build(twoSpheres("goo", "goo", Json::array({rule("goo", "goo", "merge", 0.6)})));
  expectField(compiled(scene), 0.0, [](double a, double b) { return smin(a, b, 0.6); });
  const auto parts = compositionParts(scene, std::vector<int>{0, 1});
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(parts[0].blended);
}

TEST(SceneComposition, WithoutBlendRulesTheTreeIsTheUnionInDocumentOrder) {
  const Scene scene = build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "hard")})));
  const field::FieldNode root = sceneField(scene);
  EXPECT_EQ(root.type, field::NodeType::Union);
  ASSERT_EQ(root.children.size(), 2u);
  const auto parts = compositionParts(scene, std::vector<int>{0, 1});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_FALSE(parts[0].blended);
  EXPECT_EQ(parts[0].nodes, std::vector<int>{0});
  EXPECT_EQ(parts[1].nodes, std::vector<int>{1});
}

/// Four materials: goo merges rock (k 0.3), metal carves into rock ((metal, rock) carve
/// 0.2, so rock bites metal), glass has no rule. Spheres of radius 0.7 at x = -1, 0, 1 and
/// glass at (0, 1.5, 0).
Json fourMaterials(Json interactions) {
  Json doc = twoSpheres("goo", "rock", std::move(interactions));
  doc["nodes"] = Json::array({sphereNode("n_goo", Vec3(-1, 0, 0), "goo", 0.7),
                              sphereNode("n_metal", Vec3(1, 0, 0), "metal", 0.7),
                              sphereNode("n_rock", Vec3(0, 0, 0), "rock", 0.7),
                              sphereNode("n_glass", Vec3(0, 1.5f, 0), "glass", 0.7)});
  return doc;
}

TEST(SceneComposition, MoreThanTwoMaterialsFoldBreadthFirstByTheDocumentedRule) {
  const Json rules =
      Json::array({rule("goo", "rock", "merge", 0.3), rule("metal", "rock", "carve", 0.2)});
  const Scene scene = build(fourMaterials(rules));
  const field::FieldProgram program = compiled(scene);
  // Fold order from goo (index 1): goo, rock (goo's neighbour), metal (rock's). Rock meets
  // goo by (goo, rock) merge: F = smin(goo, rock). Metal meets F by the rule with rock, the
  // earliest folded material that has one: (metal, rock) carve, so metal is a and F is b:
  // min(smax(metal, -F), F). Glass is in no group: hard union with the rest.
  auto closed = [](Vec3 p) {
    const double goo = sphere(p, Vec3(-1, 0, 0), 0.7), rock = sphere(p, Vec3(0, 0, 0), 0.7);
    const double metal = sphere(p, Vec3(1, 0, 0), 0.7), glass = sphere(p, Vec3(0, 1.5f, 0), 0.7);
    const double f = smin(goo, rock, 0.3);
    return std::min(std::min(smax(metal, -f, 0.2), f), glass);
  };
  for (float x = -2.0f; x <= 2.0f; x += 0.125f)
    for (float y : {0.0f, 0.2f, 0.65f, 0.9f, 1.2f})
      EXPECT_NEAR(program.distance(Vec3(x, y, 0.1f), 0.0), closed(Vec3(x, y, 0.1f)), 2e-6)
          << x << ", " << y;

  // The order of the interactions list does not matter.
  const Json reversed = Json::array({rules[1], rules[0]});
  EXPECT_EQ(sceneField(build(fourMaterials(reversed))), sceneField(scene));

  // Parts: the blend group (goo, metal, rock nodes in document order) at its first node's
  // place, then glass alone.
  const auto parts = compositionParts(scene, std::vector<int>{0, 1, 2, 3});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(parts[0].blended);
  EXPECT_EQ(parts[0].nodes, (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(parts[1].blended);
  EXPECT_EQ(parts[1].nodes, std::vector<int>{3});
}

TEST(SceneComposition, AKDriverChangesTheFieldOverTimeAsItsCurveSays) {
  // "blend over 2 s": k from 0 to 0.8, linear keys.
  const Json k = Json::parse(R"({"keys": [[0, 0], [2, 0.8]]})");
  const Scene scene =
      build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "merge", k)})));
  const field::FieldProgram program = compiled(scene);
  EXPECT_TRUE(program.animated());
  for (double t : {0.0, 0.5, 1.0, 2.0, 3.0}) {
    const double kt = 0.8 * std::clamp(t / 2.0, 0.0, 1.0);
    expectField(program, t, [kt](double a, double b) { return smin(a, b, kt); });
  }
  // Between the spheres the blend deepens by k/4 where the two distances are equal.
  EXPECT_NEAR(program.distance(Vec3(0, 1, 0), 2.0) - program.distance(Vec3(0, 1, 0), 0.0), -0.2,
              2e-6);
}

TEST(SceneComposition, ABlendedSurfaceTakesTheNearerNodesMaterial) {
  const Scene scene =
      build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "merge", 0.8)})));
  const field::FieldProgram program = compiled(scene);
  const MaterialIndex goo = scene.findMaterial(std::string_view("goo")),
                      rock = scene.findMaterial(std::string_view("rock"));
  // On the blended bridge, slightly to each side of the mid plane.
  EXPECT_EQ(program.sample(Vec3(-0.05f, 1.04f, 0), 0.0).material, goo);
  EXPECT_EQ(program.sample(Vec3(0.05f, 1.04f, 0), 0.0).material, rock);
  // A labelled composition names the nodes instead: ordinal + 1 in the list given.
  const std::vector<int> nodes{0, 1};
  auto labelled =
      field::FieldProgram::compile(composeNodes(scene, nodes, SurfaceLabel::NodeOrdinal));
  ASSERT_TRUE(labelled.ok());
  EXPECT_EQ(labelled->sample(Vec3(-0.05f, 1.04f, 0), 0.0).material, 1);
  EXPECT_EQ(labelled->sample(Vec3(0.05f, 1.04f, 0), 0.0).material, 2);
  EXPECT_EQ(labelled->distance(Vec3(0.05f, 1.04f, 0), 0.0),
            program.distance(Vec3(0.05f, 1.04f, 0), 0.0));
}

TEST(SceneComposition, TheShaderReadsTheBlendAndItsDriver) {
  const Json k = Json::parse(R"({"keys": [[0, 0], [2, 0.8]]})");
  const Scene scene =
      build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "merge", k)})));
  const std::string glsl = field::emitGlsl(compiled(scene));
  EXPECT_NE(glsl.find("fp_smin("), std::string::npos);
  const Scene carved =
      build(twoSpheres("goo", "rock", Json::array({rule("goo", "rock", "carve", 0.2)})));
  EXPECT_NE(field::emitGlsl(compiled(carved)).find("fp_smax("), std::string::npos);
}

TEST(SceneComposition, AKDriverPassesTheSchemaAndAnOutOfRangeOneIsRefused) {
  Json doc = twoSpheres(
      "goo", "rock",
      Json::array(
          {rule("goo", "rock", "merge",
                Json::parse(R"({"base": 0.4, "sine": {"amplitude": 0.3, "frequency": 0.5}})"))}));
  auto text = sceneToText(doc);
  ASSERT_TRUE(text.ok());
  auto loaded = parseSceneText(*text);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  const Scene scene = build(*loaded);
  ASSERT_EQ(scene.interactions.size(), 1u);
  EXPECT_EQ(scene.interactions[0].k.driver, field::AnimatedScalar::Driver::Sine);
  EXPECT_FLOAT_EQ(scene.interactions[0].k.at(0.5),
                  0.4f + 0.3f * std::sin(2.0f * 3.14159265f * 0.25f));

  // A sine that dips below 0 is refused at the key, naming the range.
  doc["interactions"][0]["k"] = Json::parse(R"({"base": 0.1, "sine": {"amplitude": 0.3}})");
  auto refused = buildScene(doc);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(test::hasProblemAt(refused.error(), "/interactions/0/k"))
      << refused.error().message();
  // A number keeps its range check.
  doc["interactions"][0]["k"] = -1;
  auto negative = buildScene(doc);
  ASSERT_FALSE(negative.ok());
  EXPECT_TRUE(test::hasProblemAt(negative.error(), "/interactions/0/k"))
      << negative.error().message();
}

}  // namespace
}  // namespace floptle::scene
