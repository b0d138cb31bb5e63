// The collision world of the generated 10,000-sphere level (tests/large_scene, issue 25): built
// from the scene in one bulk build, it answers vertical rays with the closed form over the
// generator's own spheres (the highest sphere cap above the point, else the ground), agrees bit
// for bit with the brute-force scan, and keeps answering right after colliders are removed and
// added one at a time.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../../large_scene/large_scene.h"
#include "broadphase_check.h"
#include "collision_fixtures.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/field_collider.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::physics::testing {
namespace {

constexpr int kSpheres = 10000;

struct Ball {
  std::string name;
  double x, z, r;  // centre (x, r, z) (m), radius (m)
};

/// The spheres as the generator wrote them.
std::vector<Ball> ballsOf(const nlohmann::ordered_json& document) {
  // As the colliders hold them: in float.
  auto stored = [](const nlohmann::ordered_json& v) { return double(v.get<float>()); };
  std::vector<Ball> balls;
  for (const auto& node : document["nodes"]) {
    if (node["shape"]["type"] != "sphere") continue;
    const auto& p = node["transform"]["position"];
    balls.push_back({node["name"].get<std::string>(), stored(p[0]), stored(p[2]),
                     stored(node["shape"]["radius"])});
  }
  return balls;
}

/// Closed form of a ray straight down from height h at (x, z): the highest point of any sphere
/// cap over (x, z), y = r + sqrt(r^2 - d^2), or the ground (y = 0). Returns (node, y).
std::pair<std::string, double> highestSurfaceBelow(const std::vector<Ball>& balls, double x,
                                                   double z, int skip = -1) {
  std::pair<std::string, double> best{"ground", 0.0};
  for (std::size_t i = 0; i < balls.size(); ++i) {
    if (int(i) == skip) continue;
    const Ball& b = balls[i];
    const double d2 = (x - b.x) * (x - b.x) + (z - b.z) * (z - b.z);
    if (d2 > b.r * b.r) continue;
    const double y = b.r + std::sqrt(b.r * b.r - d2);
    if (y > best.second) best = {b.name, y};
  }
  return best;
}

class LargeLevelWorld : public ::testing::Test {
 protected:
  void SetUp() override {
    floptle::test::LargeSceneSpec spec;
    spec.spheres = kSpheres;
    document_ = floptle::test::largeScene(spec);
    auto built = scene::buildScene(document_);
    ASSERT_TRUE(built) << built.error().message();
    scene_ = std::move(*built);
    auto world = buildCollisionWorld(scene_, {});
    ASSERT_TRUE(world) << world.error().message();
    world_.emplace(std::move(*world));
    balls_ = ballsOf(document_);
    ASSERT_EQ(balls_.size(), std::size_t(kSpheres));
  }

  /// Checks a ray straight down from 50 m at (x, z) against the closed form.
  void expectDownRay(double x, double z, int skip = -1) {
    x = double(float(x));  // the ray's origin as the query holds it
    z = double(float(z));
    const auto [node, y] = highestSurfaceBelow(balls_, x, z, skip);
    const Ray down{Vec3(float(x), 50.0f, float(z)), Vec3(0, -1, 0)};
    const std::optional<Hit> hit = world_->raycast(down, 100.0f, 0.0).value();
    ASSERT_TRUE(hit.has_value()) << x << ", " << z;
    EXPECT_EQ(world_->nodeName(*hit), node) << x << ", " << z;
    // The march stops within CollisionWorld::kHitEpsilon * 200 m (0.2 mm) of the surface, as a
    // field value: along a ray meeting the surface at a slant that is 1 / |n . dir| as far.
    const double slant = std::max(double(std::abs(hit->normal.y)), 1e-2);
    EXPECT_NEAR(hit->distance, 50.0 - y, 1e-3 / slant) << node;
  }

  nlohmann::ordered_json document_;
  scene::Scene scene_;
  std::optional<CollisionWorld> world_;
  std::vector<Ball> balls_;
};

TEST_F(LargeLevelWorld, EveryNodeIsAColliderAndDownwardRaysHitTheClosedForm) {
  EXPECT_EQ(world_->size(), std::size_t(kSpheres + 1));  // the ground and each sphere
  // Over the top of a spread of spheres (the cap's highest point, or whatever stands higher
  // there), and beside them on an offset grid (mostly the ground).
  for (int i = 0; i < kSpheres; i += 97) expectDownRay(balls_[i].x, balls_[i].z);
  for (int i = 0; i < 60; ++i) expectDownRay(-197.3 + 6.61 * i, 181.7 - 5.93 * i);
}

TEST_F(LargeLevelWorld, SpheresOfOneRadiusShareOneCompiledProgram) {
  // The generator writes radii to the centimetre: far fewer radii than spheres.
  std::set<float> radii;
  for (const Ball& b : balls_) radii.insert(float(b.r));
  ASSERT_LT(radii.size(), balls_.size() / 10);
  std::set<const field::FieldProgram*> programs;
  std::map<float, const field::FieldProgram*> programOfRadius;
  for (const Ball& b : balls_) {
    const std::optional<ColliderId> id = world_->find(b.name);
    ASSERT_TRUE(id.has_value()) << b.name;
    const auto* collider = dynamic_cast<const FieldCollider*>(&world_->shape(*id));
    ASSERT_NE(collider, nullptr) << b.name;
    programs.insert(&collider->program());
    const auto first = programOfRadius.emplace(float(b.r), &collider->program()).first;
    EXPECT_EQ(first->second, &collider->program()) << b.name;
  }
  EXPECT_EQ(programs.size(), radii.size());
}

TEST_F(LargeLevelWorld, TheBroadphaseAgreesWithTheBruteForceScan) {
  // broadphase_check's queries fill a 44 m cube at the origin: about 1,200 of the spheres.
  EXPECT_GT(expectBroadphaseMatchesBruteForce(*world_, 25, 0.0, 40), 0);
}

TEST_F(LargeLevelWorld, RemovingAndAddingCollidersAfterTheBuildIsSeenAtOnce) {
  // Take away the sphere under a ray: the ray now finds what lies below it.
  int victim = -1;
  for (int i = 0; i < kSpheres && victim < 0; ++i)
    if (highestSurfaceBelow(balls_, balls_[i].x, balls_[i].z).first == balls_[i].name) victim = i;
  ASSERT_GE(victim, 0);
  const Ball& b = balls_[std::size_t(victim)];
  const std::optional<ColliderId> id = world_->find(b.name);
  ASSERT_TRUE(id.has_value());
  ASSERT_TRUE(world_->remove(*id).ok());
  EXPECT_EQ(world_->size(), std::size_t(kSpheres));
  expectDownRay(b.x, b.z, victim);
  // A new sphere of radius 2 m resting on the ground at that spot is hit at its top (y = 4 m).
  world_->add(placed(sphereNode(2.0f), pose(Vec3(float(b.x), 2.0f, float(b.z)))), "added");
  world_->refit(0.0);
  const Ray down{Vec3(float(b.x), 50.0f, float(b.z)), Vec3(0, -1, 0)};
  const std::optional<Hit> hit = world_->raycast(down, 100.0f, 0.0).value();
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(world_->nodeName(*hit), "added");
  EXPECT_NEAR(hit->distance, 46.0, 1e-3);
  EXPECT_GT(expectBroadphaseMatchesBruteForce(*world_, 26, 0.0, 20), 0);
}

}  // namespace
}  // namespace floptle::physics::testing
