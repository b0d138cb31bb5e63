// EditorDocument::reloadMeshSubtree: a Blender level imported as a subtree, edited in the editor,
// then re-exported by Blender (tests/data/blender/level_v2.glb: CrateA moved, Wall-col deleted;
// see make_fixtures.py there to write them again) reloads as one undo step that keeps the edits.
#include <gtest/gtest.h>

#include <filesystem>

#include "../mesh_test_files.h"
#include "document_fixture.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {
namespace {

const std::filesystem::path kDir = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

class DocumentReload : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = floptle::testing::makeTempDir("document_reload");
    file_ = dir_ / "level.glb";
    std::filesystem::copy_file(kDir / "level.glb", file_);
    auto tree = asset::importMeshObjects(file_);
    ASSERT_TRUE(tree.ok()) << tree.error().message();
    const auto entries =
        asset::meshSubtreeEntries(*tree, file_, dir_, asset::MeshCollision::TriangleMesh);
    Json scene = {{"format", "floptle.scene"}, {"version", 1}};
    scene["materials"] = entries.materials;
    scene["interactions"] = Json::array();
    scene["nodes"] = Json::array({entries.node});
    ASSERT_TRUE(scene::saveSceneFile(dir_ / "scene.json", scene).ok());
    ASSERT_TRUE(document_.open(QString::fromStdString((dir_ / "scene.json").string())).ok());
  }

  /// Blender writes version 2 over the imported file.
  asset::MeshObjectTree reExport() {
    std::filesystem::copy_file(kDir / "level_v2.glb", file_,
                               std::filesystem::copy_options::overwrite_existing);
    const auto source = document_.meshSubtreeSource(file_);
    EXPECT_TRUE(source.has_value());
    auto tree = asset::importMeshObjects(file_, source ? source->options : asset::ImportOptions{});
    EXPECT_TRUE(tree.ok()) << tree.error().message();
    return tree.ok() ? std::move(tree).value() : asset::MeshObjectTree{};
  }

  std::filesystem::path dir_, file_;
  EditorDocument document_;
};

TEST_F(DocumentReload, OneUndoStepKeepsTheEditsAndRemovesTheDeletedObjectsNode) {
  const std::string suzanne = document_.nodePointer("Suzanne");
  const std::string block = document_.nodePointer("Block");
  ASSERT_FALSE(suzanne.empty());
  ASSERT_TRUE(document_.setValue(suzanne + "/collider/body", "dynamic").ok());
  ASSERT_TRUE(
      document_
          .setValues({{block + "/material", "Stone"}, {block + "/mesh/materials/0", "Stone"}},
                     QStringLiteral("Block in stone"))
          .ok());
  document_.setSelection({QStringLiteral("Wall"), QStringLiteral("Suzanne")});
  const Json crateBefore = *document_.valueAt(document_.nodePointer("CrateA"));

  const asset::MeshObjectTree tree = reExport();
  Expected<asset::ResyncReport> report = Error{};
  test::expectDoUndoRedo(document_, [&] { report = document_.reloadMeshSubtree(file_, tree); });
  ASSERT_TRUE(report.ok()) << report.error().message();
  ASSERT_EQ(report->removed.size(), 1u) << report->line();
  EXPECT_EQ(report->removed[0].node, "Wall");
  ASSERT_EQ(report->moved.size(), 1u) << report->line();
  EXPECT_EQ(report->moved[0].node, "CrateA");

  EXPECT_FALSE(document_.nodeNames().contains(QStringLiteral("Wall")));
  EXPECT_EQ(document_.selection(), QStringList{QStringLiteral("Suzanne")})
      << "the removed node leaves the selection";
  EXPECT_EQ(*document_.valueAt(document_.nodePointer("Suzanne") + "/collider/body"), "dynamic");
  EXPECT_EQ(*document_.valueAt(document_.nodePointer("Block") + "/material"), "Stone");
  EXPECT_EQ(*document_.valueAt(document_.nodePointer("Block") + "/mesh/materials"),
            Json({"Stone", "Grass"}));
  const Json crateAfter = *document_.valueAt(document_.nodePointer("CrateA"));
  EXPECT_NE(crateAfter["transform"], crateBefore["transform"]);
  EXPECT_EQ(crateAfter["transform"]["position"], Json({0.0, 0.5, -7.0}))
      << "Blender's (0, 7, 0.5), +Y up";
  EXPECT_TRUE(scene::checkSceneDocument(document_.json()).empty());

  // Undo brings the wall back; the same file read again changes nothing and pushes nothing.
  document_.undoStack()->undo();
  EXPECT_TRUE(document_.nodeNames().contains(QStringLiteral("Wall")));
  document_.undoStack()->redo();
  const int steps = document_.undoStack()->count();
  const auto again = document_.reloadMeshSubtree(file_, tree);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_TRUE(again->changesNothing()) << again->line();
  EXPECT_EQ(document_.undoStack()->count(), steps);
}

TEST_F(DocumentReload, AFileTheSceneDoesNotHoldIsRefusedByName) {
  EXPECT_FALSE(document_.meshSubtreeSource(dir_ / "other.glb").has_value());
  const auto refused = document_.reloadMeshSubtree(dir_ / "other.glb", asset::MeshObjectTree{});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("other.glb"), std::string::npos)
      << refused.error().message();
}

}  // namespace
}  // namespace floptle::editor
