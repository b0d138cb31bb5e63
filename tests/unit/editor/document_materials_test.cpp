// EditorDocument materials and the interaction matrix.
#include "document_fixture.h"

namespace floptle::editor::test {
namespace {

TEST(DocumentMaterials, AddMaterialDoUndoRedo) {
  EditorDocument document;
  openSmallScene(document);
  QString id;
  const Json after = expectDoUndoRedo(document, [&] {
    Expected<QString> added = document.addMaterial();
    ASSERT_TRUE(added.ok());
    id = *added;
  });
  EXPECT_EQ(after["materials"].size(), 4u);
  EXPECT_EQ(document.materialIds().last(), id);
  for (const char* key :
       {"color", "density", "friction", "restitution", "bulk_modulus", "yield_strength"})
    EXPECT_TRUE(after["materials"][3].contains(key)) << key;
}

TEST(DocumentMaterials, EditMaterialValueDoUndoRedo) {
  EditorDocument document;
  openSmallScene(document);
  expectDoUndoRedo(document, [&] {
    ASSERT_TRUE(document.setValue(document.materialPointer("ice") + "/friction", 0.2).ok());
  });
}

TEST(DocumentMaterials, DeletingAnUnusedMaterialDoUndoRedo) {
  EditorDocument document;
  openSmallScene(document);
  const Json after =
      expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.removeMaterial("spare").ok()); });
  EXPECT_EQ(after["materials"].size(), 2u);
}

TEST(DocumentMaterials, DeletingAMaterialInUseIsRefusedNamingItsUsers) {
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setValue("/nodes/1/children/0/shape/material", "rock").ok());
  const Json before = document.json();
  const int steps = document.undoStack()->count();
  EXPECT_EQ(document.materialUsers("rock"), (QStringList{"ground", "moon"}));
  Expected<void> refused = document.removeMaterial("rock");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "/materials/0");
  EXPECT_NE(refused.error().what.find("ground"), std::string::npos) << refused.error().what;
  EXPECT_NE(refused.error().what.find("moon"), std::string::npos) << refused.error().what;
  EXPECT_EQ(document.json(), before);
  EXPECT_EQ(document.undoStack()->count(), steps);
}

TEST(DocumentMaterials, DeletingAMaterialTakesItsInteractions) {
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setInteraction("spare", "ice", "merge", 0.3).ok());
  const Json after =
      expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.removeMaterial("spare").ok()); });
  ASSERT_EQ(after["interactions"].size(), 1u);
  EXPECT_EQ(after["interactions"][0]["rule"], "hard");
}

TEST(DocumentMaterials, AssigningAMissingMaterialIsRefused) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  Expected<void> refused = document.setValue("/nodes/2/material", "unobtainium");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("/nodes/2/material"), std::string::npos)
      << refused.error().message();
  EXPECT_EQ(document.json(), before);
}

TEST(DocumentInteractions, CreateAndEditACellDoUndoRedo) {
  EditorDocument document;
  openSmallScene(document);
  const Json created = expectDoUndoRedo(
      document, [&] { ASSERT_TRUE(document.setInteraction("ice", "spare", "carve", 0.1).ok()); });
  ASSERT_EQ(created["interactions"].size(), 2u);
  EXPECT_EQ(created["interactions"][1]["rule"], "carve");
  // Pairs are ordered (carve: b bites into a): (spare, ice) is another cell.
  EXPECT_EQ(document.interactionPointer("ice", "spare"), "/interactions/1");
  EXPECT_EQ(document.interactionPointer("spare", "ice"), "");
  const Json edited = expectDoUndoRedo(
      document, [&] { ASSERT_TRUE(document.setInteraction("ice", "spare", "merge", 0.4).ok()); });
  EXPECT_EQ(edited["interactions"].size(), 2u);
  EXPECT_EQ(edited["interactions"][1]["rule"], "merge");
  EXPECT_EQ(edited["interactions"][1]["k"], 0.4);
}

TEST(DocumentInteractions, KDragMergesIntoOneStep) {
  EditorDocument document;
  openSmallScene(document);
  for (double k : {0.1, 0.2, 0.3})
    ASSERT_TRUE(document.setInteraction("rock", "ice", "merge", k, kMergeValueDrag).ok());
  EXPECT_EQ(document.undoStack()->count(), 1);
  document.undoStack()->undo();
  EXPECT_EQ(document.json(), smallScene());
}

TEST(DocumentInteractions, BadRuleOrMaterialIsRefused) {
  EditorDocument document;
  openSmallScene(document);
  EXPECT_FALSE(document.setInteraction("rock", "ice", "glue", 0.1).ok());
  EXPECT_FALSE(document.setInteraction("rock", "lava", "hard", 0.0).ok());
  EXPECT_FALSE(document.setInteraction("rock", "ice", "merge", -1.0).ok());
  EXPECT_EQ(document.json(), smallScene());
}

}  // namespace
}  // namespace floptle::editor::test
