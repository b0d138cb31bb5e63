// EditorDocument node tree: add, rename, duplicate, delete, re-parent; each do -> undo -> redo.
#include <cmath>

#include "document_fixture.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor::test {
namespace {

TEST(DocumentNodes, ListsEveryNodeWithItsPointerAndParent) {
  EditorDocument document;
  openSmallScene(document);
  EXPECT_EQ(document.nodeNames(), (QStringList{"ground", "ball", "moon", "crate"}));
  EXPECT_EQ(document.nodePointer("moon"), "/nodes/1/children/0");
  EXPECT_EQ(document.parentOf("moon"), "ball");
  EXPECT_EQ(document.parentOf("ball"), "");
  EXPECT_EQ(document.nodePointer("nobody"), "");
}

// The derived scene's name index (what nodePointer, parentOf and the selection read) finds each
// node where the typed scene's own scan does, children included, after renames and undo.
TEST(DocumentNodes, TheNameIndexFindsEveryNodeAsTheScanDoes) {
  EditorDocument document;
  openSmallScene(document);
  auto expectIndexAgrees = [&] {
    const DerivedScene& derived = document.derived();
    ASSERT_EQ(derived.scene().nodes.size(), 4u);
    for (const scene::SceneNode& node : derived.scene().nodes) {
      EXPECT_EQ(derived.findNode(node.name), derived.scene().findNode(node.name)) << node.name;
      EXPECT_EQ(document.nodePointer(QString::fromStdString(node.name)), node.pointer);
    }
    EXPECT_EQ(derived.findNode("nobody"), -1);
  };
  expectIndexAgrees();
  ASSERT_TRUE(document.renameNode("moon", "phobos").ok());
  expectIndexAgrees();
  EXPECT_EQ(document.derived().findNode("moon"), -1);
  EXPECT_EQ(document.parentOf("phobos"), "ball");
  document.undoStack()->undo();
  expectIndexAgrees();
  EXPECT_EQ(document.derived().findNode("phobos"), -1);
  EXPECT_EQ(document.nodePointer("moon"), "/nodes/1/children/0");
}

TEST(DocumentNodes, AddNodeOfEveryShapeTypeDoUndoRedo) {
  EditorDocument document;
  openSmallScene(document);
  for (field::NodeType type :
       {field::NodeType::Sphere, field::NodeType::Box, field::NodeType::Capsule,
        field::NodeType::Torus, field::NodeType::Mandelbulb, field::NodeType::SmoothUnion}) {
    QString added;
    const Json after = expectDoUndoRedo(document, [&] {
      Expected<QString> name = document.addNode(type);
      ASSERT_TRUE(name.ok()) << (name.ok() ? "" : name.error().message());
      added = *name;
    });
    const Json& node = after.at(Json::json_pointer(document.nodePointer(added)));
    EXPECT_EQ(node["shape"]["type"], std::string(field::nodeSpec(type).name));
  }
}

TEST(DocumentNodes, AddedNamesAreUnique) {
  EditorDocument document;
  openSmallScene(document);
  Expected<QString> first = document.addNode(field::NodeType::Sphere);
  Expected<QString> second = document.addNode(field::NodeType::Sphere);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(*first, *second);
}

TEST(DocumentNodes, AddUnderAParent) {
  EditorDocument document;
  openSmallScene(document);
  Expected<QString> name = document.addNode(field::NodeType::Sphere, "crate");
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(document.parentOf(*name), "crate");
  EXPECT_EQ(document.nodePointer(*name), "/nodes/2/children/0");
}

TEST(DocumentNodes, RenameDoUndoRedoAndFollowsSelection) {
  EditorDocument document;
  openSmallScene(document);
  document.setSelection({"ball"});
  expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.renameNode("ball", "planet").ok()); });
  EXPECT_EQ(document.parentOf("moon"), "planet");
  EXPECT_EQ(document.nodePointer("ball"), "");
}

TEST(DocumentNodes, RenameToATakenOrEmptyNameIsRefused) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  Expected<void> taken = document.renameNode("ball", "moon");
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().where, "/nodes/1/name");
  EXPECT_NE(taken.error().what.find("moon"), std::string::npos);
  EXPECT_FALSE(document.renameNode("ball", "  ").ok());
  EXPECT_EQ(document.json(), before);
  EXPECT_EQ(document.undoStack()->count(), 0);
}

TEST(DocumentNodes, DuplicateCopiesTheSubtreeWithFreshNames) {
  EditorDocument document;
  openSmallScene(document);
  QStringList created;
  expectDoUndoRedo(document, [&] {
    Expected<QStringList> copies = document.duplicateNodes({"ball"});
    ASSERT_TRUE(copies.ok());
    created = *copies;
    EXPECT_EQ(document.selection(), QStringList{"ball_2"});  // the copy becomes the selection
  });
  ASSERT_EQ(created, QStringList{"ball_2"});
  EXPECT_EQ(document.nodePointer("ball_2"), "/nodes/2");  // right after the original
  EXPECT_EQ(document.parentOf("moon_2"), "ball_2");
  EXPECT_EQ(document.json()["nodes"][2]["shape"], document.json()["nodes"][1]["shape"]);
}

TEST(DocumentNodes, DeleteSeveralInOneStepTakesDescendants) {
  EditorDocument document;
  openSmallScene(document);
  document.setSelection({"moon", "crate"});
  const Json after = expectDoUndoRedo(document, [&] {
    ASSERT_TRUE(document.removeNodes({"ground", "ball", "moon"}).ok());
  });
  ASSERT_EQ(after["nodes"].size(), 1u);
  EXPECT_EQ(after["nodes"][0]["name"], "crate");
  EXPECT_EQ(document.selection(), QStringList{"crate"});  // deleted names leave the selection
}

TEST(DocumentNodes, ReparentMovesTheNodeAndUndoes) {
  EditorDocument document;
  openSmallScene(document);
  expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.reparentNode("crate", "moon").ok()); });
  EXPECT_EQ(document.parentOf("crate"), "moon");
  EXPECT_EQ(document.nodePointer("crate"), "/nodes/1/children/0/children/0");
  expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.reparentNode("moon", "").ok()); });
  EXPECT_EQ(document.parentOf("moon"), "");
  EXPECT_EQ(document.parentOf("crate"), "moon");  // children travel with their parent
}

// Dragging a node under another keeps it where it is in the world: its local transform
// becomes parentWorld^-1 * world. Checked with a rotated, scaled parent, against the world
// transform the derived scene computes before and after.
TEST(DocumentNodes, ReparentKeepsTheWorldTransform) {
  EditorDocument document;
  openSmallScene(document);
  // Turn and scale "ball" (the future parent): 90 degrees about Y, scale 2, at (0, 2, 0).
  const float s = std::sqrt(0.5f);
  ASSERT_TRUE(document
                  .setValue(document.nodePointer("ball") + "/transform",
                            Json{{"position", {0, 2, 0}}, {"rotation", {0, s, 0, s}}, {"scale", 2}})
                  .ok());
  const auto worldOf = [&](const char* name) {
    const scene::Scene& scene = document.derived().scene();
    return scene.nodes[std::size_t(scene.findNode(name))].world;
  };
  const Transform before = worldOf("crate");  // (4, 0.5, 0), identity rotation, scale 1
  expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.reparentNode("crate", "ball").ok()); });
  const Transform after = worldOf("crate");
  EXPECT_NEAR(glm::distance(after.position, before.position), 0.0f, 1e-5f);
  EXPECT_NEAR(std::abs(glm::dot(after.rotation, before.rotation)), 1.0f, 1e-6f);
  EXPECT_NEAR(after.scale, before.scale, 1e-6f);
  // Closed form of the local transform: R_y(-90) ((4, 0.5, 0) - (0, 2, 0)) / 2 = (0, -0.75, 2).
  const Json local = *document.valueAt(document.nodePointer("crate") + "/transform");
  EXPECT_NEAR(local["position"][0].get<float>(), 0.0f, 1e-5f);
  EXPECT_NEAR(local["position"][1].get<float>(), -0.75f, 1e-5f);
  EXPECT_NEAR(local["position"][2].get<float>(), 2.0f, 1e-5f);
  EXPECT_NEAR(local["scale"].get<float>(), 0.5f, 1e-6f);
  // And back to the top level: the original numbers again.
  ASSERT_TRUE(document.reparentNode("crate", "").ok());
  const Json top = *document.valueAt(document.nodePointer("crate") + "/transform/position");
  EXPECT_NEAR(top[0].get<float>(), 4.0f, 1e-5f);
  EXPECT_NEAR(top[1].get<float>(), 0.5f, 1e-5f);
  EXPECT_NEAR(top[2].get<float>(), 0.0f, 1e-5f);
}

TEST(DocumentNodes, ReorderAmongSiblings) {
  EditorDocument document;
  openSmallScene(document);
  expectDoUndoRedo(document, [&] { ASSERT_TRUE(document.reparentNode("crate", "", 0).ok()); });
  EXPECT_EQ(document.nodeNames(), (QStringList{"crate", "ground", "ball", "moon"}));
}

TEST(DocumentNodes, ReparentUnderOwnDescendantIsRefused) {
  EditorDocument document;
  openSmallScene(document);
  const Json before = document.json();
  EXPECT_FALSE(document.reparentNode("ball", "moon").ok());
  EXPECT_FALSE(document.reparentNode("ball", "ball").ok());
  EXPECT_FALSE(document.reparentNode("ball", "nobody").ok());
  EXPECT_EQ(document.json(), before);
  EXPECT_EQ(document.undoStack()->count(), 0);
}

TEST(DocumentNodes, SelectionKeepsOnlyExistingNames) {
  EditorDocument document;
  openSmallScene(document);
  document.setSelection({"ball", "nobody", "ball", "crate"});
  EXPECT_EQ(document.selection(), (QStringList{"ball", "crate"}));
}

}  // namespace
}  // namespace floptle::editor::test
