// EditorDocument files: new, open, save and reload equal, dirty state, refused files.
#include <fstream>

#include <QSignalSpy>
#include <QTemporaryDir>

#include "document_fixture.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor::test {
namespace {

TEST(DocumentFiles, NewDocumentIsValidEmptyAndClean) {
  EditorDocument document;
  document.newDocument();
  EXPECT_EQ(document.json()["format"], "floptle.scene");
  EXPECT_TRUE(document.nodeNames().isEmpty());
  EXPECT_FALSE(document.isDirty());
  EXPECT_TRUE(document.filePath().isEmpty());
}

TEST(DocumentFiles, SaveAndReloadAreEqualAndTheReloadCarriesItsTypedScene) {
  QTemporaryDir dir;
  const QString path = dir.filePath("scene.json");
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.75).ok());
  ASSERT_TRUE(document.renameNode("crate", "box crate").ok());
  ASSERT_TRUE(document.setValue("/nodes/1/transform/position/1", 3.5).ok());
  EXPECT_TRUE(document.isDirty());
  ASSERT_TRUE(document.saveAs(path).ok());
  EXPECT_FALSE(document.isDirty());
  EXPECT_EQ(document.filePath(), path);

  EditorDocument reloaded;
  ASSERT_TRUE(reloaded.open(path).ok());
  EXPECT_EQ(reloaded.json(), document.json());
  EXPECT_EQ(reloaded.filePath(), path);

  // open() builds the typed scene once, while it reads the file: it must be the scene the JSON
  // derives, as an edit's re-derivation gives it.
  Expected<DerivedScene> derived = deriveScene(reloaded.json());
  ASSERT_TRUE(derived) << derived.error().message();
  const scene::Scene& opened = reloaded.derived().scene();
  ASSERT_EQ(opened.nodes.size(), 4u);  // ground, ball, its child moon, crate
  ASSERT_EQ(opened.nodes.size(), derived->scene().nodes.size());
  for (std::size_t i = 0; i < opened.nodes.size(); ++i) {
    EXPECT_EQ(opened.nodes[i].name, derived->scene().nodes[i].name);
    EXPECT_EQ(opened.nodes[i].world.position, derived->scene().nodes[i].world.position);
    EXPECT_EQ(opened.nodes[i].material, derived->scene().nodes[i].material);
  }
  const int ball = opened.findNode("ball");
  ASSERT_GE(ball, 0);
  EXPECT_EQ(opened.nodes[std::size_t(ball)].world.position.y, 3.5f);
  EXPECT_GE(opened.findNode("box crate"), 0);
  EXPECT_EQ(opened.materials.size(), derived->scene().materials.size());
  // The play copy takes both as they are.
  EditorDocument copy;
  copy.openDerived(reloaded.json(), reloaded.derived(), reloaded.filePath());
  EXPECT_EQ(copy.json(), reloaded.json());
  EXPECT_EQ(copy.derived().scene().nodes[std::size_t(ball)].world.position.y, 3.5f);
  EXPECT_EQ(copy.filePath(), path);
  EXPECT_FALSE(copy.isDirty());
}

TEST(DocumentFiles, UndoAfterSaveMakesDirtyAgain) {
  QTemporaryDir dir;
  EditorDocument document;
  openSmallScene(document);
  QSignalSpy dirty(&document, &EditorDocument::dirtyChanged);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.75).ok());
  ASSERT_TRUE(document.saveAs(dir.filePath("a.json")).ok());
  document.undoStack()->undo();
  EXPECT_TRUE(document.isDirty());
  document.undoStack()->redo();
  EXPECT_FALSE(document.isDirty());
  EXPECT_GE(dirty.count(), 4);
}

TEST(DocumentFiles, ABadFileIsRefusedAndTheDocumentStays) {
  QTemporaryDir dir;
  const QString path = dir.filePath("bad.json");
  std::ofstream(path.toStdString()) << R"({"format": "floptle.scene", "version": 1, )";
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  EXPECT_FALSE(document.open(path).ok());
  EXPECT_FALSE(document.open(dir.filePath("missing.json")).ok());
  EXPECT_EQ(document.json(), before);
}

TEST(DocumentFiles, DuplicateNamesInAFileAreRefused) {
  Json scene = smallScene();
  scene["nodes"][2]["name"] = "ground";
  EditorDocument document;
  Expected<void> refused = document.openJson(scene, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("/nodes/2/name"), std::string::npos)
      << refused.error().message();
}

TEST(DocumentFiles, WriteCopyLeavesPathAndCleanState) {
  QTemporaryDir dir;
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.75).ok());
  ASSERT_TRUE(document.writeCopy(dir.filePath("recovery.json")).ok());
  EXPECT_TRUE(document.isDirty());
  EXPECT_TRUE(document.filePath().isEmpty());
  EditorDocument recovered;
  ASSERT_TRUE(recovered.open(dir.filePath("recovery.json")).ok());
  EXPECT_EQ(recovered.json(), document.json());
}

}  // namespace
}  // namespace floptle::editor::test
