// The scene tree's drag and drop and multi-select, Frame Selected (F), and the window's use of
// gizmo drags (rotate and scale about a pivot, one undo step per drag, Escape restores).
// Run under xvfb-run.
#include <QAction>
#include <QSignalSpy>

#include <cmath>

#include "floptle/editor/scene_tree_panel.h"
#include "gui_fixture.h"

using namespace floptle;
using namespace floptle::editor;
using floptle::editor::test::WindowTest;

namespace {

constexpr float kPi = 3.14159265358979f;

Vec3 vec3At(const Json& json) {
  return {json[0].get<float>(), json[1].get<float>(), json[2].get<float>()};
}

/// Drops the tree's selection onto the middle of `target`: the panel's drop handling after Qt
/// has decided the indicator position. (A real mouse drag cannot be driven from a test: in
/// InternalMove mode the view takes drops only from its own QDrag, whose loop reads X events.)
void dropSelectionOnto(SceneTreePanel& tree, const QModelIndex& target) {
  ASSERT_TRUE(target.isValid());
  tree.dropSelection(target, SceneTreePanel::DropPlace::Onto);
}

}  // namespace

TEST_F(WindowTest, DroppingANodeOntoAnotherReparentsItInOneUndoStep) {
  SceneTreePanel& tree = *window().sceneTree();
  ASSERT_TRUE(document().parentOf("rubber_ball").isEmpty());
  const Json before = document().json();
  tree.selectNames({"rubber_ball"});
  const int steps = document().undoStack()->count();
  dropSelectionOnto(tree, tree.indexFor("ice_slab"));
  EXPECT_EQ(document().parentOf("rubber_ball"), "ice_slab");
  EXPECT_EQ(document().undoStack()->count(), steps + 1);
  // The tree follows the document: the item now sits under its new parent.
  const QModelIndex moved = tree.indexFor("rubber_ball");
  ASSERT_TRUE(moved.isValid());
  ASSERT_TRUE(moved.parent().isValid());
  EXPECT_EQ(tree.nameAt(moved.parent()), "ice_slab");
  // Re-parenting keeps the node where it was in the world: ice_slab is at (4, 0.15, 4) and the
  // ball at (1.5, 2.5, 2), so its local position is the difference.
  const Json local =
      *document().valueAt(document().nodePointer("rubber_ball") + "/transform/position");
  const Vec3 position = vec3At(local);
  EXPECT_NEAR(position.x, 1.5f - 4.0f, 1e-5f);
  EXPECT_NEAR(position.y, 2.5f - 0.15f, 1e-5f);
  EXPECT_NEAR(position.z, 2.0f - 4.0f, 1e-5f);
  document().undoStack()->undo();
  EXPECT_EQ(document().json(), before);
  EXPECT_TRUE(document().parentOf("rubber_ball").isEmpty());
}

TEST_F(WindowTest, DroppingANodeOntoItsOwnChildIsRefusedAndChangesNothing) {
  SceneTreePanel& tree = *window().sceneTree();
  ASSERT_EQ(document().parentOf("sculpture_plinth"), "sculpture");
  const Json before = document().json();
  const int steps = document().undoStack()->count();
  tree.selectNames({"sculpture"});
  dropSelectionOnto(tree, tree.indexFor("sculpture_plinth"));
  EXPECT_EQ(document().json(), before);
  EXPECT_EQ(document().undoStack()->count(), steps);
  EXPECT_EQ(document().parentOf("sculpture_plinth"), "sculpture");
}

TEST_F(WindowTest, DroppingBetweenItemsReordersAmongSiblings) {
  SceneTreePanel& tree = *window().sceneTree();
  ASSERT_EQ(document().nodeNames().indexOf("player_spawn"), document().nodeNames().size() - 1);
  tree.selectNames({"player_spawn"});
  tree.dropSelection(tree.indexFor("ground"), SceneTreePanel::DropPlace::Above);
  EXPECT_EQ(document().nodeNames().front(), "player_spawn");
  EXPECT_TRUE(document().parentOf("player_spawn").isEmpty());
  // Dropped on the empty area: back to the end of the top level.
  tree.dropSelection({}, SceneTreePanel::DropPlace::EndOfTopLevel);
  EXPECT_EQ(document().nodeNames().back(), "player_spawn");
}

TEST_F(WindowTest, CtrlClickInTheTreeSelectsSeveralNodes) {
  SceneTreePanel& tree = *window().sceneTree();
  const QRect first = tree.visualRect(tree.indexFor("ramp"));
  const QRect second = tree.visualRect(tree.indexFor("stairs"));
  QTest::mouseClick(tree.viewport(), Qt::LeftButton, Qt::NoModifier, first.center());
  QTest::mouseClick(tree.viewport(), Qt::LeftButton, Qt::ControlModifier, second.center());
  QStringList selection = document().selection();
  selection.sort();
  EXPECT_EQ(selection, QStringList({"ramp", "stairs"}));
  // Ctrl+click again removes one.
  QTest::mouseClick(tree.viewport(), Qt::LeftButton, Qt::ControlModifier, first.center());
  EXPECT_EQ(document().selection(), QStringList({"stairs"}));
}

TEST_F(WindowTest, FrameSelectedCentresTheNodeAndFitsItInTheView) {
  // The planet: a sphere of radius r at (26, 14, -34), far from the start camera.
  document().setSelection({"planet"});
  QAction* frame = window().action("actionFrameSelected");
  ASSERT_NE(frame, nullptr);
  EXPECT_EQ(frame->shortcut(), QKeySequence(Qt::Key_F));
  frame->trigger();
  const render::Camera camera = window().viewport()->camera();
  const Vec3 centre{26.0f, 14.0f, -34.0f};
  EXPECT_LT(glm::distance(camera.lookAt, centre), 0.5f);
  // Every corner of the node's bounds projects inside the image.
  const Aabb bounds = window().picker().nodeBounds("planet", 0.0);
  const int width = window().viewport()->width(), height = window().viewport()->height();
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p{corner & 1 ? bounds.max.x : bounds.min.x, corner & 2 ? bounds.max.y : bounds.min.y,
                 corner & 4 ? bounds.max.z : bounds.min.z};
    Vec2 pixel;
    ASSERT_TRUE(camera.project(p, width, height, pixel)) << corner;
    EXPECT_GE(pixel.x, 0.0f);
    EXPECT_LE(pixel.x, float(width));
    EXPECT_GE(pixel.y, 0.0f);
    EXPECT_LE(pixel.y, float(height));
  }
}

TEST_F(WindowTest, RotateGizmoDragTurnsTheSelectionAboutThePivotInOneUndoStep) {
  document().setSelection({"rubber_ball"});  // at (1.5, 2.5, 2), no rotation
  RaymarchView& view = *window().viewport();
  const int steps = document().undoStack()->count();
  GizmoDelta delta;
  delta.mode = GizmoMode::Rotate;
  delta.axis = 1;
  delta.pivot = {0.0f, 2.5f, 2.0f};
  emit view.gizmoDragStarted(GizmoMode::Rotate);
  // Several drag events, as the mouse moves: they merge into one step.
  for (const float degrees : {15.0f, 45.0f, 90.0f}) {
    delta.rotation = glm::angleAxis(degrees * kPi / 180.0f, Vec3(0.0f, 1.0f, 0.0f));
    emit view.gizmoDragged(delta);
  }
  emit view.gizmoDragFinished(delta);
  EXPECT_EQ(document().undoStack()->count(), steps + 1);
  // pivot + R_y(90) (1.5, 0, 0) = (0, 2.5, 2) + (0, 0, -1.5).
  const std::string transform = document().nodePointer("rubber_ball") + "/transform";
  const Vec3 position = vec3At(*document().valueAt(transform + "/position"));
  EXPECT_NEAR(position.x, 0.0f, 1e-5f);
  EXPECT_NEAR(position.y, 2.5f, 1e-5f);
  EXPECT_NEAR(position.z, 0.5f, 1e-5f);
  const Json rotation = *document().valueAt(transform + "/rotation");  // [x, y, z, w]
  EXPECT_NEAR(rotation[0].get<float>(), 0.0f, 1e-5f);
  EXPECT_NEAR(std::abs(rotation[1].get<float>()), std::sin(kPi / 4.0f), 1e-5f);
  EXPECT_NEAR(rotation[2].get<float>(), 0.0f, 1e-5f);
  EXPECT_NEAR(std::abs(rotation[3].get<float>()), std::cos(kPi / 4.0f), 1e-5f);
  document().undoStack()->undo();
  EXPECT_EQ(vec3At(*document().valueAt(transform + "/position")), Vec3(1.5f, 2.5f, 2.0f));
}

TEST_F(WindowTest, ScaleGizmoDragScalesSizeAndOffsetFromThePivot) {
  document().setSelection({"rubber_ball"});
  RaymarchView& view = *window().viewport();
  GizmoDelta delta;
  delta.mode = GizmoMode::Scale;
  delta.axis = 0;
  delta.pivot = {1.5f, 0.5f, 2.0f};  // 2 m below the ball
  delta.scale = 1.5f;
  emit view.gizmoDragStarted(GizmoMode::Scale);
  emit view.gizmoDragged(delta);
  emit view.gizmoDragFinished(delta);
  const std::string transform = document().nodePointer("rubber_ball") + "/transform";
  EXPECT_NEAR(document().valueAt(transform + "/scale")->get<float>(), 1.5f, 1e-6f);
  const Vec3 position = vec3At(*document().valueAt(transform + "/position"));
  EXPECT_NEAR(position.y, 0.5f + 2.0f * 1.5f, 1e-5f);
  EXPECT_NEAR(position.x, 1.5f, 1e-5f);
}

TEST_F(WindowTest, CancelledGizmoDragRestoresTheStartTransform) {
  document().setSelection({"rubber_ball"});
  const Json before = document().json();
  RaymarchView& view = *window().viewport();
  GizmoDelta delta;
  delta.mode = GizmoMode::Translate;
  delta.axis = 0;
  delta.translation = {2.0f, 0.0f, 0.0f};
  emit view.gizmoDragStarted(GizmoMode::Translate);
  emit view.gizmoDragged(delta);
  ASSERT_NE(document().json(), before);
  emit view.gizmoDragCancelled();
  EXPECT_EQ(document().json(), before);
}

TEST_F(WindowTest, ToolActionsAndKeysSwitchTheGizmoBetweenMoveRotateAndScale) {
  document().setSelection({"rubber_ball"});
  RaymarchView& view = *window().viewport();
  EXPECT_EQ(view.gizmoMode(), GizmoMode::Translate);  // the default tool
  window().action("actionToolRotate")->trigger();
  EXPECT_EQ(window().gizmoTool(), GizmoMode::Rotate);
  EXPECT_EQ(view.gizmoMode(), GizmoMode::Rotate);
  EXPECT_TRUE(window().action("actionToolRotate")->isChecked());
  EXPECT_FALSE(window().action("actionToolMove")->isChecked());
  // The keys, in the viewport: R scale, W move. Shortcuts reach the active window only, and
  // the other GUI tests share this X server and may take its focus at any moment: the window is
  // made the application's active one right before each key (a key click runs no event loop,
  // so no focus change comes between).
  auto keyInTheView = [&](Qt::Key key) {
    QApplication::setActiveWindow(&window());
    view.setFocus();
    QTest::keyClick(&view, key);
  };
  keyInTheView(Qt::Key_R);
  EXPECT_EQ(view.gizmoMode(), GizmoMode::Scale);
  keyInTheView(Qt::Key_W);
  EXPECT_EQ(view.gizmoMode(), GizmoMode::Translate);
  // No selection: no gizmo, whatever the tool.
  document().setSelection({});
  EXPECT_EQ(view.gizmoMode(), GizmoMode::None);
  EXPECT_EQ(window().gizmoTool(), GizmoMode::Translate);
}
