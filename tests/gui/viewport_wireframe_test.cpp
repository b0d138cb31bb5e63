// Collider wireframes: drawn_surface edges of each collider on the sphere's surface; View >
// Collider Wireframes shows and hides them in the viewport (depth-tested lines in the
// "colliders" layer); the per-node toggle overrides the global one.
#include "import_test_support.h"

#include <QAction>

#include "floptle/editor/derived_scene.h"

namespace floptle::editor::test {
namespace {

constexpr const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "red", "color": [0.9, 0.1, 0.1], "density": 1000, "friction": 0.5,
                 "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e7}],
  "interactions": [],
  "cameras": [{"name": "front", "position": [0, 1, 4], "look_at": [0, 1, 0], "fov": 50}],
  "nodes": [
    {"name": "ball", "material": "red", "shape": {"type": "sphere", "radius": 0.5},
     "transform": {"position": [0, 1, 0]}},
    {"name": "crate", "material": "red", "shape": {"type": "box", "half_extents": [0.3, 0.3, 0.3]},
     "transform": {"position": [1.5, 0.3, 0]}},
    {"name": "ghost", "shape": {"type": "sphere", "radius": 0.3}, "collider": {"collidable": false},
     "transform": {"position": [-1.5, 1, 0]}},
    {"name": "floor", "shape": {"type": "plane", "normal": [0, 1, 0]}}
  ]
})";

bool isWireColour(QRgb p) {
  return qBlue(p) > 170 && qGreen(p) > 170 && qRed(p) < 120;
}

class WireframeTest : public SmallWindowTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(openScene(kScene));
    wireframes_ = window().findChild<ColliderWireframes*>("colliderWireframes");
    ASSERT_NE(wireframes_, nullptr);
    document().setSelection({});
  }
  bool settle() {
    return waitFor([&] { return !wireframes_->busy(); }, 60000);
  }
  /// Wire-coloured pixels inside the ball's silhouette (a disc of 0.9 of its projected radius).
  int wirePixelsOnBall() {
    const QImage image = view().captureImage();
    Vec2 centre, rim;
    EXPECT_TRUE(view().camera().project({0.0f, 1.0f, 0.0f}, image.width(), image.height(), centre));
    EXPECT_TRUE(view().camera().project({0.0f, 1.5f, 0.0f}, image.width(), image.height(), rim));
    const float radius = 0.9f * glm::length(rim - centre);
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x)
        if (glm::length(Vec2(float(x), float(y)) - centre) < radius)
          count += isWireColour(image.pixel(x, y));
    return count;
  }
  const scene::SceneNode& node(const char* name) {
    const scene::Scene& scene = document().derived().scene();
    return scene.nodes[std::size_t(scene.findNode(name))];
  }
  ColliderWireframes* wireframes_ = nullptr;
};

TEST_F(WireframeTest, GlobalToggleShowsAndHidesTheSphereWireframe) {
  QAction* toggle = window().action("actionColliderWireframes");
  ASSERT_NE(toggle, nullptr);
  EXPECT_EQ(toggle->shortcut(), QKeySequence("Alt+W"));
  EXPECT_FALSE(wireframes_->enabled());
  EXPECT_EQ(view().overlayLineCount(ColliderWireframes::layerName()), 0u);
  EXPECT_EQ(wirePixelsOnBall(), 0);

  toggle->trigger();
  EXPECT_TRUE(wireframes_->enabled());
  ASSERT_TRUE(settle());
  EXPECT_GT(wireframes_->lineCount("ball"), 20u);
  EXPECT_GT(wireframes_->lineCount("crate"), 0u);
  EXPECT_GT(wireframes_->lineCount("floor"), 0u);
  EXPECT_EQ(wireframes_->lineCount("ghost"), 0u) << "a non-collidable node has no collider";
  EXPECT_EQ(view().overlayLineCount(ColliderWireframes::layerName()), wireframes_->lineCount());
  EXPECT_GT(wirePixelsOnBall(), 30);

  toggle->trigger();
  ASSERT_TRUE(settle());
  EXPECT_EQ(view().overlayLineCount(ColliderWireframes::layerName()), 0u);
  EXPECT_EQ(wirePixelsOnBall(), 0);
}

TEST_F(WireframeTest, PerNodeToggleOverridesTheGlobalOne) {
  document().setSelection({"ball"});
  QAction* perNode = window().action("actionSelectionWireframe");
  ASSERT_NE(perNode, nullptr);
  EXPECT_FALSE(perNode->isChecked());
  perNode->trigger();  // global off, ball on
  ASSERT_TRUE(settle());
  EXPECT_TRUE(perNode->isChecked());
  EXPECT_TRUE(wireframes_->nodeShown("ball"));
  EXPECT_FALSE(wireframes_->nodeShown("crate"));
  EXPECT_GT(wireframes_->lineCount("ball"), 0u);
  EXPECT_EQ(wireframes_->lineCount(), wireframes_->lineCount("ball"));

  // Global on, ball off: everything but the ball.
  wireframes_->setEnabled(true);
  wireframes_->setNodeShown("ball", false);
  ASSERT_TRUE(settle());
  EXPECT_FALSE(perNode->isChecked());
  EXPECT_EQ(wireframes_->lineCount("ball"), 0u);
  EXPECT_GT(wireframes_->lineCount("crate"), 0u);
  EXPECT_EQ(wirePixelsOnBall(), 0);
  // The override is editor state: the document did not change.
  EXPECT_FALSE(document().isDirty());
  wireframes_->clearNodeOverride("ball");
  ASSERT_TRUE(settle());
  EXPECT_GT(wireframes_->lineCount("ball"), 0u);
}

TEST_F(WireframeTest, MovedNodeIsReExtractedAndUndoFindsTheCache) {
  wireframes_->setNodeShown("ball", true);  // the ball alone: no floor lines in the way
  ASSERT_TRUE(settle());
  const std::size_t lines = wireframes_->lineCount("ball");
  ASSERT_GT(lines, 0u);
  EXPECT_GT(wirePixelsOnBall(), 0);
  const std::size_t extractions = wireframes_->extractions();
  ASSERT_TRUE(document()
                  .setValue(document().nodePointer("ball") + "/transform",
                            Json{{"position", {0.0, 3.0, 0.0}}})
                  .ok());
  EXPECT_TRUE(wireframes_->busy());
  ASSERT_TRUE(settle());
  EXPECT_EQ(wireframes_->extractions(), extractions + 1);
  EXPECT_GT(wireframes_->lineCount("ball"), 0u);
  EXPECT_EQ(wirePixelsOnBall(), 0) << "the wireframe did not follow the ball away";
  // Undo: the old content key, answered from the cache without a new extraction.
  document().undoStack()->undo();
  ASSERT_TRUE(settle());
  EXPECT_EQ(wireframes_->extractions(), extractions + 1);
  EXPECT_EQ(wireframes_->lineCount("ball"), lines);
  EXPECT_GT(wirePixelsOnBall(), 0);
}

// The extraction alone: every wire end lies on the sphere (drawn_surface projects its
// vertices onto the zero set), and the cell size follows the box.
TEST_F(WireframeTest, WireEndsLieOnTheSphere) {
  const scene::SceneNode& ball = node("ball");
  auto lines = extractColliderWireframe(ball, {}, {}, 0.0);
  ASSERT_TRUE(lines.ok()) << lines.error().message();
  ASSERT_GT(lines->size(), 20u);
  const float cell = wireframeCellSize(Aabb{Vec3(-0.5f, 0.5f, -0.5f), Vec3(0.5f, 1.5f, 0.5f)});
  EXPECT_NEAR(cell, 1.0f / kWireframeCellsAcross, 1e-6f);
  for (const OverlayLine& line : *lines)
    for (Vec3 p : {line.a, line.b}) ASSERT_NEAR(glm::length(p - Vec3(0, 1, 0)), 0.5f, 0.1f * cell);

  // The unbounded floor: within the +-20 m region, on y = 0.
  auto floor = extractColliderWireframe(node("floor"), {}, {}, 0.0);
  ASSERT_TRUE(floor.ok()) << floor.error().message();
  ASSERT_FALSE(floor->empty());
  for (const OverlayLine& line : *floor) {
    ASSERT_NEAR(line.a.y, 0.0f, 1e-3f);
    const float cell = wireframeCellSize(Aabb{Vec3(-1e30f), Vec3(1e30f)});
    ASSERT_LE(std::abs(line.a.x), kWireframeUnboundedHalf + cell + 1e-3f);
  }
  std::atomic<bool> cancel{true};
  EXPECT_FALSE(extractColliderWireframe(ball, {}, {}, 0.0, nullptr, &cancel).ok());
}

}  // namespace
}  // namespace floptle::editor::test
