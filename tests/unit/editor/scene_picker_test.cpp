// ScenePicker: the nearest node along a ray, against closed-form distances.
#include "floptle/editor/scene_picker.h"

#include "document_fixture.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor::test {
namespace {

/// A picker and the derived scene it reads (the picker keeps a pointer to it).
struct Picking {
  DerivedScene derived;
  ScenePicker picker;
};

std::unique_ptr<Picking> pickingFor(const Json& document) {
  Expected<DerivedScene> derived = deriveScene(document);
  EXPECT_TRUE(derived.ok()) << (derived.ok() ? "" : derived.error().message());
  auto picking = std::make_unique<Picking>();
  if (derived) picking->derived = std::move(*derived);
  picking->picker.setScene(picking->derived);
  return picking;
}

TEST(ScenePicker, RayDownOnTheBallHitsItsTopNotTheGround) {
  const auto picking = pickingFor(smallScene());
  const ScenePicker& picker = picking->picker;
  // Ball: centre (0, 2, 0), radius 1: a ray down from y = 10 meets it at y = 3, t = 7 (m).
  std::optional<PickHit> hit = picker.pick(Ray{{0, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ball");
  EXPECT_NEAR(hit->distance, 7.0f, 0.01f);
}

TEST(ScenePicker, ChildNodesArePlacedByTheirParent) {
  const auto picking = pickingFor(smallScene());
  const ScenePicker& picker = picking->picker;
  // Moon: (3, 0, 0) relative to the ball at (0, 2, 0), radius 0.25: top at y = 2.25.
  std::optional<PickHit> hit = picker.pick(Ray{{3, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "moon");
  EXPECT_NEAR(hit->distance, 7.75f, 0.01f);
}

TEST(ScenePicker, MissingEverythingButTheGround) {
  const auto picking = pickingFor(smallScene());
  const ScenePicker& picker = picking->picker;
  std::optional<PickHit> hit = picker.pick(Ray{{-6, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ground");
  EXPECT_NEAR(hit->distance, 10.0f, 0.01f);
  EXPECT_FALSE(picker.pick(Ray{{-6, 10, 0}, {0, 1, 0}}, 0.0).has_value());  // up: sky
}

TEST(ScenePicker, SideRayThroughTheCrate) {
  const auto picking = pickingFor(smallScene());
  const ScenePicker& picker = picking->picker;
  // Crate: centre (4, 0.5, 0), half extent 0.5: from x = 10 along -X it is met at x = 4.5.
  std::optional<PickHit> hit = picker.pick(Ray{{10, 0.5f, 0}, {-1, 0, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "crate");
  EXPECT_NEAR(hit->distance, 5.5f, 0.01f);
}

// The picker compiles at the first pick after setScene: a scene changed and set again is picked
// as it is now, and a node's bounds follow it (ball: radius 1, moved from (0, 2, 0) to (8, 2, 0)).
TEST(ScenePicker, ASceneSetAgainIsPickedWhereItsNodesAreNow) {
  EditorDocument document;
  openSmallScene(document);
  ScenePicker picker;
  picker.setScene(document.derived());
  std::optional<PickHit> hit = picker.pick(Ray{{0, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ball");

  ASSERT_TRUE(document.setValue(document.nodePointer("ball") + "/transform/position/0", 8.0));
  picker.setScene(document.derived());
  hit = picker.pick(Ray{{0, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ground");
  EXPECT_NEAR(hit->distance, 10.0f, 0.01f);
  hit = picker.pick(Ray{{8, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ball");
  EXPECT_NEAR(hit->distance, 7.0f, 0.01f);

  const Aabb bounds = picker.nodeBounds("ball", 0.0);
  ASSERT_FALSE(bounds.empty());
  EXPECT_TRUE(bounds.contains(Vec3(7.0f, 1.0f, -1.0f)) && bounds.contains(Vec3(9.0f, 3.0f, 1.0f)));
  EXPECT_LT(bounds.max.x - bounds.min.x, 2.5f);  // about the ball, not the level
  EXPECT_GT(bounds.min.x, 6.0f);
  EXPECT_TRUE(picker.nodeBounds("nobody", 0.0).empty());
}

}  // namespace
}  // namespace floptle::editor::test
