// A scene whose mesh file is gone still opens; the log says which file, once; the file
// exported into place later is drawn without reopening, and other files written beside it
// do not make the editor try (and log) again.
#include <QTemporaryDir>

#include <fstream>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

TEST(MissingMesh, TheSceneOpensAndTheLogNamesTheFileOnce) {
  application();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString scenePath = dir.filePath("scene.json");
  std::ofstream(scenePath.toStdString()) << R"({"format": "floptle.scene", "version": 1, "materials": [],
    "interactions": [], "nodes": [{"name": "rock", "mesh": {"file": "gone.obj"}, "collider": {"body": "static"}}]})";
  MainWindow window;
  ASSERT_TRUE(window.openFile(scenePath));
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  const std::string missing = (std::filesystem::path(dir.path().toStdString()) / "gone.obj").lexically_normal().string();
  ASSERT_TRUE(waitFor([&] { return window.log()->toPlainText().contains("cannot draw mesh"); }, 10000))
      << window.log()->toPlainText().toStdString();
  const std::string log = window.log()->toPlainText().toStdString();
  const std::string line = log.substr(log.find("cannot draw mesh"));
  EXPECT_NE(line.find(missing + ": file not found"), std::string::npos) << line;
  EXPECT_EQ(line.find(missing), line.rfind(missing)) << "the path is said once: " << line;
  EXPECT_EQ(window.document().derived().scene.nodes.size(), 1u);

  auto* meshes = window.findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
  ASSERT_TRUE(meshes);
  std::ofstream(dir.filePath("notes.txt").toStdString()) << "something else in the folder\n";
  QTest::qWait(2 * ImportedMeshView::kReloadSettleMs + 200);
  EXPECT_EQ(window.log()->toPlainText().count("cannot draw mesh"), 1) << window.log()->toPlainText().toStdString();
  std::ofstream(missing) << "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 3 2\nf 1 4 3\n";  // a 2 m square at y = 0
  const Ray down{Vec3(0.0f, 5.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f)};
  EXPECT_TRUE(waitFor([&] {
    const auto hit = meshes->pick(down);
    return hit && std::abs(hit->distance - 5.0f) < 1e-4f;
  }, 10000)) << window.log()->toPlainText().toStdString();
  window.document().undoStack()->setClean();
}

}  // namespace
}  // namespace floptle::editor::test
