// Live reload: a mesh file rewritten on disk (a re-export from Blender) is read again and
// drawn in place of the old one; a broken rewrite keeps the last version drawn and says why.
#include <QTemporaryDir>

#include <fstream>
#include <string>

#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/wireframe_overlay.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

/// A cube of half extent `half` (m) centred on the origin, as OBJ text.
std::string cubeObj(float half) {
  std::string obj;
  for (int i = 0; i < 8; ++i)
    obj += "v " + std::to_string((i & 1) ? half : -half) + " " + std::to_string((i & 2) ? half : -half) + " " +
           std::to_string((i & 4) ? half : -half) + "\n";
  return obj + "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 1 3 4 2\nf 5 6 8 7\nf 3 7 8 4\n";
}

TEST(MeshReload, ARewrittenFileIsDrawnAgainAndABrokenOneKeepsTheLast) {
  application();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const std::string cube = dir.filePath("cube.obj").toStdString();
  std::ofstream(cube) << cubeObj(0.5f);
  const QString scenePath = dir.filePath("scene.json");
  std::ofstream(scenePath.toStdString()) << R"({"format": "floptle.scene", "version": 1, "materials": [],
    "interactions": [], "nodes": [{"name": "crate", "mesh": {"file": "cube.obj"}, "collider": {"body": "static"}}]})";
  MainWindow window;
  ASSERT_TRUE(window.openFile(scenePath));
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  auto* meshes = window.findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
  ASSERT_TRUE(meshes);
  // Straight down onto the cube's top: 5 - half (m).
  const Ray down{Vec3(0.0f, 5.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f)};
  auto topAt = [&](float distance) {
    const auto hit = meshes->pick(down);
    return hit && std::abs(hit->distance - distance) < 1e-4f;
  };
  ASSERT_TRUE(waitFor([&] { return topAt(4.5f); }, 10000)) << "the first read";
  auto* wireframes = window.findChild<ColliderWireframes*>(QStringLiteral("colliderWireframes"));
  ASSERT_TRUE(wireframes);
  window.action("actionColliderWireframes")->trigger();
  ASSERT_TRUE(waitFor([&] { return !wireframes->busy() && wireframes->lineCount(QStringLiteral("crate")) > 0; }, 60000));
  const std::size_t extracted = wireframes->extractions();

  std::ofstream(cube, std::ios::trunc) << cubeObj(1.0f);  // re-exported, twice as large
  ASSERT_TRUE(waitFor([&] { return topAt(4.0f); }, 10000)) << window.log()->toPlainText().toStdString();
  EXPECT_EQ(meshes->reloads(), 1);
  EXPECT_TRUE(window.log()->toPlainText().contains("Reloaded mesh")) << window.log()->toPlainText().toStdString();
  // The node did not change, its file did: the collider wireframe is extracted again.
  EXPECT_TRUE(waitFor([&] { return !wireframes->busy() && wireframes->extractions() > extracted; }, 60000))
      << "the wireframe of the old file stayed";

  std::ofstream(cube, std::ios::trunc) << "f 1 2 3\n";  // broken: faces without vertices
  ASSERT_TRUE(waitFor([&] { return window.log()->toPlainText().contains("cannot reload mesh"); }, 10000))
      << window.log()->toPlainText().toStdString();
  EXPECT_TRUE(topAt(4.0f)) << "the last good version stays drawn";
  EXPECT_EQ(meshes->reloads(), 1);

  std::ofstream(cube, std::ios::trunc) << cubeObj(0.25f);  // fixed again
  ASSERT_TRUE(waitFor([&] { return topAt(4.75f); }, 10000)) << window.log()->toPlainText().toStdString();
  EXPECT_EQ(meshes->reloads(), 2);
  window.document().undoStack()->setClean();
}

}  // namespace
}  // namespace floptle::editor::test
