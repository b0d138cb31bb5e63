// A Blender level imported as a subtree and edited in the editor, then re-exported by Blender
// over the same file (tests/data/blender/level_v2.glb: CrateA moved, Wall-col deleted; see
// make_fixtures.py there): the live reload brings the subtree up to date by itself, as one undo
// step that keeps the edit, and the log names the removed node.
#include <QTemporaryDir>

#include <filesystem>
#include <memory>

#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/mesh_subtree_reloader.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

const std::filesystem::path kBlender = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

TEST(MeshSubtreeReload, AReExportedFileReloadsItsSubtreeAsOneUndoStep) {
  application();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const std::filesystem::path folder(dir.path().toStdString());
  const auto level = folder / "level.glb";
  std::filesystem::copy_file(kBlender / "level.glb", level);
  auto tree = asset::importMeshObjects(level);
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  const auto entries =
      asset::meshSubtreeEntries(*tree, level, folder, asset::MeshCollision::TriangleMesh);
  Json scene = {{"format", "floptle.scene"}, {"version", 1}};
  scene["materials"] = entries.materials;
  scene["interactions"] = Json::array();
  scene["nodes"] = Json::array({entries.node});
  ASSERT_TRUE(scene::saveSceneFile(folder / "scene.json", scene).ok());

  auto window = std::make_unique<MainWindow>();
  ASSERT_TRUE(window->openFile(QString::fromStdString((folder / "scene.json").string())));
  window->show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
  auto* meshes = window->findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
  auto* reloader = window->findChild<MeshSubtreeReloader*>(QStringLiteral("meshSubtreeReloader"));
  ASSERT_TRUE(meshes && reloader);
  EditorDocument& document = window->document();
  auto log = [&] { return window->log()->toPlainText().toStdString(); };
  // Drawn (and watched) once the block is hit: its top is at y = 2.
  ASSERT_TRUE(waitFor(
      [&] {
        const auto hit = meshes->pick(Ray{Vec3(0.3f, 10.0f, 0.2f), Vec3(0.0f, -1.0f, 0.0f)});
        return hit && hit->node == "Block";
      },
      20000))
      << log();

  ASSERT_TRUE(
      document.setValue(document.nodePointer("Suzanne") + "/collider/body", "dynamic").ok());
  const int steps = document.undoStack()->count();
  std::filesystem::copy_file(kBlender / "level_v2.glb", level,
                             std::filesystem::copy_options::overwrite_existing);
  ASSERT_TRUE(waitFor(
      [&] { return reloader->applied() > 0 && !document.nodeNames().contains("Wall"); }, 20000))
      << log();
  EXPECT_NE(log().find("removed 1 (Wall)"), std::string::npos) << log();
  EXPECT_EQ(document.undoStack()->count(), steps + 1) << "the reload is one undo step";
  EXPECT_EQ(*document.valueAt(document.nodePointer("Suzanne") + "/collider/body"), "dynamic");
  EXPECT_EQ(*document.valueAt(document.nodePointer("CrateA") + "/transform/position"),
            Json({0.0, 0.5, -7.0}));

  document.undoStack()->undo();
  EXPECT_TRUE(document.nodeNames().contains("Wall"));
  EXPECT_EQ(*document.valueAt(document.nodePointer("Suzanne") + "/collider/body"), "dynamic");
  document.undoStack()->setClean();  // close without asking
}

}  // namespace
}  // namespace floptle::editor::test
