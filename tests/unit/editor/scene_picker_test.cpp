// ScenePicker: the nearest node along a ray, against closed-form distances.
#include "floptle/editor/scene_picker.h"

#include "document_fixture.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor::test {
namespace {

ScenePicker pickerFor(const Json& document) {
  Expected<DerivedScene> derived = deriveScene(document);
  EXPECT_TRUE(derived.ok()) << (derived.ok() ? "" : derived.error().message());
  ScenePicker picker;
  if (derived) picker.rebuild(derived->scene());
  return picker;
}

TEST(ScenePicker, RayDownOnTheBallHitsItsTopNotTheGround) {
  const ScenePicker picker = pickerFor(smallScene());
  // Ball: centre (0, 2, 0), radius 1: a ray down from y = 10 meets it at y = 3, t = 7 (m).
  std::optional<PickHit> hit = picker.pick(Ray{{0, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ball");
  EXPECT_NEAR(hit->distance, 7.0f, 0.01f);
}

TEST(ScenePicker, ChildNodesArePlacedByTheirParent) {
  const ScenePicker picker = pickerFor(smallScene());
  // Moon: (3, 0, 0) relative to the ball at (0, 2, 0), radius 0.25: top at y = 2.25.
  std::optional<PickHit> hit = picker.pick(Ray{{3, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "moon");
  EXPECT_NEAR(hit->distance, 7.75f, 0.01f);
}

TEST(ScenePicker, MissingEverythingButTheGround) {
  const ScenePicker picker = pickerFor(smallScene());
  std::optional<PickHit> hit = picker.pick(Ray{{-6, 10, 0}, {0, -1, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "ground");
  EXPECT_NEAR(hit->distance, 10.0f, 0.01f);
  EXPECT_FALSE(picker.pick(Ray{{-6, 10, 0}, {0, 1, 0}}, 0.0).has_value());  // up: sky
}

TEST(ScenePicker, SideRayThroughTheCrate) {
  const ScenePicker picker = pickerFor(smallScene());
  // Crate: centre (4, 0.5, 0), half extent 0.5: from x = 10 along -X it is met at x = 4.5.
  std::optional<PickHit> hit = picker.pick(Ray{{10, 0.5f, 0}, {-1, 0, 0}}, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->node, "crate");
  EXPECT_NEAR(hit->distance, 5.5f, 0.01f);
}

}  // namespace
}  // namespace floptle::editor::test
