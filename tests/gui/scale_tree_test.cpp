// The editor's panels on the generated 10,000-node level (tests/large_scene, issue 25): the
// tree shows every node through its lazy model, a click on a row selects that node, the
// inspector shows it, and an edit there is one undo step that undo reverts exactly. Opening
// shows the progress dialog once the read takes longer than the threshold.
// The window's viewport is left out: these are the panels' figures, not the shader's.
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QProgressDialog>
#include <QTemporaryDir>
#include <QTimer>

#include <cmath>

#include "../large_scene/large_scene.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/open_progress.h"
#include "floptle/editor/scene_tree_panel.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

constexpr int kSpheres = 10000;

class LargeLevelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    application();
    ASSERT_TRUE(folder_.isValid());
    path_ = folder_.filePath("level.json");
    floptle::test::LargeSceneSpec spec;
    spec.spheres = kSpheres;
    ASSERT_TRUE(floptle::test::writeLargeScene(path_.toStdString(), spec));
    expected_ = floptle::test::largeScene(spec);
  }

  QTemporaryDir folder_;
  QString path_;
  Json expected_;
};

TEST_F(LargeLevelTest, TreeSelectsANodeTheInspectorShowsItAndAnEditIsOneUndoStep) {
  EditorDocument document;
  QWidget window;
  auto* layout = new QHBoxLayout(&window);
  auto* tree = new SceneTreePanel(document);
  auto* inspector = new InspectorPanel(document);
  layout->addWidget(tree);
  layout->addWidget(inspector);
  window.resize(900, 700);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

  Expected<scene::LoadedScene> read = readSceneShowingProgress(path_, &window);
  ASSERT_TRUE(read) << read.error().message();
  // The typed scene the read built is the document's: one build for the whole open.
  ASSERT_EQ(read->scene.nodes.size(), std::size_t{kSpheres + 1});
  document.openDerived(std::move(*read), path_);
  EXPECT_EQ(document.derived().scene().nodes.size(), std::size_t{kSpheres + 1});
  ASSERT_TRUE(waitFor([&] { return tree->nodeCount() == kSpheres + 1; }, 5000));
  EXPECT_EQ(tree->model()->rowCount(), kSpheres + 1);  // all at the top level
  // Rows in document order, named as the generator named them.
  EXPECT_EQ(tree->model()->index(0, 0).data().toString(), "ground");
  EXPECT_EQ(tree->model()->index(kSpheres, 0).data().toString(),
            QStringLiteral("sphere_%1").arg(kSpheres - 1));
  EXPECT_EQ(tree->model()->index(42, 1).data().toString(), "sphere");

  // A node deep in the list: scrolled into view, then clicked.
  const QString name = QStringLiteral("sphere_7321");
  const QModelIndex index = tree->indexFor(name);
  ASSERT_TRUE(index.isValid());
  EXPECT_EQ(index.row(), 7322);
  tree->scrollTo(index);
  QTest::qWait(20);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(index).center());
  EXPECT_EQ(document.selection(), QStringList{name});
  auto* nameField = waitForChild<QLineEdit>(inspector, "nodeName");
  ASSERT_NE(nameField, nullptr);
  EXPECT_EQ(nameField->text(), name);

  // The inspector shows the generator's position for the node...
  const Json& written = expected_["nodes"][7322];
  ASSERT_EQ(written["name"], name.toStdString());
  auto* x = waitForChild<QDoubleSpinBox>(inspector, "positionx");
  ASSERT_NE(x, nullptr);
  const double x0 = written["transform"]["position"][0].get<double>();
  EXPECT_NEAR(x->value(), x0, 1e-9 + 1e-6 * std::abs(x0));

  // ... and an edit through it is one undo step, which undo reverts to the opened bytes.
  const Json opened = document.json();
  const int steps = document.undoStack()->count();
  x->setValue(x0 + 1.5);
  x->setValue(x0 + 2.0);  // a drag: the second step merges into the first
  emit x->editingFinished();
  const std::string pointer = document.nodePointer(name) + "/transform/position/0";
  EXPECT_DOUBLE_EQ(document.valueAt(pointer)->get<double>(), x0 + 2.0);
  EXPECT_EQ(document.undoStack()->count(), steps + 1);
  // The typed scene follows the edit (the collision world and play read it).
  const scene::Scene& typed = document.derived().scene();
  EXPECT_FLOAT_EQ(typed.nodes[std::size_t(typed.findNode(name.toStdString()))].world.position.x,
                  float(x0 + 2.0));
  document.undoStack()->undo();
  EXPECT_EQ(document.json(), opened);
  EXPECT_FLOAT_EQ(typed.nodes[std::size_t(typed.findNode(name.toStdString()))].world.position.x,
                  float(x0));
  EXPECT_EQ(document.selection(), QStringList{name});
}

TEST_F(LargeLevelTest, OpeningShowsItsProgressPastTheThresholdAndNotBefore) {
  QWidget window;
  window.resize(400, 300);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  // Watches for the dialog while the open runs (timers still fire; input is held back).
  bool shown = false;
  QTimer probe;
  QObject::connect(&probe, &QTimer::timeout, [&] {
    if (auto* dialog = window.findChild<QProgressDialog*>("openProgress"))
      shown = shown || dialog->isVisible();
  });
  probe.start(5);
  // A threshold of 0: the dialog shows while the 10,000 nodes are read.
  Expected<scene::LoadedScene> loaded = readSceneShowingProgress(path_, &window, 0);
  ASSERT_TRUE(loaded);
  EXPECT_TRUE(shown);
  EXPECT_EQ(loaded->document, expected_);
  // A threshold far longer than the read: it never shows.
  shown = false;
  loaded = readSceneShowingProgress(path_, &window, 60000);
  ASSERT_TRUE(loaded);
  EXPECT_FALSE(shown);
  // A missing file: loadScene's error, naming the file.
  const QString missing = folder_.filePath("missing.json");
  Expected<scene::LoadedScene> failed = readSceneShowingProgress(missing, &window);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().where, missing.toStdString());
}

}  // namespace
}  // namespace floptle::editor::test
