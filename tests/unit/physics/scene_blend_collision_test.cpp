// Physics reads the scene's one composition: blended static nodes share one collider over
// the composed field, so closest, overlaps, casts and the query protocol answer the blend;
// a hit names the nearer node and its material; closest inside overlapping colliders answers
// the deepest (their union), as sphere_overlap does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/query_protocol.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::physics {
namespace {

using Json = nlohmann::ordered_json;

double smin(double a, double b, double k) {
  if (k <= 0.0) return std::min(a, b);
  const double h = std::max(k - std::abs(a - b), 0.0) / k;
  return std::min(a, b) - h * h * k * 0.25;
}
double smax(double a, double b, double k) {
  return -smin(-a, -b, k);
}

double sphere(Vec3 p, Vec3 c) {
  const Vec3 d = p - c;
  return std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z) - 1.0;
}

const Vec3 kA(-0.6f, 0, 0), kB(0.6f, 0, 0);

/// Two unit spheres centred 1.2 m apart: "a" (goo) at (-0.6, 0, 0), "b" (rock) at
/// (0.6, 0, 0), static, with the given interactions.
Json twoSpheres(Json interactions, const std::string& mb = "rock") {
  Json doc = Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [
      {"id": "goo", "color": [0.2, 0.8, 0.3], "density": 1100, "friction": 0.9,
       "restitution": 0.1, "bulk_modulus": 2e9, "yield_strength": 1e5},
      {"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
       "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "nodes": [
      {"name": "a", "transform": {"position": [-0.6, 0, 0]},
       "shape": {"type": "sphere", "radius": 1}, "material": "goo"},
      {"name": "b", "transform": {"position": [0.6, 0, 0]},
       "shape": {"type": "sphere", "radius": 1}, "material": "rock"}
    ]})");
  doc["interactions"] = std::move(interactions);
  doc["nodes"][1]["material"] = mb;
  return doc;
}

Json rule(const std::string& name, Json k) {
  return Json::array({Json{{"a", "goo"}, {"b", "rock"}, {"rule", name}, {"k", std::move(k)}}});
}

CollisionWorld worldOf(const Json& doc) {
  auto scene = scene::buildScene(doc);
  EXPECT_TRUE(scene.ok()) << scene.error().message();
  auto world = buildCollisionWorld(scene.value(), ".");
  EXPECT_TRUE(world.ok()) << world.error().message();
  return std::move(world.value());
}

std::vector<Vec3> samplePoints() {
  std::vector<Vec3> points;
  for (float x = -2.0f; x <= 2.0f; x += 0.25f)
    for (float y : {0.0f, 0.3f, 0.9f, 1.1f}) points.emplace_back(x, y, 0.2f);
  return points;
}

TEST(SceneBlendCollision, ClosestInsideOverlappingCollidersAnswersTheDeepest) {
  // No rule: two colliders, whose union is min. At (0.2, 0, 0): a says |0.8| - 1 = -0.2,
  // b says |0.4| - 1 = -0.6, so the union's distance is -0.6, via b.
  CollisionWorld world = worldOf(twoSpheres(Json::array()));
  ASSERT_EQ(world.size(), 2u);
  const Vec3 p(0.2f, 0, 0);
  auto closest = world.closest(p, 0.0);
  ASSERT_TRUE(closest.ok() && closest.value());
  EXPECT_NEAR(closest.value()->distance, -0.6f, 1e-6f);
  EXPECT_EQ(world.nodeName(*closest.value()), "b");
  // sphere_overlap at the same point agrees: penetration r - f = 0.1 + 0.6, via b.
  auto overlap = world.sphereOverlap(p, 0.1f, 0.0);
  ASSERT_TRUE(overlap.ok() && overlap.value());
  EXPECT_NEAR(overlap.value()->distance, 0.7f, 1e-6f);
  EXPECT_EQ(world.nodeName(*overlap.value()), "b");
  EXPECT_NEAR(closest.value()->distance, 0.1f - overlap.value()->distance, 1e-6f);
  // The brute-force scan gives the same bits.
  world.setUseBroadphase(false);
  auto scanned = world.closest(p, 0.0);
  ASSERT_TRUE(scanned.ok() && scanned.value());
  EXPECT_EQ(scanned.value()->distance, closest.value()->distance);
  EXPECT_EQ(scanned.value()->collider, closest.value()->collider);
}

TEST(SceneBlendCollision, MergeAndCarveBecomeOneColliderOverTheComposedField) {
  struct Case {
    const char* rule;
    double k;
    double (*closed)(double, double, double);
  };
  const Case cases[] = {
      {"merge", 0.5, [](double a, double b, double k) { return smin(a, b, k); }},
      {"carve", 0.3, [](double a, double b, double k) { return std::min(smax(a, -b, k), b); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.rule);
    CollisionWorld world = worldOf(twoSpheres(rule(c.rule, c.k)));
    ASSERT_EQ(world.size(), 1u);
    for (Vec3 p : samplePoints()) {
      auto hit = world.closest(p, 0.0);
      ASSERT_TRUE(hit.ok() && hit.value());
      EXPECT_NEAR(hit.value()->distance, c.closed(sphere(p, kA), sphere(p, kB), c.k), 2e-6)
          << p.x << ", " << p.y;
    }
  }
}

TEST(SceneBlendCollision, HardAndIgnoreKeepOneColliderPerNode) {
  for (const char* name : {"hard", "ignore"}) {
    CollisionWorld world = worldOf(twoSpheres(rule(name, 0.5)));
    EXPECT_EQ(world.size(), 2u) << name;
    for (Vec3 p : samplePoints())
      EXPECT_NEAR(world.distance(p, 0.0), std::min(sphere(p, kA), sphere(p, kB)), 2e-6) << name;
  }
}

TEST(SceneBlendCollision, AHitOnTheBlendNamesTheNearerNodeAndItsMaterial) {
  CollisionWorld world = worldOf(twoSpheres(rule("merge", 0.8)));
  // Straight down onto the bridge between the spheres, a little to each side of the middle.
  for (const auto& [x, node, material] :
       {std::tuple{-0.05f, "a", "goo"}, std::tuple{0.05f, "b", "rock"}}) {
    auto hit = world.raycast(Ray{Vec3(x, 5, 0), Vec3(0, -1, 0)}, 10.0f, 0.0);
    ASSERT_TRUE(hit.ok() && hit.value());
    EXPECT_EQ(world.nodeName(*hit.value()), node);
    EXPECT_EQ(world.material(*hit.value()), std::optional<std::string>(material));
  }
  // At x = 0 both distances are d = sqrt(0.36 + y^2) - 1 and smin = d - k/4: the surface is
  // where d = k/4, y = sqrt((1 + k/4)^2 - 0.36).
  auto top = world.raycast(Ray{Vec3(0, 5, 0), Vec3(0, -1, 0)}, 10.0f, 0.0);
  ASSERT_TRUE(top.ok() && top.value());
  EXPECT_NEAR(top.value()->point.y, std::sqrt(1.2 * 1.2 - 0.36), 1e-4);
}

TEST(SceneBlendCollision, QueryAnswersTheBlendAtTimeT) {
  // k blends from 0 to 0.8 over 2 s.
  CollisionWorld world =
      worldOf(twoSpheres(rule("merge", Json::parse(R"({"keys": [[0, 0], [2, 0.8]]})"))));
  const Vec3 p(0.0f, 1.0f, 0.0f);
  const double d = sphere(p, kA);  // = sphere(p, kB) on the mid plane
  for (double t : {0.0, 1.0, 2.0}) {
    const Json answer =
        answerQuery(world, nlohmann::json{{"op", "closest"}, {"p", {p.x, p.y, p.z}}, {"t", t}});
    ASSERT_TRUE(answer.contains("distance")) << answer.dump();
    EXPECT_NEAR(answer["distance"].get<double>(), smin(d, d, 0.4 * t), 2e-6) << t;
  }
  // A ray from the left hits a's side and names it, with its material.
  const Json ray = answerQuery(
      world,
      nlohmann::json{{"op", "raycast"}, {"origin", {-5, 0.3, 0}}, {"dir", {1, 0, 0}}, {"t", 2.0}});
  ASSERT_TRUE(ray["hit"].get<bool>()) << ray.dump();
  EXPECT_EQ(ray["node"], "a");
  EXPECT_EQ(ray["material"], "goo");
}

TEST(SceneBlendCollision, DynamicBodiesKeepTheirOwnShapes) {
  Json doc = twoSpheres(rule("merge", 0.5));
  doc["nodes"][1]["collider"] = Json{{"body", "dynamic"}};
  CollisionWorld world = worldOf(doc);
  ASSERT_EQ(world.size(), 2u);
  for (Vec3 p : samplePoints())
    EXPECT_NEAR(world.distance(p, 0.0), std::min(sphere(p, kA), sphere(p, kB)), 2e-6);
}

}  // namespace
}  // namespace floptle::physics
