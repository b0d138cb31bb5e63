// A scene whose mesh file is gone still opens; the log says which file, once.
#include <QTemporaryDir>

#include <fstream>

#include "floptle/editor/derived_scene.h"
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
    "interactions": [], "nodes": [{"name": "rock", "mesh": {"file": "gone.glb"}, "collider": {"body": "static"}}]})";
  MainWindow window;
  ASSERT_TRUE(window.openFile(scenePath));
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  const std::string missing = (std::filesystem::path(dir.path().toStdString()) / "gone.glb").lexically_normal().string();
  ASSERT_TRUE(waitFor([&] { return window.log()->toPlainText().contains("cannot draw mesh"); }, 10000))
      << window.log()->toPlainText().toStdString();
  const std::string log = window.log()->toPlainText().toStdString();
  const std::string line = log.substr(log.find("cannot draw mesh"));
  EXPECT_NE(line.find(missing + ": file not found"), std::string::npos) << line;
  EXPECT_EQ(line.find(missing), line.rfind(missing)) << "the path is said once: " << line;
  EXPECT_EQ(window.document().derived().scene.nodes.size(), 1u);
  window.document().undoStack()->setClean();
}

}  // namespace
}  // namespace floptle::editor::test
