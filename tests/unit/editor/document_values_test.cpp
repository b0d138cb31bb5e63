// EditorDocument values: set / merge / refuse, and which change signal each edit sends.
#include <cmath>
#include <limits>

#include <QSignalSpy>

#include "document_fixture.h"

namespace floptle::editor::test {
namespace {

TEST(DocumentValues, SetValueDoUndoRedo) {
  EditorDocument document;
  openSmallScene(document);
  const Json after = expectDoUndoRedo(
      document, [&] { ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 2.5).ok()); });
  EXPECT_EQ(after["nodes"][1]["shape"]["radius"], 2.5);
  EXPECT_TRUE(document.isDirty());
}

TEST(DocumentValues, InsertingAMissingKeyUndoesToAbsence) {
  EditorDocument document;
  openSmallScene(document);
  const Json after = expectDoUndoRedo(
      document, [&] { ASSERT_TRUE(document.setValue("/nodes/2/transform/scale", 2.0).ok()); });
  EXPECT_EQ(after["nodes"][2]["transform"]["scale"], 2.0);
  document.undoStack()->undo();
  EXPECT_FALSE(document.json()["nodes"][2]["transform"].contains("scale"));
}

TEST(DocumentValues, DragOfOnePointerMergesIntoOneStep) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  for (double radius : {1.1, 1.2, 1.3, 1.4, 1.5})
    ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", radius, kMergeValueDrag).ok());
  EXPECT_EQ(document.undoStack()->count(), 1);
  EXPECT_EQ(document.json()["nodes"][1]["shape"]["radius"], 1.5);
  document.undoStack()->undo();
  EXPECT_EQ(document.json(), before);
  document.undoStack()->redo();
  EXPECT_EQ(document.json()["nodes"][1]["shape"]["radius"], 1.5);
}

TEST(DocumentValues, DragsOfDifferentPointersStaySeparate) {
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.5, kMergeValueDrag).ok());
  ASSERT_TRUE(document.setValue("/nodes/1/children/0/shape/radius", 0.5, kMergeValueDrag).ok());
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.7, kMergeValueDrag).ok());
  EXPECT_EQ(document.undoStack()->count(), 3);
}

TEST(DocumentValues, EditsWithoutMergeIdStaySeparate) {
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.5).ok());
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.7).ok());
  EXPECT_EQ(document.undoStack()->count(), 2);
}

TEST(DocumentValues, NaNIsRefusedWithItsPointerAndChangesNothing) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  QSignalSpy messages(&document, &EditorDocument::message);
  Expected<void> result =
      document.setValue("/nodes/1/shape/radius", std::numeric_limits<double>::quiet_NaN());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().where, "/nodes/1/shape/radius");
  EXPECT_EQ(document.json(), before);
  EXPECT_EQ(document.undoStack()->count(), 0);
  EXPECT_FALSE(document.isDirty());
  ASSERT_EQ(messages.count(), 1);
  EXPECT_TRUE(messages.front().front().toString().contains("/nodes/1/shape/radius"));
}

TEST(DocumentValues, NegativeRadiusIsRefusedAndChangesNothing) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  Expected<void> result = document.setValue("/nodes/1/shape/radius", -1.0);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message().find("/nodes/1/shape/radius"), std::string::npos)
      << result.error().message();
  EXPECT_EQ(document.json(), before);
  EXPECT_EQ(document.undoStack()->count(), 0);
}

TEST(DocumentValues, WrongTypeIsRefused) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  EXPECT_FALSE(document.setValue("/nodes/1/shape/radius", "large").ok());
  EXPECT_FALSE(document.setValue("/materials/0/restitution", 3.0).ok());  // > 1
  EXPECT_EQ(document.json(), before);
}

TEST(DocumentValues, SettingIntoAMissingParentIsRefused) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  EXPECT_FALSE(document.setValue("/nodes/7/shape/radius", 1.0).ok());
  EXPECT_EQ(document.json(), before);
}

TEST(DocumentValues, NumberChangeIsParameterOnlyAndNodeTypeChangeIsStructural) {
  EditorDocument document;
  openSmallScene(document);
  QSignalSpy parameters(&document, &EditorDocument::parametersChanged);
  QSignalSpy structure(&document, &EditorDocument::structureChanged);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.5).ok());
  EXPECT_EQ(parameters.count(), 1);
  EXPECT_EQ(structure.count(), 0);
  ASSERT_TRUE(
      document.setValue("/nodes/1/shape", Json{{"type", "box"}, {"half_extents", {1, 1, 1}}}).ok());
  EXPECT_EQ(parameters.count(), 1);
  EXPECT_EQ(structure.count(), 1);
  document.undoStack()->undo();  // undoing a structural edit is structural too
  EXPECT_EQ(structure.count(), 2);
}

TEST(DocumentValues, RemoveValueResetsToDefaultAndUndoes) {
  EditorDocument document;
  openSmallScene(document);
  const Json after = expectDoUndoRedo(
      document, [&] { ASSERT_TRUE(document.removeValue("/nodes/0/collider").ok()); });
  EXPECT_FALSE(after["nodes"][0].contains("collider"));
}

}  // namespace
}  // namespace floptle::editor::test

namespace floptle::editor::test {
namespace {

TEST(DocumentValues, ClosingTheMergeWindowStartsANewStep) {
  EditorDocument document;
  openSmallScene(document);
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.1, kMergeValueDrag).ok());
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.2, kMergeValueDrag).ok());
  document.closeMergeWindow();  // the first drag ended
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.3, kMergeValueDrag).ok());
  EXPECT_EQ(document.undoStack()->count(), 2);
  document.undoStack()->undo();
  EXPECT_EQ(document.json()["nodes"][1]["shape"]["radius"], 1.2);
}

}  // namespace
}  // namespace floptle::editor::test
