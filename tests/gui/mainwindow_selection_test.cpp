// The window on the showcase: every node in the tree, selection through the tree and by a
// viewport click (CPU raycast of the same field graph).
#include <QLineEdit>

#include "floptle/core/render/camera.h"
#include "floptle/editor/scene_tree_panel.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

/// Every node name the tree shows, parents before children (document order).
void collectShown(const SceneTreePanel& tree, const QModelIndex& parent, QStringList& out) {
  for (int row = 0; row < tree.model()->rowCount(parent); ++row) {
    const QModelIndex index = tree.model()->index(row, 0, parent);
    out << index.data().toString();
    collectShown(tree, index, out);
  }
}

TEST_F(WindowTest, TreeShowsEveryNodeOfTheShowcase) {
  QStringList shown;
  collectShown(*window().sceneTree(), {}, shown);
  EXPECT_EQ(shown, document().nodeNames());
  EXPECT_GE(shown.size(), 8);
  // Children sit under their parent.
  const QModelIndex plinth = window().sceneTree()->indexFor("sculpture_plinth");
  ASSERT_TRUE(plinth.isValid());
  ASSERT_TRUE(plinth.parent().isValid());
  EXPECT_EQ(plinth.parent().data().toString(), "sculpture");
}

TEST_F(WindowTest, ClickingATreeItemSelectsTheNodeAndFillsTheInspector) {
  SceneTreePanel* tree = window().sceneTree();
  const QModelIndex item = tree->indexFor("rubber_ball");
  ASSERT_TRUE(item.isValid());
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(item).center());
  EXPECT_EQ(document().selection(), QStringList{"rubber_ball"});
  ASSERT_TRUE(waitFor([&] { return window().findChild<QLineEdit*>("nodeName") != nullptr; }, 2000));
  EXPECT_EQ(window().findChild<QLineEdit*>("nodeName")->text(), "rubber_ball");
  // Ctrl-click adds a second node: multi-select.
  const QModelIndex ramp = tree->indexFor("ramp");
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::ControlModifier,
                    tree->visualRect(ramp).center());
  EXPECT_EQ(document().selection(), (QStringList{"rubber_ball", "ramp"}));
}

TEST_F(WindowTest, SelectingInTheDocumentSelectsTheTreeItem) {
  document().setSelection({"stairs"});
  EXPECT_EQ(window().sceneTree()->selectedNames(), QStringList{"stairs"});
}

TEST_F(WindowTest, ViewportClickOnANodeSelectsIt) {
  RaymarchView* view = window().viewport();
  // Look straight at the rubber ball (centre (1.5, 2.5, 2), radius from the file) from the side.
  render::Camera camera;
  camera.position = {1.5f, 2.5f, 9.0f};
  camera.lookAt = {1.5f, 2.5f, 2.0f};
  view->setCamera(camera);
  QTest::qWait(50);
  const QPoint centre(view->width() / 2, view->height() / 2);
  // The ray through the centre pixel hits the ball in the CPU raycast...
  EXPECT_EQ(window().selectByRay(view->rayAt(centre)), "rubber_ball");
  document().setSelection({});
  // ... and a real click there selects it.
  QTest::mouseClick(view, Qt::LeftButton, {}, centre);
  EXPECT_TRUE(waitFor([&] { return document().selection() == QStringList{"rubber_ball"}; }, 3000))
      << document().selection().join(",").toStdString();
  // A click on the sky clears the selection.
  camera.lookAt = {1.5f, 50.0f, 2.0f};
  view->setCamera(camera);
  QTest::mouseClick(view, Qt::LeftButton, {}, centre);
  EXPECT_TRUE(waitFor([&] { return document().selection().isEmpty(); }, 3000));
}

}  // namespace
}  // namespace floptle::editor::test
